import TraceModel

/// An event as the replay holds it: what the checks read, with no reference in it, so that
/// copying one (into a launch's state, an obligation, a finding's list) is a plain copy of its
/// bytes with no reference counting.
///
/// ``Event`` holds a dozen strings; copying them (their reference counts, and memmove of ~300
/// bytes) was most of the replay's profile. Here each text is a number: the launch is its
/// ``LaunchState``'s serial, the fields with listed values are enums (``Phase``, ``Reason``,
/// ``Cause``), other texts are numbers in the device's ``TextTable``, and of the attributes
/// kept in `attrs` only the few the rules read are kept, typed (see ``Details``). A check
/// resolves texts only to write a finding (``ReplayContext/resolved(_:)``).
///
/// The device, the launch's name, `app`, `app_version`, `os`, `model` and `process` are not
/// here: an event's launch state knows them, and no rule reads the others.
///
/// An event is copied a few times per check that keeps it; it stays within 128 bytes, which the
/// compiler copies in a few moves where a larger one was a call to `memcpy` (a fifth of the
/// replay at 163 bytes). So the optional numbers and texts are stored as plain values beside
/// what says which are there, and read through properties of the optional types.
public struct ReplayEvent: Hashable, Sendable, BitwiseCopyable {
    // Stored in the order of their alignment, the widest first, which leaves no padding between.
    public private(set) var ts: Timestamp
    private var monoValue: Double = 0
    private var seqValue: Int64 = 0
    private var taskValue: Int64 = 0
    private var rowIDValue: Int64 = 0
    /// The attributes of `attrs` that the rules read, for the kinds that have them.
    public private(set) var details: Details
    /// The event's launch, as the serial its device's replay gave it (``LaunchState/serial``).
    public private(set) var launch: UInt32
    private var identifierText = TextID.absent
    private var callText = TextID.absent
    private var resultText = TextID.absent
    private var otherNameText = TextID.absent
    public private(set) var phase: Phase?
    public private(set) var reason: Reason?
    public private(set) var cause: Cause?
    public private(set) var kind: EventKind
    public private(set) var success: Bool?
    private var present: Present = []

    /// Which of the optional numbers an event has.
    private struct Present: OptionSet, Hashable, Sendable, BitwiseCopyable {
        let rawValue: UInt8
        static let mono = Present(rawValue: 1)
        static let seq = Present(rawValue: 2)
        static let task = Present(rawValue: 4)
        static let rowID = Present(rawValue: 8)
    }

    /// Monotonic seconds since boot; durations prefer it over `ts` within one launch.
    public private(set) var mono: Double? {
        get { present.contains(.mono) ? monoValue : nil }
        set { monoValue = store(newValue, .mono) ?? 0 }
    }

    public private(set) var seq: Int64? {
        get { present.contains(.seq) ? seqValue : nil }
        set { seqValue = store(newValue, .seq) ?? 0 }
    }

    public private(set) var task: Int64? {
        get { present.contains(.task) ? taskValue : nil }
        set { taskValue = store(newValue, .task) ?? 0 }
    }

    public private(set) var rowID: Int64? {
        get { present.contains(.rowID) ? rowIDValue : nil }
        set { rowIDValue = store(newValue, .rowID) ?? 0 }
    }

    public private(set) var identifier: TextID? {
        get { identifierText.present }
        set { identifierText = newValue ?? .absent }
    }

    /// Id of one completion-handler delivery (a number is kept as its decimal text).
    public private(set) var call: TextID? {
        get { callText.present }
        set { callText = newValue ?? .absent }
    }

    public private(set) var result: TextID? {
        get { resultText.present }
        set { resultText = newValue ?? .absent }
    }

    /// The name's text when it is none of the known ones (``kind`` is ``EventKind/other``).
    public private(set) var otherName: TextID? {
        get { otherNameText.present }
        set { otherNameText = newValue ?? .absent }
    }

    /// Notes whether `value` is there, and passes it on.
    private mutating func store<Value>(_ value: Value?, _ flag: Present) -> Value? {
        if value != nil { present.insert(flag) } else { present.remove(flag) }
        return value
    }

    /// An event of nothing, for the initializers to fill in.
    private init(kind: EventKind, launch: UInt32) {
        ts = Timestamp(microseconds: 0)
        self.launch = launch
        self.kind = kind
        details = .none
    }

