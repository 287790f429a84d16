import TraceModel

/// The UIKit state machine of one launch (seed 002: "UIKit apps are always in one of five
/// states"), with its scenes (``SceneStates``) when the launch is scene-based: a value that takes
/// each event of the launch and returns the breach, if the event is not a legal move. The replay
/// applies it to every event before any check sees the event (``LaunchState/lifecycle``), so
/// checks read the state after the event and never write it.
///
/// After a breach the machine goes on in the state the event implies: one bad event is one
/// finding, and the events after it are judged from where the app now is.
///
/// On an app extension process only the process's own moves (launch, suspend, resume,
/// terminate) and app code while suspended are followed: it has no UIKit life cycle.
public struct AppLifecycle: Sendable {
    /// The app's state after the events applied so far.
    public private(set) var state = AppState.notRunning
    /// The state before the latest event (equal to ``state`` when it moved nothing).
    public private(set) var stateBefore = AppState.notRunning
    /// True while ``state`` is a guess: the log of this launch began after its `launch` (the file
    /// started mid-launch) or the launch was a prewarm, and no life-cycle move has confirmed a
    /// state yet. The guess is ``AppState/background``; the next life-cycle event is accepted
    /// whatever it is and sets the state it implies (a `terminate` leaves the flag as it was, so
    /// that the end of the launch knows its state was a guess).
    public private(set) var stateInferred = false
    /// The `launch` event, when it was logged.
    public private(set) var launchEvent: ReplayEvent?
    /// True once `didFinishLaunching` returned (its `end`), or at the latest at the first
    /// life-cycle move after launching (`didBecomeActive`, `didEnterBackground`, `suspend`, …,
    /// for an app that does not log `didFinishLaunching`): the launch sequence is over. For a log
    /// that began mid-launch it stays false until one of those is seen.
    public private(set) var launchSequenceEnded = false
    /// The `begin` of an app-level `didEnterBackground` call that has not returned yet.
    public private(set) var didEnterBackgroundBegin: ReplayEvent?
    /// The event that started the current background period (`didEnterBackground` begin — of
    /// the app or of the last scene to leave the foreground — or the `launch`/`resume` into the
    /// background); nil in the foreground and when suspended. A `didEnterBackground` after a
    /// launch or resume into the background does not move it (the period began at the launch or
    /// resume). A `terminate` leaves it as it was, so that budgets can still be measured when the
    /// launch ends.
    public private(set) var backgroundSince: ReplayEvent?
    /// The latest `backgroundTimeRemaining` reading of the current background period.
    public private(set) var lastTimeRemaining: ReplayEvent?
    /// The background period the latest `suspend` ended, with its latest `backgroundTimeRemaining`
    /// reading: work still open at the suspension is measured against it (nil when the app was
    /// suspended with no background period, which the life cycle reports).
    public private(set) var suspendedPeriod: (since: ReplayEvent, reading: ReplayEvent?)?
    /// The `suspend` that put the app in the suspended state (kept after a resume, for messages).
    public private(set) var suspendedBy: ReplayEvent?
    /// The launch's `terminate`, once it came.
    public private(set) var terminated: ReplayEvent?
    /// `terminated != nil`, kept apart: testing the optional copies the event.
    private var hasTerminated = false
    /// True when the latest event applied was the launch's first `terminate`, the one that ends
    /// it: a flag, so that the replay need not compare the event with ``terminated``.
    public private(set) var latestTerminated = false
    /// The latest event that moved the state, for messages.
    public private(set) var lastMove: LifecycleMove?
    /// The scenes of a scene-based launch (empty until its first scene event).
    public private(set) var scenes = SceneStates()

    private let isExtension: Bool
    /// Whether an app-level `didEnterBackground` already began in the current background period
    /// (a second one cannot happen before the app leaves the background).
    private var enteredBackground = false
    /// The app state UIKit last announced with an app-level notification, in a scene-based
    /// launch; nil when not known (the log began mid-launch, or the launch was a prewarm).
    private var announced: AppState? = .notRunning
    private var sawFirstEvent = false
    /// Set when the launch ended, by whatever means.
    public private(set) var hasEnded = false
    private var reportedAfterTerminate = false

