import Foundation
import TraceModel
import TraceStore

/// Writes the derived records of a `check`'s replay into a ``DerivedStage`` beside the replay: the
/// replaying thread encodes each record (``DerivedRows``) and hands a chunk of rows at a time,
/// through a bounded queue, to a thread of its own that writes them into the stage — on the core
/// the replay leaves idle while it waits for rows to read, so that writing the tables costs the
/// check little more than publishing them. The stage is begun with the first chunk, so a check
/// that replays nothing writes nothing.
///
/// Encoding on the replaying thread, rather than handing records over and encoding them on the
/// writing thread, costs the replay's thread a little and the process much less: a record handed
/// over had to be boxed, gathered and destroyed on the other side (callgrind of `check` of the
/// tidy benchmark store: 0.9 G instructions on the writing thread against 0.4 G on the replay's
/// for encoding in place), and on a machine whose second core is busy elsewhere, every
/// instruction counts.
final class DerivedStaging: DerivedRecordSink {
    /// A thread's error, read by the caller once the thread is done.
    private final class Outcome: @unchecked Sendable {
        var stage: DerivedStage?
        var error: (any Error)?
    }

    /// The writing thread stopped (its error is thrown by ``finish()``).
    private struct Stopped: Error {}

    /// Chunks in flight (two megabytes each, written a transaction each).
    static let chunksQueued = 8

    private let queue = BoundedQueue<DerivedChunk>(capacity: DerivedStaging.chunksQueued)
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Outcome()
    private var rows: DerivedRows?
    /// The first error of the replaying side.
    private var failure: (any Error)?
    private var joined = false

    /// Stages the rows of a run of `devices` in `store`.
    init(store: Store, devices: Store.DeviceSelection) {
        let (queue, done, outcome) = (queue, done, outcome)
        rows = DerivedRows { chunk in
            guard queue.push(chunk) else { throw Stopped() }
        }
        let thread = Thread {
            while case let chunks = queue.popAll(), !chunks.isEmpty {
                guard outcome.error == nil else { continue }
                do {
                    let stage = try outcome.stage ?? DerivedStage(store: store, devices: devices)
                    outcome.stage = stage
                    for chunk in chunks { try stage.write(chunk) }
                } catch {
                    outcome.error = error
                    // The replay's next hand-over fails at once instead of waiting for room.
                    queue.close()
                }
            }
            done.signal()
        }
        thread.name = "lifeline-derived-stage"
        thread.start()
    }

    deinit {
        abandon()
    }

    // Records from the replaying thread. An error stops the staging; ``finish()`` throws it.

    func record(_ record: consuming LaunchRecord) {
        guard failure == nil, let rows else { return }
        do { try rows.append(record) } catch { failure = error }
    }

    func record(_ record: consuming IntervalRecord) {
        guard failure == nil, let rows else { return }
        do { try rows.append(record) } catch { failure = error }
    }

    func record(_ record: consuming TaskRecord) {
        guard failure == nil, let rows else { return }
        do { try rows.append(record) } catch { failure = error }
    }

    func record(_ record: consuming RequestRecord) {
        guard failure == nil, let rows else { return }
        do { try rows.append(record) } catch { failure = error }
    }

    /// A finding of the run, counted in its launch's row.
    func found(_ finding: borrowing Finding) {
        guard failure == nil, let rows else { return }
        do { try rows.found(device: finding.device, launch: finding.launch) } catch { failure = error }
    }

    /// After the replay: hands over the last rows, waits for the writing thread, and returns the
    /// stage to publish (nil when the replay made no record).
    func finish() throws -> DerivedStage? {
        if failure == nil {
            do { try rows?.flush() } catch { failure = error }
        }
        join()
        if let error = outcome.error { throw error }
        if let failure { throw failure }
        return outcome.stage
    }

    /// Stops the staging and drops what was staged: the check will not publish it.
    func abandon() {
        join()
        try? outcome.stage?.discard()
    }

    private func join() {
        guard !joined else { return }
        joined = true
        rows = nil
        queue.close()
        done.wait()
    }
}
