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

    public init(name: String) {
        self = EventKindTable.shared.lookup(name).kind
    }

    /// The kind of an event name together with its position in ``allCases``, in one table probe: the
    /// replay's dispatch needs both for every event.
    static func lookup(_ name: String) -> (kind: EventKind, ordinal: Int) {
        EventKindTable.shared.lookup(name)
    }
}

/// Name → kind lookup for the replay's hot loop: an FNV-1a hash of the UTF-8 bytes into a
/// small open-addressed table, confirmed by comparing the bytes. `Dictionary<String, _>`
/// hashes with SipHash and showed up in the replay's profile.
private struct EventKindTable: Sendable {
    static let shared = EventKindTable()

    private let names: [[UInt8]?]
    private let kinds: [EventKind]
    private let ordinals: [Int]
    private let mask: Int
    private let otherOrdinal: Int

    private init() {
        let size = 256
        var names = [[UInt8]?](repeating: nil, count: size)
        var kinds = [EventKind](repeating: .other, count: size)
        var ordinals = [Int](repeating: 0, count: size)
        for (ordinal, kind) in EventKind.allCases.enumerated() where kind != .other {
            let bytes = Array(kind.rawValue.utf8)
            var index = Self.hash(bytes) & (size - 1)
            while names[index] != nil { index = (index + 1) & (size - 1) }
            names[index] = bytes
            kinds[index] = kind
            ordinals[index] = ordinal
        }
        self.names = names
        self.kinds = kinds
        self.ordinals = ordinals
        mask = size - 1
        otherOrdinal = EventKind.allCases.firstIndex(of: .other)!
    }

    func lookup(_ name: String) -> (kind: EventKind, ordinal: Int) {
        var name = name
        return name.withUTF8 { bytes in
            var index = Self.hash(bytes) & mask
            while let candidate = names[index] {
                if candidate.elementsEqual(bytes) { return (kinds[index], ordinals[index]) }
                index = (index + 1) & mask
            }
            return (.other, otherOrdinal)
        }
    }

    private static func hash(_ bytes: some Sequence<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