    /// The attributes kept in `attrs` that some rule reads, by event kind, read when the event
    /// is made; every other attribute is passed over. A closed set: a rule that needs another
    /// attribute adds it here.
    public enum Details: Hashable, Sendable, BitwiseCopyable {
        case none
        /// `push.receive`: the APNs headers.
        case push(contentAvailable: Bool?, priority: Int?, pushType: TextID?)
        /// `bgtask.submit`: the request's class (`refresh`, `processing`), the error it threw, its
        /// earliest begin date and what a processing request requires.
        case submit(
            type: TextID?, error: TextID?, earliestBegin: Timestamp?, requiresPower: Bool?, requiresNetwork: Bool?)
        /// `backgroundTimeRemaining`: the reading, in seconds.
        case timeRemaining(Double?)
        /// `beginBackgroundTask`: the task's name.
        case backgroundTask(name: TextID?)
        /// `config`: the whole `attrs` text (one per launch), read once by the replay into the
        /// ``LaunchState`` (permitted identifiers, background modes, debugger).
        case config(TextID?)
        /// `bgtask.launch` or `bgtask.expire` forced from the debugger (`simulated: true`).
        case simulated
        /// A scene event, or a `snapshot`: the `scene` id (v1.1).
        case scene(TextID?)
        /// `resource.acquire` (with its `kind`) or `resource.release` (kind nil): the resource's id
        /// (a number is kept as its decimal text).
        case resource(id: TextID?, kind: ResourceKind?)
        /// `urlsession.task.create`: its `earliest_begin` (nil when absent or not a time), its
        /// `discretionary` flag, and whether it states each expected byte count (a number ≥ 0;
        /// a negative one is `NSURLSessionTransferSizeUnknown`, the default).
        case urlSessionTask(earliestBegin: Timestamp?, discretionary: Bool?, statesSend: Bool, statesReceive: Bool)
        /// `power`: Low Power Mode, the battery level (0…1) and whether it charges.
        case power(lowPowerMode: Bool?, battery: Double?, charging: Bool?)
        /// `refreshStatus`: `backgroundRefreshStatus` (nil for a value none of the three).
        case refreshStatus(RefreshStatus?)
        /// `network`: whether the network was reachable.
        case network(reachable: Bool?)
        /// `fetch.setMinimumInterval`: the interval, in seconds.
        case fetchInterval(Double?)
    }

    /// `UIApplication.backgroundRefreshStatus`, as a `refreshStatus` reading logs it.
    public enum RefreshStatus: UInt8, Hashable, Sendable, BitwiseCopyable {
        case available, denied, restricted

        /// True when Background App Refresh is off for the app (`denied` or `restricted`).
        public var isOff: Bool { self != .available }
    }

    /// The compact form of `event`, of the launch numbered `launch`, its texts numbered in `texts`.
    ///
    /// Borrowed, field by field: copying the whole event would retain each of its strings.
    public init(_ event: borrowing Event, launch: UInt32, texts table: TextTable) {
        var texts = table
        self.init(event, launch: launch, numbering: &texts)
    }

    /// The compact form of `event`, its texts numbered by `texts` (a ``TextTableFeed`` for a
    /// ``CompactBatch`` made apart from the replay).
    public init(_ event: borrowing Event, launch: UInt32, numbering texts: inout some TextNumbering) {
        self.init(kind: event.kind, launch: launch)
        ts = event.ts
        mono = event.mono
        seq = event.seq
        task = event.task
        rowID = event.rowID
        phase = event.phase.map { Phase($0, texts: &texts) }
        reason = event.reason.map { Reason($0, texts: &texts) }
        cause = event.cause.map { Cause($0, texts: &texts) }
        success = event.success
        identifier = event.identifier.map { texts.id($0) }
        call = event.call.map { texts.id($0) }
        result = event.result.map { texts.id($0) }
        otherName = kind == .other ? texts.id(event.name) : nil
        let attrs = event.attrs
        details = Self.details(kind: kind, attrs: .string(attrs), texts: &texts)
    }

    /// The compact form of an event read as numbers and UTF-8 bytes (a row of the store), of the
    /// launch numbered `launch`: no string is made but for a text `texts` sees for the first time
    /// and the `attrs` of the few kinds whose attributes a rule reads.
    public init(_ raw: RawEventFields, launch: UInt32, texts: inout TextTableFeed) {
        self.init(kind: raw.kind ?? EventKind(utf8: raw.name), launch: launch)
        ts = raw.ts
        mono = raw.mono
        seq = raw.seq
        task = raw.task
        rowID = raw.rowID
        phase = raw.phase.map { Phase(utf8: $0, texts: &texts) }
        reason = raw.reason.map { Reason(utf8: $0, texts: &texts) }
        cause = raw.cause.map { Cause(utf8: $0, texts: &texts) }
        success = raw.success
        identifier = raw.identifier.map { texts.id(utf8: $0) }
        call = raw.call.map { texts.id(utf8: $0) }
        result = raw.result.map { texts.id(utf8: $0) }
        otherName = kind == .other ? texts.id(utf8: raw.name) : nil
        let attrs = raw.attrs
        details = Self.details(kind: kind, attrs: .utf8(attrs), texts: &texts)
    }

