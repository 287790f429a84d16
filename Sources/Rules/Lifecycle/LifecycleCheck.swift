import Replay
import TraceModel

/// Replays the UIKit state machine of one launch (seed 002: "UIKit apps are always in one of five
/// states") and keeps ``LaunchState`` current for every check that runs after it.
///
/// Reports `illegal-transition`, `event-after-terminate` and `event-while-suspended`. After a bad
/// event the replay goes on in the state the event implies, and ``LaunchState/lifecycleBreach``
/// tells the checks after it that this event was already reported. On an extension process only
/// the two data rules apply: it has no UIKit life cycle.
///
/// Its state is read for every event it receives: not checked for exclusivity at run time, for the
/// reason given at ``LaunchState`` (a check belongs to one device's replay, on one thread).
final class LifecycleCheck: Check {
    /// Whether `didEnterBackground` already began in the current background period (a second
    /// one cannot happen before the app leaves the background).
    @exclusivity(unchecked) private var enteredBackground = false
    /// The `suspend` that put the app in the suspended state, for messages.
    @exclusivity(unchecked) private var suspendedBy: ReplayEvent?
    /// The latest event that moved the state, for messages (kept as kind and time: storing the
    /// event itself would copy it on every move).
    @exclusivity(unchecked) private(set) var lastMove: (kind: EventKind, ts: Timestamp)?
    @exclusivity(unchecked) private var sawFirstEvent = false
    /// Set when the launch ended, by whatever means.
    @exclusivity(unchecked) private var ended = false
    @exclusivity(unchecked) private var reportedAfterTerminate = false

    func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        launch.stateBefore = launch.state
        guard !ended else { return afterEnd(event, context: context) }
        launch.lifecycleBreach = false
        if !sawFirstEvent {
            sawFirstEvent = true
            if kind != .launch { beginMidLaunch(event, launch: launch) }
        }
        if launch.isExtension { return receiveInExtension(event, kind: kind, context: context) }

