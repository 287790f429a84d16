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
