import Foundation
import Replay
import TraceModel

/// Replays the devices of a store on several threads, each device whole on one, for `check`, and
/// hands back findings and derived records exactly as one ``Replayer`` replaying the devices one
/// after another would: same order, same numbers.
///
/// The store's reader gives each device's batches, then its end, in device order. A device goes
/// to the worker with the fewest devices waiting; the worker replays it and, at its end, hands
/// back everything it made. The calling thread delivers devices in the store's order. A device's
/// launches and findings are numbered contiguously when devices are replayed one after another,
/// so a worker's numbers for one device become the whole replay's by one offset each.
///
/// With one worker there are no threads: batches are replayed as they come.
final class DeviceReplayPool {
    /// Devices handed out and not yet delivered, beyond which the calling thread waits.
    static let devicesAhead = 64

    private let inline: Replayer?
    private let workers: [PoolWorker]
    private let records: (any DerivedRecordSink)?
    /// What the caller said was cut short, by device, given to a device's worker with it.
    private var cuts: [String: [String?]] = [:]
    private var current: (device: String, worker: Int)?
    /// Devices handed out, in the store's order, with their workers; those before `delivered`
    /// were delivered.
    private var order: [(device: String, worker: Int)] = []
    private var delivered = 0
    private var waiting: [Int]
    private var launchesBegun = 0
    private var findingsReported = 0
    private var stopped = false

    /// `records` takes the derived records on the calling thread, numbered as one replay numbers
    /// them; with one worker the replay hands them over itself.
    init(workers count: Int, book: RuleBook, configuration: ReplayConfiguration, records: (any DerivedRecordSink)?) {
        self.records = records
        if count <= 1 {
            inline = Replayer(book: book, configuration: configuration, records: records)
            workers = []
        } else {
            inline = nil
            workers = (0 ..< count).map {
                PoolWorker(
                    index: $0, book: book, configuration: configuration,
                    recording: records.map { $0.takesWork ? .everything : .launches })
            }
        }
        waiting = Array(repeating: 0, count: workers.count)
    }

    deinit {
        stop()
    }

    /// As ``Replayer/logWasCutShort(device:launch:)``, said before the launch's events come: to
    /// the worker replaying the device if it is being replayed, else with the device when it is
    /// handed out.
    func logWasCutShort(device: String, launch: String?) {
        if let inline { return inline.logWasCutShort(device: device, launch: launch) }
        if let current, current.device == device {
            workers[current.worker].jobs.push(.cut(device: device, launch: launch))
        } else {
            cuts[device, default: []].append(launch)
        }
    }

    func receive(_ batch: CompactBatch, emit: (Finding) -> Void) {
        if let inline { return inline.receive(batch, emit: emit) }
        let worker: Int
        if let current, current.device == batch.device {
            worker = current.worker
        } else {
            // Every device handed out is finished, so that delivering it never waits in vain.
            if let current { workers[current.worker].jobs.push(.finish(current.device)) }
            worker = waiting.indices.min { waiting[$0] < waiting[$1] } ?? 0
            waiting[worker] += 1
            current = (batch.device, worker)
            order.append((batch.device, worker))
            for launch in cuts.removeValue(forKey: batch.device) ?? [] {
                workers[worker].jobs.push(.cut(device: batch.device, launch: launch))
            }
        }
        workers[worker].jobs.push(.batch(batch))
    }

    /// The device's events are over. Delivers, in order, the devices whose replay is done, waiting
    /// for the oldest when too many are out.
    func deviceEnded(_ device: String, emit: (Finding) -> Void, delivered done: (String) -> Void) {
        if let inline {
            inline.finish(device: device, emit: emit)
            return done(device)
        }
        guard let current, current.device == device else { return }
        workers[current.worker].jobs.push(.finish(device))
        self.current = nil
        while order.count - delivered > Self.devicesAhead { deliverNext(emit: emit, done: done) }
    }

    /// Delivers every device still out, then stops the workers.
    func finish(emit: (Finding) -> Void, delivered done: (String) -> Void) {
        if let current {
            workers[current.worker].jobs.push(.finish(current.device))
            self.current = nil
        }
        while delivered < order.count { deliverNext(emit: emit, done: done) }
        stop()
    }

    /// Stops the workers (after ``finish(emit:delivered:)``, or to abandon the replay).
    func stop() {
        guard !stopped else { return }
        stopped = true
        for worker in workers { worker.jobs.close() }
        for worker in workers { worker.done.wait() }
    }