    public init(isExtension: Bool) {
        self.isExtension = isExtension
    }

    /// True once the launch logged a scene event: its app state follows from its scenes.
    public var isSceneBased: Bool { !scenes.isEmpty }

    /// Applies `event` (of kind `kind`). Returns the breach, if the event is not a legal move.
    public mutating func apply(_ event: ReplayEvent, kind: EventKind) -> LifecycleBreach? {
        stateBefore = state
        latestTerminated = false
        guard !hasEnded else { return afterEnd() }
        if !sawFirstEvent {
            sawFirstEvent = true
            if kind != .launch { beginMidLaunch(event) }
        }
        if isExtension { return applyInExtension(event, kind: kind) }
        switch kind {
        case .launch:
            let breach: LifecycleBreach? = state != .notRunning && !stateInferred ? .launchWhileRunning(state) : nil
            launched(event)
            return breach
        case .didBecomeActive: return notification(.didBecomeActive, event)
        case .willResignActive: return notification(.willResignActive, event)
        case .didEnterBackground: return notification(.didEnterBackground, event)
        case .willEnterForeground: return notification(.willEnterForeground, event)
        case .suspend:
            if isSceneBased, !stateInferred, scenes.anyInForeground {
                let breach = LifecycleBreach.illegal(state: state, since: lastMove)
                move(to: .suspended, by: event, kind: kind)
                return breach
            }
            return expecting(.background, then: .suspended, event, kind: kind)
        case .resume:
            return expecting(.suspended, then: .background, event, kind: kind)
        case .terminate:
            // Legal from every state, whatever its reason; the fields are kept for the checks
            // that measure at the launch's end.
            terminating(event)
            lastMove = LifecycleMove(kind: kind, ts: event.ts)
            return nil
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground, .sceneDidDisconnect:
            return sceneEvent(event, kind: kind)
        case .didFinishLaunching:
            let breach = ranCode(event, kind: kind)
            if event.phase != .begin { launchSequenceEnded = true }
            return breach
        case .backgroundTimeRemaining:
            let breach = ranCode(event, kind: kind)
            if state == .background { read(timeRemaining: event) }
            return breach
        case .willFinishLaunching, .restoreState, .willTerminate, .memoryWarning, .beginBackgroundTask,
             .endBackgroundTask, .backgroundTaskExpired, .expiringActivity, .bgtaskRegister, .bgtaskSubmit,
             .bgtaskCancel, .bgtaskLaunch, .bgtaskExpire, .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform,
             .fetchComplete, .pushReceive, .pushComplete, .urlsessionCreate, .urlsessionHandleEvents,
             .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler,
             .locationUpdate, .resourceAcquire, .resourceRelease, .urlsessionTaskCreate,
             .urlsessionWillBeginDelayedRequest, .urlsessionDelayedRequestComplete, .urlsessionTaskComplete:
            return ranCode(event, kind: kind)
        case .snapshot, .config, .power, .refreshStatus, .network, .other:
            // What the system does to the app, readings and records: no code of the app ran.
            return nil
        }
    }

    /// The launch ended (terminated, superseded or the log ended): later events are judged as
    /// coming after its end.
    public mutating func launchEnded() {
        hasEnded = true
    }

    // MARK: The app delegate's life cycle

    /// The four notifications of the app's state (`UIApplicationDelegate`, and the
    /// `UIApplication` notifications of a scene-based app).
    private enum Notification {
        case didBecomeActive, willResignActive, didEnterBackground, willEnterForeground

        var kind: EventKind {
            switch self {
            case .didBecomeActive: .didBecomeActive
            case .willResignActive: .willResignActive
            case .didEnterBackground: .didEnterBackground
            case .willEnterForeground: .willEnterForeground
            }
        }
    }

    /// A notification of the app's state: a move of its own, or, in a scene-based launch, the
    /// announcement of the scenes' moves. An `end` (of `didEnterBackground`) only says it returned.
    private mutating func notification(_ notification: Notification, _ event: ReplayEvent) -> LifecycleBreach? {
        if event.phase == .end {
            if notification == .didEnterBackground { didEnterBackgroundBegin = nil }
            return nil
        }
        return isSceneBased ? announce(notification, event) : appCallback(notification, event)
    }

