import Replay
import TraceModel

/// Judges the three ways into the background of seed 004 ("About the background execution
/// sequence"): a launch into the background, a resume into the background for an event, and the
/// move from the foreground. Each is `didEnterBackground` → (the event that caused it) →
/// `snapshot` → maybe `suspend`; the move from the foreground starts at `willResignActive`.
///
/// Only life-cycle events and the cause event are steps; readings, submits and completions between
/// them are passed over. A sequence ends without a finding at its `snapshot`, at `terminate` (cut
/// short), at `willEnterForeground` (a bounce) and at `didBecomeActive` (an interruption). One
/// finding per sequence, at the first out-of-order event; an event the lifecycle check already
/// reported abandons the sequence and starts none.
///
/// Its state is read for every event it receives: not checked for exclusivity at run time, for the
/// reason given at ``LaunchState`` (a check belongs to one device's replay, on one thread).
final class BackgroundSequenceCheck: Check {
    static let interests: Set<EventKind> = [
        .launch, .resume, .willResignActive, .didBecomeActive, .didEnterBackground, .willEnterForeground,
        .snapshot, .suspend, .terminate,
        .bgtaskLaunch, .pushReceive, .fetchPerform, .urlsessionHandleEvents, .locationUpdate,
    ]

    private enum Way {
        /// `launch` with reason `system`.
        case launch
        /// `resume` with a `cause`.
        case resume
        /// `willResignActive` from active.
        case foreground
    }

    private enum Step: Comparable {
        /// Before `didEnterBackground` began.
        case awaitingDidEnterBackground
        /// `didEnterBackground` began and has not returned.
        case inDidEnterBackground
        /// `didEnterBackground` returned; the cause event has not come.
        case awaitingCause
        /// Everything before the snapshot has come.
        case awaitingSnapshot
    }

    /// The sequence under way, if any. Kept in separate fields rather than one struct value so
    /// that a step updates in place instead of copying the events it holds.
    @exclusivity(unchecked) private var way: Way?
    /// The event that started the sequence.
    @exclusivity(unchecked) private var start: ReplayEvent?
    /// The event kind the cause maps to, when the sequence waits for one.
    @exclusivity(unchecked) private var cause: EventKind?
    @exclusivity(unchecked) private var causeSeen = false
    @exclusivity(unchecked) private var step = Step.awaitingDidEnterBackground
    @exclusivity(unchecked) private var didEnterBackgroundBegin: ReplayEvent?
    /// The sequence was reported at a step that came too early (a `snapshot` or the cause before
    /// `didEnterBackground`): it goes on to its end, its later steps taken as they come, and
    /// reports nothing more — one breach, one finding.
    @exclusivity(unchecked) private var reported = false

    override func clearForNextLaunch() -> Bool {
        way = nil
        start = nil
        cause = nil
        causeSeen = false
        step = .awaitingDidEnterBackground
        didEnterBackgroundBegin = nil
        reported = false
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        guard !launch.lifecycleBreach else { return end() }
        switch kind {
        case .launch:
            end()
            if event.reason == .system || (event.reason == nil && event.cause != nil) {
                begin(.launch, at: event, cause: Self.causeKind(event.cause))
            }
        case .resume:
            end()
            if let cause = event.cause, cause != .other(.empty) {
                begin(.resume, at: event, cause: Self.causeKind(cause))
            }
        case .willResignActive:
            // A scene-based launch leaves the foreground scene by scene (``SceneSequenceCheck``).
            if launch.stateBefore == .active, !launch.isSceneBased { begin(.foreground, at: event, cause: nil) }
        case .didBecomeActive, .willEnterForeground, .terminate:
            end()
        case .didEnterBackground:
            didEnterBackground(event, launch: launch)
        case .snapshot:
            guard way != nil else { return }
            if step == .awaitingSnapshot {
                end()
            } else {
                breach(at: event, context: context, early: true)
            }
        case .suspend:
            guard way != nil else { return }
            breach(at: event, context: context)
        case .bgtaskLaunch, .pushReceive, .fetchPerform, .urlsessionHandleEvents, .locationUpdate:
            guard way != nil, kind == cause else { return }
            switch step {
            case .awaitingDidEnterBackground:
                breach(at: event, context: context, early: true)
                causeSeen = true
            case .inDidEnterBackground:
                // A BGTask launch handler runs on the queue given at registration, not necessarily
                // the main one: the event may come while didEnterBackground is still running.
                causeSeen = true
            case .awaitingCause:
                causeSeen = true
                step = .awaitingSnapshot
            case .awaitingSnapshot:
                break
            }
        case .willFinishLaunching, .restoreState, .didFinishLaunching, .willTerminate, .memoryWarning,
             .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining,
             .expiringActivity, .config, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel, .bgtaskExpire,
             .bgtaskComplete, .fetchSetMinimumInterval, .fetchComplete, .pushComplete, .urlsessionCreate,
             .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler,
             .power, .refreshStatus, .network, .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
             .sceneWillResignActive, .sceneDidEnterBackground, .sceneDidDisconnect, .resourceAcquire,
             .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other:
            break
        }
    }

