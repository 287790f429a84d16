import TraceModel

/// The event names of trace format v1, as a closed set the replay can switch over quickly.
/// Names it does not know map to ``other`` and are passed over by every rule.
public enum EventKind: String, Sendable, CaseIterable, Hashable {
    case launch, willFinishLaunching, restoreState, didFinishLaunching, didBecomeActive
    case willResignActive, didEnterBackground, willEnterForeground, willTerminate, memoryWarning
    case snapshot, suspend, resume, terminate
    case beginBackgroundTask, endBackgroundTask, backgroundTaskExpired, backgroundTimeRemaining
    case expiringActivity
    case config
    case bgtaskRegister = "bgtask.register"
    case bgtaskSubmit = "bgtask.submit"
    case bgtaskCancel = "bgtask.cancel"
    case bgtaskLaunch = "bgtask.launch"
    case bgtaskExpire = "bgtask.expire"
    case bgtaskComplete = "bgtask.complete"
    case fetchSetMinimumInterval = "fetch.setMinimumInterval"
    case fetchPerform = "fetch.perform"
    case fetchComplete = "fetch.complete"
    case pushReceive = "push.receive"
    case pushComplete = "push.complete"
    case urlsessionCreate = "urlsession.create"
    case urlsessionHandleEvents = "urlsession.handleEvents"
    case urlsessionDidFinishEvents = "urlsession.didFinishEvents"
    case urlsessionComplete = "urlsession.complete"
    case nseReceive = "nse.receive"
    case nseTimeWillExpire = "nse.timeWillExpire"
    case nseContentHandler = "nse.contentHandler"
    case locationUpdate = "location.update"
    case power, refreshStatus, network
    /// Any event name this version does not know.
    case other

    private static let byName: [String: EventKind] = Dictionary(
        uniqueKeysWithValues: allCases.filter { $0 != .other }.map { ($0.rawValue, $0) })

    public init(name: String) {
        self = Self.byName[name] ?? .other
    }
}
