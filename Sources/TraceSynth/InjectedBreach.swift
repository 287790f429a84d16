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
    /// The time of the first event of the breach.
    public var ts: Timestamp

    public init(kind: BreachKind, device: String, launch: String, ts: Timestamp) {
        self.kind = kind
        self.device = device
        self.launch = launch
        self.ts = ts
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
        default: []
        }
    }
}