    private func begin(_ way: Way, at event: ReplayEvent, cause: EventKind?) {
        self.way = way
        start = event
        self.cause = cause
        causeSeen = false
        step = .awaitingDidEnterBackground
        didEnterBackgroundBegin = nil
        reported = false
    }

    private func end() {
        guard way != nil else { return }
        way = nil
        start = nil
        didEnterBackgroundBegin = nil
        reported = false
    }

    private func didEnterBackground(_ event: ReplayEvent, launch: LaunchState) {
        let returned = event.phase != .begin
        guard way != nil else {
            // From the foreground without willResignActive is an illegal transition (reported, and
            // passed over above); from inactive after a user launch it starts the move here.
            if event.phase != .end, launch.stateBefore.isForeground, !launch.isSceneBased {
                begin(.foreground, at: event, cause: nil)
                didEnterBackgroundBegin = event
                step = returned ? .awaitingSnapshot : .inDidEnterBackground
            }
            return
        }
        if event.phase == .end {
            guard step == .inDidEnterBackground else { return }
        } else {
            guard step == .awaitingDidEnterBackground else { return }
            didEnterBackgroundBegin = event
        }
        step = !returned ? .inDidEnterBackground
            : (cause == nil || causeSeen) ? .awaitingSnapshot : .awaitingCause
    }

    /// Reports the sequence broken at `event`: a step that came `early` keeps the sequence going
    /// (see ``reported``); any other breach ends it.
    private func breach(at event: ReplayEvent, context: ReplayContext, early: Bool = false) {
        guard let way, let start, !reported else { return end() }
        let rule: Rule = switch way {
        case .launch: .backgroundLaunchSequence
        case .resume: .backgroundResumeSequence
        case .foreground: .foregroundToBackgroundSequence
        }
        var events = [start]
        if let didEnterBackgroundBegin, didEnterBackgroundBegin != start { events.append(didEnterBackgroundBegin) }
        events.append(event)
        let message = message(context.resolved(event), way: way, start: start)
        if early { reported = true } else { end() }
        context.report(rule, at: event, events: events, message: message)
    }

    // MARK: Messages

    private func message(_ event: ResolvedEvent, way: Way, start: ReplayEvent) -> String {
        let came = "\(event.name) at \(event.ts)"
        let after = switch way {
        case .launch: "the launch into the background at \(start.ts)"
        case .resume: "the resume at \(start.ts)"
        case .foreground: "willResignActive at \(start.ts)"
        }
        let forWhat = way == .launch ? "launched" : "resumed"
        let causeName = cause?.rawValue ?? "the event"
        let kind = event.kind
        switch (step, kind) {
        case (.awaitingDidEnterBackground, .snapshot):
            return "\(came) came before didEnterBackground after \(after); hide sensitive UI in "
                + "applicationDidEnterBackground(_:) — UIKit calls it before the system snapshots the app, so "
                + "check that it is called and logged."
        case (.inDidEnterBackground, .snapshot):
            return "\(came) came before didEnterBackground (begun at \(didEnterBackgroundBegin?.ts.description ?? "?")) "
                + "returned; finish UI cleanup in applicationDidEnterBackground(_:) and return promptly — the "
                + "system snapshots the app right after it returns."
        case (.awaitingCause, .snapshot):
            return "\(came) came before \(causeName), the event the app was \(forWhat) for at \(start.ts); "
                + "UIKit delivers that event before the snapshot — check that the app handles and logs the delivery."
        case (.awaitingDidEnterBackground, .suspend):
            return "\(came) came before didEnterBackground after \(after); the app never got "
                + "applicationDidEnterBackground(_:) to save its state — check that the callback is logged."
        case (.inDidEnterBackground, .suspend):
            return "\(came) came while didEnterBackground (begun at \(didEnterBackgroundBegin?.ts.description ?? "?")) "
                + "had not returned; return from applicationDidEnterBackground(_:) promptly and move longer work "
                + "into a background task."
        case (.awaitingCause, .suspend):
            return "\(came) came before \(causeName), the event the app was \(forWhat) for at \(start.ts); "
                + "the app was suspended without handling it — check that the delivery is handled and logged."
        case (_, .suspend):
            return "\(came) came before the snapshot after \(after); the system snapshots an app after "
                + "didEnterBackground returns and before suspending it — check that the logger records snapshots."
        default:
            let advice = way == .launch
                ? "don't handle that event from application(_:didFinishLaunchingWithOptions:) yourself."
                : "check that didEnterBackground is logged on every resume into the background."
            return "\(came) came before didEnterBackground after \(after); UIKit calls "
                + "applicationDidEnterBackground(_:) before it delivers the event the app was \(forWhat) for — "
                + advice
        }
    }

    /// The event a launch or resume `cause` must deliver, or nil when none is required (`nse`,
    /// `audio`, other and unknown causes: their delivery is not an event of trace format v1, or
    /// not a single one).
    static func causeKind(_ cause: Cause?) -> EventKind? {
        switch cause {
        case .bgtask?: .bgtaskLaunch
        case .push?: .pushReceive
        case .fetch?: .fetchPerform
        case .urlsession?: .urlsessionHandleEvents
        case .location?: .locationUpdate
        default: nil
        }
    }
}
