import TraceModel

/// What the replay knows about one process lifetime (one `launch` id) while replaying it.
/// The lifecycle check keeps the state fields current; every other check reads them.
public final class LaunchState {
    public let launch: String
    /// The `process` of its first event: nil or `"app"` for the app, `"extension:…"` otherwise.
    public let process: String?
    public var isExtension: Bool { process?.hasPrefix("extension:") ?? false }

    /// The app's state after the events replayed so far.
    public var state: AppState = .notRunning
    /// The `launch` event, when it was logged.
    public var launchEvent: Event?
    /// The `terminate` event, once the process has ended.
    public var terminated: Event?
    /// True once `didFinishLaunching` returned (its `end`): the launch sequence is over.
    public var launchSequenceEnded = false
    /// The `begin` of a `didEnterBackground` call that has not returned yet.
    public var didEnterBackgroundBegin: Event?
    /// The event that started the current background period (`didEnterBackground` begin, or the
    /// `launch`/`resume` into the background); nil in the foreground and when suspended.
    public var backgroundSince: Event?
    /// The latest `backgroundTimeRemaining` reading of the current background period.
    public var lastTimeRemaining: Event?
    /// `BGTaskSchedulerPermittedIdentifiers` from this launch's `config`, if logged.
    public var permittedIdentifiers: [String]?
    /// `UIBackgroundModes` from this launch's `config`, if logged.
    public var backgroundModes: [String]?
    /// Identifiers passed to `bgtask.register` in this launch.
    public var registered: Set<String> = []
    /// The first and the latest event of the launch.
    public let firstEvent: Event
    public internal(set) var lastEvent: Event
    /// Findings of this launch whose rule ``Rule/explainsTermination``.
    public internal(set) var explanations: [Finding] = []

    /// One slot per blueprint of the rule book: this launch's instance, or nil.
    var checks: [(any Check)?] = []

    init(first event: Event) {
        launch = event.launch
        process = event.process
        firstEvent = event
        lastEvent = event
    }
}

/// How a launch came to an end, and the event at which the replay learnt it.
public enum LaunchEnding: Sendable {
    /// Its `terminate` event.
    case terminated(Event)
    /// A new launch of the same process began (this is its first event): the old one ended
    /// without a word, killed or quietly reclaimed.
    case superseded(by: Event)
    /// The device's log ended (this is the launch's last event).
    case endOfLog(Event)

    /// The event at which the end became known: findings about it carry its time.
    public var event: Event {
        switch self {
        case .terminated(let event), .superseded(let event), .endOfLog(let event): event
        }
    }
}
