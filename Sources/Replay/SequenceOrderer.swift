import TraceModel

/// Puts each launch's events back in `seq` order when a log holds them slightly out of order
/// (the trace format orders events of a launch by `seq` where present).
///
/// Each launch is expected to start at `seq` 0. Holds at most `window` events per launch: an
/// event whose predecessor has not come after that many others is released anyway (so a log
/// that starts in the middle of a launch costs a delay, not a loss; the gap is the log's, and
/// the replay reports what follows from it). Events without `seq` pass straight through, in
/// arrival order.
///
/// Only a launch's own events are reordered. Across launches the log's order is the truth, so
/// when a new launch of the same process (the app, or one extension) of a device logs, what the
/// old one still holds comes out first: iOS runs one such process at a time, and releasing
/// the old launch's events after the new one began would make them look logged after its end.
/// A launch waiting for a line that was rejected used to hold its last events until long after
/// the next launch, and the replay reported false breaches for them.
public struct SequenceOrderer {
    private struct Key: Hashable {
        var device: String
        var launch: String
    }

    /// One process (the app, or one extension) of one device.
    private struct ProcessKey: Hashable {
        var device: String
        var process: String

        init(_ event: Event) {
            device = event.device
            process = event.process ?? "app"
        }
    }

    /// A launch's place in its `seq` and what it holds: a class, so that the launch of the latest
    /// event is at hand without hashing its device and launch for every event. Its fields are not
    /// checked for exclusivity at run time (a check for every event): an orderer is one thread's,
    /// and nothing it calls while it changes them reaches them.
    private final class Pending {
        @exclusivity(unchecked) var next: Int64 = 0
        let process: ProcessKey
        @exclusivity(unchecked) var events: [Event] = []
        /// When the launch last had an event (a count of events pushed), for forgetting the
        /// launches that have gone quiet first.
        @exclusivity(unchecked) var touched = 0

        init(process: ProcessKey) {
            self.process = process
        }
    }

    private let window: Int
    private var launches: [Key: Pending] = [:]
    /// The launch that logged last, for each process of each device.
    private var latestLaunch: [ProcessKey: String] = [:]
    /// The launch of the latest event pushed: most events belong to the launch of the one before.
    private var last: (key: Key, pending: Pending)?
    /// Beyond this many launches, the half that went quiet longest are forgotten, so a long
    /// stream's memory does not grow with its number of launches; what one still holds (events
    /// waiting for a predecessor that a bad line or a gap took away) is released first, in
    /// `seq` order. Always forgetting half keeps the sweep to one every `launchesKept / 2`
    /// events: sweeping only the launches that held nothing let launches with a gap pile up
    /// and turned the sweep into work on every event (750k field-like events took 70 s instead
    /// of about 6). A forgotten launch that gets another event starts over: that event waits for
    /// its predecessors at most `window` events.
    private let launchesKept: Int
    private var pushed = 0

    public init(window: Int = 256, launchesKept: Int = 4096) {
        self.window = window
        self.launchesKept = launchesKept
    }

    public mutating func push(_ event: Event, emit: (Event) -> Void) {
        guard let seq = event.seq else { return emit(event) }
        pushed += 1
        let pending: Pending
        if let last, last.key.launch == event.launch, last.key.device == event.device {
            pending = last.pending
        } else {
            let key = Key(device: event.device, launch: event.launch)
            releaseEarlierLaunch(of: ProcessKey(event), before: key, emit: emit)
            if let known = launches[key] {
                pending = known
            } else {
                pending = Pending(process: ProcessKey(event))
                launches[key] = pending
            }
            last = (key, pending)
        }
        Self.place(event, seq: seq, at: pushed, window: window, in: pending, emit: emit)
        if launches.count > launchesKept { forgetQuietLaunches(emit: emit) }
    }

    private static func place(
        _ event: Event, seq: Int64, at pushed: Int, window: Int, in pending: Pending, emit: (Event) -> Void
    ) {
        pending.touched = pushed
        if seq < pending.next {
            emit(event)  // later than its place, and its place has passed: keep it, late
        } else if seq == pending.next && pending.events.isEmpty {
            // In order, as nearly every event is: nothing to hold.
            pending.next = Self.successor(of: seq)
            emit(event)
        } else {
            let index = pending.events.firstIndex { ($0.seq ?? 0) > seq } ?? pending.events.endIndex
            pending.events.insert(event, at: index)
            release(pending, window: window, emit: emit)
        }
    }

    /// Saturating: `seq` comes from input, and Int64.max is a legal one.
    private static func successor(of seq: Int64) -> Int64 {
        let (next, overflow) = seq.addingReportingOverflow(1)
        return overflow ? .max : next
    }

    /// Releases what the launch of `process` that logged before `key` still holds, in order: a
    /// new launch of the same process means the old one is over.
    private mutating func releaseEarlierLaunch(of process: ProcessKey, before key: Key, emit: (Event) -> Void) {
        let earlier = latestLaunch.updateValue(key.launch, forKey: process)
        guard let earlier, earlier != key.launch else { return }
        guard let pending = launches[Key(device: key.device, launch: earlier)], !pending.events.isEmpty else { return }
        let held = pending.events
        pending.events.removeAll()
        if let last = held.last?.seq { pending.next = Self.successor(of: last) }
        for event in held { emit(event) }
    }

    private mutating func forgetQuietLaunches(emit: (Event) -> Void) {
        let quietest = launches.sorted { $0.value.touched < $1.value.touched }.prefix(launches.count - launchesKept / 2)
        for (key, pending) in quietest {
            pending.events.forEach(emit)
            launches[key] = nil
            if latestLaunch[pending.process] == key.launch { latestLaunch[pending.process] = nil }
        }
        if let last, launches[last.key] == nil { self.last = nil }
    }

    /// Releases everything still held, in order: the input is over.
    public mutating func flush(emit: (Event) -> Void) {
        for key in launches.keys.sorted(by: { ($0.device, $0.launch) < ($1.device, $1.launch) }) {
            launches[key]?.events.forEach(emit)
        }
        launches.removeAll()
        latestLaunch.removeAll()
        last = nil
    }

    private static func release(_ pending: Pending, window: Int, emit: (Event) -> Void) {
        while let first = pending.events.first,
              first.seq == pending.next || pending.events.count > window
        {
            pending.events.removeFirst()
            pending.next = successor(of: first.seq ?? pending.next)
            emit(first)
        }
    }
}
