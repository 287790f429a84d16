import Replay
import TraceModel

/// How much of one wait a condition covered. The condition turns on and off at events' times
/// (a reading holds until the next one); only the part inside the wait counts, so a condition
/// already on when the wait began counts from the wait's start.
struct Coverage {
    /// The start of the wait: nothing before it counts.
    let waitStart: Timestamp
    /// Seconds of the wait covered by the intervals already closed.
    private var closed: Double = 0
    /// The start of the current interval while the condition is on.
    private var since: Timestamp?
    /// Where the current interval ends by itself, if it does (a request that becomes eligible).
    private var until: Timestamp?
    /// The event that turned the condition on for the current interval.
    private var turnedOnBy: ReplayEvent?
    /// The events that turned it on for a part of the wait, oldest first (at most
    /// ``evidenceKept``: a log that flips a setting all day names its first flips).
    private(set) var evidence: [ReplayEvent] = []
    static let evidenceKept = 8

    init(waitStart: Timestamp) {
        self.waitStart = waitStart
    }

    /// The condition holds from `time` (until `end`, when it ends by itself), as `event` shows;
    /// already on, it stays on as it was.
    mutating func turnOn(at time: Timestamp, by event: ReplayEvent, until end: Timestamp? = nil) {
        guard since == nil else { return }
        since = time
        until = end
        turnedOnBy = event
    }

    /// The condition holds (`on`) or no longer holds from `event`'s time.
    mutating func turn(_ on: Bool, at event: ReplayEvent) {
        if on { turnOn(at: event.ts, by: event) } else { turnOff(at: event.ts) }
    }

    /// The condition no longer holds from `time`.
    mutating func turnOff(at time: Timestamp) {
        guard let since else { return }
        let covered = Self.overlap(since, min(time, until ?? time), waitStart)
        closed += covered
        if covered > 0, let turnedOnBy, evidence.count < Self.evidenceKept { evidence.append(turnedOnBy) }
        self.since = nil
        until = nil
        turnedOnBy = nil
    }

    /// Seconds of the wait, up to `end`, the condition covered, and the events that show it.
    func measure(until end: Timestamp) -> (seconds: Double, evidence: [ReplayEvent]) {
        guard let since else { return (closed, evidence) }
        let open = Self.overlap(since, min(end, until ?? end), waitStart)
        guard open > 0, let turnedOnBy, evidence.count < Self.evidenceKept else { return (closed + open, evidence) }
        return (closed + open, evidence + [turnedOnBy])
    }

    /// Seconds of `[from, to]` at or after `start` (0 when none).
    private static func overlap(_ from: Timestamp, _ to: Timestamp, _ start: Timestamp) -> Double {
        max(0, to.seconds(since: max(from, start)))
    }
}
