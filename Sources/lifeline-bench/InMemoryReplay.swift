import Foundation
import LifelineKit
import Replay
import Rules
import TraceDecode
import TraceModel
import TraceRead

/// Times the replay alone on events already in memory: each file is read and decoded first
/// (untimed), then its events are replayed (timed), device after device, so memory holds one
/// file's events at a time whatever the size of the corpus.
enum InMemoryReplay {
    static func measure(files: [String]) throws -> (events: Int, seconds: Double, findings: Int) {
        let replayer = Replayer(book: RuleCatalog.standard)
        var decoder = EventDecoder()
        var events: [Event] = []
        var total = 0
        var findings = 0
        var seconds = 0.0
        var device: String?
        for file in files {
            events.removeAll(keepingCapacity: true)
            let reader = try LineReader(path: file)
            try reader.forEachLine { line in
                if case .event(let event) = decoder.decode(line.bytes) { events.append(event) }
                return true
            }
            total += events.count
            // The events are handed over, not copied, as a decoder hands them to the replay.
            events.reverse()
            let start = DispatchTime.now().uptimeNanoseconds
            while let event = events.popLast() {
                if let current = device, current != event.device {
                    replayer.finish(device: current) { _ in findings += 1 }
                }
                device = event.device
                replayer.receive(event) { _ in findings += 1 }
            }
            seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let start = DispatchTime.now().uptimeNanoseconds
        replayer.finishAll { _ in findings += 1 }
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (total, seconds, findings)
    }
}

extension InMemoryReplay {
    /// Times the replay of the whole corpus, decoded into memory first (untimed), on `workers`
    /// threads (``ParallelReplay``): each device whole on one, the output merged in order. Holds
    /// every event at once (about 1 GB for 2M events), where ``measure(files:)`` holds one file's.
    static func measure(files: [String], workers: Int) throws -> (events: Int, seconds: Double, findings: Int) {
        var decoder = EventDecoder()
        var events: [Event] = []
        for file in files {
            try LineReader(path: file).forEachLine { line in
                if case .event(let event) = decoder.decode(line.bytes) { events.append(event) }
                return true
            }
        }
        let total = events.count
        var findings = 0
        events.reverse()
        let start = DispatchTime.now().uptimeNanoseconds
        let replay = ParallelReplay(workers: workers, book: RuleCatalog.standard, configuration: ReplayConfiguration(), records: nil)
        while let event = events.popLast() { replay.receive(event) { _ in findings += 1 } }
        replay.finishAll { _ in findings += 1 }
        return (total, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, findings)
    }
}

extension InMemoryReplay {
    /// The whole corpus replayed in memory on one thread and on one per core (``ParallelReplay``):
    /// how the replay spreads when it has the cores to itself. None on a machine of one core.
    static func threadRows(corpus: String, files: [String]) throws -> [ResultRow] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1 else { return [] }
        let name = "replay, whole corpus in memory"
        return try [(", 1 core", 1), ("", cores)].map { suffix, workers in
            let run = try measure(files: files, workers: workers)
            return ResultRow(corpus: corpus, name: name + suffix, seconds: run.seconds, events: run.events, bytes: nil, peakMB: nil)
        }
    }
}

extension InMemoryReplay {
    /// Times the replay of events already compact (``CompactBatch``), as a replay thread of
    /// `check` receives them from its reader: each file is read, decoded and made compact first
    /// (untimed), then replayed (timed), device after device as ``measure(files:)`` does, so the
    /// two replay the same events into the same findings.
    static func measureCompact(files: [String]) throws -> (events: Int, seconds: Double, findings: Int) {
        let replayer = Replayer(book: RuleCatalog.standard)
        var decoder = EventDecoder()
        var total = 0
        var findings = 0
        var seconds = 0.0
        var maker = CompactSteps()
        for file in files {
            try LineReader(path: file).forEachLine { line in
                if case .event(let event) = decoder.decode(line.bytes) {
                    maker.add(event)
                    total += 1
                }
                return true
            }
            let steps = maker.takeSteps()
            let start = DispatchTime.now().uptimeNanoseconds
            for step in steps {
                switch step {
                case .batch(let batch): replayer.receive(batch) { _ in findings += 1 }
                case .finish(let device): replayer.finish(device: device) { _ in findings += 1 }
                }
            }
            seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let start = DispatchTime.now().uptimeNanoseconds
        replayer.finishAll { _ in findings += 1 }
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (total, seconds, findings)
    }

    /// Makes decoded events compact, in batches of one device, ending a device where the next
    /// event is another's (as ``measure(files:)`` does).
    private struct CompactSteps {
        enum Step {
            case batch(CompactBatch)
            case finish(device: String)
        }

        private static let batchSize = 4096
        private var builder: CompactBatchBuilder?
        private var launches: [String: UInt32] = [:]
        private var steps: [Step] = []

        mutating func add(_ event: Event) {
            if let current = builder, current.device != event.device {
                takeBatch()
                steps.append(.finish(device: current.device))
                builder = nil
            }
            if builder == nil {
                builder = CompactBatchBuilder(device: event.device, capacity: Self.batchSize)
                launches.removeAll(keepingCapacity: true)
            }
            let launch = launches[event.launch] ?? {
                let header = LaunchHeader(
                    launch: event.launch, process: event.process, app: event.app, appVersion: event.appVersion,
                    os: event.os, model: event.model)
                let serial = builder?.beginLaunch(header) ?? 0
                launches[event.launch] = serial
                return serial
            }()
            if let compact = builder?.event(event, launch: launch) { builder?.append(compact) }
            if (builder?.count ?? 0) >= Self.batchSize { takeBatch() }
        }

        /// The steps of the events added so far, the device last added still open.
        mutating func takeSteps() -> [Step] {
            takeBatch()
            defer { steps.removeAll() }
            return steps
        }

        private mutating func takeBatch() {
            guard let held = builder?.count, held > 0, let batch = builder?.take() else { return }
            steps.append(.batch(batch))
        }
    }
}