    /// A UIKit callback of a launch that is not scene-based.
    private mutating func appCallback(_ notification: Notification, _ event: ReplayEvent) -> LifecycleBreach? {
        let kind = notification.kind
        switch notification {
        case .didBecomeActive: return expecting(.inactive, then: .active, event, kind: kind)
        case .willResignActive: return expecting(.active, then: .inactive, event, kind: kind)
        case .willEnterForeground: return expecting(.background, then: .inactive, event, kind: kind)
        case .didEnterBackground:
            var breach: LifecycleBreach?
            if state == .suspended {
                breach = .whileSuspended
            } else if !stateInferred, state == .active || (state == .background && enteredBackground) {
                breach = .illegal(state: state, since: lastMove)
            }
            move(to: .background, by: event, kind: kind)
            return breach
        }
    }

    /// The move to `target`, legal only from `required` (or while the state is a guess); an
    /// event while suspended is `whileSuspended` instead.
    private mutating func expecting(
        _ required: AppState, then target: AppState, _ event: ReplayEvent, kind: EventKind
    ) -> LifecycleBreach? {
        var breach: LifecycleBreach?
        if state != required, !stateInferred {
            breach = state == .suspended && kind != .suspend
                ? .whileSuspended : .illegal(state: state, since: lastMove)
        }
        move(to: target, by: event, kind: kind)
        return breach
    }

    /// App code ran: legal unless the app is suspended, in which case the missing `resume` is
    /// assumed (the app is back in the background).
    private mutating func ranCode(_ event: ReplayEvent, kind: EventKind) -> LifecycleBreach? {
        guard state == .suspended, event.phase != .end else { return nil }
        move(to: .background, by: event, kind: kind)
        return .whileSuspended
    }

    /// The first `terminate` ends the launch; the state is `notRunning` after any.
    @inline(never)
    private mutating func terminating(_ event: ReplayEvent) {
        if !hasTerminated {
            terminated = event
            hasTerminated = true
            latestTerminated = true
        }
        state = .notRunning
    }

    @inline(never)
    private mutating func read(timeRemaining event: ReplayEvent) {
        lastTimeRemaining = event
    }

    @inline(never)
    private mutating func afterEnd() -> LifecycleBreach? {
        // Events of a launch superseded by a newer launch of the same process are passed over:
        // which process really ran them cannot be told.
        guard hasTerminated else { return nil }
        defer { reportedAfterTerminate = true }
        return .afterTerminate(first: !reportedAfterTerminate)
    }

    // MARK: Scenes

    /// A scene event: the scene's move, then the app state its scenes imply.
    @inline(never)
    private mutating func sceneEvent(_ event: ReplayEvent, kind: EventKind) -> LifecycleBreach? {
        if state == .suspended, event.phase != .end {
            // A scene callback is app code: the missing resume is assumed, as for any code.
            move(to: .background, by: event, kind: kind)
            _ = scenes.apply(event, kind: kind, lenient: true)
            return .whileSuspended
        }
        // A log that began mid-launch missed the scenes' earlier events: accept what comes.
        let sceneBreach = scenes.apply(event, kind: kind, lenient: stateInferred || launchEvent == nil)
        // A scene that connects is not in the foreground yet: it changes nothing until it moves.
        let derived = kind == .sceneWillConnect ? state : scenes.derivedState(from: state)
        if derived != state {
            move(to: derived, by: event, kind: kind)
        } else if kind == .sceneDidEnterBackground || kind == .sceneWillEnterForeground {
            stateInferred = false
        }
        return sceneBreach.map { .scene($0) }
    }

