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
            if !EventIdentity.identifiesBySeq(event.seq) || !launchEvents.isEmpty {
                // Events without seq sort by time among their launch (trace format: "else of ts"),
                // and those whose seq is too large for their row id by it: they are stored in the
                // order they came, so such a launch is gathered and sorted before it is replayed.
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
    ///
    /// `cutShort` hears of each launch whose last event lies in a file that was cut short
    /// (`files.truncated`), by device and launch name, before the launch's first event: the replay
    /// reports the work such a launch left open as cut short. Found as each launch is read, from
    /// the same state of the store as its events (a question of every launch before the replay
    /// began took a tenth of a second of 60,000 launches, with no other work beside it).
    @discardableResult
    public func forEachRow(
        devices: DeviceSelection = .all, _ body: (StoredRow) throws -> Void,
        cutShort: (_ device: String, _ launch: String) throws -> Void = { _, _ in }
    ) throws -> Int {
        try pool.read { db in
            var reader = try StoredRowReader(db: db, devices: devices)
            return try reader.run(body, cutShort: cutShort)
        }
    }
}

/// One launch as the rows of its events name it: its device, its id, and the context of its
/// envelope (``LaunchEnvelope``: a launch is one process).
public final class StoredLaunch: Sendable {
    /// The launch's row id in the store, which no other launch has.
    public let id: Int64
    public let device: String
    public let name: String
    /// Its envelope (`app`, `app_version`, `os`, `model`, `process`): its first event's, completed.
    public let context: StoredContext?
    public var process: String? { context?.process }
    /// Every context, for a row's own (held here so that a row holds one reference, not two).
    let contexts: StoredContexts

    init(id: Int64, device: String, name: String, context: StoredContext?, contexts: StoredContexts) {
        self.id = id
        self.device = device
        self.name = name
        self.context = context
        self.contexts = contexts
    }
}

/// The stored context of an event (`contexts` table).
public struct StoredContext: Sendable {
    public var app, appVersion, os, model, process: String?
}

/// Every stored context by id, read once per replay.
final class StoredContexts: Sendable {
    let byID: [Int64: StoredContext]

    init(_ byID: [Int64: StoredContext]) {
        self.byID = byID
    }
}

/// One stored event's values, its texts pointing into SQLite's buffers or into a pack's bytes,
/// valid only during the call that receives them.
struct StoredEventValues {
    var fields: RawEventFields
    var contextID: Int64

    /// The row id (always read, so never nil in ``fields``).
    var rowID: Int64 { fields.rowID ?? 0 }

    init(rowID: Int64, ts: Int64, contextID: Int64, name: UnsafeRawBufferPointer) {
        self.contextID = contextID
        fields = RawEventFields(
            ts: Timestamp(microseconds: ts), mono: nil, seq: nil, task: nil, rowID: rowID, success: nil, name: name,
            phase: nil, reason: nil, cause: nil, identifier: nil, call: nil, result: nil, attrs: nil)
    }
}

/// One stored event, valid only during the call that receives it: its texts are read as they
/// are stored, with no `String` made.
///
/// Read with the C API or from the launch's pack (``EventPack``): building an event per row is
/// the replay's hot loop, and GRDB's `Row` would copy each value into a `DatabaseValue` first.
public struct StoredRow {
    /// The event columns that hold text.
    public enum TextColumn {
        case event, phase, reason, cause, identifier, call, result, attrs
    }

    /// The event's fields, as read (its `kind` set when a pack wrote the name as one), its texts
    /// valid until the next row is read.
    public let fields: RawEventFields
    private let contextID: Int64
    /// The launch the row belongs to (the same object for every row of a launch).
    public let launch: StoredLaunch

    init(_ values: StoredEventValues, launch: StoredLaunch) {
        fields = values.fields
        contextID = values.contextID
        self.launch = launch
    }

    /// The row's own context (`app`, `app_version`, `os`, `model`, `process`).
    public var context: StoredContext? { launch.contexts.byID[contextID] }

    public var rowID: Int64 { fields.rowID ?? 0 }

    /// The UTF-8 bytes of a text column (nil for NULL), valid until the next row is read.
    public func bytes(_ column: TextColumn) -> UnsafeRawBufferPointer? {
        switch column {
        case .event: fields.name
        case .phase: fields.phase
        case .reason: fields.reason
        case .cause: fields.cause
        case .identifier: fields.identifier
        case .call: fields.call
        case .result: fields.result
        case .attrs: fields.attrs
        }
    }
}

/// Makes ``Event``s of stored rows, reusing one `String` per distinct short text.
private struct StoredEventBuilder {
    private var interner = TextInterner()

    /// The envelope is the launch's, else the row's own, as the `events` view gives it (`process`
    /// the launch's alone: one launch is one process).
    mutating func event(_ row: StoredRow) -> Event {
        let own = row.context
        let launch = row.launch.context
        let fields = row.fields
        return Event(
            ts: fields.ts, device: row.launch.device, launch: row.launch.name,
            name: interned(row, .event) ?? "", seq: fields.seq, mono: fields.mono,
            app: launch?.app ?? own?.app, appVersion: launch?.appVersion ?? own?.appVersion, os: launch?.os ?? own?.os,
            model: launch?.model ?? own?.model, process: launch.map(\.process) ?? own?.process,
            phase: interned(row, .phase), reason: interned(row, .reason),
            cause: interned(row, .cause), task: fields.task, identifier: interned(row, .identifier),
            call: fields.call.map { String(decoding: $0, as: UTF8.self) }, success: fields.success,
            result: interned(row, .result), attrs: fields.attrs.map { String(decoding: $0, as: UTF8.self) },
            rowID: row.rowID)
    }

    private mutating func interned(_ row: StoredRow, _ column: StoredRow.TextColumn) -> String? {
        row.bytes(column).map { interner.string($0) }
    }
}