        switch kind {
        case .launch:
            if launch.state != .notRunning, !launch.stateInferred {
                illegal(event, "launch at \(event.ts) came while launch \(launch.launch) was already running "
                        + "(\(describe(launch.state))); a launch id names one process — check that the logger makes "
                        + "a new id at every process launch.", context: context)
            }
            launched(event, launch: launch)
        case .didBecomeActive:
            expect(.inactive, event, kind: kind, context: context)
            move(to: .active, by: event, kind: kind, launch: launch)
        case .willResignActive:
            expect(.active, event, kind: kind, context: context)
            move(to: .inactive, by: event, kind: kind, launch: launch)
        case .didEnterBackground:
            if event.phase == .end {
                launch.didEnterBackgroundBegin = nil
                return
            }
            let state = launch.state
            if state == .suspended {
                whileSuspended(event, context: context)
            } else if !launch.stateInferred, state == .active || (state == .background && enteredBackground) {
                illegal(event, didEnterBackgroundMessage(context.resolved(event), state: state), context: context)
            }
            move(to: .background, by: event, kind: kind, launch: launch)
        case .willEnterForeground:
            expect(.background, event, kind: kind, context: context)
            move(to: .inactive, by: event, kind: kind, launch: launch)
        case .suspend:
            expect(.background, event, kind: kind, context: context)
            move(to: .suspended, by: event, kind: kind, launch: launch)
        case .resume:
            expect(.suspended, event, kind: kind, context: context)
            move(to: .background, by: event, kind: kind, launch: launch)
        case .terminate:
            // Legal from every state, whatever its reason; state fields are kept for the checks
            // that measure at the launch's end.
            launch.state = .notRunning
            lastMove = (kind, event.ts)
        case .config:
            readConfig(event, context: context)
        case .didFinishLaunching:
            ranCode(event, kind: kind, context: context)
            if event.phase != .begin { launch.launchSequenceEnded = true }
        case .bgtaskRegister:
            ranCode(event, kind: kind, context: context)
            if let identifier = event.identifier { launch.registered.insert(identifier) }
        case .backgroundTimeRemaining:
            ranCode(event, kind: kind, context: context)
            if launch.state == .background { launch.lastTimeRemaining = event }
        default:
            if Self.isAppCode(kind) { ranCode(event, kind: kind, context: context) }
        }
    }

    func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        ended = true
    }

    // MARK: State moves

    /// The first event of the launch is not `launch`: the log began mid-launch. The state is
    /// guessed as background until a life-cycle event confirms one (see ``LaunchState/stateInferred``).
    private func beginMidLaunch(_ event: ReplayEvent, launch: LaunchState) {
        launch.stateInferred = true
        launch.state = .background
        launch.stateBefore = .background
        launch.backgroundSince = event
    }

    private func launched(_ event: ReplayEvent, launch: LaunchState) {
        launch.launchEvent = event
        launch.launchSequenceEnded = false
        switch event.reason {
        case .prewarm?:
            // iOS runs a prewarmed launch only up to UIApplicationMain and finishes it when the app
            // is really used: the next life-cycle event decides the state.
            beginMidLaunch(event, launch: launch)
            launch.stateBefore = .notRunning
        case .system?:
            enterBackgroundPeriod(event, launch: launch)
            launch.state = .background
            launch.stateInferred = false
        case nil where event.cause != nil:
            enterBackgroundPeriod(event, launch: launch)
            launch.state = .background
            launch.stateInferred = false
        default:
            launch.state = .inactive
            launch.stateInferred = false
            leaveBackground(launch)
        }
        lastMove = (.launch, event.ts)
    }

    /// Applies a life-cycle move (legal or not: the replay goes on in the state the event implies).
    private func move(to state: AppState, by event: ReplayEvent, kind: EventKind, launch: LaunchState) {
        let before = launch.state
        launch.state = state
        launch.stateInferred = false
        launch.launchSequenceEnded = true
        lastMove = (kind, event.ts)
        switch state {
        case .active, .inactive:
            leaveBackground(launch)
        case .background:
            if kind == .didEnterBackground {
                // From the foreground (or suspended) a new period starts; after a launch or
                // resume into the background it is the same period.
                if before != .background { enterBackgroundPeriod(event, launch: launch) }
                enteredBackground = true
                launch.didEnterBackgroundBegin = event.phase == .begin ? event : nil
            } else {
                enterBackgroundPeriod(event, launch: launch)
            }
        case .suspended:
            suspendedBy = event
            launch.backgroundSince = nil
            launch.lastTimeRemaining = nil
            launch.didEnterBackgroundBegin = nil
        case .notRunning:
            break
        }
    }

    private func enterBackgroundPeriod(_ event: ReplayEvent, launch: LaunchState) {
        launch.backgroundSince = event
        launch.lastTimeRemaining = nil
        enteredBackground = false
    }

    private func leaveBackground(_ launch: LaunchState) {
        launch.backgroundSince = nil
        launch.lastTimeRemaining = nil
        launch.didEnterBackgroundBegin = nil
        enteredBackground = false
    }

    // MARK: Judging

    /// Reports an illegal transition unless the app is in `state` (or its state is only inferred);
    /// an event while suspended is `event-while-suspended` instead.
    private func expect(_ state: AppState, _ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        let current = launch.state
        guard current != state, !launch.stateInferred else { return }
        if current == .suspended, kind != .suspend {
            whileSuspended(event, context: context)
        } else {
            illegal(event, illegalMessage(context.resolved(event), kind: kind, state: current), context: context)
        }
    }

    /// App code ran: legal unless the app is suspended, in which case the missing `resume` is
    /// assumed (the app is back in the background).
    private func ranCode(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        guard launch.state == .suspended, event.phase != .end else { return }
        whileSuspended(event, context: context)
        move(to: .background, by: event, kind: kind, launch: launch)
    }

    private func illegal(_ event: ReplayEvent, _ message: String, context: ReplayContext) {
        context.launch.lifecycleBreach = true
        context.report(.illegalTransition, at: event, events: [event], message: message)
    }

    private func whileSuspended(_ event: ReplayEvent, context: ReplayContext) {
        context.launch.lifecycleBreach = true
        let since = suspendedBy.map { " (suspended at \($0.ts))" } ?? ""
        context.report(
            .eventWhileSuspended, at: event, events: suspendedBy.map { [$0, event] } ?? [event],
            message: "\(describe(context.resolved(event))) ran while the app was suspended\(since) with no resume logged; "
                + "the resume is assumed — make sure the logger records resume before app code runs.")
    }

    private func afterEnd(_ event: ReplayEvent, context: ReplayContext) {
        let launch = context.launch
        // Events of a launch superseded by a newer launch of the same process are passed over:
        // which process really ran them cannot be told.
        guard let terminate = launch.terminated else { return }
        launch.lifecycleBreach = true
        guard !reportedAfterTerminate else { return }
        reportedAfterTerminate = true
        let reason = context.resolved(terminate).reason.map { " (reason \($0))" } ?? ""
        context.report(
            .eventAfterTerminate, at: event, events: [terminate, event],
            message: "\(describe(context.resolved(event))) was logged after this launch's terminate at \(terminate.ts)\(reason); "
                + "check the logger's clock and the launch ids it writes — later events of this launch are not replayed.")
    }

    private func receiveInExtension(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        switch kind {
        case .launch:
            launch.launchEvent = event
            launch.state = .background
            enterBackgroundPeriod(event, launch: launch)
        case .suspend:
            launch.state = .suspended
            suspendedBy = event
            launch.backgroundSince = nil
        case .resume:
            launch.state = .background
            enterBackgroundPeriod(event, launch: launch)
        case .terminate:
            launch.state = .notRunning
        case .config:
            readConfig(event, context: context)
        default:
            if kind == .bgtaskRegister, let identifier = event.identifier { launch.registered.insert(identifier) }
            if launch.state == .suspended, Self.isAppCode(kind) || Self.isCallback(kind), event.phase != .end {
                whileSuspended(event, context: context)
                launch.state = .background
                enterBackgroundPeriod(event, launch: launch)
            }
        }
    }

    /// Events that mean app code ran (callbacks and deliveries), as opposed to readings, the
    /// `config` record and what the system does to the app (`snapshot`, `suspend`, `resume`).
    static func isAppCode(_ kind: EventKind) -> Bool {
        switch kind {
        case .willFinishLaunching, .restoreState, .didFinishLaunching, .willTerminate, .memoryWarning,
             .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining,
             .expiringActivity, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch, .bgtaskExpire,
             .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform, .fetchComplete, .pushReceive,
             .pushComplete, .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents,
             .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler, .locationUpdate:
            true
        default:
            false
        }
    }

    /// The UIKit life-cycle callbacks (code too, on an extension that logs them).
    private static func isCallback(_ kind: EventKind) -> Bool {
        switch kind {
        case .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground: true
        default: false
        }
    }

    private func readConfig(_ event: ReplayEvent, context: ReplayContext) {
        let config = context.configuration(event)
        context.launch.permittedIdentifiers = config?.strings("permitted_identifiers")
        context.launch.backgroundModes = config?.strings("background_modes")
    }
}