    /// An app-level notification in a scene-based launch: legal as the announcement of the
    /// change the scene events just made (or as the `didEnterBackground` step of a launch or
    /// resume into the background); the app's state stays what its scenes say.
    @inline(never)
    private mutating func announce(_ notification: Notification, _ event: ReplayEvent) -> LifecycleBreach? {
        let kind = notification.kind
        if state == .suspended {
            move(to: .background, by: event, kind: kind)
            return .whileSuspended
        }
        let legal: Bool
        let announcing: AppState
        // Not knowing what was announced before, any announcement is taken as the next one.
        let unknown = announced == nil
        switch notification {
        case .didBecomeActive:
            (legal, announcing) = (state == .active && (unknown || announced != .active), .active)
        case .willResignActive:
            (legal, announcing) = (state != .active && (unknown || announced == .active), .inactive)
        case .willEnterForeground:
            (legal, announcing) = (state.isForeground && !(announced?.isForeground ?? false), .inactive)
        case .didEnterBackground:
            let stepOfBackgroundPeriod = state == .background && !enteredBackground
            let fromForeground = unknown || (announced?.isForeground ?? false)
            (legal, announcing) = (state == .background && (fromForeground || stepOfBackgroundPeriod), .background)
            enteredBackground = true
            didEnterBackgroundBegin = event.phase == .begin ? event : nil
        }
        announced = announcing
        launchSequenceEnded = true
        guard legal || stateInferred else { return .announcement(state: state) }
        return nil
    }

    // MARK: State moves

    /// The first event of the launch is not `launch`: the log began mid-launch. The state is
    /// guessed as background until a life-cycle event confirms one.
    @inline(never)
    private mutating func beginMidLaunch(_ event: ReplayEvent) {
        stateInferred = true
        state = .background
        stateBefore = .background
        announced = nil
        backgroundSince = event
    }

    @inline(never)
    private mutating func launched(_ event: ReplayEvent) {
        launchEvent = event
        launchSequenceEnded = false
        switch event.reason {
        case .prewarm?:
            // iOS runs a prewarmed launch only up to UIApplicationMain and finishes it when the app
            // is really used: the next life-cycle event decides the state.
            beginMidLaunch(event)
            stateBefore = .notRunning
        case .system?:
            enterBackgroundPeriod(event)
            state = .background
            stateInferred = false
        case nil where event.cause != nil:
            enterBackgroundPeriod(event)
            state = .background
            stateInferred = false
        default:
            state = .inactive
            stateInferred = false
            leaveBackground()
        }
        announced = state
        lastMove = LifecycleMove(kind: .launch, ts: event.ts)
    }

    /// Applies a life-cycle move (legal or not: the replay goes on in the state the event implies).
    @inline(never)
    private mutating func move(to target: AppState, by event: ReplayEvent, kind: EventKind) {
        let before = state
        state = target
        stateInferred = false
        launchSequenceEnded = true
        lastMove = LifecycleMove(kind: kind, ts: event.ts)
        switch target {
        case .active, .inactive:
            leaveBackground()
        case .background:
            if kind == .didEnterBackground {
                // From the foreground (or suspended) a new period starts; after a launch or
                // resume into the background it is the same period.
                if before != .background { enterBackgroundPeriod(event) }
                enteredBackground = true
                didEnterBackgroundBegin = event.phase == .begin ? event : nil
            } else {
                // A launch, resume or scene move into the background, or app code run while
                // suspended (its resume assumed): a new period.
                enterBackgroundPeriod(event)
            }
        case .suspended:
            suspendedBy = event
            suspendedPeriod = backgroundSince.map { ($0, lastTimeRemaining) }
            backgroundSince = nil
            lastTimeRemaining = nil
            didEnterBackgroundBegin = nil
        case .notRunning:
            break
        }
        if !isSceneBased { announced = target }
    }

    private mutating func enterBackgroundPeriod(_ event: ReplayEvent) {
        backgroundSince = event
        lastTimeRemaining = nil
        enteredBackground = false
    }

    private mutating func leaveBackground() {
        backgroundSince = nil
        lastTimeRemaining = nil
        didEnterBackgroundBegin = nil
        enteredBackground = false
    }

    // MARK: Extensions

