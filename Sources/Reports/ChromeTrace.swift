import Replay
import TraceModel

/// One device's timeline as a Trace Event Format file, the JSON that Perfetto UI and
/// `chrome://tracing` open: the device is a process, each launch a thread whose slices are the
/// app's states; callbacks logged with `phase` begin/end are async slices on the launch (they
/// may overlap each other and the states, which complete slices of one thread may not); each
/// finding is an instant event on its launch, with its message. Times are microseconds since
/// the epoch, as the format wants: each launch's first event with `mono` at its `ts`, and its later
/// events that far after it by `mono`, so that a slice lasts what the durations of `intervals`
/// and the findings say even when the wall clock was changed during the launch (an event without
/// `mono` stays at its `ts`).
///
/// Built from the same ``TimelineEntry`` values as `lifeline timeline`, so both tell the same
/// story. Feed entries in replay order, then ``render()``.
public struct ChromeTrace {
    private let device: String
    private var events: [String] = []
    private var threads: [String: Int] = [:]
    /// Per launch: the state being drawn and since when, and the last event's time.
    private var states: [String: (state: String, since: Int64, last: Int64)] = [:]
    /// Callbacks begun and not yet ended, per launch and event name: their begin times.
    private var openCallbacks: [String: [Int64]] = [:]
    private var nextCallbackID = 0
    /// Per launch: the `ts` (microseconds) and `mono` of its first event with `mono`.
    private var anchors: [String: (ts: Int64, mono: Double)] = [:]

    public init(device: String) {
        self.device = device
    }

    public mutating func add(_ entry: TimelineEntry) {
        let event = entry.event
        let ts = time(of: event)
        let tid = thread(for: event)
        if let current = states[event.launch], current.state != entry.state {
            slice(current.state, tid: tid, from: current.since, to: ts)
            states[event.launch] = (entry.state, ts, ts)
        } else if states[event.launch] == nil {
            states[event.launch] = (entry.state, ts, ts)
        }
        states[event.launch]?.last = ts
        if let phase = event.phase { callback(event.name, phase: phase, launch: event.launch, tid: tid, at: ts) }
        for finding in entry.findings {
            events.append(
                "{\"name\":\(JSONText.quoted(finding.rule)),\"cat\":\"finding\",\"ph\":\"i\",\"s\":\"t\",\"ts\":\(ts),"
                    + "\"pid\":1,\"tid\":\(tid),\"args\":{\"severity\":\(JSONText.quoted(finding.severity.rawValue)),"
                    + "\"message\":\(JSONText.quoted(finding.message))}}")
        }
    }

    /// The whole file: the open states and callbacks closed at each launch's last event, and
    /// the names of the process and its threads.
    public mutating func render() -> String {
        for (launch, current) in states.sorted(by: { $0.key < $1.key }) {
            let tid = threads[launch] ?? 0
            slice(current.state, tid: tid, from: current.since, to: current.last)
            for (key, begins) in openCallbacks.sorted(by: { $0.key < $1.key }) where key.hasPrefix(launch + "\u{0}") {
                let name = String(key.dropFirst(launch.count + 1))
                for begin in begins { asyncSlice(name, tid: tid, from: begin, to: current.last, open: true) }
            }
        }
        var metadata = ["{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\(JSONText.quoted("device " + device))}}"]
        for (launch, tid) in threads.sorted(by: { $0.value < $1.value }) {
            metadata.append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":\(JSONText.quoted("launch " + launch))}}")
            metadata.append("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"sort_index\":\(tid)}}")
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + (metadata + events).joined(separator: ",\n") + "\n]}\n"
    }

    /// Where `event` goes on the timeline (see the type's note).
    private mutating func time(of event: Event) -> Int64 {
        guard let mono = event.mono else { return event.ts.microseconds }
        guard let anchor = anchors[event.launch] else {
            anchors[event.launch] = (event.ts.microseconds, mono)
            return event.ts.microseconds
        }
        // Saturated: `mono` comes from input, and a huge one must not trap.
        let offset = ((mono - anchor.mono) * 1_000_000).rounded()
        guard offset.isFinite, offset > -9.0e18, offset < 9.0e18 else { return event.ts.microseconds }
        let (time, overflow) = anchor.ts.addingReportingOverflow(Int64(offset))
        return overflow ? event.ts.microseconds : time
    }

    private mutating func thread(for event: Event) -> Int {
        if let tid = threads[event.launch] { return tid }
        let tid = threads.count + 1
        threads[event.launch] = tid
        return tid
    }

    private mutating func slice(_ state: String, tid: Int, from start: Int64, to end: Int64) {
        let duration = Self.elapsed(from: start, to: end)
        events.append(
            "{\"name\":\(JSONText.quoted(state)),\"cat\":\"state\",\"ph\":\"X\",\"ts\":\(start),\"dur\":\(duration),\"pid\":1,\"tid\":\(tid)}")
    }

    private mutating func callback(_ name: String, phase: String, launch: String, tid: Int, at ts: Int64) {
        let key = launch + "\u{0}" + name
        switch phase {
        case "begin": openCallbacks[key, default: []].append(ts)
        case "end":
            guard let begin = openCallbacks[key]?.popLast() else { return }
            asyncSlice(name, tid: tid, from: begin, to: ts, open: false)
        default: break
        }
    }

    /// Microseconds from `start` to `end`: 0 when the clock ran backwards (a slice is never
    /// negative), saturated when the times are so far apart that the difference overflows.
    private static func elapsed(from start: Int64, to end: Int64) -> Int64 {
        guard end > start else { return 0 }
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? .max : difference
    }

    /// A callback as a pair of async events (`b`, `e`) with an id of its own.
    private mutating func asyncSlice(_ name: String, tid: Int, from start: Int64, to end: Int64, open: Bool) {
        nextCallbackID += 1
        let common = "\"name\":\(JSONText.quoted(name)),\"cat\":\"callback\",\"id\":\(nextCallbackID),\"pid\":1,\"tid\":\(tid)"
        let seconds = SecondsText.number(Double(Self.elapsed(from: start, to: end)) / 1_000_000, decimals: 3)
        events.append("{\(common),\"ph\":\"b\",\"ts\":\(start),\"args\":{\"seconds\":\(seconds),\"ended\":\(!open)}}")
        events.append("{\(common),\"ph\":\"e\",\"ts\":\(max(start, end))}")
    }
}
