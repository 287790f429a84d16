import Foundation
import TraceModel
import TraceStore

/// Writes the derived records of a `check`'s replay into a ``DerivedStage`` beside the replay: the
/// replaying thread only gathers each record into a batch, and hands batches, through a bounded
/// queue, to a thread of its own that encodes them (``DerivedRows``) and writes them into the
/// stage — on the core the replay leaves idle while it waits for rows to read. The replay's
/// thread is the one every `check` waits for: encoding a record there cost it as much again as
/// making the record. The stage is begun with the first batch, so a check that replays nothing
/// writes nothing.
final class DerivedStaging: DerivedRecordSink {
    /// A thread's error, read by the caller once the thread is done.
    private final class Outcome: @unchecked Sendable {
        var stage: DerivedStage?
        var error: (any Error)?
    }

    /// Records per batch handed over.
    static let batchSize = 4096
    /// Batches in flight: a few megabytes at most.
    static let batchesQueued = 8

    private let queue = BoundedQueue<[DerivedRecord]>(capacity: DerivedStaging.batchesQueued)
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Outcome()
    @exclusivity(unchecked) private var batch: [DerivedRecord] = []
    /// The writing thread stopped: records are dropped (its error is thrown by ``finish()``).
    @exclusivity(unchecked) private var stopped = false
    private var joined = false

    init(store: Store) {
        batch.reserveCapacity(Self.batchSize)
        let (queue, done, outcome) = (queue, done, outcome)
        let thread = Thread {
            var rows: DerivedRows?
            while case let batches = queue.popAll(), !batches.isEmpty {
                guard outcome.error == nil else { continue }
                do {
                    let stage = try outcome.stage ?? DerivedStage(store: store)
                    outcome.stage = stage
                    let encoder = rows ?? DerivedRows { try stage.write($0) }
                    rows = encoder
                    for batch in batches {
                        for record in batch { try encoder.append(record) }
                    }
                    // Written before the next batches are taken: nothing waits in the encoder.
                    try encoder.flush()
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

    // Records from the replaying thread.

    func record(_ record: consuming LaunchRecord) { add(.launch(record)) }
    func record(_ record: consuming IntervalRecord) { add(.interval(record)) }
    func record(_ record: consuming TaskRecord) { add(.task(record)) }
    func record(_ record: consuming RequestRecord) { add(.request(record)) }

    @inline(__always)
    private func add(_ record: consuming DerivedRecord) {
        guard !stopped else { return }
        batch.append(record)
        if batch.count >= Self.batchSize { handOver() }
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        let full = batch
        batch = []
        batch.reserveCapacity(Self.batchSize)
        if !queue.push(full) { stopped = true }
    }

    /// After the replay: hands over the last records, waits for the writing thread, and returns the
    /// stage to publish (nil when the replay made no record).
    func finish() throws -> DerivedStage? {
        if !stopped { handOver() }
        join()
        if let error = outcome.error { throw error }
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
        queue.close()
        done.wait()
    }
}
