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
    }

    /// Calls `body` for every event in replay order, and `deviceEnded` after each device's last
    /// event. Returns how many events were read.
    @discardableResult
    public func forEachEvent(
        devices: DeviceSelection = .all, _ body: (Event) throws -> Void, deviceEnded: (String) throws -> Void
    ) throws -> Int {
        try pool.read { db in
            var reader = try StoredEventReader(db: db, devices: devices)
            return try reader.run(body, deviceEnded: deviceEnded)
        }
    }
}

/// Reads rows with the C API: building an `Event` per row is the replay's hot loop, and
/// GRDB's `Row` would copy each value into a `DatabaseValue` first.
private struct StoredEventColumns {
    static let device: Int32 = 0, launchID: Int32 = 1, launch: Int32 = 2, rowID: Int32 = 3, ts: Int32 = 4
    static let seq: Int32 = 5, mono: Int32 = 6, event: Int32 = 7, context: Int32 = 8, phase: Int32 = 9
    static let reason: Int32 = 10, cause: Int32 = 11, task: Int32 = 12, identifier: Int32 = 13
    static let call: Int32 = 14, success: Int32 = 15, result: Int32 = 16, attrs: Int32 = 17
}

private struct StoredEventReader {
    private typealias C = StoredEventColumns
    private let statement: Statement
    private let contexts: [Int64: (app: String?, appVersion: String?, os: String?, model: String?, process: String?)]
    private var interner = TextInterner()

    init(db: Database, devices: Store.DeviceSelection) throws {
        var filter = ""
        var names: [String] = []
        if case .only(let selected) = devices {
            names = selected
            filter = "WHERE d.name IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
        }
        statement = try db.makeStatement(sql: """
            SELECT d.name, l.id, l.name, e.id, e.ts, e.seq, e.mono, e.event, e.context_id, e.phase,
                   e.reason, e.cause, e.task, e.identifier, e.call, e.success, e.result, e.attrs
            FROM devices d
            JOIN launches l ON l.device_id = d.id
            JOIN event_rows e ON e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
            \(filter)
            ORDER BY d.name, l.first_ts, l.id, e.id
            """)
        // Bound by length, as the names were stored (see `ExactStatement`).
        try ExactStatement.bind(names.map { ExactValue.text($0) }, to: statement)
        self.contexts = try Self.contexts(in: db)
    }

    /// Every context, its texts read by length so that a NUL inside one survives.
    private static func contexts(in db: Database) throws -> [Int64: (String?, String?, String?, String?, String?)] {
        let statement = try db.makeStatement(sql: "SELECT id, app, app_version, os, model, process FROM contexts")
        let stmt = statement.sqliteStatement
        var contexts: [Int64: (String?, String?, String?, String?, String?)] = [:]
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { return contexts }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading contexts for replay")
            }
            let text = { ExactStatement.text(stmt, $0) }
            contexts[sqlite3_column_int64(stmt, 0)] = (text(1), text(2), text(3), text(4), text(5))
        }
    }

    mutating func run(_ body: (Event) throws -> Void, deviceEnded: (String) throws -> Void) throws -> Int {
        let stmt = statement.sqliteStatement
        var device: String?
        var launchID: Int64 = -1
        var launch = ""
        var count = 0
        var launchEvents: [Event] = []
        var launchNeedsSort = false
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading events for replay")
            }
            let rowLaunch = sqlite3_column_int64(stmt, C.launchID)
            if rowLaunch != launchID {
                try flush(&launchEvents, sorted: launchNeedsSort, body)
                launchNeedsSort = false
                let rowDevice = text(stmt, C.device) ?? ""
                if let current = device, current != rowDevice { try deviceEnded(current) }
                device = rowDevice
                launchID = rowLaunch
                launch = text(stmt, C.launch) ?? ""
            }
            let event = makeEvent(stmt, device: device!, launch: launch)
            count += 1
            if event.seq == nil || !launchEvents.isEmpty {
                // Events without seq sort by time among their launch (trace format: "else of ts"),
                // so such a launch is gathered before it is replayed.
                launchEvents.append(event)
                launchNeedsSort = true
            } else {
                try body(event)
            }
        }
        try flush(&launchEvents, sorted: launchNeedsSort, body)
        if let device { try deviceEnded(device) }
        return count
    }

    private func flush(_ events: inout [Event], sorted: Bool, _ body: (Event) throws -> Void) throws {
        guard !events.isEmpty else { return }
        if sorted {
            events.sort { ($0.seq ?? .max, $0.ts, $0.rowID ?? 0) < ($1.seq ?? .max, $1.ts, $1.rowID ?? 0) }
        }
        for event in events { try body(event) }
        events.removeAll(keepingCapacity: true)
    }

    private mutating func makeEvent(_ stmt: OpaquePointer, device: String, launch: String) -> Event {
        let context = contexts[sqlite3_column_int64(stmt, C.context)]
        return Event(
            ts: Timestamp(microseconds: sqlite3_column_int64(stmt, C.ts)), device: device, launch: launch,
            name: interned(stmt, C.event) ?? "", seq: integer(stmt, C.seq),
            mono: sqlite3_column_type(stmt, C.mono) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, C.mono),
            app: context?.app, appVersion: context?.appVersion, os: context?.os, model: context?.model,
            process: context?.process, phase: interned(stmt, C.phase), reason: interned(stmt, C.reason),
            cause: interned(stmt, C.cause), task: integer(stmt, C.task), identifier: interned(stmt, C.identifier),
            call: text(stmt, C.call), success: integer(stmt, C.success).map { $0 != 0 },
            result: interned(stmt, C.result), attrs: text(stmt, C.attrs), rowID: sqlite3_column_int64(stmt, C.rowID))
    }

    private func integer(_ stmt: OpaquePointer, _ column: Int32) -> Int64? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, column)
    }

    private func text(_ stmt: OpaquePointer, _ column: Int32) -> String? {
        ExactStatement.text(stmt, column)
    }

    private mutating func interned(_ stmt: OpaquePointer, _ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return interner.string(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
