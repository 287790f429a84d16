import Replay
import TraceModel

/// A small event for tests: seconds since an arbitrary epoch, device "D", launch "L1".
func event(
    _ seconds: Double, _ name: String, seq: Int64? = nil, launch: String = "L1", device: String = "D",
    task: Int64? = nil, phase: String? = nil, process: String? = nil, attrs: String? = nil
) -> Event {
    Event(ts: Timestamp(seconds: seconds), device: device, launch: launch, name: name, seq: seq,
          process: process, phase: phase, task: task, attrs: attrs)
}

/// A rule for engine tests, with no examples (the catalogue's rules carry those).
func testRule(_ id: String, _ category: RuleCategory = .missedCompletion, explains: Bool = false) -> Rule {
    Rule(id: id, category: category, severity: .error, summary: id, source: "test", explainsTermination: explains,
         passing: [], failing: [])
}
