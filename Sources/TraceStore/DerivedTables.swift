import GRDB
import GRDBSQLite
import TraceModel

/// The tables a `check` derives from its replay beside `findings` — `launches`, `intervals`,
/// `tasks`, `requests` — published with the run's findings in one transaction and replaced per
/// device as findings are, so that they always describe the same run (see README, "Derived tables").
enum DerivedTables {
    /// The four tables' columns, in one place for the migration and for every stage
    /// (``DerivedStage``), whose tables become the public ones when published.
    ///
    /// `intervals`, `tasks` and `requests` name their launch by its row id in `launches`
    /// (`launch_id`), not by its device and launch texts: that keeps them 40% smaller and cheaper to
    /// write. No foreign key is declared, only documented: a launch's row is written after its
    /// intervals and tasks (the replay knows how a launch went only when it ends), rows are written
    /// before their run's row, and deleting a run's findings or launches would look up every row
    /// that could name one.
    static func schema(launches: String, intervals: String, tasks: String, requests: String) -> String {
        """
        CREATE TABLE \(launches) (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL,
            device TEXT NOT NULL,
            launch TEXT NOT NULL,
            app TEXT,
            app_version TEXT,
            os TEXT,
            model TEXT,
            process TEXT,
            first_ts INTEGER NOT NULL,
            last_ts INTEGER NOT NULL,
            started TEXT NOT NULL,
            cause TEXT,
            ended TEXT NOT NULL,
            end_reason TEXT,
            end_state TEXT NOT NULL,
            foreground_seconds REAL NOT NULL,
            background_seconds REAL NOT NULL,
            suspended_seconds REAL NOT NULL,
            log_cut_short INTEGER NOT NULL,
            findings INTEGER NOT NULL DEFAULT 0,
            explained_by INTEGER,
            explained_by_rule TEXT
        );
        CREATE TABLE \(intervals) (
            id INTEGER PRIMARY KEY,
            launch_id INTEGER NOT NULL,
            callback TEXT NOT NULL,
            scene TEXT,
            begin_ts INTEGER NOT NULL,
            end_ts INTEGER,
            outcome TEXT NOT NULL,
            seconds REAL NOT NULL,
            budget TEXT,
            budget_seconds REAL,
            over_budget INTEGER
        );
        CREATE TABLE \(tasks) (
            id INTEGER PRIMARY KEY,
            launch_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            task INTEGER,
            call TEXT,
            identifier TEXT,
            opened_ts INTEGER NOT NULL,
            closed_ts INTEGER,
            expired_ts INTEGER,
            outcome TEXT NOT NULL,
            seconds REAL NOT NULL,
            budget TEXT,
            budget_seconds REAL,
            measured REAL,
            over_budget INTEGER,
            finding_id INTEGER,
            finding_rule TEXT
        );
        CREATE TABLE \(requests) (
            id INTEGER PRIMARY KEY,
            launch_id INTEGER NOT NULL,
            identifier TEXT NOT NULL,
            type TEXT,
            submitted_ts INTEGER NOT NULL,
            earliest_begin_ts INTEGER,
            requires_power INTEGER,
            requires_network INTEGER,
            outcome TEXT NOT NULL,
            error TEXT,
            ended_ts INTEGER,
            ran_in INTEGER,
            task INTEGER,
            wait_seconds REAL
        );
        """
    }

    /// The one index: findings and the UPDATEs of a publication find a launch by device and launch.
    static let launchIndex = "CREATE INDEX launches_by_device ON launches(device, launch)"

