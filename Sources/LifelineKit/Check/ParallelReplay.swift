import Foundation
import Replay
import TraceModel

/// Replays a stream's devices on several threads, each device whole on one, and hands back its
/// findings and derived records in exactly the order one ``Replayer`` would have: what
/// `check --stdin` prints does not depend on how many cores ran it.
///
/// The calling thread hands events over in the stream's order; each goes to the worker its device
/// belongs to (by hash), in rounds of ``roundSize`` events. A worker replays its share of a round
/// and tags every finding and record with the stream position of the event that made it evident.
/// The calling thread, up to ``roundsAhead`` rounds behind, merges a round's outputs by position:
/// a single replay makes them in that order, since a device's replay hears only its own events.
/// A device finished before the end (``finish(device:emit:)``) is finished by its worker between
/// the events of the round, at a stream position of its own. At the end each worker finishes
/// the devices left, and their outputs are merged in device order, as
/// ``Replayer/finishAll(emit:)`` finishes them.
///
/// With one worker there are no threads: events are replayed as they are handed over.
///
/// Memory: at most ``roundsAhead`` rounds of events, plus what the devices' replays hold.
public final class ParallelReplay {
    static let roundSize = 4096
    /// Rounds handed out and not yet merged: enough to keep every worker busy while the calling
    /// thread merges the oldest.
    static let roundsAhead = 8

    /// One replay's output: what a single replay passes to `emit` or to its record sink.
    enum Output {
        case finding(Finding)
        case launchBegan(number: Int)
        case launch(LaunchRecord)
    }

    private let inline: Replayer?
    private let workers: [Worker]
    private let records: (any DerivedRecordSink)?
    // The state below is the calling thread's alone (the class is not `Sendable`): not checked
    // for exclusivity at run time, which was two checks per event on the calling thread.
    /// Per worker, the events of the round being gathered, their positions in the stream, and
    /// the devices to finish among them.
    @exclusivity(unchecked) private var round: [[Event]]
    @exclusivity(unchecked) private var positions: [[Int]]
    @exclusivity(unchecked) private var finishing: [[Worker.Finish]]
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var roundsOut = 0
    @exclusivity(unchecked) private var stopped = false
    /// The owner of the device of the latest event: most events follow one of the same device.
    @exclusivity(unchecked) private var lastOwner: (device: String, worker: Int)?
    /// Per worker, the launches begun and not yet recorded: their number in the worker's replay
    /// and in one replay of the whole stream (launches are numbered in the order they began).
    @exclusivity(unchecked) private var launchNumbers: [[Int: Int]]
    @exclusivity(unchecked) private var launchesBegun = 0

    /// `records` gets the launch records on the calling thread, in a single replay's order and
    /// numbered as it numbers them, as `emit` gets the findings. A sink that takes the other
    /// records (``DerivedRecordSink/takesWork``) gets one replay on the calling thread: those
    /// name launches and findings by number, which this merge does not renumber.
    public init(workers count: Int, book: RuleBook, configuration: ReplayConfiguration, records: (any DerivedRecordSink)?) {
        self.records = records
        if count <= 1 || records?.takesWork == true {
            inline = Replayer(book: book, configuration: configuration, records: records)
            workers = []
        } else {
            inline = nil
            workers = (0 ..< count).map { index in
                Worker(index: index, book: book, configuration: configuration, keepsLaunches: records != nil)
            }
        }
        launchNumbers = Array(repeating: [:], count: workers.count)
        round = Array(repeating: [], count: workers.count)
        positions = Array(repeating: [], count: workers.count)
        finishing = Array(repeating: [], count: workers.count)
    }

    deinit {
        stop()
    }

    /// Findings of earlier events may come out during the call, in order.
    public func receive(_ event: consuming Event, emit: (Finding) -> Void) {
        if let inline { return inline.receive(event, emit: emit) }
        hand(event, emit: emit)
    }

    /// As ``receive(_:emit:)``, for an event the caller keeps: one thread replays it where it is,
    /// and only a worker's round takes a copy (an event holds a dozen strings, each retained by a
    /// copy and released by its end, most of them atomically).
    public func receive(copyOf event: borrowing Event, emit: (Finding) -> Void) {
        if let inline { return inline.receive(event, emit: emit) }
        hand(copy event, emit: emit)
    }

