import GRDB
import GRDBSQLite
import TraceModel

/// The store's events in replay order: device by device (by name), each device's launches in
/// the order they began, each launch's events in identity order (`seq`). Streams one row at a
/// time, so memory does not grow with the store.
extension Store {
    /// Which devices to read.
    public enum DeviceSelection: Sendable, Hashable {
        case all
        case only([String])

        /// The most device names one statement binds: SQLite refuses more than 32,766 variables,
        /// and a selection made by `--app` can name every device of a large fleet.
        public static let namesPerStatement = 500

        /// The names of `.only`, without repeats, in SQLite's `BINARY` order (UTF-8 bytes), in
        /// groups of at most ``namesPerStatement``: statements run one group after another return
        /// their rows in the order one statement `ORDER BY` name would. Nil for `.all`.
        public var nameGroups: [[String]]? {
            guard case .only(let names) = self else { return nil }
            let sorted = Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return stride(from: 0, to: sorted.count, by: Self.namesPerStatement).map {
                Array(sorted[$0 ..< min($0 + Self.namesPerStatement, sorted.count)])
            }
        }
    }

    /// Calls `body` for every event in replay order, and `deviceEnded` after each device's last
    /// event. Returns how many events were read.
    @discardableResult
    public func forEachEvent(
        devices: DeviceSelection = .all, _ body: (Event) throws -> Void, deviceEnded: (String) throws -> Void
    ) throws -> Int {
        var builder = StoredEventBuilder()
        var device: String?
        var launchID: Int64 = -1
        var launchEvents: [Event] = []
        let count = try forEachRow(devices: devices) { row in
            if row.launch.id != launchID {
                try Self.flush(&launchEvents, body)
                if let current = device, current != row.launch.device { try deviceEnded(current) }
                device = row.launch.device
                launchID = row.launch.id
            }
            let event = builder.event(row)
            if event.seq == nil || !launchEvents.isEmpty {
                // Events without seq sort by time among their launch (trace format: "else of ts"),
                // so such a launch is gathered before it is replayed.
                launchEvents.append(event)
            } else {
                try body(event)
            }
        }
        try Self.flush(&launchEvents, body)
        if let device { try deviceEnded(device) }
        return count
    }

    private static func flush(_ events: inout [Event], _ body: (Event) throws -> Void) throws {
        guard !events.isEmpty else { return }
        events.sort { ($0.seq ?? .max, $0.ts, $0.rowID ?? 0) < ($1.seq ?? .max, $1.ts, $1.rowID ?? 0) }
        for event in events { try body(event) }
        events.removeAll(keepingCapacity: true)
    }

    /// Calls `body` for every stored event row, in the order of ``forEachEvent(devices:_:deviceEnded:)``
    /// except that a launch whose events have no `seq` comes in row order: its reader sorts it
    /// (by `seq`, then `ts`, then row id). For a reader that makes its own events from the columns
    /// (the replay's compact events) without an ``Event`` in between. Returns how many rows were read.
    @discardableResult
    public func forEachRow(devices: DeviceSelection = .all, _ body: (StoredRow) throws -> Void) throws -> Int {
        try pool.read { db in
            var reader = try StoredRowReader(db: db, devices: devices)
            return try reader.run(body)
        }
    }
}

/// One launch as the rows of its events name it: its device, its id, and the context of its
/// first row (a launch is one process).
public final class StoredLaunch: Sendable {
    /// The launch's row id in the store, which no other launch has.
    public let id: Int64
    public let device: String
    public let name: String
    /// The context (`app`, `app_version`, `os`, `model`, `process`) of its first row.
    public let context: StoredContext?
    public var process: String? { context?.process }

    init(id: Int64, device: String, name: String, context: StoredContext?) {
        self.id = id
        self.device = device
        self.name = name
        self.context = context
    }
}

/// The stored context of an event (`contexts` table).
public struct StoredContext: Sendable {
    public var app, appVersion, os, model, process: String?
}

/// Every stored context by id, read once per replay.
final class StoredContexts {
    let byID: [Int64: StoredContext]

    init(_ byID: [Int64: StoredContext]) {
        self.byID = byID
    }
}

/// One stored event row, valid only during the call that receives it: its texts are SQLite's
/// buffers, read as they are, with no `String` made.
///
/// Read with the C API: building an event per row is the replay's hot loop, and GRDB's `Row`
/// would copy each value into a `DatabaseValue` first.
public struct StoredRow {
    /// The event columns that hold text.
    public enum TextColumn: Int32 {
        case event = 4, phase = 6, reason = 7, cause = 8, identifier = 10, call = 11, result = 13, attrs = 14
    }

    fileprivate enum Column {
        static let rowID: Int32 = 0, ts: Int32 = 1, seq: Int32 = 2, mono: Int32 = 3, context: Int32 = 5
        static let task: Int32 = 9, success: Int32 = 12
    }

    private let stmt: OpaquePointer
    private let contexts: StoredContexts
    /// The launch the row belongs to (the same object for every row of a launch).
    public let launch: StoredLaunch

    fileprivate init(stmt: OpaquePointer, launch: StoredLaunch, contexts: StoredContexts) {
        self.stmt = stmt
        self.launch = launch
        self.contexts = contexts
    }

    /// The row's own context (`app`, `app_version`, `os`, `model`, `process`).
    public var context: StoredContext? { contexts.byID[sqlite3_column_int64(stmt, Column.context)] }

