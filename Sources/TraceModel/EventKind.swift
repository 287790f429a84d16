/// The event names of trace format v1.1, as a closed set the replay can switch over quickly.
/// Names it does not know map to ``other`` and are passed over by every rule. An ``Event`` keeps
/// its kind rather than its name's text (see ``Event/name``).
public enum EventKind: String, Sendable, CaseIterable, Hashable, BitwiseCopyable {
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
    // v1.1
    case sceneWillConnect = "scene.willConnect"
    case sceneWillEnterForeground = "scene.willEnterForeground"
    case sceneDidBecomeActive = "scene.didBecomeActive"
    case sceneWillResignActive = "scene.willResignActive"
    case sceneDidEnterBackground = "scene.didEnterBackground"
    case sceneDidDisconnect = "scene.didDisconnect"
    case resourceAcquire = "resource.acquire"
    case resourceRelease = "resource.release"
    case urlsessionTaskCreate = "urlsession.task.create"
    case urlsessionWillBeginDelayedRequest = "urlsession.willBeginDelayedRequest"
    case urlsessionDelayedRequestComplete = "urlsession.delayedRequest.complete"
    case urlsessionTaskComplete = "urlsession.task.complete"
    /// Any event name this version does not know.
    case other

    public init(name: String) {
        var name = name
        self = name.withUTF8 { EventKindTable.shared.lookup(UnsafeRawBufferPointer($0)) }
    }

    /// The kind of the name whose UTF-8 bytes these are, for a reader that has the bytes and no
    /// string (a row of the store).
    public init(utf8 name: UnsafeRawBufferPointer) {
        self = EventKindTable.shared.lookup(name)
    }

    /// The position of this kind in ``allCases``, which indexes the replay's dispatch tables.
    ///
    /// A payload-free enum is stored as its case's index in declaration order, which is also the
    /// order of ``allCases``, so the conversion is one byte read (a switch with a case per kind
    /// would say the same at length); `EventKindTests` checks the equality for every case.
    @inlinable
    public var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}

/// Name → kind lookup, done once per event as it is made (decoded or read from the store): an FNV-1a hash (``FNV1a``) of the UTF-8 bytes into a
/// small open-addressed table, confirmed by comparing the bytes. `Dictionary<String, _>`
/// hashes with SipHash and showed up in the replay's profile.
private struct EventKindTable: Sendable {
    static let shared = EventKindTable()

    private let names: [[UInt8]?]
    private let kinds: [EventKind]
    private let mask: Int

    private init() {
        let size = 256
        var names = [[UInt8]?](repeating: nil, count: size)
        var kinds = [EventKind](repeating: .other, count: size)
        for kind in EventKind.allCases where kind != .other {
            let bytes = Array(kind.rawValue.utf8)
            var index = bytes.withUnsafeBytes(FNV1a.hash) & (size - 1)
            while names[index] != nil { index = (index + 1) & (size - 1) }
            names[index] = bytes
            kinds[index] = kind
        }
        self.names = names
        self.kinds = kinds
        mask = size - 1
    }

    func lookup(_ bytes: UnsafeRawBufferPointer) -> EventKind {
        var index = FNV1a.hash(bytes) & mask
        while let candidate = names[index] {
            if SameBytes.equal(candidate, bytes) { return kinds[index] }
            index = (index + 1) & mask
        }
        return .other
    }
}
