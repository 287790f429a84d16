import TraceModel

/// A launch's events packed into one blob (`event_packs.packed`), written by the ingest beside
/// the event rows in the same transaction, so that `check` reads a launch with one row instead of
/// one per event (see README, "Performance").
///
/// The rows stay the truth: the reader uses a launch's packs only when they hold exactly as many
/// events as the launch row counts (`launch_rows.events`), and reads its rows otherwise — a store
/// made before packs existed, a launch begun before an upgrade, a pack that does not decode, or
/// event rows changed by hand (a trigger drops the launch's packs).
///
/// An event is a record of:
/// - its row id and its time, each a zigzag varint of the difference from the previous record's;
/// - its context id, a zigzag varint;
/// - its flags (a varint; ``Flag``), which say which optional values follow;
/// - its name: a known one as a varint, its number in ``EventPack/numberedNames`` (flag
///   ``Flag/kind``), any other as a varint length and its UTF-8 bytes;
/// - `seq` and `task` as zigzag varints, `mono` as the 8 bytes of its bit pattern, then
///   `phase`, `reason`, `cause`, `identifier`, `call`, `result` and `attrs` as a varint length and
///   their bytes, each only if its flag is set.
///
/// Each value is what SQLite gives back for the row: `mono` NaN is absent (SQLite stores NULL)
/// and -0 is 0 (SQLite stores an integral REAL as an integer).
enum EventPack {
    struct Flag: OptionSet {
        let rawValue: UInt64
        static let seq = Flag(rawValue: 1 << 0)
        static let mono = Flag(rawValue: 1 << 1)
        static let task = Flag(rawValue: 1 << 2)
        static let success = Flag(rawValue: 1 << 3)
        static let succeeded = Flag(rawValue: 1 << 4)
        static let phase = Flag(rawValue: 1 << 5)
        static let reason = Flag(rawValue: 1 << 6)
        static let cause = Flag(rawValue: 1 << 7)
        static let identifier = Flag(rawValue: 1 << 8)
        static let call = Flag(rawValue: 1 << 9)
        static let result = Flag(rawValue: 1 << 10)
        static let attrs = Flag(rawValue: 1 << 11)
        /// The name is written as its number in ``EventPack/numberedNames``.
        static let kind = Flag(rawValue: 1 << 12)
        /// Every flag a record may carry; a record with another is not one this build wrote.
        static let known = Flag(rawValue: (1 << 13) - 1)
    }

    /// The event names a pack writes as numbers, by number: the pack format's own list, append
    /// only, since packs an earlier version stored name their events by these positions. A kind
    /// this list lacks is packed as its name's text (a test holds every kind in the list).
    static let numberedNames: [String] = [
        "launch", "willFinishLaunching", "restoreState", "didFinishLaunching", "didBecomeActive",
        "willResignActive", "didEnterBackground", "willEnterForeground", "willTerminate", "memoryWarning",
        "snapshot", "suspend", "resume", "terminate", "beginBackgroundTask", "endBackgroundTask",
        "backgroundTaskExpired", "backgroundTimeRemaining", "expiringActivity", "config", "bgtask.register",
        "bgtask.submit", "bgtask.cancel", "bgtask.launch", "bgtask.expire", "bgtask.complete",
        "fetch.setMinimumInterval", "fetch.perform", "fetch.complete", "push.receive", "push.complete",
        "urlsession.create", "urlsession.handleEvents", "urlsession.didFinishEvents", "urlsession.complete",
        "nse.receive", "nse.timeWillExpire", "nse.contentHandler", "location.update", "power",
        "refreshStatus", "network", "scene.willConnect", "scene.willEnterForeground",
        "scene.didBecomeActive", "scene.willResignActive", "scene.didEnterBackground", "scene.didDisconnect",
        "resource.acquire", "resource.release", "urlsession.task.create",
        "urlsession.willBeginDelayedRequest", "urlsession.delayedRequest.complete",
        "urlsession.task.complete",
    ]

    /// What each number stands for: its kind, nil where this build knows no such kind (the name is
    /// then read as any other), and the UTF-8 bytes of its name, made once and kept for the life of
    /// the process, only read (so shared by every thread).
    nonisolated(unsafe) static let numbered: [(kind: EventKind?, name: UnsafeRawBufferPointer)] = numberedNames.map { name in
        let utf8 = Array(name.utf8)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(utf8.count, 1), alignment: 1)
        memory.copyBytes(from: utf8)
        let kind = EventKind(name: name)
        return (kind == .other ? nil : kind, UnsafeRawBufferPointer(rebasing: memory[..<utf8.count]))
    }

    /// The number of each kind, by its ``EventKind/ordinal``; nil for a kind packed as its text.
    static let numbers: [UInt64?] = EventKind.allCases.map { kind in
        numberedNames.firstIndex(of: kind.rawValue).map { UInt64($0) }
    }

    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// The value SQLite reads back for a `mono` stored in a REAL column.
    static func storedMono(_ mono: Double?) -> Double? {
        guard let mono, !mono.isNaN else { return nil }
        return mono == 0 ? 0 : mono
    }
}

extension EventPack {
    /// The most bytes a record adds beside its body: three varints.
    static let largestHead = 3 * 10

