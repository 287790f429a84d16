import Foundation

/// Work run on a thread of its own beside the caller's, joined by ``finish()``.
final class Alongside: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the thread before it signals `done`, read after.
    private var failure: (any Error)?

    /// `work` runs on the new thread only; the caller waits for it in ``finish()`` before it
    /// touches what `work` does.
    init(_ work: @escaping () throws -> Void) {
        nonisolated(unsafe) let work = work
        let thread = Thread { [self] in
            do { try work() } catch { failure = error }
            done.signal()
        }
        thread.name = "lifeline-alongside"
        thread.start()
    }

    /// Waits for the work to end (call it once); throws what it threw.
    func finish() throws {
        done.wait()
        if let failure { throw failure }
    }
}
