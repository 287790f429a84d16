import Foundation

/// Bytes for standard output, gathered and written a megabyte at a time, for a document written
/// in pieces of UTF-8 (`check --format json`): printed as a `String` each, its 27,702 findings
/// were checked as UTF-8 once more on the way. Whatever `print` still holds is flushed first,
/// so the two keep their order.
final class StandardOutputBytes {
    private static let flushBytes = 1 << 20
    private var pending: [UInt8] = []
    /// The first write that failed; the rest are dropped.
    private var failure: (any Error)?

    init() {
        fflush(nil)
        pending.reserveCapacity(Self.flushBytes)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        if pending.count >= Self.flushBytes { flush() }
    }

    /// Writes what is held; throws the first failure.
    func finish() throws {
        flush()
        if let failure { throw failure }
    }

    private func flush() {
        defer { pending.removeAll(keepingCapacity: true) }
        guard failure == nil, !pending.isEmpty else { return }
        do { try FileHandle.standardOutput.write(contentsOf: pending) } catch { failure = error }
    }
}
