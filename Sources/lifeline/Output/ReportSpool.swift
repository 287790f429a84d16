import Foundation

/// A report written to an unlinked temporary file while `check` saves its run, and copied to
/// standard output once the save is done: the two take two cores, and a reader that stops early
/// (`| head`, which ends `lifeline` with SIGPIPE) still finds the run recorded.
final class ReportSpool: @unchecked Sendable {
    private static let bufferBytes = 1 << 20
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var written = 0
    /// The first write that failed, or why the report was not written whole; the rest are dropped.
    private var failure: (any Error)?

    struct SpoolError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "could not spool the report (\(String(cString: strerror(code))))" }
    }

    /// A spool in `TMPDIR` (or `/tmp`); nil when none can be made (the report is then printed
    /// after the save, as it comes).
    init?() {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/lifeline-report-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        self.descriptor = descriptor
        pending.reserveCapacity(Self.bufferBytes)
    }

    deinit {
        close(descriptor)
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
        while offset < written {
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress, min(bytes.count, written - offset), off_t(offset))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw SpoolError(code: count < 0 ? errno : EIO) }
            buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    private func flush() {
        defer { pending.removeAll(keepingCapacity: true) }
        var done = 0
        while failure == nil, done < pending.count {
            let count = pending.withUnsafeBytes { bytes in
                Foundation.write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = SpoolError(code: count < 0 ? errno : ENOSPC)
                break
            }
            done += count
        }
        written += done
    }
}
