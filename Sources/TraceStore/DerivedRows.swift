#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TraceModel

/// Turns derived records into the values of their rows, as compact bytes (``DerivedRow``), and
/// hands them on a chunk at a time: a replay of a fleet makes one record per launch, callback,
/// piece of work and task request — millions — and a chunk of two megabytes (some 20,000 rows) is
/// what a ``DerivedStage`` writes in one transaction. Memory is one chunk, however many there are.
///
/// Written for the replay's hot path: the bytes go into a buffer of its own with no per-value
/// bounds bookkeeping beyond one capacity check (appending them to an `Array` took half the
/// replay's cost of making records).
public final class DerivedRows {
    /// How many records were added.
    @exclusivity(unchecked) public private(set) var count = 0
    private let chunkBytes: Int
    private let handOver: (DerivedChunk) throws -> Void
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var rowsHeld = 0
    private var findingCounts = LaunchFindingCounts()
    /// Where a JSON array is written before it is put as a text, reused row after row.
    private var scratch: [UInt8] = []

    /// `chunk` receives every `chunkBytes` or so of rows, in order, and the rest at ``flush()``.
    public init(chunkBytes: Int = 1 << 21, chunk: @escaping (DerivedChunk) throws -> Void) {
        self.chunkBytes = max(64, chunkBytes)
        handOver = chunk
        capacity = self.chunkBytes + 4096
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        buffer.deallocate()
    }

    /// Adds the row of `record`.
    public func append(_ record: DerivedRecord) throws {
        switch record {
        case .launch(let r): try append(r)
        case .interval(let r): try append(r)
        case .task(let r): try append(r)
        case .request(let r): try append(r)
        }
    }

    public func append(_ record: borrowing LaunchRecord) throws {
        let findings = findingCounts.writing(number: record.number, device: record.device, launch: record.launch)
        DerivedRow.Encoder(rows: self).encode(record, findings: findings)
        try added()
    }

    /// Counts a finding of the run in its launch's row (see ``LaunchFindingCounts``): the rows of
    /// that launch written before it are corrected.
    public func found(device: String, launch: String) throws {
        let (rows, count) = findingCounts.found(device: device, launch: launch)
        for number in rows {
            DerivedRow.Encoder(rows: self).encodeCorrection(launch: number, findings: count)
            rowsHeld += 1
        }
        if used >= chunkBytes { try flush() }
    }

    /// Adds the row of a finding of run being saved, its explanation (if any) already a row id.
    func append(_ finding: borrowing Finding, explainedBy: Int64?) throws {
        DerivedRow.Encoder(rows: self).encode(finding, explainedBy: explainedBy)
        try added()
    }

    public func append(_ record: borrowing IntervalRecord) throws {
        DerivedRow.Encoder(rows: self).encode(record)
        try added()
    }

    public func append(_ record: borrowing TaskRecord) throws {
        DerivedRow.Encoder(rows: self).encode(record)
        try added()
    }

    public func append(_ record: borrowing RequestRecord) throws {
        DerivedRow.Encoder(rows: self).encode(record)
        try added()
    }

    @inline(__always)
    private func added() throws {
        count += 1
        rowsHeld += 1
        if used >= chunkBytes { try flush() }
    }

    /// Hands over the rows held, if any.
    public func flush() throws {
        guard rowsHeld > 0 else { return }
        let chunk = DerivedChunk(bytes: Array(UnsafeRawBufferPointer(start: buffer, count: used)), rows: rowsHeld)
        used = 0
        rowsHeld = 0
        try handOver(chunk)
    }

