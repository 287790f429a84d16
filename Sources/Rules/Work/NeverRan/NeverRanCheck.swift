import Replay
import TraceModel

/// Follows the device's task requests and explicit fetch intervals across launches and reports
/// each one that waited longer than the `task-wait` budget for the system to run it, with the
/// factors the log shows during the wait (rules.md, "Why didn't it run").
///
/// Device-scoped, and it hears every event of the device (extensions' too): a finding lands on
/// the device's first event after the wait passed the budget, whatever that event is, so a log
/// that ends before then yields nothing. Which submits scheduled a request is the
/// ``TaskRequestStore``'s word (a submit that threw, or that the limit refused, scheduled
/// nothing): ``PendingRequestsCheck`` must run before this check.
final class NeverRanCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device, interests: nil, runsOnExtensions: true, rules: [.bgtaskNeverRan, .fetchNeverRan]
    ) { budgets in NeverRanCheck(budget: budgets[.taskWait]) }

    /// When a condition of the device turned on, and the event that showed it.
    private struct Onset {
        var since: Timestamp
        var event: ReplayEvent
    }

    private let budget: Double
    /// The open pending periods, in the order they began (so findings at one event come in that order).
    private var waits: [Wait] = []
    /// The earliest `due` of a wait not yet reported: most events only compare their time with it.
    private var nextDue = Timestamp(microseconds: .max)
    private var requests: TaskRequestStore?

    // What the device's readings say, as they stand (a reading holds until the next one).
    private var lowPowerMode: Onset?
    private var lowBattery: Onset?
    private var refreshDisabled: Onset?
    /// The user swiped the app away and has not opened it since.
    private var swipedAway: Onset?
    private var battery: Double?
    private var charging: Bool?
    /// The latest time the user opened the app (a user launch or resume, a return to the foreground).
    private var lastUserOpen: ReplayEvent?
    /// The app launch, replayed from its `launch`, whose registrations are still to be judged
    /// (once its launch sequence is over).
    private var unjudged: LaunchState?
    /// The latest judged app launch: its first event and the identifiers it registered.
    private var judged: (first: ReplayEvent, registered: Set<TextID>)?

    init(budget: Double) {
        self.budget = budget
    }

    func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if let launch = unjudged, launch.launchSequenceEnded { judge(launch) }
        // Before the event's own effect: a run or a cancel that comes after the budget passed
        // ends a wait that was already too long.
        if event.ts > nextDue { reportDue(at: event, context: context) }
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
            if context.launch.firstEvent == event { unjudged = context.launch }
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
            break
        }
    }

    /// A launch that ends before its launch sequence did is not judged: it never got to the point
    /// where it registers (a prewarm, a kill during launch).
    func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        guard let launch = unjudged, launch === context.launch else { return }
        if launch.launchSequenceEnded { judge(launch) } else { unjudged = nil }
    }

    // MARK: Pending periods

    private func submitted(_ event: ReplayEvent, context: ReplayContext) {
        guard let identifier = event.identifier else { return }
        let store = requests ?? context.device.store(TaskRequestStore.self)
        requests = store
        // Scheduled only if the store took this very submit as the identifier's pending request.
        guard let request = store.pending[identifier], request.submit == event else { return }
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
        var wait = wait
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
        nextDue = waits.lazy.filter { !$0.reported }.map(\.due).min() ?? Timestamp(microseconds: .max)
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
        guard case .network(reachable: true?, _) = event.details else { return }
        forEachWaitUnderway(at: event) { $0.sawReachable = true }
    }

    private func userOpened(_ event: ReplayEvent) {
        lastUserOpen = event
        forEachWaitUnderway(at: event) { $0.userOpened = true }
        set(.swipedAway, on: false, by: event)
    }

    /// Judges whether `launch` registered each waiting identifier: one that did not holds its
    /// request back from the launch's start until a launch registers it.
    private func judge(_ launch: LaunchState) {
        unjudged = nil
        let first = launch.firstEvent
        judged = (first, launch.registered)
        for index in waits.indices {
            guard case .task(let identifier) = waits[index].subject else { continue }
            if launch.registered.contains(identifier) {
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
    private func forEachWaitUnderway(at event: ReplayEvent, _ body: (inout Wait) -> Void) {
        for index in waits.indices where event.ts >= waits[index].start { body(&waits[index]) }
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
