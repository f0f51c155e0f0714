-- The HealthProbe archive's schema after every migration, as SQLite keeps it: made by
-- ArchiveSchemaSnapshotTests from a fresh archive (HEALTHPROBE_WRITE_SCHEMA=1 writes it again).
-- The migrations themselves are in Sources/HealthProbeArchive/Store/Migrations.
CREATE TABLE anchor (
    origin TEXT NOT NULL,
    sampleType TEXT NOT NULL,
    value BLOB NOT NULL,
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    PRIMARY KEY (origin, sampleType)
) WITHOUT ROWID;

CREATE TABLE anomaly (
    id INTEGER PRIMARY KEY,
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    detectedAt REAL NOT NULL,
    type TEXT NOT NULL,
    severity TEXT NOT NULL,
    sampleType TEXT NOT NULL,
    summary TEXT NOT NULL,
    recordCount INTEGER NOT NULL,
    evidence TEXT NOT NULL,
    resolvedAt REAL, recoveredCount INTEGER NOT NULL DEFAULT 0, recoveredCapture INTEGER, recoveredAt REAL, withdrawnAt REAL, withdrawnReason TEXT, restoredCount INTEGER NOT NULL DEFAULT 0, restoredCapture INTEGER, restoredAt REAL,
    UNIQUE (captureId, type, sampleType)
);

CREATE TABLE anomalyRecord (
    anomalyId INTEGER NOT NULL REFERENCES anomaly(id) ON DELETE CASCADE,
    recordId INTEGER NOT NULL REFERENCES record(id),
    role TEXT NOT NULL,
    PRIMARY KEY (anomalyId, recordId)
) WITHOUT ROWID;

CREATE TABLE auditEntry (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    event TEXT NOT NULL,
    captureId INTEGER,
    message TEXT NOT NULL
);

CREATE TABLE capture (
    id INTEGER PRIMARY KEY,
    origin TEXT NOT NULL,
    scope TEXT NOT NULL,
    status TEXT NOT NULL,
    inputName TEXT,
    exportDate REAL,
    exportUTCOffset INTEGER,
    exportVersion INTEGER,
    locale TEXT,
    startedAt REAL NOT NULL,
    completedAt REAL,
    previousCaptureId INTEGER REFERENCES capture(id),
    records INTEGER NOT NULL DEFAULT 0,
    new INTEGER NOT NULL DEFAULT 0,
    gone INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0,
    unreadable INTEGER NOT NULL DEFAULT 0,
    replacedCharacters INTEGER NOT NULL DEFAULT 0,
    elementCounts TEXT
, deletedInHealth INTEGER NOT NULL DEFAULT 0, notCompared INTEGER NOT NULL DEFAULT 0, exportOffsetSpans TEXT, setAsideAt REAL, setAsideReason TEXT, restored INTEGER NOT NULL DEFAULT 0);

CREATE TABLE contextChange (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);

CREATE TABLE correlationMember (
    correlationId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
    memberKey INTEGER NOT NULL,
    memberFingerprint BLOB NOT NULL
);

CREATE TABLE device (
    id INTEGER PRIMARY KEY,
    description TEXT NOT NULL UNIQUE
);

CREATE TABLE exportRun (
    id INTEGER PRIMARY KEY,
    startedAt REAL NOT NULL,
    finishedAt REAL,
    trigger TEXT NOT NULL,
    format TEXT NOT NULL,
    encrypted INTEGER NOT NULL,
    selection TEXT NOT NULL,
    captureId INTEGER,
    records INTEGER,
    bytes INTEGER,
    sha256 TEXT,
    path TEXT NOT NULL,
    outcome TEXT NOT NULL,
    problem TEXT
, pid INTEGER);

CREATE TABLE fileContent (
    digest TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    content BLOB NOT NULL
);