    /// Waits for the oldest device out and delivers it, its numbers made the whole replay's.
    private func deliverNext(emit: (Finding) -> Void, done: (String) -> Void) {
        let (device, worker) = order[delivered]
        delivered += 1
        waiting[worker] -= 1
        // The delivered part of `order` is dropped now and then, so that it holds what is out.
        if delivered >= 1024 {
            order.removeFirst(delivered)
            delivered = 0
        }
        guard let replayed = workers[worker].nextResult() else { return }
        let launchOffset = launchesBegun - replayed.firstLaunch
        let findingOffset = findingsReported - replayed.firstFinding
        for output in replayed.outputs {
            switch output {
            case .finding(let finding):
                findingsReported += 1
                emit(finding)
            case .launchBegan:
                records?.launchBegan(number: launchesBegun)
                launchesBegun += 1
            case .record(let record):
                guard let records else { continue }
                switch record.renumbered(launches: launchOffset, findings: findingOffset) {
                case .launch(let launch): records.record(launch)
                case .interval(let interval): records.record(interval)
                case .task(let task): records.record(task)
                case .request(let request): records.record(request)
                }
            }
        }
        done(device)
    }
}

/// One device's replay on a worker: what it made, in order, and where the worker's numbering stood
/// when it began.
private struct ReplayedDevice {
    enum Output {
        case finding(Finding)
        case launchBegan
        case record(DerivedRecord)
    }

    var firstLaunch: Int
    var firstFinding: Int
    var outputs: [Output]
}

/// A thread with a ``Replayer`` of its own, replaying the devices a ``DeviceReplayPool`` gives it.
private final class PoolWorker: @unchecked Sendable {
    enum Job {
        case cut(device: String, launch: String?)
        case batch(CompactBatch)
        case finish(String)
    }

    enum Recording {
        case launches, everything
    }

    /// Batches in flight to one worker (each at most ``StoreReplay/chunkSize`` events).
    let jobs = BoundedQueue<Job>(capacity: 16)
    let done = DispatchSemaphore(value: 0)
    private let results = HandOff<ReplayedDevice>()

    init(index: Int, book: RuleBook, configuration: ReplayConfiguration, recording: Recording?) {
        let collector = DeviceOutputs(takesWork: recording == .everything)
        let replayer = Replayer(book: book, configuration: configuration, records: recording == nil ? nil : collector)
        let (jobs, results, done) = (jobs, results, done)
        nonisolated(unsafe) let owned = (replayer, collector)
        let thread = Thread {
            let (replayer, collector) = owned
            let keep: (Finding) -> Void = { collector.add(.finding($0)) }
            while case let batch = jobs.popAll(), !batch.isEmpty {
                for job in batch {
                    switch job {
                    case .cut(let device, let launch): replayer.logWasCutShort(device: device, launch: launch)
                    case .batch(let events): replayer.receive(events, emit: keep)
                    case .finish(let device):
                        replayer.finish(device: device, emit: keep)
                        results.give(collector.take())
                    }
                }
            }
            done.signal()
        }
        thread.name = "lifeline-replay-\(index)"
        thread.start()
    }

    /// The next device replayed, in the order the devices were given; waits for it.
    func nextResult() -> ReplayedDevice? { results.next() }
}

/// A worker's outputs for the device it is replaying, and its running numbering.
private final class DeviceOutputs: DerivedRecordSink {
    let takesWork: Bool
    private var launches = 0
    private var findings = 0
    private var current = ReplayedDevice(firstLaunch: 0, firstFinding: 0, outputs: [])

    init(takesWork: Bool) {
        self.takesWork = takesWork
    }

    func add(_ output: ReplayedDevice.Output) {
        if case .finding = output { findings += 1 }
        current.outputs.append(output)
    }

    /// The device's outputs; the next device's numbering starts where this one's ended.
    func take() -> ReplayedDevice {
        defer { current = ReplayedDevice(firstLaunch: launches, firstFinding: findings, outputs: []) }
        return current
    }

    func launchBegan(number: Int) {
        launches += 1
        current.outputs.append(.launchBegan)
    }

    func record(_ record: consuming LaunchRecord) { current.outputs.append(.record(.launch(record))) }
    func record(_ record: consuming IntervalRecord) { current.outputs.append(.record(.interval(record))) }
    func record(_ record: consuming TaskRecord) { current.outputs.append(.record(.task(record))) }
    func record(_ record: consuming RequestRecord) { current.outputs.append(.record(.request(record))) }
}