    public var rowID: Int64 { sqlite3_column_int64(stmt, Column.rowID) }
    public var ts: Timestamp { Timestamp(microseconds: sqlite3_column_int64(stmt, Column.ts)) }
    public var seq: Int64? { integer(Column.seq) }
    public var mono: Double? {
        sqlite3_column_type(stmt, Column.mono) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, Column.mono)
    }
    public var task: Int64? { integer(Column.task) }
    public var success: Bool? { integer(Column.success).map { $0 != 0 } }

    /// The UTF-8 bytes of a text column (nil for NULL), valid until the next row is read.
    public func bytes(_ column: TextColumn) -> UnsafeRawBufferPointer? {
        guard let pointer = sqlite3_column_text(stmt, column.rawValue) else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(stmt, column.rawValue)))
    }

    private func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, column)
    }
}

/// Reads the selected devices' events in replay order: their launches, in name and time order,
/// from one statement, and each launch's events, by row id, from another bound to its range.
///
/// Two statements rather than one join: the join's rows carried the device and launch names and
/// the launch id, each read again for every event; a launch's events are one range of row ids.
private struct StoredRowReader {
    private enum LaunchColumn {
        static let device: Int32 = 0, id: Int32 = 1, name: Int32 = 2
    }

    /// One statement for every device, or one per group of the devices selected, in name order.
    private let launchStatements: [Statement]
    private let events: Statement
    private let contexts: StoredContexts

    init(db: Database, devices: Store.DeviceSelection) throws {
        let groups = devices.nameGroups ?? [[]]
        launchStatements = try groups.map { names in
            let filter = devices == .all ? "" : "WHERE d.name IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
            let statement = try db.makeStatement(sql: """
                SELECT d.name, l.id, l.name
                FROM devices d JOIN launch_rows l ON l.device_id = d.id
                \(filter)
                ORDER BY d.name, l.first_ts, l.id
                """)
            // Bound by length, as the names were stored (see `ExactStatement`).
            try ExactStatement.bind(names.map { ExactValue.text($0) }, to: statement)
            return statement
        }
        events = try db.makeStatement(sql: """
            SELECT id, ts, seq, mono, event, context_id, phase, reason, cause, task, identifier, call, success,
                   result, attrs
            FROM event_rows WHERE id >= ?1 AND id < ?2 ORDER BY id
            """)
        self.contexts = StoredContexts(try Self.contexts(in: db))
    }

    /// Every context, its texts read by length so that a NUL inside one survives.
    private static func contexts(in db: Database) throws -> [Int64: StoredContext] {
        let statement = try db.makeStatement(sql: "SELECT id, app, app_version, os, model, process FROM contexts")
        let stmt = statement.sqliteStatement
        var contexts: [Int64: StoredContext] = [:]
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { return contexts }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading contexts for replay")
            }
            let text = { ExactStatement.text(stmt, $0) }
            contexts[sqlite3_column_int64(stmt, 0)] = StoredContext(
                app: text(1), appVersion: text(2), os: text(3), model: text(4), process: text(5))
        }
    }

    mutating func run(_ body: (StoredRow) throws -> Void) throws -> Int {
        var count = 0
        for statement in launchStatements {
            let launches = statement.sqliteStatement
            while try Self.step(launches, reading: "launches for replay") {
                let id = sqlite3_column_int64(launches, LaunchColumn.id)
                count += try readEvents(
                    ofLaunch: id, device: ExactStatement.text(launches, LaunchColumn.device) ?? "",
                    name: ExactStatement.text(launches, LaunchColumn.name) ?? "", body)
            }
        }
        return count
    }

    /// Reads one launch's events (its row ids hold its id in their high 32 bits); the launch's
    /// context is its first event's (a launch is one process).
    private func readEvents(ofLaunch id: Int64, device: String, name: String, _ body: (StoredRow) throws -> Void) throws -> Int {
        let stmt = events.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, EventIdentity.launchStart(id))
        sqlite3_bind_int64(stmt, 2, EventIdentity.launchEnd(id))
        var launch: StoredLaunch?
        var count = 0
        while try Self.step(stmt, reading: "events for replay") {
            let current = launch ?? StoredLaunch(
                id: id, device: device, name: name, context: contexts.byID[sqlite3_column_int64(stmt, StoredRow.Column.context)])
            launch = current
            count += 1
            try body(StoredRow(stmt: stmt, launch: current, contexts: contexts))
        }
        return count
    }

    /// Steps a statement: true for a row, false when done.
    private static func step(_ stmt: OpaquePointer, reading what: String) throws -> Bool {
        let code = sqlite3_step(stmt)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading \(what)") }
        return true
    }
}

/// Makes ``Event``s of stored rows, reusing one `String` per distinct short text.
private struct StoredEventBuilder {
    private var interner = TextInterner()

    mutating func event(_ row: StoredRow) -> Event {
        let context = row.context
        return Event(
            ts: row.ts, device: row.launch.device, launch: row.launch.name,
            name: interned(row, .event) ?? "", seq: row.seq, mono: row.mono,
            app: context?.app, appVersion: context?.appVersion, os: context?.os, model: context?.model,
            process: context?.process, phase: interned(row, .phase), reason: interned(row, .reason),
            cause: interned(row, .cause), task: row.task, identifier: interned(row, .identifier),
            call: row.bytes(.call).map { String(decoding: $0, as: UTF8.self) }, success: row.success,
            result: interned(row, .result), attrs: row.bytes(.attrs).map { String(decoding: $0, as: UTF8.self) },
            rowID: row.rowID)
    }

    private mutating func interned(_ row: StoredRow, _ column: StoredRow.TextColumn) -> String? {
        row.bytes(column).map { interner.string($0) }
    }
}
