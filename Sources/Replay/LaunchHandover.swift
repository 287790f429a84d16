import TraceModel

/// Holds the first event of a process's new launch until the lines its previous launch could not
/// write itself have passed, so that a stream is replayed launch by launch, as a store is.
///
/// A process's logger cannot write the line of its own end, so the trace format has the next
/// launch write the old one's `terminate` on its behalf, just after its own `launch` line. Replayed
/// in the stream's order, that new `launch` ended the old launch as superseded, and its
/// `terminate`, arriving after, explained nothing: a background kill went unreported on
/// `check --stdin` that `check` over the store reported. So a new launch's first event waits for
/// the device's next event: lines of the launch it supersedes pass before it; anything else lets it
/// go first.
///
/// Holds at most one event a device, and forgets a device when it is flushed.
public struct LaunchHandover {
    /// A new launch's first event, and the launch it supersedes.
    private struct Held {
        var event: Event
        var superseded: String
    }

    /// The latest launch of each process of each device, and the one before it (whose late lines
    /// are its own, not a new launch).
    private var launches: [ProcessKey: (latest: String, previous: String?)] = [:]
    /// By device, the event held.
    private var held: [String: Held] = [:]
    /// The device and launch of the latest event let through as it came (nil after one held).
    private var lastPassed: (device: String, launch: String)?

    public init() {}

    public mutating func push(_ event: Event, emit: (Event) -> Void) {
        // Nearly every event follows one of its own launch that was let through: nothing of its
        // device is held then, and its launch is its process's latest (no hashing).
        if let last = lastPassed, last.launch == event.launch, last.device == event.device { return emit(event) }
        lastPassed = nil
        if let waiting = held[event.device] {
            // The superseded launch's own late lines pass first; the new launch waits on.
            if event.launch == waiting.superseded, ProcessKey(event) == ProcessKey(waiting.event) {
                return emit(event)
            }
            held[event.device] = nil
            emit(waiting.event)
        }
        let process = ProcessKey(event)
        guard let known = launches[process] else {
            launches[process] = (event.launch, nil)
            return pass(event, emit: emit)
        }
        if event.launch == known.latest || event.launch == known.previous { return pass(event, emit: emit) }
        launches[process] = (event.launch, known.latest)
        held[event.device] = Held(event: event, superseded: known.latest)
    }

    private mutating func pass(_ event: Event, emit: (Event) -> Void) {
        lastPassed = (event.device, event.launch)
        emit(event)
    }

    /// Releases what is held: the input is over.
    public mutating func flush(emit: (Event) -> Void) {
        for device in held.keys.sorted() {
            if let waiting = held[device] { emit(waiting.event) }
        }
        held.removeAll()
        launches.removeAll()
        lastPassed = nil
    }
}
