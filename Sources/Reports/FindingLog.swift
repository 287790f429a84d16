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
public final class FindingLog {
    /// Findings held in memory before they go to the spill file.
    public let memoryLimit: Int
    public private(set) var count = 0
    /// Per rule: counts, devices, launches, the worst measurement and the first examples.
    public private(set) var tally = FindingTally()
    private var held: [Finding] = []
    private var spill: UnsafeMutablePointer<FILE>?
    private var encoded: [UInt8] = []

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

    deinit {
        if let spill { fclose(spill) }
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
        if let spill {
            guard fflush(spill) == 0, fseeko(spill, 0, SEEK_SET) == 0 else { throw FindingLogError.unreadable(errno) }
            try readSpilled(from: spill, body)
            guard fseeko(spill, 0, SEEK_END) == 0 else { throw FindingLogError.unreadable(errno) }
        }
        for finding in held { try body(finding) }
    }

    private func spillHeld() throws(FindingLogError) {
        if spill == nil { spill = try Self.temporaryFile() }
        encoded.removeAll(keepingCapacity: true)
        for finding in held {
            let start = encoded.count
            encoded.append(contentsOf: [0, 0, 0, 0])
            FindingBytes.append(finding, to: &encoded)
            let length = UInt32(truncatingIfNeeded: encoded.count - start - 4)
            for index in 0 ..< 4 { encoded[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        }
        let written = encoded.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, spill) }
        guard written == encoded.count else { throw .unwritable(errno) }
        held.removeAll(keepingCapacity: true)
    }

    /// A new file in `TMPDIR` (or `/tmp`), unlinked at once so that nothing is left behind
    /// however the process ends.
    private static func temporaryFile() throws(FindingLogError) -> UnsafeMutablePointer<FILE> {
        var template = Array("\(FindingLogError.temporaryDirectory)/lifeline-findings-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .unwritable(errno) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        guard let file = fdopen(descriptor, "w+") else {
            close(descriptor)
            throw .unwritable(errno)
        }
        return file
    }

    /// Reads back the records ``spillHeld()`` wrote: a 4-byte length, then the finding's bytes.
    private func readSpilled(from file: UnsafeMutablePointer<FILE>, _ body: (Finding) throws -> Void) throws {
        var header = [UInt8](repeating: 0, count: 4)
        var record: [UInt8] = []
        while true {
            let got = header.withUnsafeMutableBytes { fread($0.baseAddress, 1, 4, file) }
            if got == 0, feof(file) != 0 { return }
            guard got == 4 else { throw FindingLogError.unreadable(errno) }
            let length = header.reversed().reduce(0) { $0 << 8 | Int($1) }
            record = [UInt8](repeating: 0, count: length)
            let read = record.withUnsafeMutableBytes { fread($0.baseAddress, 1, length, file) }
            var offset = 0
            guard read == length, let finding = FindingBytes.read(record, at: &offset) else {
                throw FindingLogError.unreadable(errno)
            }
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
            "could not write findings to a temporary file (\(String(cString: strerror(code)))): free space in \(FindingLogError.temporaryDirectory) or set TMPDIR"
        case .unreadable(let code):
            "could not read findings back from their temporary file (\(String(cString: strerror(code))))"
        }
    }

    static var temporaryDirectory: String { getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp" }
}
