#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Turns off SQLite's process-wide memory statistics, so that each of SQLite's allocations no
/// longer takes a global mutex. `sqlite3_config` takes variable arguments, which Swift cannot
/// call; it only works before SQLite is initialised, and returns SQLITE_MISUSE after.
/// Returns SQLite's result code.
int healthprobe_sqlite_disable_memory_statistics(void);

/// For tests only: when HEALTHPROBE_TEST_FAULT is "full:N", "ioerr:N", "readonly:N" or "kill:N",
/// makes the default file system one that fails SQLite's Nth write (a write, truncation, sync or
/// deletion) and every one after it with that error, or ends the process there (exit 137, as
/// SIGKILL would leave the files). Does nothing otherwise. Returns 1 when installed.
int healthprobe_sqlite_install_fault_injection(void);

#endif
