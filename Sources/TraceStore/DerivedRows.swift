#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite
import TraceModel

/// The rows of the derived tables (`launches`, `intervals`, `tasks`, `requests`) that one replay
/// makes, held until ``Store/saveRun(_:devices:count:findings:derived:)`` writes them with the
/// run's findings.
///
/// A replay of a fleet makes one record per launch, callback, piece of work and task request —
/// millions — so each record is turned at once into the values of its row, as compact bytes, and
/// the bytes go, a megabyte at a time, to an unlinked temporary file (as ``FindingLog`` keeps
/// findings): memory stays flat however many there are. The save binds each value straight from
/// those bytes, with no `String` or record made in between: making them back was a third of what
/// writing the tables cost.
public final class DerivedRows {
    /// How many records were added.
    public private(set) var count = 0
    /// Encoded rows not yet written to the spill file.
    private var buffer: [UInt8] = []
    private var spill: UnsafeMutablePointer<FILE>?
    private let flushBytes: Int

    /// `flushBytes`: how many bytes of rows are held before they go to the spill file.
    public init(flushBytes: Int = 1 << 20) {
        self.flushBytes = max(64, flushBytes)
        buffer.reserveCapacity(self.flushBytes + 1024)
    }

    /// The rows of an array of records, for tests and small callers.
    public convenience init(_ records: [DerivedRecord]) throws {
        self.init()
        for record in records { try append(record) }
    }

    deinit {
        if let spill { fclose(spill) }
    }

    /// Adds the row of `record`; throws when the spill file cannot be written (a full disk).
    public func append(_ record: DerivedRecord) throws(DerivedRowsError) {
        DerivedRow.append(record, to: &buffer)
        count += 1
        if buffer.count >= flushBytes { try flush() }
    }

    private func flush() throws(DerivedRowsError) {
        if spill == nil { spill = try Self.temporaryFile() }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, spill) }
        guard written == buffer.count else { throw .unwritable(errno) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every encoded row, in the order the records were added: the bytes of one
    /// row (its table's tag, then its values), valid only during the call.
    func forEachRow(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let spill {
            guard fflush(spill) == 0, fseeko(spill, 0, SEEK_SET) == 0 else { throw DerivedRowsError.unreadable(errno) }
            try readSpilled(from: spill, body)
            guard fseeko(spill, 0, SEEK_END) == 0 else { throw DerivedRowsError.unreadable(errno) }
        }
        try buffer.withUnsafeBytes { bytes in
            let rest = try Self.rows(in: bytes, body)
            guard rest == bytes.count else { throw DerivedRowsError.unreadable(0) }
        }
    }

    /// Calls `body` with each whole row at the start of `bytes`; returns where the first row not
    /// wholly in `bytes` begins.
    private static func rows(in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
            guard bytes.count - offset - 4 >= length else { break }
            try body(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4) ..< (offset + 4 + length)]))
            offset += 4 + length
        }
        return offset
    }

    /// Reads back the spill file a chunk at a time; a row cut by a chunk's end is moved to the
    /// front and completed by the next read.
    private func readSpilled(from file: UnsafeMutablePointer<FILE>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: max(flushBytes, 1 << 16))
        var filled = 0
        while true {
            let read = chunk.withUnsafeMutableBytes { bytes in
                fread(bytes.baseAddress.map { $0 + filled }, 1, bytes.count - filled, file)
            }
            if read == 0, ferror(file) != 0 { throw DerivedRowsError.unreadable(errno) }
            filled += read
            let used = try chunk.withUnsafeBytes { bytes in
                try Self.rows(in: UnsafeRawBufferPointer(rebasing: bytes[0 ..< filled]), body)
            }
            if used > 0 {
                chunk.withUnsafeMutableBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    memmove(base, base + used, filled - used)
                }
                filled -= used
            }
            if read == 0 {
                guard filled == 0 else { throw DerivedRowsError.unreadable(0) }
                return
            }
            // A row larger than the chunk (a text of megabytes from input): grow to hold it.
            if filled == chunk.count { chunk += [UInt8](repeating: 0, count: chunk.count) }
        }
    }

    /// A new file in `TMPDIR` (or `/tmp`), unlinked at once so that nothing is left behind
    /// however the process ends.
    private static func temporaryFile() throws(DerivedRowsError) -> UnsafeMutablePointer<FILE> {
        var template = Array("\(DerivedRowsError.temporaryDirectory)/lifeline-derived-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw .unwritable(errno) }
        template.withUnsafeBufferPointer { buffer in
            if let path = buffer.baseAddress { unlink(path) }
        }
        guard let file = fdopen(descriptor, "w+") else {
            close(descriptor)
            throw .unwritable(errno)
        }
        return file
    }
}

/// Why a ``DerivedRows`` could not keep or give back its rows.
public enum DerivedRowsError: Error, CustomStringConvertible {
    case unwritable(Int32)
    case unreadable(Int32)

    public var description: String {
        switch self {
        case .unwritable(let code):
            "could not write the derived tables' rows to a temporary file (\(String(cString: strerror(code)))): free space in \(Self.temporaryDirectory) or set TMPDIR"
        case .unreadable(let code):
            "could not read the derived tables' rows back from their temporary file (\(String(cString: strerror(code))))"
        }
    }

