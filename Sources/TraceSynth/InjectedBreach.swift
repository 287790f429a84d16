import TraceModel

/// A rule breach the generator wrote on purpose, so tests and benchmarks know what the analyzer
/// must find.
public struct InjectedBreach: Sendable, Hashable {
    /// What was done wrong.
    public var kind: BreachKind
    /// The id of the rule in `rules.md` the breach breaks (``BreachKind/rule``).
    public var rule: String { kind.rule }
    /// Findings that may come with it (``BreachKind/companions``).
    public var companions: [String] { kind.companions }
    /// The `device` of the lines involved.
    public var device: String
    /// The `launch` of the process whose lines hold the breach.
    public var launch: String
    /// The time of the first event of the breach; for a v1.1 kind (``BreachKind/isV1_1``), the
    /// time of the event at which rules.md says its finding happens.
    public var ts: Timestamp
    /// For a request that never runs (``BreachKind/bgtaskNeverRan``, ``BreachKind/fetchNeverRan``):
    /// the factors the generator wrote into the log to hold it back, which its finding must name
    /// (it may name more: a user's other habits show too). Empty for every other kind.
    public var factors: [Finding.FactorKind]

    public init(kind: BreachKind, device: String, launch: String, ts: Timestamp, factors: [Finding.FactorKind] = []) {
        self.kind = kind
        self.device = device
        self.launch = launch
        self.ts = ts
        self.factors = factors
    }
}