    private func hand(_ event: consuming Event, emit: (Finding) -> Void) {
        let worker = owner(of: event.device)
        positions[worker].append(position)
        round[worker].append(event)
        advance(emit: emit)
    }

    /// As ``Replayer/finish(device:emit:)``: ends one device's log and frees its state; said
    /// after the device's last event. Its outputs come after those of every event handed over
    /// before, as from one replay.
    public func finish(device: String, emit: (Finding) -> Void) {
        if let inline { return inline.finish(device: device, emit: emit) }
        let worker = owner(of: device)
        finishing[worker].append(Worker.Finish(before: round[worker].count, device: device, position: position))
        advance(emit: emit)
    }

    /// Moves to the next stream position, handing out the round when it is full.
    private func advance(emit: (Finding) -> Void) {
        position += 1
        if position % Self.roundSize == 0 { handOutRound(emit: emit) }
    }

    /// As ``Replayer/logWasCutShort(device:launch:)``: said after the device's last event.
    public func logWasCutShort(device: String, launch: String?, emit: (Finding) -> Void) {
        if let inline { return inline.logWasCutShort(device: device, launch: launch) }
        handOutRound(emit: emit)
        workers[owner(of: device)].jobs.push(.cut(device: device, launch: launch))
    }

    /// Ends every device's log and hands back what is left, as ``Replayer/finishAll(emit:)``.
    public func finishAll(emit: (Finding) -> Void) {
        if let inline { return inline.finishAll(emit: emit) }
        handOutRound(emit: emit)
        for worker in workers { worker.jobs.push(.finish) }
        while roundsOut > 0 { mergeOldestRound(emit: emit) }
        var finished: [(device: String, worker: Int, outputs: [Output])] = []
        for (index, worker) in workers.enumerated() {
            guard case .finished(let devices) = worker.nextResult() else { continue }
            finished += devices.map { ($0.device, index, $0.outputs) }
        }
        // Each device is one worker's: sorted as one replay sorts them.
        finished.sort { $0.device < $1.device }
        for device in finished {
            for output in device.outputs { deliver(output, from: device.worker, emit: emit) }
        }
        stop()
    }

    /// Stops the workers (after ``finishAll(emit:)``, or to abandon the replay).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        for worker in workers { worker.jobs.close() }
        for worker in workers { worker.done.wait() }
    }

    /// The worker of a device: any fixed function of its name works, as each device's events
    /// must all reach one replay.
    private func owner(of device: String) -> Int {
        if let last = lastOwner, last.device == device { return last.worker }
        var hasher = Hasher()
        hasher.combine(device)
        let worker = Int(UInt(bitPattern: hasher.finalize()) % UInt(workers.count))
        lastOwner = (device, worker)
        return worker
    }

    /// Room made for a worker's share of a round: twice an even share, so that memory stays
    /// small with many workers; a share beyond it (a round of few devices) grows its array.
    private var reserved: Int { min(Self.roundSize, 2 * Self.roundSize / max(1, workers.count)) }

    private func handOutRound(emit: (Finding) -> Void) {
        guard round.contains(where: { !$0.isEmpty }) || finishing.contains(where: { !$0.isEmpty }) else { return }
        for (index, worker) in workers.enumerated() {
            worker.jobs.push(.events(round[index], positions: positions[index], finishing: finishing[index]))
            finishing[index] = []
            // Reserved: grown from empty, an array of events was copied at every doubling.
            round[index] = []
            round[index].reserveCapacity(reserved)
            positions[index] = []
            positions[index].reserveCapacity(reserved)
        }
        roundsOut += 1
        if roundsOut > Self.roundsAhead { mergeOldestRound(emit: emit) }
    }

    /// Takes every worker's outputs of the oldest round out and delivers them by position.
    private func mergeOldestRound(emit: (Finding) -> Void) {
        let lists: [[(position: Int, output: Output)]] = workers.map { worker in
            guard case .round(let outputs) = worker.nextResult() else { return [] }
            return outputs
        }
        roundsOut -= 1
        var next = Array(repeating: 0, count: lists.count)
        while true {
            var best: Int?
            for index in lists.indices where next[index] < lists[index].count {
                if let current = best, lists[current][next[current]].position <= lists[index][next[index]].position {
                    continue
                }
                best = index
            }
            guard let best else { break }
            deliver(lists[best][next[best]].output, from: best, emit: emit)
            next[best] += 1
        }
    }

    private func deliver(_ output: Output, from worker: Int, emit: (Finding) -> Void) {
        switch output {
        case .finding(let finding): emit(finding)
        case .launchBegan(let number):
            launchNumbers[worker][number] = launchesBegun
            records?.launchBegan(number: launchesBegun)
            launchesBegun += 1
        case .launch(var launch):
            guard let number = launchNumbers[worker].removeValue(forKey: launch.number) else { return }
            launch.number = number
            records?.record(launch)
        }
    }
}

