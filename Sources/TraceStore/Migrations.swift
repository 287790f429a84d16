import GRDB

/// The store's schema, one migration per released change; a database made by any earlier
/// version is upgraded in place when it is opened. Never edit a shipped migration: add one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: events, files, rejects", migrate: createIngestSchema)
        migrator.registerMigration("v2: runs, findings", migrate: createFindingsSchema)
        migrator.registerMigration("v3: damage accounting", migrate: addDamageAccounting)
        migrator.registerMigration(IngestClaimsMigration.identifier, migrate: IngestClaimsMigration.migrate)
        migrator.registerMigration("v5: events without seq found by content, without an index", migrate: dropContentHashIndex)
        migrator.registerMigration("v6: findings' explanations indexed", migrate: indexExplanations)
        migrator.registerMigration("v7: findings' factors", migrate: addFindingFactors)
        migrator.registerMigration("v8: derived tables", migrate: DerivedTables.create)
        migrator.registerMigration("v9: events packed per launch", migrate: createEventPacks)
        migrator.registerMigration(LaunchEnvelope.migrationIdentifier, migrate: LaunchEnvelope.migrate)
        return migrator
    }

    /// Dictionary-encoded devices, launches and envelope contexts keep the event rows narrow;
    /// an event row's integer primary key packs its identity, `(launch id << 32) | seq`, so that
    /// deduplication and the replay order both ride on the table's own B-tree and no second
    /// index has to be maintained during a load (see README, "Event identity"; an index on
    /// `event` measured 340k events/s against 580k without).
    ///
    /// The view joins a launch to its events both ways on purpose: `l.id = e.id >> 32` lets a
    /// scan of events find each launch by rowid, and the rowid range lets a query for one
    /// device or launch find its events by range; SQLite picks whichever the query needs.
    /// With either condition alone one of the two kinds of query degrades to launches × events.
    private static func createIngestSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE devices (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE
            );
            CREATE TABLE launches (
                id INTEGER PRIMARY KEY,
                device_id INTEGER NOT NULL REFERENCES devices(id),
                name TEXT NOT NULL,
                first_ts INTEGER,
                last_ts INTEGER,
                events INTEGER NOT NULL DEFAULT 0,
                unsequenced INTEGER NOT NULL DEFAULT 0,
                UNIQUE (device_id, name)
            );
            CREATE INDEX launches_by_device_time ON launches(device_id, first_ts);
            CREATE TABLE contexts (
                id INTEGER PRIMARY KEY,
                app TEXT, app_version TEXT, os TEXT, model TEXT, process TEXT
            );
            CREATE TABLE files (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL,
                size INTEGER,
                sha256 TEXT UNIQUE,
                compression TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('ingesting', 'done')),
                lines INTEGER NOT NULL DEFAULT 0,
                events INTEGER NOT NULL DEFAULT 0,
                rejects INTEGER NOT NULL DEFAULT 0,
                duplicates INTEGER NOT NULL DEFAULT 0,
                truncated INTEGER NOT NULL DEFAULT 0,
                cut_offset INTEGER,
                cut_after_line INTEGER,
                cut_reason TEXT,
                started_at TEXT NOT NULL,
                ingested_at TEXT
            );
            CREATE TABLE event_rows (
                id INTEGER PRIMARY KEY,
                ts INTEGER NOT NULL,
                seq INTEGER,
                mono REAL,
                event TEXT NOT NULL,
                context_id INTEGER NOT NULL,
                phase TEXT,
                reason TEXT,
                cause TEXT,
                task INTEGER,
                identifier TEXT,
                call TEXT,
                success INTEGER,
                result TEXT,
                attrs TEXT,
                file_id INTEGER NOT NULL,
                line INTEGER NOT NULL,
                content_hash INTEGER
            );
            CREATE UNIQUE INDEX event_rows_unsequenced ON event_rows(content_hash)
                WHERE content_hash IS NOT NULL;
            CREATE TABLE rejects (
                id INTEGER PRIMARY KEY,
                file_id INTEGER NOT NULL REFERENCES files(id),
                line INTEGER NOT NULL,
                reason TEXT NOT NULL,
                message TEXT NOT NULL,
                raw BLOB,
                raw_bytes INTEGER NOT NULL,
                UNIQUE (file_id, line)
            );
            CREATE VIEW events AS
            SELECT e.id, d.name AS device, l.name AS launch, e.seq, e.ts, e.mono, e.event,
                   c.app, c.app_version, c.os, c.model, c.process,
                   e.phase, e.reason, e.cause, e.task, e.identifier, e.call, e.success, e.result,
                   e.attrs, e.file_id, e.line
            FROM event_rows e
            JOIN launches l ON l.id = (e.id >> 32) AND e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
            JOIN devices d ON d.id = l.device_id
            JOIN contexts c ON c.id = e.context_id;
            """)
    }

    /// Each `lifeline check` is a run; the findings of the latest run of each device replace
    /// those of earlier runs, so the table always answers "what is wrong now".
    private static func createFindingsSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY,
                started_at TEXT NOT NULL,
                finished_at TEXT NOT NULL,
                version TEXT NOT NULL,
                budgets TEXT NOT NULL,
                scope TEXT,
                devices INTEGER NOT NULL,
                events INTEGER NOT NULL,
                findings INTEGER NOT NULL
            );
            CREATE TABLE findings (
                id INTEGER PRIMARY KEY,
                run_id INTEGER NOT NULL REFERENCES runs(id),
                rule TEXT NOT NULL,
                category TEXT NOT NULL,
                severity TEXT NOT NULL,
                device TEXT NOT NULL,
                launch TEXT NOT NULL,
                ts INTEGER NOT NULL,
                event_ids TEXT NOT NULL,
                event_seqs TEXT NOT NULL,
                budget TEXT,
                budget_seconds REAL,
                measured REAL,
                unit TEXT,
                message TEXT NOT NULL,
                explained_by INTEGER REFERENCES findings(id)
            );
            CREATE INDEX findings_by_rule ON findings(rule, ts);
            CREATE INDEX findings_by_device ON findings(device, ts);
            """)
    }

    /// Every line of a file is accounted for: `lines` = `events` + `duplicates` + `rejects` +
    /// `blank_lines` + `lost_lines`, where lost lines are those of damaged compressed frames
    /// and the unterminated last line of a cut, and `damage` lists where, as a JSON array of
    /// `{"kind", "from", "to", "lines", "afterLine", "reason"}` (byte range `[from, to)` of the
    /// compressed file). Files ingested before this migration keep 0 and NULL: unknown.
    private static func addDamageAccounting(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE files ADD COLUMN lost_lines INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE files ADD COLUMN blank_lines INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE files ADD COLUMN damage TEXT;
            """)
    }

    /// Events identified by content (no usable `seq`) are found through the launch's own rows
    /// (see `UnsequencedIndex`), compared value by value, instead of through a SHA-256 of their
    /// content in the unique index `event_rows_unsequenced`: the index and the hash cost an
    /// ingest of such events nearly half its speed, and a truncated hash is not exact. Rows
    /// stored before keep their ids and so their place in the replay, and are found by their
    /// content like new ones, so a re-upload of what an older version stored is still a
    /// duplicate. `content_hash` is no longer written; its old values are cleared (found
    /// through the index before it goes) so that the column means the same on every row. The
    /// column stays: dropping one rewrites the whole table.
    private static func dropContentHashIndex(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE event_rows SET content_hash = NULL WHERE content_hash IS NOT NULL;
            DROP INDEX event_rows_unsequenced;
            """)
    }

    /// `findings.explained_by` references `findings(id)`, so with foreign keys on, deleting a
    /// finding looks for the findings it explains; without an index that is a scan of the table
    /// per deleted row. A `check` replaces the previous run's findings: on a store holding 25,581
    /// findings the `DELETE` took 80 s, and 0.2 s with this index.
    private static func indexExplanations(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX findings_by_explanation ON findings(explained_by)")
    }

    /// What held back a request that waited too long to run (`bgtask-never-ran`,
    /// `fetch-never-ran`): a JSON array, most of the wait first, of
    /// `{"kind", "share", "event_ids", "event_seqs"}` (a factor's kind, the share of the wait it
    /// covered from 0 to 1, and its evidence as `event_ids` and `event_seqs` give a finding's
    /// events). NULL for a finding without factors, and for every finding stored before.
    private static func addFindingFactors(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE findings ADD COLUMN factors TEXT")
    }

    /// Each ingest transaction packs the events it stores of each launch into one row of
    /// `event_packs` (see ``EventPack``), which `check` reads instead of the launch's event rows
    /// when they hold as many events as the launch counts. Launches stored before keep no packs
    /// and are read row by row. A change made by hand to an event row drops its launch's packs, so
    /// that the rows stay the one truth; the ingest only inserts, so the triggers cost it nothing.
    private static func createEventPacks(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE event_packs (
                id INTEGER PRIMARY KEY,
                launch_id INTEGER NOT NULL,
                events INTEGER NOT NULL,
                packed BLOB NOT NULL
            );
            CREATE INDEX event_packs_by_launch ON event_packs(launch_id);
            CREATE TRIGGER event_rows_deleted_unpack AFTER DELETE ON event_rows BEGIN
                DELETE FROM event_packs WHERE launch_id = old.id >> 32;
            END;
            CREATE TRIGGER event_rows_updated_unpack AFTER UPDATE ON event_rows BEGIN
                DELETE FROM event_packs WHERE launch_id IN (old.id >> 32, new.id >> 32);
            END;
            """)
    }
}
