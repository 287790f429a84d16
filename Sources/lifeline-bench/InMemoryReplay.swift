import Foundation
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
