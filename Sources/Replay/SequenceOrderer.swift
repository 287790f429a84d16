import TraceModel

/// Puts each launch's events back in `seq` order when a stream holds them out of order (the trace
/// format orders events of a launch by `seq` where present), and drops a `seq` replayed already.
///
/// Each launch is expected to start at `seq` 0. Holds at most `window` events per launch: an
/// event whose predecessor has not come after that many others is released anyway (so a log
/// that starts in the middle of a launch costs a delay, not a loss; the gap is the log's, and
/// the replay reports what follows from it). A `seq` that comes after its place has passed is
/// kept, late, when it fills a gap released past; otherwise that `seq` of that launch was
/// replayed already, and the event is a duplicate (a file uploaded twice): dropped and counted
/// (``duplicates``), as the store's identity `(device, launch, seq)` drops it.
///
/// Events without `seq` pass straight through, in arrival order: holding a launch's until it
/// ended, to sort them by `ts`, delayed them past other processes' events of the device and moved
/// more findings away from the store's than it brought to them.
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

    /// A launch's place in its `seq` and what it holds: a class, so that the launch of the latest
    /// event is at hand without hashing its device and launch for every event. Its fields are not
    /// checked for exclusivity at run time (a check for every event): an orderer is one thread's,
    /// and nothing it calls while it changes them reaches them.
    private final class Pending {
        @exclusivity(unchecked) var next: Int64 = 0
        let process: ProcessKey
        @exclusivity(unchecked) var events: [Event] = []
        /// The `seq`s released past without being seen, which a late event may still fill; at
        /// most ``SequenceOrderer/gapsKept`` (beyond that the lowest are forgotten, and an event
        /// that fills one of them counts as a duplicate).
        @exclusivity(unchecked) var gaps: [ClosedRange<Int64>] = []
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
    /// Events dropped as already replayed: a `seq` of a launch seen before.
    public private(set) var duplicates = 0
    static let gapsKept = 256

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
        pending.touched = pushed
        if !Self.place(event, seq: seq, window: window, in: pending, emit: emit) { duplicates += 1 }
        if launches.count > launchesKept { forgetQuietLaunches(emit: emit) }
    }

    /// Emits or holds `event`; false when it is a duplicate, dropped.
    private static func place(_ event: Event, seq: Int64, window: Int, in pending: Pending, emit: (Event) -> Void) -> Bool {
        if seq < pending.next {
            // Later than its place, and its place has passed: kept, late, if it was never seen.
            guard let gap = pending.gaps.firstIndex(where: { $0.contains(seq) }) else { return false }
            let range = pending.gaps.remove(at: gap)
            var rest: [ClosedRange<Int64>] = []
            if seq > range.lowerBound { rest.append(range.lowerBound ... seq - 1) }
            if seq < range.upperBound { rest.append(seq + 1 ... range.upperBound) }
            pending.gaps.insert(contentsOf: rest, at: gap)
            emit(event)
        } else if seq == pending.next && pending.events.isEmpty {
            // In order, as nearly every event is: nothing to hold.
            pending.next = Self.successor(of: seq)
            emit(event)
        } else {
            let index = pending.events.firstIndex { ($0.seq ?? 0) >= seq } ?? pending.events.endIndex
            if index < pending.events.endIndex, pending.events[index].seq == seq { return false }
            pending.events.insert(event, at: index)
            release(pending, window: window, emit: emit)
        }
        return true
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
        guard let pending = launches[Key(device: key.device, launch: earlier)] else { return }
        Self.releaseAll(pending, emit: emit)
    }

    /// Releases everything `pending` holds, its launch being over, in order (the `seq`s skipped
    /// kept as gaps). The launch's buffer is given back: it stays known for its duplicates and
    /// late events until forgotten, and a launch that held a window's worth of events would
    /// otherwise keep that much memory for as long (4,096 launches of it: tens of megabytes).
    private static func releaseAll(_ pending: Pending, emit: (Event) -> Void) {
        let held = pending.events
        pending.events = []
        for event in held {
            advance(pending, to: event.seq ?? pending.next)
            emit(event)
        }
    }

    /// Moves the launch's next expected `seq` past `seq`, keeping any `seq`s skipped as a gap.
    private static func advance(_ pending: Pending, to seq: Int64) {
        if seq > pending.next {
            pending.gaps.append(pending.next ... seq - 1)
            if pending.gaps.count > gapsKept { pending.gaps.removeFirst() }
        }
        pending.next = successor(of: max(seq, pending.next))
    }

    private mutating func forgetQuietLaunches(emit: (Event) -> Void) {
        let quietest = launches.sorted { $0.value.touched < $1.value.touched }.prefix(launches.count - launchesKept / 2)
        for (key, pending) in quietest {
            Self.releaseAll(pending, emit: emit)
            launches[key] = nil
            if latestLaunch[pending.process] == key.launch { latestLaunch[pending.process] = nil }
        }
        if let last, launches[last.key] == nil { self.last = nil }
    }

    /// The events the launches still known have room for: what they hold, and buffers not given
    /// back (for the test that a finished launch keeps none).
    var eventCapacityKept: Int { launches.values.reduce(0) { $0 + $1.events.capacity } }

    /// Releases everything still held, in order: the input is over.
    public mutating func flush(emit: (Event) -> Void) {
        for key in launches.keys.sorted(by: { ($0.device, $0.launch) < ($1.device, $1.launch) }) {
            if let pending = launches[key] { Self.releaseAll(pending, emit: emit) }
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
            advance(pending, to: first.seq ?? pending.next)
            emit(first)
        }
    }
}
