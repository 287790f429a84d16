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
            background_periods TEXT NOT NULL,
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

    /// The one index, on `launches(device)`: a finding finds its launch among its device's (some
    /// fifty). Made with each stage's tables (so named after the stage), and kept when they are
    /// published. On the device alone, its entries come in order as devices are replayed, where
    /// `(device, launch)` took random launch ids and twice the room.
    static func launchIndex(_ name: String, on table: String) -> String {
        "CREATE INDEX \(name) ON \(table)(device)"
    }

    /// Migration v8. The ingest's own table of launch ids, `launches`, becomes `launch_rows` (beside
    /// `event_rows`; the `events` view follows the rename), so that the public name `launches` is the
    /// table of process lifetimes a `check` writes. `derived_stages` lists the stages being written,
    /// with the claim of the check writing each, so that the stage of a check that died is dropped,
    /// and the tables a publication retired (`retired`), dropped by the next stage.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE launches RENAME TO launch_rows;
            DROP INDEX launches_by_device_time;
            CREATE INDEX launch_rows_by_device_time ON launch_rows(device_id, first_ts);
            \(schema(launches: "launches", intervals: "intervals", tasks: "tasks", requests: "requests"))
            \(launchIndex("launches_by_device", on: "launches"));
            CREATE TABLE derived_stages (
                stage TEXT PRIMARY KEY,
                claim_pid INTEGER NOT NULL,
                claim_start TEXT,
                claim_run INTEGER NOT NULL,
                started_at TEXT NOT NULL,
                retired INTEGER NOT NULL DEFAULT 0
            );
            """)
    }

    /// Writes encoded rows (``DerivedRow``) into one set of tables (a stage's), or a run's findings
    /// into `findings` (``findings(_:runID:)``), each refusing the other's rows. A launch number n
    /// is bound as row id `launchOffset + n`, the run as `runID`, finding number n as
    /// `findingOffset + n`, which the publication turns into an id where it is not one already.
    ///
    /// Rows are inserted per table, ``batch`` at a time with one statement of as many value lists
    /// (the rest one by one): SQLite's work per statement — a transaction check, opening and
    /// closing a cursor, resetting — was a third of a row's cost. Findings go one by one (their
    /// table has foreign keys). Each value is bound straight from the row's bytes.
    struct Writer {
        /// Rows per multi-row insert.
        static let batch = 16


        private struct Insert {
            let single: Statement
            /// Nil for a table with foreign keys: a statement of several rows into one keeps a
            /// statement journal (SQLite must be able to undo half of it), in a temporary file.
            let batch: Statement?
            let columns: Int32
        }

        let launchOffset: Int64
        let findingOffset: Int64
        let runID: Int64
        /// By ``DerivedRow/Table`` raw value.
        private let inserts: [Insert?]
        /// A launch's count of findings corrected (``DerivedRow/Table/launchFindings``), for a stage.
        private let correction: Statement?

        private static func insert(
            _ db: Database, _ table: String, _ columns: String, count: Int, batched: Bool = true
        ) throws -> Insert {
            let values = "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
            // OR FAIL: a row that broke a constraint would stop the insert without undoing the
            // rows before it, so SQLite keeps no statement journal — which, for a statement of
            // several rows, copied each page it touched to a temporary file (113k writes, a
            // third of `check`'s system time).
            let head = "INSERT OR FAIL INTO \(table) (\(columns)) VALUES "
            return Insert(
                single: try db.cachedStatement(sql: head + values),
                batch: batched
                    ? try db.cachedStatement(sql: head + Array(repeating: values, count: Self.batch).joined(separator: ", "))
                    : nil,
                columns: Int32(count))
        }

        /// A writer of the `findings` table's rows (``DerivedRow/Table/findings``) of run `runID`.
        static func findings(_ db: Database, runID: Int64) throws -> Writer {
            try Writer(runID: runID, inserts: [
                .findings: insert(db, "findings", """
                    run_id, rule, category, severity, device, launch, ts, event_ids, event_seqs, budget, budget_seconds,
                    measured, unit, message, explained_by, factors
                    """, count: 16, batched: false),
            ])
        }

        private init(runID: Int64, inserts: [DerivedRow.Table: Insert]) {
            launchOffset = 0
            findingOffset = 0
            self.runID = runID
            self.inserts = (0 ... (DerivedRow.Table.allCases.map(\.rawValue).max() ?? 0)).map { tag in
                DerivedRow.Table(rawValue: tag).flatMap { inserts[$0] }
            }
            correction = nil
        }

        init(_ db: Database, tables: DerivedStage.Tables, launchOffset: Int64, findingOffset: Int64, runID: Int64) throws {
            self.launchOffset = launchOffset
            self.findingOffset = findingOffset
            self.runID = runID
            func insert(_ table: String, _ columns: String, count: Int) throws -> Insert {
                try Self.insert(db, table, columns, count: count)
            }
            inserts = [
                nil,
                try insert(tables.launches, """
                    id, run_id, device, launch, app, app_version, os, model, process, first_ts, last_ts, started, cause,
                    ended, end_reason, end_state, foreground_seconds, background_seconds, suspended_seconds,
                    background_periods, log_cut_short, findings
                    """, count: 22),
                try insert(tables.intervals, """
                    launch_id, callback, scene, begin_ts, end_ts, outcome, seconds, budget, budget_seconds, over_budget
                    """, count: 10),
                try insert(tables.tasks, """
                    launch_id, kind, task, call, identifier, opened_ts, closed_ts, expired_ts, outcome, seconds, budget,
                    budget_seconds, measured, over_budget, finding_id, finding_rule
                    """, count: 16),
                try insert(tables.requests, """
                    launch_id, identifier, type, submitted_ts, earliest_begin_ts, requires_power, requires_network,
                    outcome, error, ended_ts, ran_in, task, wait_seconds
                    """, count: 13),
            ]
            correction = try db.cachedStatement(sql: "UPDATE \(tables.launches) SET findings = ?2 WHERE id = ?1")
        }

        /// Inserts the rows of a chunk, table by table, each table's in their order.
        func write(_ chunk: DerivedChunk) throws {
            try chunk.bytes.withUnsafeBytes { bytes in
                // Where each row's bytes are, per table; and the corrected counts of findings,
                // made after their launch's row (in this chunk or one before).
                var rows = Array(repeating: [Range<Int>](), count: inserts.count)
                var corrections: [Range<Int>] = []
                var offset = 0
                while offset < bytes.count {
                    guard bytes.count - offset >= 5 else { throw DerivedRowsError.unreadable(0) }
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                    guard length >= 1, bytes.count - offset - 4 >= length else { throw DerivedRowsError.unreadable(0) }
                    let tag = Int(bytes[offset + 4])
                    let row = (offset + 5) ..< (offset + 4 + length)
                    if tag == DerivedRow.Table.launchFindings.rawValue {
                        corrections.append(row)
                    } else {
                        guard tag < inserts.count, inserts[tag] != nil else { throw DerivedRowsError.unreadable(0) }
                        rows[tag].append(row)
                    }
                    offset += 4 + length
                }
                // Where background periods are written as JSON, reused row after row.
                var json: [UInt8] = []
                for (tag, ranges) in rows.enumerated() {
                    guard let insert = inserts[tag], !ranges.isEmpty else { continue }
                    var next = 0
                    while let batch = insert.batch, ranges.count - next >= Self.batch {
                        let stmt = batch.sqliteStatement
                        // Every value NULL, then only the others bound (a third of them are NULL).
                        sqlite3_clear_bindings(stmt)
                        for index in 0 ..< Self.batch {
                            try bind(UnsafeRawBufferPointer(rebasing: bytes[ranges[next + index]]), to: stmt,
                                     from: Int32(index) * insert.columns, columns: insert.columns, json: &json)
                        }
                        try step(stmt)
                        next += Self.batch
                    }
                    while next < ranges.count {
                        sqlite3_clear_bindings(insert.single.sqliteStatement)
                        try bind(UnsafeRawBufferPointer(rebasing: bytes[ranges[next]]), to: insert.single.sqliteStatement,
                                 from: 0, columns: insert.columns, json: &json)
                        try step(insert.single.sqliteStatement)
                        next += 1
                    }
                }
                if !corrections.isEmpty {
                    // Only a stage's launches are corrected.
                    guard let correction else { throw DerivedRowsError.unreadable(0) }
                    for row in corrections {
                        try bind(UnsafeRawBufferPointer(rebasing: bytes[row]), to: correction.sqliteStatement,
                                 from: 0, columns: 2, json: &json)
                        try step(correction.sqliteStatement)
                    }
                }
            }
        }

        /// Binds the values of one row (its bytes after the table's tag) to parameters `first + 1`
        /// … `first + columns`. Texts are bound by length, as stored (see `ExactStatement`): an id
        /// from input may hold a NUL.
        private func bind(
            _ row: UnsafeRawBufferPointer, to stmt: OpaquePointer, from first: Int32, columns: Int32, json: inout [UInt8]
        ) throws {
            var offset = 0
            var index = first
            while offset < row.count {
                index += 1
                guard let type = DerivedRow.Value(rawValue: row[offset]) else { throw DerivedRowsError.unreadable(0) }
                offset += 1
                let code: Int32
                switch type {
                case .null:
                    // Left NULL by the caller's sqlite3_clear_bindings.
                    continue
                case .periods:
                    guard row.count - offset >= 4 else { throw DerivedRowsError.unreadable(0) }
                    let count = Int(row.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                    offset += 4
                    guard count <= (row.count - offset) / 9 else { throw DerivedRowsError.unreadable(0) }
                    code = try PeriodsJSON.bind(
                        UnsafeRawBufferPointer(rebasing: row[offset ..< (offset + 9 * count)]), count: count, to: stmt,
                        at: index, scratch: &json)
                    offset += 9 * count
                case .run:
                    code = sqlite3_bind_int64(stmt, index, runID)
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
                    case .finding: code = sqlite3_bind_int64(stmt, index, findingOffset &+ value)
                    case .integer, .null, .text, .run, .periods: code = sqlite3_bind_int64(stmt, index, value)
                    }
                }
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
            guard index == first + columns else { throw DerivedRowsError.unreadable(0) }
        }

        private func step(_ stmt: OpaquePointer) throws {
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

    /// What a launch's row takes from the run's findings once they and the rows are published:
    /// the finding named as the explanation of how it ended (the cause of a `termination-explained`
    /// finding). Its count of findings was written with the row (``LaunchFindingCounts``).
    static func linkExplanations(_ db: Database, runID: Int64) throws {
        try db.execute(sql: """
            UPDATE launches SET explained_by = explained.cause, explained_by_rule = explained.rule
            FROM (SELECT f.device, f.launch, c.id AS cause, c.rule FROM findings f JOIN findings c ON c.id = f.explained_by
                  WHERE f.run_id = ?1) AS explained
            WHERE launches.run_id = ?1 AND launches.device = explained.device AND launches.launch = explained.launch
            """, arguments: [runID])
    }
}

/// Writes a launch's background periods (``DerivedRow``'s bytes: per period its seconds as a
/// double and how it ended) as the JSON of `launches.background_periods` —
/// `[[5.0,"suspended"],[40.0,"foreground"]]`, seconds rounded to milliseconds — and binds it.
/// Done by the staging thread, so that the replay only copies nine bytes a period; byte by byte,
/// into a buffer the caller reuses (Strings, or appends to a class's array, took a fifth of the
/// thread).
public enum PeriodsJSON {
    /// `,"suspended"]` and the like, by the ending's byte.
    private static let endings: [[UInt8]] = ["suspended", "foreground", "terminated", "log-ended"].map {
        Array(",\"\($0)\"]".utf8)
    }

    static func bind(
        _ periods: UnsafeRawBufferPointer, count: Int, to stmt: OpaquePointer, at index: Int32, scratch bytes: inout [UInt8]
    ) throws -> Int32 {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(ascii: "["))
        for period in 0 ..< count {
            let seconds = Double(bitPattern: periods.loadUnaligned(fromByteOffset: 9 * period, as: UInt64.self).littleEndian)
            let ended = Int(periods[9 * period + 8])
            guard ended < endings.count else { throw DerivedRowsError.unreadable(0) }
            append(seconds: seconds, ending: endings[ended], first: period == 0, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes.withUnsafeBytes { buffer in
            // Copied by SQLite (SQLITE_TRANSIENT): the buffer is gone before the statement runs.
            sqlite3_bind_text(
                stmt, index, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// The same JSON as ``bind(_:count:to:at:scratch:)`` binds, for a launch's row written
    /// elsewhere than the store (`check --stdin --launches`).
    public static func text(_ periods: [BackgroundPeriod]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, period) in periods.enumerated() {
            append(seconds: period.seconds, ending: Array(",\"\(period.ended.rawValue)\"]".utf8), first: index == 0, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One period, `[5.0,"suspended"]`, after a comma unless it is the first.
    private static func append(seconds: Double, ending: [UInt8], first: Bool, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        appendSeconds(seconds, to: &bytes)
        bytes.append(contentsOf: ending)
    }

    /// `seconds` to the millisecond, as a JSON number (`5.0`, `0.25`, `1.999`); `null` when it does
    /// not fit (a clock from input that jumped by more than 10¹⁵ s).
    private static func appendSeconds(_ seconds: Double, to bytes: inout [UInt8]) {
        let scaled = (max(0, seconds) * 1000).rounded()
        guard scaled < 0x1p53, let milliseconds = UInt64(exactly: scaled) else {
            return bytes.append(contentsOf: [UInt8]("null".utf8))
        }
        appendDigits(milliseconds / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        var fraction = milliseconds % 1000
        guard fraction > 0 else { return bytes.append(UInt8(ascii: "0")) }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        // Leading zeros of the fraction (`0.05`), then its digits.
        var width: UInt64 = 1
        for _ in 1 ..< digits { width *= 10 }
        while fraction < width {
            bytes.append(UInt8(ascii: "0"))
            width /= 10
        }
        appendDigits(fraction, to: &bytes)
    }

    private static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