    /// Migration v8. The ingest's own table of launch ids, `launches`, becomes `launch_rows` (beside
    /// `event_rows`; the `events` view follows the rename), so that the public name `launches` is the
    /// table of process lifetimes a `check` writes. `derived_stages` lists the stages being written,
    /// with the claim of the check writing each, so that the stage of a check that died is dropped.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE launches RENAME TO launch_rows;
            DROP INDEX launches_by_device_time;
            CREATE INDEX launch_rows_by_device_time ON launch_rows(device_id, first_ts);
            \(schema(launches: "launches", intervals: "intervals", tasks: "tasks", requests: "requests"))
            \(launchIndex);
            CREATE TABLE derived_stages (
                stage TEXT PRIMARY KEY,
                claim_pid INTEGER NOT NULL,
                claim_start TEXT,
                claim_run INTEGER NOT NULL,
                started_at TEXT NOT NULL
            );
            """)
    }

    /// Writes encoded rows (``DerivedRow``) into one set of tables: each table's insert prepared
    /// once per transaction, then each row's values bound straight from its bytes. A launch number n
    /// is bound as row id `launchOffset + n`; findings and the run are bound as their numbers and 0,
    /// which the publication turns into ids.
    struct Writer {
        let launchOffset: Int64
        /// By ``DerivedRow/Table`` raw value.
        private let inserts: [Statement?]

        init(_ db: Database, tables: DerivedStage.Tables, launchOffset: Int64) throws {
            self.launchOffset = launchOffset
            let launches = try db.cachedStatement(sql: """
                INSERT INTO \(tables.launches) (id, run_id, device, launch, app, app_version, os, model, process,
                    first_ts, last_ts, started, cause, ended, end_reason, end_state, foreground_seconds,
                    background_seconds, suspended_seconds, log_cut_short)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let intervals = try db.cachedStatement(sql: """
                INSERT INTO \(tables.intervals) (launch_id, callback, scene, begin_ts, end_ts, outcome, seconds,
                    budget, budget_seconds, over_budget)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let tasks = try db.cachedStatement(sql: """
                INSERT INTO \(tables.tasks) (launch_id, kind, task, call, identifier, opened_ts, closed_ts, expired_ts,
                    outcome, seconds, budget, budget_seconds, measured, over_budget, finding_id, finding_rule)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let requests = try db.cachedStatement(sql: """
                INSERT INTO \(tables.requests) (launch_id, identifier, type, submitted_ts, earliest_begin_ts,
                    requires_power, requires_network, outcome, error, ended_ts, ran_in, task, wait_seconds)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            inserts = [nil, launches, intervals, tasks, requests]
        }

        /// Inserts one row (``DerivedRow``'s bytes). Texts are bound by length, as stored (see
        /// `ExactStatement`): an id from input may hold a NUL.
        func write(_ row: UnsafeRawBufferPointer) throws {
            guard let tag = row.first, Int(tag) < inserts.count, let statement = inserts[Int(tag)] else {
                throw DerivedRowsError.unreadable(0)
            }
            let stmt = statement.sqliteStatement
            var offset = 1
            var index: Int32 = 0
            while offset < row.count {
                index += 1
                guard let type = DerivedRow.Value(rawValue: row[offset]) else { throw DerivedRowsError.unreadable(0) }
                offset += 1
                let code: Int32
                switch type {
                case .null:
                    code = sqlite3_bind_null(stmt, index)
                case .run:
                    code = sqlite3_bind_int64(stmt, index, 0)
                case .text:
                    guard row.count - offset >= 4 else { throw DerivedRowsError.unreadable(0) }
                    let length = Int(row.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                    offset += 4
                    guard row.count - offset >= length, let base = row.baseAddress, let count = Int32(exactly: length) else {
                        throw DerivedRowsError.unreadable(0)
                    }
                    // No destructor (SQLITE_STATIC): the row's bytes are read in place, and outlive
                    // the step that reads them.
                    code = sqlite3_bind_text(stmt, index, (base + offset).assumingMemoryBound(to: CChar.self), count, nil)
                    offset += length
                case .integer, .real, .launch, .finding:
                    guard row.count - offset >= 8 else { throw DerivedRowsError.unreadable(0) }
                    let bits = row.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
                    offset += 8
                    let value = Int64(bitPattern: bits)
                    switch type {
                    case .real: code = sqlite3_bind_double(stmt, index, Double(bitPattern: bits))
                    case .launch: code = sqlite3_bind_int64(stmt, index, launchOffset &+ value)
                    case .integer, .finding, .null, .text, .run: code = sqlite3_bind_int64(stmt, index, value)
                    }
                }
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
            guard index == sqlite3_bind_parameter_count(stmt) else { throw DerivedRowsError.unreadable(0) }
            let code = sqlite3_step(stmt)
            sqlite3_reset(stmt)
            guard code == SQLITE_DONE else {
                let message = sqlite3_db_handle(stmt).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
            }
        }
    }

    /// Deletes what earlier runs derived for `devices`: the rows that name a launch first, then
    /// the launches.
    static func delete(_ db: Database, devices: Store.DeviceSelection) throws {
        switch devices {
        case .all:
            try db.execute(sql: "DELETE FROM intervals; DELETE FROM tasks; DELETE FROM requests; DELETE FROM launches")
        case .only(let names):
            var statements: [Statement] = []
            for table in ["intervals", "tasks", "requests"] {
                statements.append(try db.makeStatement(
                    sql: "DELETE FROM \(table) WHERE launch_id IN (SELECT id FROM launches WHERE device = ?)"))
            }
            statements.append(try db.makeStatement(sql: "DELETE FROM launches WHERE device = ?"))
            for name in names {
                for statement in statements { try ExactStatement.execute(statement, [.text(name)]) }
            }
        }
    }

    /// What a launch's row takes from the run's findings, once they and the rows are published:
    /// how many findings landed on the launch, and the finding named as the explanation of how it
    /// ended (the cause of a `termination-explained` finding).
    static func linkFindings(_ db: Database, runID: Int64) throws {
        try db.execute(sql: """
            UPDATE launches SET findings = counted.findings
            FROM (SELECT device, launch, count(*) AS findings FROM findings WHERE run_id = ?1 GROUP BY device, launch)
                AS counted
            WHERE launches.run_id = ?1 AND launches.device = counted.device AND launches.launch = counted.launch
            """, arguments: [runID])
        try db.execute(sql: """
            UPDATE launches SET explained_by = explained.cause, explained_by_rule = explained.rule
            FROM (SELECT f.device, f.launch, c.id AS cause, c.rule FROM findings f JOIN findings c ON c.id = f.explained_by
                  WHERE f.run_id = ?1) AS explained
            WHERE launches.run_id = ?1 AND launches.device = explained.device AND launches.launch = explained.launch
            """, arguments: [runID])
    }
}