/// One thread's replay of the devices a ``ParallelReplay`` gives it.
private final class Worker: @unchecked Sendable {
    /// A device to finish before the event at `before` in its round (at the end: after the last).
    struct Finish {
        var before: Int
        var device: String
        var position: Int
    }

    enum Job {
        case events([Event], positions: [Int], finishing: [Finish])
        case cut(device: String, launch: String?)
        case finish
    }

    enum Result {
        case round([(position: Int, output: ParallelReplay.Output)])
        case finished([(device: String, outputs: [ParallelReplay.Output])])
    }

    let jobs = BoundedQueue<Job>(capacity: ParallelReplay.roundsAhead + 1)
    let done = DispatchSemaphore(value: 0)
    private let results = HandOff<Result>()

    init(index: Int, book: RuleBook, configuration: ReplayConfiguration, keepsLaunches: Bool) {
        let collector = OutputCollector()
        let replayer = Replayer(book: book, configuration: configuration, records: keepsLaunches ? collector : nil)
        let (jobs, results, done) = (jobs, results, done)
        nonisolated(unsafe) let owned = (replayer, collector)
        let thread = Thread {
            let (replayer, collector) = owned
            let keep: (Finding) -> Void = { collector.outputs.append((collector.position, .finding($0))) }
            while case let batch = jobs.popAll(), !batch.isEmpty {
                for job in batch {
                    switch job {
                    case .events(let events, let positions, let finishing):
                        var finishes = finishing[...]
                        func finishDevices(before index: Int) {
                            while let finish = finishes.first, finish.before <= index {
                                collector.position = finish.position
                                replayer.finish(device: finish.device, emit: keep)
                                finishes.removeFirst()
                            }
                        }
                        for index in events.indices {
                            finishDevices(before: index)
                            collector.position = positions[index]
                            replayer.receive(events[index], emit: keep)
                        }
                        finishDevices(before: events.count)
                        results.give(.round(collector.take()))
                    case .cut(let device, let launch):
                        replayer.logWasCutShort(device: device, launch: launch)
                    case .finish:
                        var finished: [(device: String, outputs: [ParallelReplay.Output])] = []
                        for device in replayer.openDevices {
                            replayer.finish(device: device, emit: keep)
                            finished.append((device, collector.take().map(\.output)))
                        }
                        results.give(.finished(finished))
                    }
                }
            }
            done.signal()
        }
        thread.name = "lifeline-replay-\(index)"
        thread.start()
    }

    /// The next result, in the order the jobs were given; waits for it.
    func nextResult() -> Result? { results.next() }
}

/// A worker's findings and launch records, tagged with the position of the event being replayed.
private final class OutputCollector: DerivedRecordSink {
    var position = 0
    var outputs: [(position: Int, output: ParallelReplay.Output)] = []

    /// Launches only (see ``ParallelReplay/init(workers:book:configuration:records:)``).
    var takesWork: Bool { false }

    func take() -> [(position: Int, output: ParallelReplay.Output)] {
        defer { outputs = [] }
        return outputs
    }

    func launchBegan(number: Int) { outputs.append((position, .launchBegan(number: number))) }
    func record(_ record: consuming LaunchRecord) { outputs.append((position, .launch(record))) }
    func record(_ record: consuming IntervalRecord) {}
    func record(_ record: consuming TaskRecord) {}
    func record(_ record: consuming RequestRecord) {}
}