CREATE TABLE fileSource (
    source TEXT PRIMARY KEY,
    digest TEXT NOT NULL REFERENCES fileContent(digest) ON DELETE CASCADE,
    items INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE graphDay (
    destination TEXT NOT NULL REFERENCES graphSync(destination) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    PRIMARY KEY (destination, day)
) WITHOUT ROWID;

CREATE TABLE graphSync (
    destination TEXT PRIMARY KEY,
    captureId INTEGER NOT NULL,
    recordCeiling INTEGER NOT NULL,
    anomalyCeiling INTEGER NOT NULL,
    resolvedAnomalies TEXT NOT NULL,
    timeZone TEXT NOT NULL,
    syncedAt REAL NOT NULL,
    syncs INTEGER NOT NULL
);

CREATE TABLE liveCheck (
    captureId INTEGER PRIMARY KEY REFERENCES capture(id) ON DELETE CASCADE,
    recordIdFloor INTEGER NOT NULL,
    windows INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE liveProgress (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    sampleType TEXT NOT NULL,
    changeAnchor BLOB,
    changesDone INTEGER NOT NULL DEFAULT 0,
    scanAnchor BLOB,
    scanSeen INTEGER NOT NULL DEFAULT 0,
    scanDone INTEGER NOT NULL DEFAULT 0,
    scanHeld INTEGER,
    scanMatched INTEGER NOT NULL DEFAULT 0,
    scanMarking INTEGER NOT NULL DEFAULT 0,
    added INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    stored INTEGER NOT NULL DEFAULT 0, scanDigest TEXT NOT NULL DEFAULT '0',
    PRIMARY KEY (captureId, sampleType)
) WITHOUT ROWID;

CREATE TABLE liveScanMet (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    sampleType TEXT NOT NULL,
    hashes BLOB NOT NULL
);

CREATE TABLE record (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    type TEXT NOT NULL,
    sourceName TEXT,
    sourceVersion TEXT,
    deviceId INTEGER REFERENCES device(id),
    unit TEXT,
    value TEXT,
    numericValue REAL,
    creationDate REAL,
    startDate REAL,
    endDate REAL,
    metadata TEXT,
    details TEXT,
    healthKitUUID TEXT,
    strictFingerprint BLOB NOT NULL,
    identityKey INTEGER NOT NULL,
    semanticFingerprint BLOB NOT NULL,
    semanticKey INTEGER NOT NULL,
    fuzzyFingerprint BLOB NOT NULL,
    occurrence INTEGER NOT NULL,
    firstSeenCapture INTEGER NOT NULL,
    goneCapture INTEGER,
    goneReason TEXT,
    correlationId INTEGER
, metadataAsWritten TEXT, sampleUUID BLOB);

CREATE TABLE recordAbsence (
    recordId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
    lastSeenCapture INTEGER,
    goneCapture INTEGER NOT NULL,
    goneReason TEXT,
    returnCapture INTEGER NOT NULL
);

CREATE TABLE recordRestore (
    restoredRecordId INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
    recordId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE
);

CREATE TABLE recordSighting (
    recordId INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
    lastSeenCapture INTEGER NOT NULL,
    previousSeenCapture INTEGER
);

CREATE TABLE referencedFile (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    recordId INTEGER NOT NULL REFERENCES record(id),
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    digest TEXT REFERENCES fileContent(digest),
    items INTEGER,
    problem TEXT,
    PRIMARY KEY (captureId, recordId, kind, path)
) WITHOUT ROWID;

CREATE TABLE routeFile (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    recordId INTEGER NOT NULL REFERENCES record(id),
    path TEXT NOT NULL,
    contentHash TEXT,
    pointCount INTEGER,
    PRIMARY KEY (captureId, recordId, path)
) WITHOUT ROWID;

CREATE TABLE setAsideChange (
    captureId INTEGER NOT NULL REFERENCES capture(id),
    change TEXT NOT NULL,
    recordId INTEGER NOT NULL REFERENCES record(id),
    occurrence INTEGER,
    lastSeenCapture INTEGER,
    goneCapture INTEGER,
    goneReason TEXT,
    PRIMARY KEY (captureId, change, recordId)
) WITHOUT ROWID;

CREATE TABLE setting (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE sourceArrival (
    type TEXT NOT NULL,
    sourceName TEXT NOT NULL,
    firstWritten REAL NOT NULL, enteredByHand INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (type, sourceName)
) WITHOUT ROWID;

CREATE TABLE strayFile (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    digest TEXT REFERENCES fileContent(digest),
    items INTEGER,
    problem TEXT,
    PRIMARY KEY (captureId, kind, path)
) WITHOUT ROWID;

CREATE TABLE typeDayBin (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    day INTEGER NOT NULL,
    count INTEGER NOT NULL,
    contentHash TEXT NOT NULL, valueSum REAL, valueCount INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (captureId, type, day)
) WITHOUT ROWID;

CREATE TABLE typeSnapshot (
    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    count INTEGER NOT NULL,
    checksum TEXT NOT NULL,
    sourceCounts TEXT NOT NULL,
    PRIMARY KEY (captureId, type)
) WITHOUT ROWID;

CREATE INDEX anomalyRecord_record ON anomalyRecord(recordId);

CREATE INDEX correlationMember_correlation ON correlationMember(correlationId);

CREATE INDEX fileSource_digest ON fileSource(digest);

CREATE INDEX liveScanMet_capture ON liveScanMet(captureId, sampleType);

CREATE INDEX record_gone ON record(goneCapture) WHERE goneCapture IS NOT NULL;

CREATE INDEX record_healthKitUUID ON record(healthKitUUID) WHERE healthKitUUID IS NOT NULL;

CREATE UNIQUE INDEX record_identity ON record(identityKey, occurrence);

CREATE INDEX record_semantic ON record(semanticKey);

CREATE INDEX record_startDate ON record(startDate);

CREATE INDEX recordAbsence_record ON recordAbsence(recordId);

CREATE INDEX recordAbsence_span ON recordAbsence(goneCapture, returnCapture);

CREATE INDEX recordRestore_capture ON recordRestore(captureId);

CREATE INDEX recordRestore_record ON recordRestore(recordId);

CREATE INDEX referencedFile_path ON referencedFile(captureId, kind, path);

CREATE INDEX routeFile_path ON routeFile(captureId, path);
