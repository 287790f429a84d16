import GRDB
import GRDBSQLite
import TraceModel

/// Reads the selected devices' events in replay order: their launches, in name and time order,
/// from one statement, and each launch's events from its packs (``EventPack``) when they hold all
/// of them, else from its rows, by row id, with a statement bound to its range.
///
/// Two statements rather than one join: the join's rows carried the device and launch names and
/// the launch id, each read again for every event; a launch's events are one range of row ids.
struct StoredRowReader {
    /// A launch with more events, or more bytes of packs, than this is read from its rows, which
    /// stream: its packs are decoded whole before its first event is passed on (so that a pack
    /// that does not decode gives way to the rows), which holds about 250 bytes an event.
    static let largestPackedLaunch = (events: Int64(1 << 16), bytes: 1 << 24)

    private enum LaunchColumn {
        static let device: Int32 = 0, id: Int32 = 1, name: Int32 = 2, events: Int32 = 3, context: Int32 = 4
        /// The envelope: app, app_version, os, model, process.
        static let envelope: Int32 = 5
    }

    private enum EventColumn {
        static let rowID: Int32 = 0, ts: Int32 = 1, seq: Int32 = 2, mono: Int32 = 3, event: Int32 = 4
        static let context: Int32 = 5, phase: Int32 = 6, reason: Int32 = 7, cause: Int32 = 8, task: Int32 = 9
        static let identifier: Int32 = 10, call: Int32 = 11, success: Int32 = 12, result: Int32 = 13
        static let attrs: Int32 = 14
    }

