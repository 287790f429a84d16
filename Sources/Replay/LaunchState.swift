import TraceModel

/// What the replay knows about one process lifetime (one `launch` id) while replaying it.
/// The lifecycle check keeps the state fields current; every other check reads them.
///
/// Its fields are read and set by the checks of other modules for nearly every event, and Swift
/// checks each such access of a class's property at run time (exclusivity), which cost more
/// than the accesses (callgrind, 41k events: 38M of 204M replay instructions, 13.6M of them in
/// the lifecycle check). The checks are turned off for them with `@exclusivity(unchecked)`:
/// a launch's state is used by one thread (its ``DeviceReplayer``'s, which is not `Sendable`),
/// and every access is a plain read or assignment, or a mutation that calls nothing that could
/// reach the same property.
public final class LaunchState {
    public let launch: String
    /// The launch's number within its device's replay, which its events carry
    /// (``ReplayEvent/launch``): never reused while the device is replayed.
    public let serial: UInt32
    /// The `process` of its first event: nil or `"app"` for the app, `"extension:…"` otherwise.
    public let process: String?
    /// True for an app extension process (`process` = `extension:…`). Stored, not computed:
    /// the replay asks it for every event.
    public let isExtension: Bool

    /// The app's state after the events replayed so far.
    public var state: AppState {
        get { fields.state }
        set { fields.state = newValue }
    }
    /// The state before the event being replayed (equal to ``state`` when the event moved nothing).
    public var stateBefore: AppState {
        get { fields.stateBefore }
        set { fields.stateBefore = newValue }
    }
    /// True while ``state`` is a guess: the log of this launch began after its `launch` (the file
    /// started mid-launch) or the launch was a prewarm, and no life-cycle move has confirmed a
    /// state yet. The guess is ``AppState/background``; the next life-cycle event is accepted
    /// whatever it is and sets the state it implies (a `terminate` leaves the flag as it was, so
    /// that the end of the launch knows its state was a guess).
    public var stateInferred: Bool {
        get { fields.stateInferred }
        set { fields.stateInferred = newValue }
    }
    /// True when the lifecycle check found the event being replayed impossible (an illegal
    /// transition, app code run while suspended, an event after the launch's `terminate`) and
    /// reported it. Checks that judge order pass over such an event, so that one bad event yields
    /// one finding; the replay goes on in the state the event implies.
    public var lifecycleBreach: Bool {
        get { fields.lifecycleBreach }
        set { fields.lifecycleBreach = newValue }
    }
    /// The `launch` event, when it was logged.
    @exclusivity(unchecked) public var launchEvent: ReplayEvent?
    /// The `terminate` event, once the process has ended.
    @exclusivity(unchecked) public var terminated: ReplayEvent?
    /// True once `didFinishLaunching` returned (its `end`), or at the latest at the first
    /// life-cycle move after launching (`didBecomeActive`, `didEnterBackground`, `suspend`, …,
    /// for an app that does not log `didFinishLaunching`): the launch sequence is over. For a log
    /// that began mid-launch it stays false until one of those is seen.
    @exclusivity(unchecked) public var launchSequenceEnded = false
    /// The `begin` of a `didEnterBackground` call that has not returned yet.
    @exclusivity(unchecked) public var didEnterBackgroundBegin: ReplayEvent?
    /// The event that started the current background period (`didEnterBackground` begin, or the
    /// `launch`/`resume` into the background); nil in the foreground and when suspended. A
    /// `didEnterBackground` after a launch or resume into the background does not move it (the
    /// period began at the launch or resume). A `terminate` leaves it as it was, so that budgets
    /// can still be measured when the launch ends.
    @exclusivity(unchecked) public var backgroundSince: ReplayEvent?
    /// The latest `backgroundTimeRemaining` reading of the current background period.
    @exclusivity(unchecked) public var lastTimeRemaining: ReplayEvent?
    /// `BGTaskSchedulerPermittedIdentifiers` from this launch's `config`, if logged.
    @exclusivity(unchecked) public var permittedIdentifiers: [String]?
    /// `UIBackgroundModes` from this launch's `config`, if logged.
    @exclusivity(unchecked) public var backgroundModes: [String]?
    /// Identifiers passed to `bgtask.register` in this launch.
    @exclusivity(unchecked) public var registered: Set<TextID> = []
    /// The first and the latest event of the launch.
    public let firstEvent: ReplayEvent
    @exclusivity(unchecked) public internal(set) var lastEvent: ReplayEvent
    /// Findings of this launch whose rule ``Rule/explainsTermination``, in the order they were
    /// reported or said to still stand.
    @exclusivity(unchecked) public internal(set) var explanations: [Explanation] = []
    /// Work still open when the launch's log ended without a `terminate` (see ``OpenWork``),
    /// filled by the checks while the launch ends.
    @exclusivity(unchecked) public var openWork: [OpenWork] = []
    /// True when the caller said the log holding this launch's last event was cut short (a file
    /// truncated mid-write, a stream that ended mid-line): set before the launch's checks hear
    /// that it ended. See ``Replayer/logWasCutShort(device:launch:)``.
    @exclusivity(unchecked) public internal(set) var logCutShort = false

    /// The fields the lifecycle check reads and sets for every event, behind accessors: a
    /// check in another module accesses a stored property directly, and checks its exclusivity
    /// at run time despite `@exclusivity(unchecked)` (4.3 checks an event in the lifecycle
    /// check's profile); the accessors' own accesses are not checked.
    private struct LifecycleFields {
        var state = AppState.notRunning
        var stateBefore = AppState.notRunning
        var stateInferred = false
        var lifecycleBreach = false
    }

    @exclusivity(unchecked) private var fields = LifecycleFields()

    /// One slot per blueprint of the rule book: this launch's instance, or nil.
    @exclusivity(unchecked) var checks: [(any Check)?] = []

    /// The state of the launch `header` names, numbered `serial`, which `first` begins.
    init(_ header: LaunchHeader, serial: UInt32, first: ReplayEvent) {
        launch = header.launch
        self.serial = serial
        process = header.process
        isExtension = header.process?.hasPrefix("extension:") ?? false
        firstEvent = first
        lastEvent = first
    }
}

/// How a launch came to an end, and the event at which the replay learnt it.
public enum LaunchEnding: Sendable {
    /// Its `terminate` event.
    case terminated(ReplayEvent)
    /// A new launch of the same process began (this is its first event): the old one ended
    /// without a word, killed or quietly reclaimed.
    case superseded(by: ReplayEvent)
    /// The device's log ended (this is the launch's last event).
    case endOfLog(ReplayEvent)

    /// The event at which the end became known: findings about it carry its time.
    public var event: ReplayEvent {
        switch self {
        case .terminated(let event), .superseded(let event), .endOfLog(let event): event
        }
    }

    /// True when the log stopped without saying the process ended (no `terminate`): what was
    /// open then is not known to have been left undone.
    public var isEndOfLogOnly: Bool {
        if case .terminated = self { return false }
        return true
    }
}
