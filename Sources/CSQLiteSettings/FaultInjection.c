// Faults at a chosen write, for the tests that prove a failed or killed command loses nothing:
// a shim over SQLite's default file system (a VFS, as SQLite's own I/O-error and crash tests use)
// that counts every write, truncation and sync SQLite makes to any file, and at the Nth fails it
// — the disk full, an I/O error, the file read-only — or ends the process there, as SIGKILL
// would. Off unless HEALTHPROBE_TEST_FAULT is set ("full:N", "ioerr:N", "readonly:N", "kill:N");
// the files are only ever opened by SQLite, through the default VFS underneath.
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CSQLiteSettings.h"

typedef struct {
    sqlite3_file base;
    sqlite3_file *real;  // the default VFS's file, allocated right after this struct
} FaultFile;

enum FaultKind { FAULT_NONE, FAULT_FULL, FAULT_IOERR, FAULT_READONLY, FAULT_KILL };

static sqlite3_vfs *underlying;
static sqlite3_vfs faultVFS;
static sqlite3_io_methods faultMethods;
static enum FaultKind faultKind = FAULT_NONE;
static long writesBeforeFault = 0;
static int faulted = 0;

/// The result of the write about to be made: SQLITE_OK, or the fault once its write is reached
/// (and every write after it: a full disk stays full).
static int nextWrite(int ioerr) {
    if (faultKind == FAULT_NONE) return SQLITE_OK;
    if (!faulted) {
        if (--writesBeforeFault > 0) return SQLITE_OK;
        faulted = 1;
    }
    switch (faultKind) {
    case FAULT_KILL: _exit(137);
    case FAULT_FULL: return SQLITE_FULL;
    case FAULT_READONLY: return SQLITE_READONLY;
    default: return ioerr;
    }
}

#define REAL(file) (((FaultFile *)(file))->real)

static int faultClose(sqlite3_file *file) {
    int result = REAL(file)->pMethods ? REAL(file)->pMethods->xClose(REAL(file)) : SQLITE_OK;
    return result;
}
static int faultRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}
static int faultWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int fault = nextWrite(SQLITE_IOERR_WRITE);
    return fault != SQLITE_OK ? fault : REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}
static int faultTruncate(sqlite3_file *file, sqlite3_int64 size) {
    int fault = nextWrite(SQLITE_IOERR_TRUNCATE);
    return fault != SQLITE_OK ? fault : REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int faultSync(sqlite3_file *file, int flags) {
    int fault = nextWrite(SQLITE_IOERR_FSYNC);
    return fault != SQLITE_OK ? fault : REAL(file)->pMethods->xSync(REAL(file), flags);
}
static int faultFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int faultLock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int faultUnlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int faultCheckReservedLock(sqlite3_file *file, int *out) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int faultFileControl(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}
static int faultSectorSize(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int faultDeviceCharacteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int faultShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, out);
}
static int faultShmLock(sqlite3_file *file, int offset, int n, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void faultShmBarrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int faultShmUnmap(sqlite3_file *file, int deleteFlag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}
static int faultFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, out);
}
static int faultUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, page);
}

static int faultOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    FaultFile *wrapper = (FaultFile *)file;
    wrapper->real = (sqlite3_file *)&wrapper[1];
    int result = underlying->xOpen(underlying, name, wrapper->real, flags, outFlags);
    // SQLite calls xClose only when pMethods is set, and must not for a failed open.
    wrapper->base.pMethods = wrapper->real->pMethods ? &faultMethods : NULL;
    return result;
}
static int faultDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    int fault = nextWrite(SQLITE_IOERR_DELETE);
    return fault != SQLITE_OK ? fault : underlying->xDelete(underlying, name, syncDirectory);
}
static int faultAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return underlying->xAccess(underlying, name, flags, out);
}
static int faultFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return underlying->xFullPathname(underlying, name, size, out);
}

int healthprobe_sqlite_install_fault_injection(void) {
    const char *setting = getenv("HEALTHPROBE_TEST_FAULT");
    if (setting == NULL || *setting == '\0' || underlying != NULL) return 0;
    const char *colon = strchr(setting, ':');
    if (colon == NULL) return 0;
    size_t kindLength = (size_t)(colon - setting);
    if (kindLength == 4 && strncmp(setting, "full", 4) == 0) faultKind = FAULT_FULL;
    else if (kindLength == 5 && strncmp(setting, "ioerr", 5) == 0) faultKind = FAULT_IOERR;
    else if (kindLength == 8 && strncmp(setting, "readonly", 8) == 0) faultKind = FAULT_READONLY;
    else if (kindLength == 4 && strncmp(setting, "kill", 4) == 0) faultKind = FAULT_KILL;
    else return 0;
    writesBeforeFault = strtol(colon + 1, NULL, 10);
    if (writesBeforeFault < 1) writesBeforeFault = 1;

    underlying = sqlite3_vfs_find(NULL);
    if (underlying == NULL) return 0;
    faultMethods = (sqlite3_io_methods){
        .iVersion = 3, .xClose = faultClose, .xRead = faultRead, .xWrite = faultWrite,
        .xTruncate = faultTruncate, .xSync = faultSync, .xFileSize = faultFileSize, .xLock = faultLock,
        .xUnlock = faultUnlock, .xCheckReservedLock = faultCheckReservedLock,
        .xFileControl = faultFileControl, .xSectorSize = faultSectorSize,
        .xDeviceCharacteristics = faultDeviceCharacteristics, .xShmMap = faultShmMap,
        .xShmLock = faultShmLock, .xShmBarrier = faultShmBarrier, .xShmUnmap = faultShmUnmap,
        .xFetch = faultFetch, .xUnfetch = faultUnfetch,
    };
    faultVFS = *underlying;
    faultVFS.zName = "healthprobe-fault";
    faultVFS.szOsFile = (int)sizeof(FaultFile) + underlying->szOsFile;
    faultVFS.pNext = NULL;
    faultVFS.xOpen = faultOpen;
    faultVFS.xDelete = faultDelete;
    faultVFS.xAccess = faultAccess;
    faultVFS.xFullPathname = faultFullPathname;
    faultVFS.pAppData = NULL;
    return sqlite3_vfs_register(&faultVFS, 1) == SQLITE_OK;
}