    /// Writes the body of an event's record — everything but its row id, time and context, which
    /// only the writing thread knows — on the thread that decoded it. Each text is read in place
    /// (``ByteBuffer/text(_:)``).
    static func appendBody(of event: borrowing Event, to buffer: ByteBuffer) {
        let mono = storedMono(event.mono)
        var flags: Flag = []
        let number = numbers[event.kind.ordinal]
        if number != nil { flags.insert(.kind) }
        if event.seq != nil { flags.insert(.seq) }
        if mono != nil { flags.insert(.mono) }
        if event.task != nil { flags.insert(.task) }
        if let success = event.success { flags.insert(success ? [.success, .succeeded] : .success) }
        if event.phase != nil { flags.insert(.phase) }
        if event.reason != nil { flags.insert(.reason) }
        if event.cause != nil { flags.insert(.cause) }
        if event.identifier != nil { flags.insert(.identifier) }
        if event.call != nil { flags.insert(.call) }
        if event.result != nil { flags.insert(.result) }
        if event.attrs != nil { flags.insert(.attrs) }
        // Four varints of at most 10 bytes (the flags, the name's number, seq, task) and mono's 8
        // bytes; each text makes room for itself.
        buffer.reserve(4 * 10 + 8)
        buffer.varint(flags.rawValue)
        if let number { buffer.varint(number) } else { buffer.text(event.name) }
        if let seq = event.seq { buffer.varint(zigzag(seq)) }
        if let mono { buffer.littleEndian(mono.bitPattern) }
        if let task = event.task { buffer.varint(zigzag(task)) }
        buffer.detailTexts(of: event)
    }
}

/// Packs the events a launch stores in one write, in the order they are stored: to each body
/// (``EventPack/appendBody(of:to:)``) it adds the row id, time and context.
final class EventPackEncoder {
    /// Packs larger than this are not written: their launches are read from their rows (the reader
    /// reads no launch whose packs are larger, ``StoredRowReader/largestPackedLaunch``), and no
    /// blob nears SQLite's length limit (a batch can hold many long lines of one launch).
    static let largestPack = StoredRowReader.largestPackedLaunch.bytes

    private let buffer = ByteBuffer()
    /// The events packed so far.
    private(set) var count = 0
    private var previousRowID: Int64 = 0
    private var previousTS: Int64 = 0

    var isEmpty: Bool { count == 0 }
    /// The bytes written, valid until the next append or reset.
    var bytes: UnsafeRawBufferPointer { buffer.bytes }

    func append(rowID: Int64, ts: Int64, contextID: Int64, body: UnsafeRawBufferPointer) {
        buffer.reserve(EventPack.largestHead + body.count)
        buffer.varint(EventPack.zigzag(rowID &- previousRowID))
        buffer.varint(EventPack.zigzag(ts &- previousTS))
        buffer.varint(EventPack.zigzag(contextID))
        buffer.copy(body)
        previousRowID = rowID
        previousTS = ts
        count += 1
    }

    /// Starts over, letting go of the memory.
    func reset() {
        buffer.removeAll()
        count = 0
        previousRowID = 0
        previousTS = 0
    }
}

/// Reads the records of packed events, checking every length against the bytes there are:
/// `next(into:)` returns false at the end and throws ``Malformed`` on bytes this build did not write.
struct EventPackDecoder {
    typealias Malformed = ByteReader.Malformed

    private var reader: ByteReader
    /// ``EventPack/numbered``, read once per pack rather than once per record.
    private let numbered = EventPack.numbered
    private var previousRowID: Int64 = 0
    private var previousTS: Int64 = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        reader = ByteReader(bytes)
    }

    /// Reads the next record's values into `values`, their texts pointing into the bytes; false
    /// past the last. In place, each field written once: a returned value (some 250 bytes) was
    /// copied four times on its way to the array the reader keeps, and a fresh one made and
    /// copied in was a third of the decoder's work. Every field is written, so nothing of the
    /// record the slot held before is left.
    mutating func next(into values: inout StoredEventValues) throws -> Bool {
        guard !reader.isAtEnd else { return false }
        previousRowID = previousRowID &+ EventPack.unzigzag(try reader.varint())
        previousTS = previousTS &+ EventPack.unzigzag(try reader.varint())
        values.fields.rowID = previousRowID
        values.fields.ts = Timestamp(microseconds: previousTS)
        values.contextID = EventPack.unzigzag(try reader.varint())
        let flags = EventPack.Flag(rawValue: try reader.varint())
        guard EventPack.Flag.known.isSuperset(of: flags) else { throw Malformed() }
        if flags.contains(.kind) {
            let number = try reader.varint()
            guard number < UInt64(numbered.count) else { throw Malformed() }
            (values.fields.kind, values.fields.name) = numbered[Int(number)]
        } else {
            values.fields.kind = nil
            values.fields.name = try reader.text()
        }
        values.fields.seq = flags.contains(.seq) ? EventPack.unzigzag(try reader.varint()) : nil
        values.fields.mono = flags.contains(.mono) ? Double(bitPattern: try reader.littleEndian(UInt64.self)) : nil
        values.fields.task = flags.contains(.task) ? EventPack.unzigzag(try reader.varint()) : nil
        values.fields.success = flags.contains(.success) ? flags.contains(.succeeded) : nil
        values.fields.phase = flags.contains(.phase) ? try reader.text() : nil
        values.fields.reason = flags.contains(.reason) ? try reader.text() : nil
        values.fields.cause = flags.contains(.cause) ? try reader.text() : nil
        values.fields.identifier = flags.contains(.identifier) ? try reader.text() : nil
        values.fields.call = flags.contains(.call) ? try reader.text() : nil
        values.fields.result = flags.contains(.result) ? try reader.text() : nil
        values.fields.attrs = flags.contains(.attrs) ? try reader.text() : nil
        return true
    }
}
