internal import GRDB

extension ArchiveStore {
    /// The archive's history: append-only, named migrations with string table and column names.
    /// Never edit one after it lands; add the next.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 captures and records") { db in
            try db.execute(
                sql: """
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
                    );
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        description TEXT NOT NULL UNIQUE
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
                        lastSeenCapture INTEGER NOT NULL,
                        previousSeenCapture INTEGER,
                        lastVerifiedAt REAL,
                        goneCapture INTEGER,
                        goneReason TEXT,
                        correlationId INTEGER
                    );
                    CREATE UNIQUE INDEX record_identity ON record(identityKey, occurrence);
                    CREATE INDEX record_semantic ON record(semanticKey);
                    CREATE TABLE correlationMember (
                        correlationId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                        memberKey INTEGER NOT NULL,
                        memberFingerprint BLOB NOT NULL
                    );
                    CREATE INDEX correlationMember_correlation ON correlationMember(correlationId);
                    CREATE TABLE typeSnapshot (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        checksum TEXT NOT NULL,
                        sourceCounts TEXT NOT NULL,
                        PRIMARY KEY (captureId, type)
                    ) WITHOUT ROWID;
                    CREATE TABLE typeDayBin (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        day INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        contentHash TEXT NOT NULL,
                        PRIMARY KEY (captureId, type, day)
                    ) WITHOUT ROWID;
                    CREATE TABLE routeFile (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        recordId INTEGER NOT NULL REFERENCES record(id),
                        path TEXT NOT NULL,
                        contentHash TEXT,
                        pointCount INTEGER,
                        PRIMARY KEY (captureId, recordId, path)
                    ) WITHOUT ROWID;
                    CREATE INDEX routeFile_path ON routeFile(captureId, path);
                    CREATE TABLE auditEntry (
                        id INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        event TEXT NOT NULL,
                        captureId INTEGER,
                        message TEXT NOT NULL
                    );
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    );
                    """)
        }
        registerAnomalies(in: &migrator)
        registerLivePath(in: &migrator)
        registerContentHashes(in: &migrator)
        registerExports(in: &migrator)
        registerResumableChecks(in: &migrator)
        registerGraphSync(in: &migrator)
        registerVerificationDigests(in: &migrator)
        registerStartDateIndex(in: &migrator)
        registerVerificationMarks(in: &migrator)
        registerExportStarts(in: &migrator)
        registerMetadataAsWritten(in: &migrator)
        registerBackupSamples(in: &migrator)
        registerReferencedFiles(in: &migrator)
        SourceArrival.register(in: &migrator)
        AnomalyRecovery.register(in: &migrator)
        SourceArrival.registerHandEntries(in: &migrator)
        CaptureOffsets.register(in: &migrator)
        StrayFiles.register(in: &migrator)
        CaptureSetAside.register(in: &migrator)
        registerFileSources(in: &migrator)
        RestoredRecords.register(in: &migrator)
        RecordSightings.register(in: &migrator)
        return migrator
    }
}