    /// The typed attributes of an event of `kind`; `attrs` is read only for a kind that has some.
    private static func details(kind: EventKind, attrs: AttributesText, texts: inout some TextNumbering) -> Details {
        switch kind {
        case .pushReceive:
            let push = attrs.read(KindAttributes.Push.self)
            return .push(contentAvailable: push.contentAvailable, priority: push.priority, pushType: push.pushType.map { texts.id($0) })
        case .bgtaskSubmit:
            let submit = attrs.read(KindAttributes.Submit.self)
            return .submit(
                type: submit.type.map { texts.id($0) }, error: submit.error.map { texts.id($0) },
                earliestBegin: submit.earliestBegin, requiresPower: submit.requiresPower,
                requiresNetwork: submit.requiresNetwork)
        case .backgroundTimeRemaining:
            return .timeRemaining(attrs.read(KindAttributes.TimeRemaining.self).seconds)
        case .beginBackgroundTask:
            return .backgroundTask(name: attrs.read(KindAttributes.BackgroundTaskName.self).name.map { texts.id($0) })
        case .config:
            return .config(attrs.string.map { texts.id($0) })
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground, .sceneDidDisconnect, .snapshot:
            guard let attrs = attrs.string else { return kind == .snapshot ? .none : .scene(nil) }
            let text = LeadingString.value(of: "scene", in: attrs) ?? AttributeReader(attrs, only: ["scene"]).string("scene")
            let scene = text.map { texts.id($0) }
            return kind == .snapshot && scene == nil ? .none : .scene(scene)
        case .bgtaskLaunch, .bgtaskExpire:
            return attrs.read(KindAttributes.Simulated.self).simulated == true ? .simulated : .none
        case .resourceAcquire, .resourceRelease:
            let resource = attrs.read(KindAttributes.Resource.self)
            return .resource(
                id: resource.id.map { texts.id($0) },
                kind: kind == .resourceAcquire ? resource.kind.map { ResourceKind($0, texts: &texts) } : nil)
        case .urlsessionTaskCreate:
            let task = attrs.read(KindAttributes.URLSessionTask.self)
            return .urlSessionTask(
                earliestBegin: task.earliestBegin, discretionary: task.discretionary,
                statesSend: task.expectedSend.map { $0 >= 0 } ?? false,
                statesReceive: task.expectedReceive.map { $0 >= 0 } ?? false)
        case .power:
            let power = attrs.read(Readings.Power.self)
            return .power(lowPowerMode: power.lowPowerMode, battery: power.battery, charging: power.charging)
        case .refreshStatus:
            return .refreshStatus(attrs.read(Readings.RefreshStatus.self).status)
        case .network:
            return .network(reachable: attrs.read(Readings.Network.self).reachable)
        case .fetchSetMinimumInterval:
            return .fetchInterval(attrs.read(KindAttributes.FetchInterval.self).interval)
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive, .willResignActive,
             .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning, .suspend, .resume,
             .terminate, .endBackgroundTask, .backgroundTaskExpired, .expiringActivity, .bgtaskRegister,
             .bgtaskCancel, .bgtaskComplete, .fetchPerform, .fetchComplete, .pushComplete, .urlsessionCreate,
             .urlsessionHandleEvents, .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive,
             .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other:
            // No attribute of these is read by a rule.
            return .none
        }
    }

    /// The `interval` of a `fetch.setMinimumInterval`, in seconds.
    public var fetchInterval: Double? {
        guard case .fetchInterval(let interval) = details else { return nil }
        return interval
    }

    /// The id of the resource a `resource.acquire` or `resource.release` names.
    public var resource: TextID? {
        guard case .resource(let id, _) = details else { return nil }
        return id
    }

    /// The `kind` of a `resource.acquire`.
    public var resourceKind: ResourceKind? {
        guard case .resource(_, let kind) = details else { return nil }
        return kind
    }

    /// True for a `bgtask.launch` or `bgtask.expire` forced from the debugger.
    public var isSimulated: Bool { details == .simulated }

    /// The `scene` of a scene event or a `snapshot` (nil when it names none).
    public var scene: TextID? {
        guard case .scene(let scene) = details else { return nil }
        return scene
    }

    /// The `value` of a `backgroundTimeRemaining` reading, in seconds.
    public var backgroundTimeRemaining: Double? {
        guard case .timeRemaining(let value) = details else { return nil }
        return value
    }
}

extension ReplayEvent.RefreshStatus {
    /// The status a `refreshStatus` reading names; nil for any other text.
    init?(text: String) {
        switch text {
        case "available": self = .available
        case "denied": self = .denied
        case "restricted": self = .restricted
        default: return nil
        }
    }
}

/// An event's `attrs` as its reader holds it: a string (a decoded ``Event``) or UTF-8 bytes (a
/// row of the store), read without making a string of the bytes where the text has the flat shape.
private enum AttributesText {
    case string(String?)
    case utf8(UnsafeRawBufferPointer?)

    /// The whole text.
    var string: String? {
        switch self {
        case .string(let text): text
        case .utf8(let bytes): bytes.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    func read<Visitor: AttributeVisitor>(_: Visitor.Type) -> Visitor {
        switch self {
        case .string(let text): Visitor.read(text)
        case .utf8(let bytes): Visitor.read(utf8: bytes)
        }
    }
}