    /// Room for `bytes` more; grows (by doubling) only for a row larger than a chunk.
    @inline(__always)
    fileprivate func reserve(_ bytes: Int) {
        guard capacity - used < bytes else { return }
        let grown = max(capacity * 2, used + bytes)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: buffer, byteCount: used)
        buffer.deallocate()
        buffer = larger
        capacity = grown
    }

    @inline(__always)
    fileprivate func put(_ byte: UInt8) {
        reserve(1)
        buffer.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
        used += 1
    }

    @inline(__always)
    fileprivate func put(_ type: DerivedRow.Value, _ word: UInt64) {
        reserve(9)
        buffer.storeBytes(of: type.rawValue, toByteOffset: used, as: UInt8.self)
        buffer.storeBytes(of: word.littleEndian, toByteOffset: used + 1, as: UInt64.self)
        used += 9
    }

    @inline(__always)
    fileprivate func put(text bytes: UnsafeRawBufferPointer) {
        // A text of more than 4 GiB cannot come from a line of input; it would be cut, not trap.
        let count = min(bytes.count, Int(UInt32.max))
        reserve(5 + count)
        buffer.storeBytes(of: DerivedRow.Value.text.rawValue, toByteOffset: used, as: UInt8.self)
        buffer.storeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian, toByteOffset: used + 1, as: UInt32.self)
        if let base = bytes.baseAddress, count > 0 { (buffer + used + 5).copyMemory(from: base, byteCount: count) }
        used += 5 + count
    }

    /// A text of the JSON array of `values` (`[1,null,3]`).
    fileprivate func put(jsonArray values: some Sequence<Int64?>) {
        scratch.removeAll(keepingCapacity: true)
        Store.appendJSONArray(values, to: &scratch)
        scratch.withUnsafeBytes { put(text: $0) }
    }

    fileprivate func put(periods: [BackgroundPeriod]) {
        reserve(5 + 9 * periods.count)
        buffer.storeBytes(of: DerivedRow.Value.periods.rawValue, toByteOffset: used, as: UInt8.self)
        buffer.storeBytes(of: UInt32(truncatingIfNeeded: periods.count).littleEndian, toByteOffset: used + 1, as: UInt32.self)
        used += 5
        for period in periods {
            buffer.storeBytes(of: period.seconds.bitPattern.littleEndian, toByteOffset: used, as: UInt64.self)
            let ended: UInt8 = switch period.ended {
            case .suspended: 0
            case .foreground: 1
            case .terminated: 2
            case .logEnded: 3
            }
            buffer.storeBytes(of: ended, toByteOffset: used + 8, as: UInt8.self)
            used += 9
        }
    }

    fileprivate func beginRow(_ table: DerivedRow.Table) -> Int {
        reserve(5)
        let start = used
        buffer.storeBytes(of: table.rawValue, toByteOffset: used + 4, as: UInt8.self)
        used += 5
        return start
    }

    fileprivate func endRow(_ start: Int) {
        let length = UInt32(truncatingIfNeeded: used - start - 4)
        buffer.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
    }
}

/// Encoded rows handed over by ``DerivedRows``, in order: each a 4-byte length, then its bytes.
public struct DerivedChunk: Sendable {
    public let bytes: [UInt8]
    /// How many rows it holds (a corrected count of findings is one).
    public let rows: Int
}

/// Why derived rows could not be read back: bytes that are not rows (never made by this process).
public enum DerivedRowsError: Error, CustomStringConvertible {
    case unreadable(Int32)

    public var description: String {
        switch self {
        case .unreadable: "the derived tables' rows could not be read back (internal error)"
        }
    }
}

/// One derived record as the values of its row, in the column order of its table's insert
/// (``DerivedTables/Writer``): a 4-byte length, the table's tag, then each value as a type byte
/// and its bytes. A launch is named by its number and a finding by its number in the replay,
/// which the stage and its publication turn into row ids; the run's id is filled in on publication.
enum DerivedRow {
    enum Table: UInt8, CaseIterable {
        case launches = 1, intervals, tasks, requests
        /// Not a row of its own: a launch's count of findings, corrected (``LaunchFindingCounts``).
        case launchFindings
        /// A row of `findings` itself, saved with its run (``Store/saveRun(_:devices:count:findings:derived:)``).
        case findings
    }

    enum Value: UInt8 {
        case null = 0, integer, real, text
        /// A launch's number (``LaunchRecord/number``): bound as its row id.
        case launch
        /// A finding's number in the replay: bound as its row id on publication.
        case finding
        /// The run's id, bound on publication.
        case run
        /// A launch's background periods: their count (4 bytes), then each one's seconds (a double)
        /// and how it ended (a byte: 0 suspended, 1 foreground, 2 terminated, 3 log ended).
        case periods
    }

    struct Encoder {
        let rows: DerivedRows

        init(rows: DerivedRows) {
            self.rows = rows
        }

        func encode(_ r: borrowing LaunchRecord, findings: Int) {
            let start = rows.beginRow(.launches)
            launch(r.number)
            rows.put(Value.run.rawValue)
            text(r.device)
            text(r.launch)
            text(r.app)
            text(r.appVersion)
            text(r.os)
            text(r.model)
            text(r.process)
            integer(r.firstTS.microseconds)
            integer(r.lastTS.microseconds)
            text(r.started)
            text(r.cause)
            text(r.ended.rawValue)
            text(r.endReason)
            text(r.endState)
            real(r.foregroundSeconds)
            real(r.backgroundSeconds)
            real(r.suspendedSeconds)
            rows.put(periods: r.backgroundPeriods)
            integer(r.logCutShort ? 1 : 0)
            integer(Int64(findings))
            rows.endRow(start)
        }