/// The kinds of breach the generator injects, each as an app or the system really produces it.
public enum BreachKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A refresh `bgtask` completes after 41 s.
    case refreshOverrun
    /// A processing `bgtask` completes after about 12 minutes.
    case processingOverrun
    /// A `bgtask` never completes and the watchdog kills the app.
    case bgtaskNotCompleted
    /// `setTaskCompleted` is called from both the work and a second path.
    case bgtaskCompletedTwice
    /// `bgtask.register` of the cleanup task comes after `didFinishLaunching` returned.
    case registerLate
    /// A submit of an identifier missing from `permitted_identifiers` (it throws `notPermitted`).
    case submitNotPermitted
    /// Leftover `setMinimumBackgroundFetchInterval` in `didFinishLaunching`.
    case legacyFetch
    /// An upload's `beginBackgroundTask` is never ended before the app is suspended.
    case backgroundTaskNotEnded
    /// An upload outlives its time: the expiration handler runs, the task is not ended and the
    /// system kills the app (`assertion-timeout`).
    case backgroundTaskExpired
    /// `beginBackgroundTask` first called inside `didEnterBackground`.
    case backgroundTaskBegunLate
    /// `didEnterBackground` takes 6.5 s.
    case didEnterBackgroundOverrun
    /// A background push whose completion handler is never called.
    case pushCompletionMissing
    /// A background push whose completion handler is called twice.
    case pushCompletionMultiple
    /// A background push completed after 34 s.
    case pushOverrun
    /// A content-available push sent with priority 10.
    case pushNotBackground
    /// Four background pushes within 40 minutes.
    case pushRateLimited
    /// `urlsession.handleEvents` whose stored handler is never called.
    case urlsessionCompletionMissing
    /// URL session events handled before the session was recreated (it is created lazily).
    case urlsessionNotRecreated
    /// The NSE content handler comes after 31 s.
    case nseOverrun
    /// The NSE gets `timeWillExpire` and never calls the content handler; the system then ends it.
    case nseContentHandlerMissing
    /// The app is killed for memory in the background with no finding that explains it.
    case memoryTermination
    /// The log stops mid-way through a refresh task (the device died): the log cannot say whether
    /// the task completed.
    case logCutShort

    // v1.1 (written only when ``CorpusSpec/features`` asks for the part they belong to)

    /// A released scene's `scene.didDisconnect` is logged a second time.
    case sceneIllegalTransition
    /// Background work leaves the article store (a database in the shared container) open: the
    /// system terminates the app (`resource`) instead of suspending it.
    case sharedResourceHeld
    /// The nearby-sharing listener (Bonjour or a socket) stays open when the app is suspended
    /// (closed at the next resume).
    case listenerOpenAtSuspension
    /// A delayed request's completion handler is never called before the app is suspended.
    case urlsessionDelayedRequestCompletionMissing
    /// A delayed request's completion handler is called twice.
    case urlsessionDelayedRequestCompletionMultiple
    /// A download created with an earliest begin date and no expected byte counts.
    case urlsessionByteCountsMissing
    /// A download created with `discretionary: false` by background work.
    case urlsessionBackgroundEnqueueDiscretionary
    /// A device on which the refresh (or, on a device that never charges, the cleanup) request
    /// stays pending for more than a day; the breach is at the device's first event past 24 h.
    case bgtaskNeverRan
    /// An app on legacy background fetch (no permitted identifiers) that sets a minimum interval
    /// and gets no `fetch.perform` for more than a day.
    case fetchNeverRan
    /// A refresh run forced from the debugger (`simulated: true`) in a launch whose `config`
    /// says `debugger: true`.
    case simulatedLaunch

    /// The id of the rule the breach breaks.
    public var rule: String {
        switch self {
        case .refreshOverrun: "bgtask-refresh-overrun"
        case .processingOverrun: "bgtask-processing-overrun"
        case .bgtaskNotCompleted: "bgtask-not-completed"
        case .logCutShort: "log-ended-with-open-work"
        case .bgtaskCompletedTwice: "bgtask-complete-twice"
        case .registerLate: "bgtask-register-late"
        case .submitNotPermitted: "bgtask-not-permitted"
        case .legacyFetch: "legacy-fetch-disabled"
        case .backgroundTaskNotEnded: "background-task-not-ended"
        case .backgroundTaskExpired: "background-task-expired"
        case .backgroundTaskBegunLate: "background-task-begun-late"
        case .didEnterBackgroundOverrun: "did-enter-background-overrun"
        case .pushCompletionMissing: "push-completion-missing"
        case .pushCompletionMultiple: "push-completion-multiple"
        case .pushOverrun: "push-overrun"
        case .pushNotBackground: "push-not-background"
        case .pushRateLimited: "push-rate-limited"
        case .urlsessionCompletionMissing: "urlsession-completion-missing"
        case .urlsessionNotRecreated: "urlsession-not-recreated"
        case .nseOverrun: "nse-overrun"
        case .nseContentHandlerMissing: "nse-content-handler-missing"
        case .memoryTermination: "termination-unexplained"
        case .sceneIllegalTransition: "scene-illegal-transition"
        case .sharedResourceHeld: "shared-resource-held-at-suspension"
        case .listenerOpenAtSuspension: "listener-open-at-suspension"
        case .urlsessionDelayedRequestCompletionMissing: "urlsession-delayed-request-completion-missing"
        case .urlsessionDelayedRequestCompletionMultiple: "urlsession-delayed-request-completion-multiple"
        case .urlsessionByteCountsMissing: "urlsession-byte-counts-missing"
        case .urlsessionBackgroundEnqueueDiscretionary: "urlsession-background-enqueue-discretionary"
        case .bgtaskNeverRan: "bgtask-never-ran"
        case .fetchNeverRan: "fetch-never-ran"
        case .simulatedLaunch: "simulated-launch"
        }
    }

    /// Whether the breach belongs to trace format v1.1 (a corpus without ``TraceFeatures`` never
    /// holds one).
    public var isV1_1: Bool {
        switch self {
        case .sceneIllegalTransition, .sharedResourceHeld, .listenerOpenAtSuspension,
            .urlsessionDelayedRequestCompletionMissing, .urlsessionDelayedRequestCompletionMultiple,
            .urlsessionByteCountsMissing, .urlsessionBackgroundEnqueueDiscretionary, .bgtaskNeverRan,
            .fetchNeverRan, .simulatedLaunch:
            true
        default: false
        }
    }

    /// Other rule ids an analyzer may rightly report for the same lines (the kill a breach
    /// explains, a budget a missing call also outlives).
    public var companions: [String] {
        switch self {
        case .bgtaskNotCompleted: ["termination-explained"]
        case .backgroundTaskExpired:
            ["background-task-not-ended", "background-task-overrun", "termination-explained"]
        case .backgroundTaskNotEnded: ["background-task-overrun"]
        case .pushCompletionMissing: ["push-overrun"]
        case .nseContentHandlerMissing: ["nse-overrun"]
        case .sharedResourceHeld: ["termination-explained"]
        default: []
        }
    }
}
