import Foundation
import Reports

/// A report written to a spill file (``SpillFile``) while `check` saves its run, and copied to
/// standard output once the save is done: the two take two cores, and a reader that stops early
/// (`| head`, which ends `lifeline` with SIGPIPE) still finds the run recorded.
final class ReportSpool: @unchecked Sendable {
    private static let bufferBytes = 1 << 20
    private let file: SpillFile
    private var pending: [UInt8] = []
    /// The first write that failed, or why the report was not written whole; the rest are dropped.
    private var failure: (any Error)?

    /// A spool in `TMPDIR` (or `/tmp`); nil when none can be made (the report is then printed
    /// after the save, as it comes).
    init?() {
        guard let file = try? SpillFile(prefix: "lifeline-report") else { return nil }
        self.file = file
        pending.reserveCapacity(Self.bufferBytes)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        if pending.count >= Self.bufferBytes { flush() }
    }

    /// The report could not be written whole: the spool is not to be printed.
    func abandon(because error: any Error) {
        if failure == nil { failure = error }
    }

    /// Writes what is held; throws the first failure.
    func finish() throws {
        flush()
        if let failure { throw failure }
    }

    /// Copies what was spooled to `output`, a megabyte at a time.
    func copy(to output: StandardOutputBytes) throws {
        var buffer = [UInt8](repeating: 0, count: Self.bufferBytes)
        var offset = 0
        while offset < file.size {
            let count = min(buffer.count, file.size - offset)
            try buffer.withUnsafeMutableBytes { bytes in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<count]), at: offset)
            }
            buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    private func flush() {
        defer { pending.removeAll(keepingCapacity: true) }
        guard failure == nil, !pending.isEmpty else { return }
        do { try pending.withUnsafeBytes { bytes in try file.append(bytes) } } catch {
            failure = SpoolError(reason: String(cString: strerror(SpillFile.code(of: error))))
        }
    }

    struct SpoolError: Error, CustomStringConvertible {
        let reason: String
        var description: String { "could not spool the report (\(reason))" }
    }
}
