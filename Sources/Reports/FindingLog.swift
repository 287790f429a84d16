#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TraceModel

/// The findings of one replay, in the order they were reported, with their per-rule tally kept
/// as they come: what a report prints and a run records.
///
/// A fleet's replay can report hundreds of thousands of findings, so only the latest
/// ``memoryLimit`` are held in memory; older ones are written to an unlinked temporary file
/// and read back, in order, by ``forEach(_:)``. Memory stays flat however many there are.
///
/// Once nothing more is appended, several threads may read it at once (a check saves its
/// findings while it prints them): each ``forEach(_:)`` reads the file at offsets of its own.
public final class FindingLog: @unchecked Sendable {
    /// Findings held in memory before they go to the spill file.
    public let memoryLimit: Int
    public private(set) var count = 0
    /// Per rule: counts, devices, launches, the worst measurement and the first examples.
    public private(set) var tally = FindingTally()
    private var held: [Finding] = []
    private var spill: SpillFile?
    private var encoded: [UInt8] = []
    /// How much of the spill file a reader asks for at a time.
    private static let readSize = 1 << 20

    public init(memoryLimit: Int = 4096) {
        self.memoryLimit = max(1, memoryLimit)
    }

    /// A log of the findings of an array, held in memory.
    public convenience init(_ findings: [Finding]) {
        self.init(memoryLimit: max(1, findings.count))
        held = findings
        count = findings.count
        for finding in findings { tally.add(finding) }
    }

    public var isEmpty: Bool { count == 0 }

    /// Adds a finding; throws when the spill file cannot be written (a full disk).
    public func append(_ finding: Finding) throws(FindingLogError) {
        if held.count == memoryLimit { try spillHeld() }
        held.append(finding)
        count += 1
        tally.add(finding)
    }

    /// Calls `body` with every finding, in the order they were added.
    public func forEach(_ body: (Finding) throws -> Void) throws {
        if let spill { try Self.readSpilled(from: spill, body) }
        for finding in held { try body(finding) }
    }

    private func spillHeld() throws(FindingLogError) {
        let file: SpillFile
        if let spill {
            file = spill
        } else {
            do { file = try SpillFile(prefix: "lifeline-findings") } catch { throw .unwritable(SpillFile.code(of: error)) }
            spill = file
        }
        encoded.removeAll(keepingCapacity: true)
        for finding in held {
            let start = encoded.count
            encoded.append(contentsOf: [0, 0, 0, 0])
            FindingBytes.append(finding, to: &encoded)
            let length = UInt32(truncatingIfNeeded: encoded.count - start - 4)
            for index in 0 ..< 4 { encoded[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        }
        do { try encoded.withUnsafeBytes { bytes in try file.append(bytes) } } catch {
            throw .unwritable(SpillFile.code(of: error))
        }
        held.removeAll(keepingCapacity: true)
    }

    /// Reads back the records ``spillHeld()`` wrote (a 4-byte length, then the finding's bytes),
    /// a megabyte at a time, at offsets of this reader's own: nothing is shared between readers.
    private static func readSpilled(from file: SpillFile, _ body: (Finding) throws -> Void) throws {
        let size = file.size
        var buffer: [UInt8] = []
        // Where the next record begins in `buffer`, and how much of the file `buffer` has taken.
        var start = 0
        var taken = 0
        func make(available needed: Int) throws {
            guard buffer.count - start < needed else { return }
            buffer.removeSubrange(0 ..< start)
            start = 0
            let wanted = min(max(needed - buffer.count, readSize), size - taken)
            // A length that runs past the end: the file is not what this process wrote.
            guard buffer.count + wanted >= needed else { throw FindingLogError.unreadable(EIO) }
            let filled = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            do {
                try buffer.withUnsafeMutableBytes { bytes in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]), at: taken)
                }
            } catch {
                throw FindingLogError.unreadable(SpillFile.code(of: error))
            }
            taken += wanted
        }
        while start < buffer.count || taken < size {
            try make(available: 4)
            let length = (0 ..< 4).reduce(0) { $0 | Int(buffer[start + $1]) << (8 * $1) }
            try make(available: 4 + length)
            var offset = start + 4
            guard let finding = FindingBytes.read(buffer, at: &offset), offset == start + 4 + length else {
                throw FindingLogError.unreadable(EIO)
            }
            start = offset
            try body(finding)
        }
    }
}

/// Why a ``FindingLog`` could not keep or give back its findings.
public enum FindingLogError: Error, CustomStringConvertible {
    case unwritable(Int32)
    case unreadable(Int32)

    public var description: String {
        switch self {
        case .unwritable(let code):
            "could not write findings to a temporary file (\(String(cString: strerror(code)))): free space in \(SpillFile.directory) or set TMPDIR"
        case .unreadable(let code):
            "could not read findings back from their temporary file (\(String(cString: strerror(code))))"
        }
    }
}
