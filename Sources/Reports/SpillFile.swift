#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file in `TMPDIR` (or `/tmp`) for what would not stay in memory: unlinked as soon as it is
/// made, so that nothing is left behind however the process ends; written at its end and read
/// back at offsets (`pread`), so that several threads may read it at once once it is written.
/// Shared by ``FindingLog`` (a run's findings) and `check`'s report spool.
public final class SpillFile: @unchecked Sendable {
    /// A system call's failure: its `errno`.
    public struct Failure: Error {
        public let code: Int32
    }

    /// The `errno` of an error this file threw (EIO for any other).
    public static func code(of error: any Error) -> Int32 {
        (error as? Failure)?.code ?? EIO
    }

    private let descriptor: Int32
    /// The bytes written so far.
    public private(set) var size = 0

    /// Where spill files go: `TMPDIR`, or `/tmp` when it is unset or empty.
    public static var directory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A new file named after `prefix` (`lifeline-findings`) in ``directory``.
    public init(prefix: String) throws {
        var template = Array("\(Self.directory)/\(prefix)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw Failure(code: errno) }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes` at the end.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(code: count < 0 ? errno : ENOSPC) }
            done += count
            size += count
        }
    }

    /// Fills all of `buffer` with the bytes from `offset` on, which must have been written.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        guard offset >= 0, buffer.count <= size - offset else { throw Failure(code: EIO) }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(code: count < 0 ? errno : EIO) }
            done += count
        }
    }
}