    /// An extension process follows only its own moves; any other event is app code (or not)
    /// by ``EventKind/isAppCode`` and ``EventKind/isLifecycleCallback``, which list every kind.
    @inline(never)
    private mutating func applyInExtension(_ event: ReplayEvent, kind: EventKind) -> LifecycleBreach? {
        if kind == .launch {
            launchEvent = event
            state = .background
            enterBackgroundPeriod(event)
        } else if kind == .suspend {
            state = .suspended
            suspendedBy = event
            suspendedPeriod = backgroundSince.map { ($0, lastTimeRemaining) }
            backgroundSince = nil
        } else if kind == .resume {
            state = .background
            enterBackgroundPeriod(event)
        } else if kind == .terminate {
            terminating(event)
        } else if state == .suspended, kind.isAppCode || kind.isLifecycleCallback, event.phase != .end {
            state = .background
            enterBackgroundPeriod(event)
            return .whileSuspended
        }
        return nil
    }
}

/// The latest move of a launch's state: its event's kind and time.
public struct LifecycleMove: Sendable, Hashable, BitwiseCopyable {
    public var kind: EventKind
    public var ts: Timestamp
}

/// An event that is not a legal move of the life cycle, as ``AppLifecycle/apply(_:kind:)`` finds
/// it. Each case is one rule's finding; the message is the rule's to write, from the case and the
/// life cycle's state. Small and free of references: the replay returns one for every event.
public enum LifecycleBreach: Sendable, Hashable, BitwiseCopyable {
    /// `launch` while the launch was already running in this state.
    case launchWhileRunning(AppState)
    /// A UIKit callback, `suspend` or `resume` that UIKit's state machine does not allow in
    /// `state`; `since` is the move that put the app there.
    case illegal(state: AppState, since: LifecycleMove?)
    /// App code ran while the app was suspended, with no `resume` logged
    /// (``AppLifecycle/suspendedBy`` is the `suspend`); the resume is assumed.
    case whileSuspended
    /// An event after the launch's `terminate` (``AppLifecycle/terminated``); `first` for the
    /// first such event only.
    case afterTerminate(first: Bool)
    /// A scene event that is not a legal move of its scene.
    case scene(SceneBreach)
    /// An app-level notification of a scene-based launch that announces no change its scenes
    /// made: the app is in `state` (its scenes are ``AppLifecycle/scenes``).
    case announcement(state: AppState)
}

extension EventKind {
    /// Events that mean app code ran (callbacks and deliveries), as opposed to readings, the
    /// `config` record and what the system does to the app (`snapshot`, `suspend`, `resume`).
    public var isAppCode: Bool {
        switch self {
        case .willFinishLaunching, .restoreState, .didFinishLaunching, .willTerminate, .memoryWarning,
             .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining,
             .expiringActivity, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch, .bgtaskExpire,
             .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform, .fetchComplete, .pushReceive,
             .pushComplete, .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents,
             .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler, .locationUpdate,
             .resourceAcquire, .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete:
            true
        case .launch, .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground, .snapshot,
             .suspend, .resume, .terminate, .config, .power, .refreshStatus, .network, .sceneWillConnect,
             .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground,
             .sceneDidDisconnect, .other:
            false
        }
    }

    /// The UIKit life-cycle callbacks, of the app delegate and of the scene delegates.
    public var isLifecycleCallback: Bool {
        isSceneEvent || self == .didBecomeActive || self == .willResignActive || self == .didEnterBackground
            || self == .willEnterForeground
    }

    /// The events of a scene's delegate (trace format v1.1).
    public var isSceneEvent: Bool { sceneMove != nil }

    /// The move of its scene that a scene event asks for (nil for any other event).
    public var sceneMove: SceneStates.Move? {
        switch self {
        case .sceneWillConnect: .connect
        case .sceneWillEnterForeground: .enterForeground
        case .sceneDidBecomeActive: .becomeActive
        case .sceneWillResignActive: .resignActive
        case .sceneDidEnterBackground: .enterBackground
        case .sceneDidDisconnect: .disconnect
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive, .willResignActive,
             .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning, .snapshot, .suspend, .resume,
             .terminate, .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining,
             .expiringActivity, .config, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch, .bgtaskExpire,
             .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform, .fetchComplete, .pushReceive, .pushComplete,
             .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive,
             .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .power, .refreshStatus, .network,
             .resourceAcquire, .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other:
            nil
        }
    }
}