    static var temporaryDirectory: String { getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp" }
}

/// One derived record as the values of its row, in the column order of its table's insert
/// (``DerivedTables/Writer``): a 4-byte length, the table's tag, then each value as a type byte
/// and its bytes. A launch is named by its number and a finding by its number in the replay,
/// which the save turns into row ids; the run's id is filled in by the save.
enum DerivedRow {
    enum Table: UInt8 {
        case launches = 1, intervals, tasks, requests
    }

    enum Value: UInt8 {
        case null = 0, integer, real, text
        /// A launch's number (``LaunchRecord/number``): bound as its row id.
        case launch
        /// A finding's number in the replay: bound as its row id.
        case finding
        /// The run's id.
        case run
    }

    static func append(_ record: DerivedRecord, to bytes: inout [UInt8]) {
        var row = Encoder(bytes: bytes)
        bytes = []
        let start = row.begin()
        switch record {
        case .launch(let r):
            row.table(.launches)
            row.launch(r.number)
            row.run()
            row.text(r.device)
            row.text(r.launch)
            row.text(r.app)
            row.text(r.appVersion)
            row.text(r.os)
            row.text(r.model)
            row.text(r.process)
            row.integer(r.firstTS.microseconds)
            row.integer(r.lastTS.microseconds)
            row.text(r.started)
            row.text(r.cause)
            row.text(r.ended.rawValue)
            row.text(r.endReason)
            row.text(r.endState)
            row.real(r.foregroundSeconds)
            row.real(r.backgroundSeconds)
            row.real(r.suspendedSeconds)
            row.integer(r.logCutShort ? 1 : 0)
        case .interval(let r):
            row.table(.intervals)
            row.launch(r.launch)
            row.text(r.callback)
            row.text(r.scene)
            row.integer(r.begin.microseconds)
            row.integer(r.end?.microseconds)
            row.text(r.outcome.rawValue)
            row.real(r.seconds)
            row.text(r.budget)
            row.real(r.budgetSeconds)
            row.flag(r.overBudget)
        case .task(let r):
            row.table(.tasks)
            row.launch(r.launch)
            row.text(r.kind.rawValue)
            row.integer(r.task)
            row.text(r.call)
            row.text(r.identifier)
            row.integer(r.opened.microseconds)
            row.integer(r.closed?.microseconds)
            row.integer(r.expired?.microseconds)
            row.text(r.outcome.rawValue)
            row.real(r.seconds)
            row.text(r.budget)
            row.real(r.budgetSeconds)
            row.real(r.measured)
            row.flag(r.overBudget)
            row.finding(r.findingNumber)
            row.text(r.findingRule)
        case .request(let r):
            row.table(.requests)
            row.launch(r.launch)
            row.text(r.identifier)
            row.text(r.type)
            row.integer(r.submitted.microseconds)
            row.integer(r.earliestBegin?.microseconds)
            row.flag(r.requiresPower)
            row.flag(r.requiresNetwork)
            row.text(r.outcome.rawValue)
            row.text(r.error)
            row.integer(r.ended?.microseconds)
            row.launch(r.ranIn)
            row.integer(r.task)
            row.real(r.waitSeconds)
        }
        row.end(start)
        bytes = row.bytes
    }

    private struct Encoder {
        var bytes: [UInt8]

        mutating func begin() -> Int {
            let start = bytes.count
            bytes.append(contentsOf: [0, 0, 0, 0])
            return start
        }

        mutating func end(_ start: Int) {
            let length = UInt32(truncatingIfNeeded: bytes.count - start - 4)
            for index in 0 ..< 4 { bytes[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        }

        mutating func table(_ table: Table) { bytes.append(table.rawValue) }
        mutating func run() { bytes.append(Value.run.rawValue) }

        private mutating func word(_ type: Value, _ value: UInt64) {
            bytes.append(type.rawValue)
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func integer(_ value: Int64?) {
            guard let value else { return bytes.append(Value.null.rawValue) }
            word(.integer, UInt64(bitPattern: value))
        }

        mutating func flag(_ value: Bool?) { integer(value.map { $0 ? 1 : 0 }) }

        /// NaN is no value; ±∞ is kept as the largest finite number (SQLite has no infinity).
        mutating func real(_ value: Double?) {
            guard let value, !value.isNaN else { return bytes.append(Value.null.rawValue) }
            let finite = value.isFinite ? value : value < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude
            word(.real, finite.bitPattern)
        }

        mutating func launch(_ number: Int?) {
            guard let number else { return bytes.append(Value.null.rawValue) }
            word(.launch, UInt64(bitPattern: Int64(number)))
        }

        mutating func finding(_ number: Int?) {
            guard let number else { return bytes.append(Value.null.rawValue) }
            word(.finding, UInt64(bitPattern: Int64(number)))
        }

        /// A text of more than 4 GiB cannot come from a line of input; it would be cut, not trap.
        mutating func text(_ value: String?) {
            guard var value else { return bytes.append(Value.null.rawValue) }
            bytes.append(Value.text.rawValue)
            value.withUTF8 { utf8 in
                let count = UInt32(truncatingIfNeeded: utf8.count)
                withUnsafeBytes(of: count.littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8.prefix(Int(count))))
            }
        }
    }
}
