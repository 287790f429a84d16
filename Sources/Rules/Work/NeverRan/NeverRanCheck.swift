import Replay
import TraceModel

/// Follows the device's task requests and explicit fetch intervals across launches and reports
/// each one that waited longer than the `task-wait` budget for the system to run it, with the
/// factors the log shows during the wait (rules.md, "Why didn't it run").
///
/// Device-scoped, extensions' events too. A finding lands on the device's first event after the
/// wait passed the budget, whatever that event is, so a log that ends before then yields nothing:
/// the check hears the events that change a wait or a condition, and asks the replay to wake it
/// (``ReplayContext/wake(after:)``) at the first event past the earliest due wait. Which submits
/// scheduled a request is the ``TaskRequestStore``'s word (a submit that threw, or that the limit
/// refused, scheduled nothing): ``PendingRequestsCheck`` must run before this check.
///
/// Its state is not checked for exclusivity at run time, for the reason given at ``LaunchState``
/// (a check belongs to one device's replay, on one thread): the checks were a sixth of its cost.
final class NeverRanCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device,
        interests: [
            .power, .refreshStatus, .network, .bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch, .fetchSetMinimumInterval,
            .fetchPerform, .launch, .resume, .willEnterForeground, .sceneWillEnterForeground, .terminate,
        ],
        runsOnExtensions: true, rules: [.bgtaskNeverRan, .fetchNeverRan]
    ) { budgets in NeverRanCheck(budget: budgets[.taskWait]) }

    /// When a condition of the device turned on, and the event that showed it.
    private struct Onset {
        var since: Timestamp
        var event: ReplayEvent
    }

    private let budget: Double
    /// The open pending periods, in the order they began (so findings at one event come in that order).
    @exclusivity(unchecked) private var waits: [Wait] = []
    /// The earliest `due` of a wait not yet reported: most events only compare their time with it.
    @exclusivity(unchecked) private var nextDue = Timestamp(microseconds: .max)
    /// The time the replay was last asked to wake the check after (see ``askToWake(_:)``).
    @exclusivity(unchecked) private var wakeAsked = Timestamp(microseconds: .max)
    @exclusivity(unchecked) private var requests: TaskRequestStore?

    // What the device's readings say, as they stand (a reading holds until the next one).
    @exclusivity(unchecked) private var lowPowerMode: Onset?
    @exclusivity(unchecked) private var lowBattery: Onset?
    @exclusivity(unchecked) private var refreshDisabled: Onset?
    /// The user swiped the app away and has not opened it since.
    @exclusivity(unchecked) private var swipedAway: Onset?
    @exclusivity(unchecked) private var battery: Double?
    @exclusivity(unchecked) private var charging: Bool?
    /// The latest time the user opened the app (a user launch or resume, a return to the foreground).
    @exclusivity(unchecked) private var lastUserOpen: ReplayEvent?
    /// The app launch, replayed from its `launch`, whose registrations are still to be judged
    /// (once its launch sequence is over).
    @exclusivity(unchecked) private var unjudged: LaunchState?
    /// The latest judged app launch: its first event and the identifiers it registered.
    @exclusivity(unchecked) private var judged: (first: ReplayEvent, registered: TextIDs)?

    init(budget: Double) {
        self.budget = budget
    }

    /// The replay wakes the check just before it hears the event, so a run or a cancel that comes
    /// after the budget passed ends a wait that was already reported too long.
    override func wake(at event: ReplayEvent, context: ReplayContext) {
        judgeIfDue()
        reportDue(at: event, context: context)
        wakeAsked = nextDue
        context.wake(after: nextDue)
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        judgeIfDue()
        defer { askToWake(context) }
        let app = !context.launch.isExtension
        switch kind {
        case .power: readPower(event)
        case .refreshStatus: readRefreshStatus(event)
        case .network: readNetwork(event)
        case .bgtaskSubmit: submitted(event, context: context)
        case .bgtaskCancel: cancelled(event.identifier)
        case .bgtaskLaunch: if let identifier = event.identifier { end(.task(identifier)) }
        case .fetchSetMinimumInterval: if app { intervalSet(event) }
        case .fetchPerform: if app { end(.fetch) }
        case .launch:
            guard app else { break }
            if context.launch.isAtFirstEvent { unjudged = context.launch }
            if event.reason == .user { userOpened(event) }
        case .resume:
            // A resume without a cause is the user bringing the app back (rules.md).
            if app, event.reason == .user || event.cause == nil { userOpened(event) }
        case .willEnterForeground, .sceneWillEnterForeground:
            if app { userOpened(event) }
        case .terminate:
            if app, event.reason == .user { set(.swipedAway, on: true, by: event) }
        case .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive, .willResignActive,
            .didEnterBackground, .willTerminate, .memoryWarning, .snapshot, .suspend, .beginBackgroundTask,
            .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining, .expiringActivity, .config,
            .bgtaskRegister, .bgtaskExpire, .bgtaskComplete, .fetchComplete, .pushReceive, .pushComplete,
            .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents, .urlsessionComplete,
            .nseReceive, .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .sceneWillConnect,
            .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .sceneDidDisconnect,
            .resourceAcquire, .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
            .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other:
            break  // Not in the blueprint's interests.
        }
    }

    /// A launch that ends before its launch sequence did is not judged: it never got to the point
    /// where it registers (a prewarm, a kill during launch).
    override func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        guard let launch = unjudged, launch === context.launch else { return }
        if let registered = launch.registeredInLaunchSequence { judge(launch, registered: registered) } else { unjudged = nil }
    }

    /// Judges the unjudged launch once its launch sequence is over, on what it registered by then
    /// (the check did not hear the event that ended the sequence, and later registrations are late).
    private func judgeIfDue() {
        if let launch = unjudged, let registered = launch.registeredInLaunchSequence { judge(launch, registered: registered) }
    }

    // MARK: Pending periods

    private func submitted(_ event: ReplayEvent, context: ReplayContext) {
        guard let identifier = event.identifier else { return }
        let store = requests ?? context.device.store(TaskRequestStore.self)
        requests = store
        // Scheduled only if the store took this very submit as the identifier's pending request.
        guard let request = store.pending[identifier], request.number == context.device.eventNumber else { return }
        guard case .submit(_, _, let earliest, let power, let network) = event.details else { return }
        let eligible = max(event.ts, earliest ?? event.ts)
        let index: Int
        if let open = waits.firstIndex(where: { $0.subject == .task(identifier) }) {
            index = open
            waits[index].latest = event
            waits[index].rescheduled.turnOff(at: event.ts)
            if eligible > waits[index].eligibleAt {
                waits[index].rescheduled.turnOn(at: event.ts, by: event, until: eligible)
            }
            waits[index].eligibleAt = eligible
        } else {
            index = begin(Wait(subject: .task(identifier), start: eligible, budget: budget, opened: event))
            if let judged, !judged.registered.contains(identifier) {
                waits[index].notRegistered.turnOn(at: judged.first.ts, by: judged.first)
            }
        }
        if power == true, request.kind == .processing {
            waits[index].requiresPower.turnOn(at: event.ts, by: event)
        } else {
            waits[index].requiresPower.turnOff(at: event.ts)
        }
        if network == true {
            waits[index].requiresNetwork.turnOn(at: event.ts, by: event)
        } else {
            waits[index].requiresNetwork.turnOff(at: event.ts)
        }
    }

    private func cancelled(_ identifier: TextID?) {
        if let identifier { return end(.task(identifier)) }
        waits.removeAll { if case .task = $0.subject { true } else { false } }
        updateNextDue()
    }

    /// `fetch.setMinimumInterval`: an explicit interval opens a wait (the first since the last
    /// fetch counts); `backgroundFetchIntervalMinimum` (0) or `…Never` ends it — no explicit
    /// interval is in force any more.
    private func intervalSet(_ event: ReplayEvent) {
        guard let interval = event.fetchInterval else { return }
        guard interval > 0, interval < 1e9 else { return end(.fetch) }
        guard !waits.contains(where: { $0.subject == .fetch }) else { return }
        begin(Wait(subject: .fetch, start: event.ts, budget: budget, opened: event))
    }

    /// Opens `wait` with the device's conditions as they stand; returns its index.
    @discardableResult
    private func begin(_ wait: Wait) -> Int {
        if let onset = lowPowerMode { wait.lowPowerMode.turnOn(at: onset.since, by: onset.event) }
        if let onset = lowBattery { wait.lowBattery.turnOn(at: onset.since, by: onset.event) }
        if let onset = refreshDisabled { wait.refreshDisabled.turnOn(at: onset.since, by: onset.event) }
        if let onset = swipedAway { wait.swipedAway.turnOn(at: onset.since, by: onset.event) }
        waits.append(wait)
        nextDue = min(nextDue, wait.due)
        return waits.count - 1
    }

    private func end(_ subject: Wait.Subject) {
        waits.removeAll { $0.subject == subject }
        updateNextDue()
    }

    private func updateNextDue() {
        nextDue = Timestamp(microseconds: .max)
        for index in waits.indices where !waits[index].reported { nextDue = min(nextDue, waits[index].due) }
    }

    /// Asks the replay to wake the check after ``nextDue``, when that changed since it last asked.
    private func askToWake(_ context: ReplayContext) {
        guard nextDue != wakeAsked else { return }
        wakeAsked = nextDue
        context.wake(after: nextDue)
    }

    // MARK: What the log shows

    private func readPower(_ event: ReplayEvent) {
        guard case .power(let lowPower, let level, let charges) = event.details else { return }
        if let lowPower { set(.lowPowerMode, on: lowPower, by: event) }
        battery = level ?? battery
        charging = charges ?? charging
        if let battery { set(.lowBattery, on: battery <= 0.2 && charging != true, by: event) }
        if charges == true { forEachWaitUnderway(at: event) { $0.sawCharging = true } }
    }

    private func readRefreshStatus(_ event: ReplayEvent) {
        guard case .refreshStatus(let status?) = event.details else { return }
        set(.refreshDisabled, on: status.isOff, by: event)
    }

    private func readNetwork(_ event: ReplayEvent) {
        guard case .network(reachable: true?) = event.details else { return }
        forEachWaitUnderway(at: event) { $0.sawReachable = true }
    }

    private func userOpened(_ event: ReplayEvent) {
        lastUserOpen = event
        forEachWaitUnderway(at: event) { $0.userOpened = true }
        set(.swipedAway, on: false, by: event)
    }

    /// Judges whether `launch` registered each waiting identifier in its launch sequence
    /// (`registered`): one that did not holds its request back from the launch's start until a
    /// launch registers it.
    private func judge(_ launch: LaunchState, registered: TextIDs) {
        unjudged = nil
        let first = launch.firstEvent
        judged = (first, registered)
        for index in waits.indices {
            guard case .task(let identifier) = waits[index].subject else { continue }
            if registered.contains(identifier) {
                waits[index].notRegistered.turnOff(at: first.ts)
            } else {
                waits[index].notRegistered.turnOn(at: first.ts, by: first)
            }
        }
    }

    /// The conditions of the device that readings and the user turn on and off.
    private enum Condition {
        case lowPowerMode, lowBattery, refreshDisabled, swipedAway
    }

    /// Turns a condition of the device on or off at `event`, in every open wait too. A switch
    /// rather than key paths: readings come all day, and key paths cost most of this call.
    private func set(_ condition: Condition, on: Bool, by event: ReplayEvent) {
        let onset = on ? Onset(since: event.ts, event: event) : nil
        switch condition {
        case .lowPowerMode:
            guard on != (lowPowerMode != nil) else { return }
            lowPowerMode = onset
        case .lowBattery:
            guard on != (lowBattery != nil) else { return }
            lowBattery = onset
        case .refreshDisabled:
            guard on != (refreshDisabled != nil) else { return }
            refreshDisabled = onset
        case .swipedAway:
            guard on != (swipedAway != nil) else { return }
            swipedAway = onset
        }
        for index in waits.indices {
            switch condition {
            case .lowPowerMode: waits[index].lowPowerMode.turn(on, at: event)
            case .lowBattery: waits[index].lowBattery.turn(on, at: event)
            case .refreshDisabled: waits[index].refreshDisabled.turn(on, at: event)
            case .swipedAway: waits[index].swipedAway.turn(on, at: event)
            }
        }
    }

    /// Calls `body` with each wait that has begun by the time of `event`.
    private func forEachWaitUnderway(at event: ReplayEvent, _ body: (Wait) -> Void) {
        for wait in waits where event.ts >= wait.start { body(wait) }
    }

    // MARK: Findings

    private func reportDue(at event: ReplayEvent, context: ReplayContext) {
        for index in waits.indices where !waits[index].reported && event.ts > waits[index].due {
            waits[index].reported = true
            report(waits[index], at: event, context: context)
        }
        updateNextDue()
    }

    private func report(_ wait: Wait, at event: ReplayEvent, context: ReplayContext) {
        let waited = event.ts.seconds(since: wait.start)
        let factors = wait.factors(until: event.ts, lastUserOpen: lastUserOpen).map { factor in
            Finding.Factor(
                kind: factor.kind, share: factor.share,
                evidence: Self.distinct(factor.evidence).map { context.resolved($0).reference })
        }
        let text = NeverRanText(wait: wait, waited: waited, budget: budget, factors: factors, context: context)
        context.report(
            wait.subject == .fetch ? .fetchNeverRan : .bgtaskNeverRan, at: event,
            events: [wait.opened, wait.latest, event], message: text.message, budget: .taskWait,
            measured: waited, factors: factors)
    }

    private static func distinct(_ events: [ReplayEvent]) -> [ReplayEvent] {
        var kept: [ReplayEvent] = []
        for event in events where !kept.contains(event) { kept.append(event) }
        return kept
    }
}