    /// One statement for every device, or one per group of the devices selected, in name order.
    private let launchStatements: [Statement]
    private let events: Statement
    private let packs: Statement
    private let contexts: StoredContexts
    /// The files cut short (`files.truncated`), and the file of an event row and of a launch's
    /// last event row: a launch whose last event lies in such a file was cut short. A launch read
    /// from its packs knows its last row's id, and the lookup of that row alone measured faster
    /// (1–3% of `check` on the field-like store) than the launch's last row found by range.
    private let cutFiles: Set<Int64>
    private let fileOfRow: Statement
    private let fileOfLastRow: Statement
    /// The packs of the launch being read, copied out of SQLite's buffers (a launch stored over
    /// several ingests has several), and the values of their events.
    private var packed: [UInt8] = []
    /// Where each of those packs ends in `packed`: each is decoded from its own start.
    private var packEnds: [Int] = []
    private var unpacked: [StoredEventValues] = []
    /// What a new slot of `unpacked` holds before a record is decoded into it.
    private static var unread: StoredEventValues {
        StoredEventValues(rowID: 0, ts: 0, contextID: 0, name: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    init(db: Database, devices: Store.DeviceSelection) throws {
        let groups = devices.nameGroups ?? [[]]
        launchStatements = try groups.map { names in
            let filter = devices == .all ? "" : "WHERE d.name IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
            let statement = try db.makeStatement(sql: """
                SELECT d.name, l.id, l.name, l.events, l.context_id, l.app, l.app_version, l.os, l.model, l.process
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
        packs = try db.makeStatement(sql: "SELECT events, packed FROM event_packs WHERE launch_id = ? ORDER BY id")
        self.contexts = StoredContexts(try Self.contexts(in: db))
        cutFiles = Set(try Int64.fetchAll(db, sql: "SELECT id FROM files WHERE truncated = 1"))
        fileOfRow = try db.makeStatement(sql: "SELECT file_id FROM event_rows WHERE id = ?")
        fileOfLastRow = try db.makeStatement(
            sql: "SELECT file_id FROM event_rows WHERE id >= ?1 AND id < ?2 ORDER BY id DESC LIMIT 1")
    }

    /// The envelope of the launch row `stmt` stands on, read by length as the contexts are.
    private static func envelope(_ stmt: OpaquePointer) -> StoredContext {
        let text = { ExactStatement.text(stmt, LaunchColumn.envelope + $0) }
        return StoredContext(app: text(0), appVersion: text(1), os: text(2), model: text(3), process: text(4))
    }

    /// Every context, its texts read by length so that a NUL inside one survives.
    private static func contexts(in db: Database) throws -> [Int64: StoredContext] {
        let statement = try db.makeStatement(sql: "SELECT id, app, app_version, os, model, process FROM contexts")
        let stmt = statement.sqliteStatement
        var contexts: [Int64: StoredContext] = [:]
        while try step(stmt, reading: "contexts for replay") {
            let text = { ExactStatement.text(stmt, $0) }
            contexts[sqlite3_column_int64(stmt, 0)] = StoredContext(
                app: text(1), appVersion: text(2), os: text(3), model: text(4), process: text(5))
        }
        return contexts
    }

    /// Passes every event to `body`, and says which launches were cut short to `cutShort` (device
    /// and launch name), each before the launch's first event.
    mutating func run(_ body: (StoredRow) throws -> Void, cutShort: (String, String) throws -> Void) throws -> Int {
        var count = 0
        for statement in launchStatements {
            let launches = statement.sqliteStatement
            while try Self.step(launches, reading: "launches for replay") {
                let id = sqlite3_column_int64(launches, LaunchColumn.id)
                let device = ExactStatement.text(launches, LaunchColumn.device) ?? ""
                let name = ExactStatement.text(launches, LaunchColumn.name) ?? ""
                let expected = sqlite3_column_int64(launches, LaunchColumn.events)
                // The launch's envelope (``LaunchEnvelope``), nil for a launch row with no events.
                let envelope = sqlite3_column_type(launches, LaunchColumn.context) == SQLITE_NULL
                    ? nil : Self.envelope(launches)
                if try readPacks(ofLaunch: id, expecting: expected), let read = try replayPacked(
                    ofLaunch: id, expecting: expected, device: device, name: name, envelope: envelope, body,
                    cutShort: cutShort) {
                    count += read
                } else {
                    if try lastFileWasCut(ofLaunch: id) { try cutShort(device, name) }
                    count += try readRows(ofLaunch: id, device: device, name: name, envelope: envelope, body)
                }
            }
        }
        return count
    }

    /// Reads a launch's packs; true if they say they hold exactly the `expected` events the launch
    /// row counts (false for a launch stored, or begun, before packs existed, for one whose
    /// event rows were changed by hand, and for one larger than ``largestPackedLaunch``).
    private mutating func readPacks(ofLaunch id: Int64, expecting expected: Int64) throws -> Bool {
        guard expected > 0, expected <= Self.largestPackedLaunch.events else { return false }
        let stmt = packs.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, id)
        packed.removeAll(keepingCapacity: true)
        packEnds.removeAll(keepingCapacity: true)
        var events: Int64 = 0
        while try Self.step(stmt, reading: "packed events for replay") {
            events &+= sqlite3_column_int64(stmt, 0)
            let count = Int(sqlite3_column_bytes(stmt, 1))
            guard packed.count + count <= Self.largestPackedLaunch.bytes else { return false }
            if let blob = sqlite3_column_blob(stmt, 1) {
                packed.append(contentsOf: UnsafeRawBufferPointer(start: blob, count: count))
            }
            packEnds.append(packed.count)
        }
        return events == expected
    }

    /// Passes the events of the packs ``readPacks(ofLaunch:expecting:)`` read to `body`, in row id
    /// order, and returns how many; nil, before passing any, if the packs do not decode into that
    /// many events of this launch, each once: the caller then reads the launch's rows.
    private mutating func replayPacked(
        ofLaunch id: Int64, expecting expected: Int64, device: String, name: String, envelope: StoredContext?,
        _ body: (StoredRow) throws -> Void, cutShort: (String, String) throws -> Void
    ) throws -> Int? {
        let range = EventIdentity.launchStart(id) ..< EventIdentity.launchEnd(id)
        return try packed.withUnsafeBytes { bytes -> Int? in
            // The slots of `unpacked` are reused launch after launch: each record is decoded into
            // the next one, whatever it held, and the array grows only past its largest launch.
            var count = 0
            var sorted = true
            var start = 0
            for end in packEnds {
                var decoder = EventPackDecoder(UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
                start = end
                do {
                    while true {
                        if count == unpacked.count { unpacked.append(Self.unread) }
                        guard try decoder.next(into: &unpacked[count]) else { break }
                        let rowID = unpacked[count].rowID
                        guard range.contains(rowID) else { return nil }
                        if count > 0, unpacked[count - 1].rowID >= rowID { sorted = false }
                        count += 1
                    }
                } catch {
                    return nil
                }
            }
            guard count == expected, count > 0 else { return nil }
            if !sorted {
                unpacked[..<count].sort { $0.rowID < $1.rowID }
                guard (1 ..< count).allSatisfy({ unpacked[$0 - 1].rowID < unpacked[$0].rowID }) else { return nil }
            }
            if try fileWasCut(ofRow: unpacked[count - 1].rowID) { try cutShort(device, name) }
            let launch = StoredLaunch(
                id: id, device: device, name: name, context: envelope, contexts: contexts)
            for index in 0 ..< count { try body(StoredRow(unpacked[index], launch: launch)) }
            return count
        }
    }

    /// Whether event row `rowID` came from a file cut short; asked only of a store with one.
    private func fileWasCut(ofRow rowID: Int64) throws -> Bool {
        guard !cutFiles.isEmpty else { return false }
        let stmt = fileOfRow.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, rowID)
        return try Self.step(stmt, reading: "the file of an event") && cutFiles.contains(sqlite3_column_int64(stmt, 0))
    }

    /// Whether the last event row of launch `id` came from a file cut short.
    private func lastFileWasCut(ofLaunch id: Int64) throws -> Bool {
        guard !cutFiles.isEmpty else { return false }
        let stmt = fileOfLastRow.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, EventIdentity.launchStart(id))
        sqlite3_bind_int64(stmt, 2, EventIdentity.launchEnd(id))
        return try Self.step(stmt, reading: "the file of a launch's last event")
            && cutFiles.contains(sqlite3_column_int64(stmt, 0))
    }

    /// Reads one launch's event rows (their row ids hold its id in their high 32 bits); the
    /// launch's context is `envelope` (see ``LaunchEnvelope``: a launch is one process).
    private func readRows(
        ofLaunch id: Int64, device: String, name: String, envelope: StoredContext?, _ body: (StoredRow) throws -> Void
    ) throws -> Int {
        let stmt = events.sqliteStatement
        sqlite3_reset(stmt)
        sqlite3_bind_int64(stmt, 1, EventIdentity.launchStart(id))
        sqlite3_bind_int64(stmt, 2, EventIdentity.launchEnd(id))
        var launch: StoredLaunch?
        var count = 0
        while try Self.step(stmt, reading: "events for replay") {
            let values = Self.values(stmt)
            let current = launch ?? StoredLaunch(
                id: id, device: device, name: name, context: envelope, contexts: contexts)
            launch = current
            count += 1
            try body(StoredRow(values, launch: current))
        }
        return count
    }

    /// The values of the event row `stmt` stands on.
    private static func values(_ stmt: OpaquePointer) -> StoredEventValues {
        var values = StoredEventValues(
            rowID: sqlite3_column_int64(stmt, EventColumn.rowID), ts: sqlite3_column_int64(stmt, EventColumn.ts),
            contextID: sqlite3_column_int64(stmt, EventColumn.context),
            name: text(stmt, EventColumn.event) ?? UnsafeRawBufferPointer(start: nil, count: 0))
        values.fields.seq = ExactStatement.integer(stmt, EventColumn.seq)
        values.fields.mono = sqlite3_column_type(stmt, EventColumn.mono) == SQLITE_NULL
            ? nil : sqlite3_column_double(stmt, EventColumn.mono)
        values.fields.task = ExactStatement.integer(stmt, EventColumn.task)
        values.fields.success = ExactStatement.integer(stmt, EventColumn.success).map { $0 != 0 }
        values.fields.phase = text(stmt, EventColumn.phase)
        values.fields.reason = text(stmt, EventColumn.reason)
        values.fields.cause = text(stmt, EventColumn.cause)
        values.fields.identifier = text(stmt, EventColumn.identifier)
        values.fields.call = text(stmt, EventColumn.call)
        values.fields.result = text(stmt, EventColumn.result)
        values.fields.attrs = text(stmt, EventColumn.attrs)
        return values
    }

    /// The UTF-8 bytes of a text column (nil for NULL), valid until the statement steps again.
    private static func text(_ stmt: OpaquePointer, _ column: Int32) -> UnsafeRawBufferPointer? {
        guard let pointer = sqlite3_column_text(stmt, column) else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(stmt, column)))
    }

    /// Steps a statement: true for a row, false when done.
    private static func step(_ stmt: OpaquePointer, reading what: String) throws -> Bool {
        let code = sqlite3_step(stmt)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading \(what)") }
        return true
    }
}