        /// A launch's row written before all of its findings were counted, and its count now.
        func encodeCorrection(launch number: Int, findings: Int) {
            let start = rows.beginRow(.launchFindings)
            launch(number)
            integer(Int64(findings))
            rows.endRow(start)
        }

        /// A finding's row, its reals bound as they are (a measurement is never clamped).
        func encode(_ f: borrowing Finding, explainedBy: Int64?) {
            let start = rows.beginRow(.findings)
            rows.put(Value.run.rawValue)
            text(f.rule)
            text(f.category.rawValue)
            text(f.severity.rawValue)
            text(f.device)
            text(f.launch)
            integer(f.ts.microseconds)
            rows.put(jsonArray: f.events.lazy.map(\.rowID))
            rows.put(jsonArray: f.events.lazy.map(\.seq))
            text(f.budget)
            exactReal(f.budgetSeconds)
            exactReal(f.measured)
            text(f.unit)
            text(f.message)
            integer(explainedBy)
            text(Store.factors(f.factors))
            rows.endRow(start)
        }

        func encode(_ r: borrowing IntervalRecord) {
            let start = rows.beginRow(.intervals)
            launch(r.launch)
            text(r.callback)
            text(r.scene)
            integer(r.begin.microseconds)
            integer(r.end?.microseconds)
            text(r.outcome.rawValue)
            real(r.seconds)
            text(r.budget)
            real(r.budgetSeconds)
            flag(r.overBudget)
            rows.endRow(start)
        }

        func encode(_ r: borrowing TaskRecord) {
            let start = rows.beginRow(.tasks)
            launch(r.launch)
            text(r.kind.rawValue)
            integer(r.task)
            text(r.call)
            text(r.identifier)
            integer(r.opened.microseconds)
            integer(r.closed?.microseconds)
            integer(r.expired?.microseconds)
            text(r.outcome.rawValue)
            real(r.seconds)
            text(r.budget)
            real(r.budgetSeconds)
            real(r.measured)
            flag(r.overBudget)
            finding(r.findingNumber)
            text(r.findingRule)
            rows.endRow(start)
        }

        func encode(_ r: borrowing RequestRecord) {
            let start = rows.beginRow(.requests)
            launch(r.launch)
            text(r.identifier)
            text(r.type)
            integer(r.submitted.microseconds)
            integer(r.earliestBegin?.microseconds)
            flag(r.requiresPower)
            flag(r.requiresNetwork)
            text(r.outcome.rawValue)
            text(r.error)
            integer(r.ended?.microseconds)
            launch(r.ranIn)
            integer(r.task)
            real(r.waitSeconds)
            rows.endRow(start)
        }

        private func integer(_ value: Int64?) {
            guard let value else { return rows.put(Value.null.rawValue) }
            rows.put(.integer, UInt64(bitPattern: value))
        }

        private func flag(_ value: Bool?) { integer(value.map { $0 ? 1 : 0 }) }

        /// NaN is no value; ±∞ is kept as the largest finite number (SQLite has no infinity).
        private func real(_ value: Double?) {
            guard let value, !value.isNaN else { return rows.put(Value.null.rawValue) }
            let finite = value.isFinite ? value : value < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude
            rows.put(.real, finite.bitPattern)
        }

        /// NaN is no value, as SQLite stores it.
        private func exactReal(_ value: Double?) {
            guard let value, !value.isNaN else { return rows.put(Value.null.rawValue) }
            rows.put(.real, value.bitPattern)
        }

        private func launch(_ number: Int?) {
            guard let number else { return rows.put(Value.null.rawValue) }
            rows.put(.launch, UInt64(bitPattern: Int64(number)))
        }

        private func finding(_ number: Int?) {
            guard let number else { return rows.put(Value.null.rawValue) }
            rows.put(.finding, UInt64(bitPattern: Int64(number)))
        }

        private func text(_ value: String?) {
            guard let value else { return rows.put(Value.null.rawValue) }
            // Native and literal strings lend their bytes as they are; another (bridged) one is copied.
            if value.utf8.withContiguousStorageIfAvailable({ rows.put(text: UnsafeRawBufferPointer($0)) }) == nil {
                var copy = value
                copy.withUTF8 { rows.put(text: UnsafeRawBufferPointer($0)) }
            }
        }
    }
}
