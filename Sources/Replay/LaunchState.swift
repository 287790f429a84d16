import TraceModel

/// What the replay knows about one process lifetime (one `launch` id) while replaying it.
/// The lifecycle check keeps the state fields current; every other check reads them.
///
/// Its fields are read and set by the checks of other modules for nearly every event, and Swift
/// checks each such access of a class's property at run time (exclusivity), which cost more
/// than the accesses (callgrind, 41k events: 38M of 204M replay instructions, 13.6M of them in
/// the lifecycle check). The checks are turned off for them with `@exclusivity(unchecked)`:
/// a launch's state is used by one thread (its ``DeviceReplayer``'s, which is not `Sendable`),
/// and every access is a plain read or assignment, or a mutation that calls nothing that could
/// reach the same property.
public final class LaunchState {
    public let launch: String
    /// The launch's number within its device's replay, which its events carry
    /// (``ReplayEvent/launch``): never reused while the device is replayed.
    public let serial: UInt32
    /// The `process` of its first event: nil or `"app"` for the app, `"extension:…"` otherwise.
    public let process: String?
    /// Its envelope: its first event's, its app, version and OS completed by the first later events
    /// that log them where the first leaves them out (see ``completeEnvelope(from:)``).
    public private(set) var envelope: LaunchHeader
    /// Whether the envelope still lacks its app, version or OS (read for every event of a stream).
    @exclusivity(unchecked) public private(set) var envelopeIsIncomplete: Bool
    /// The bundle id of its envelope.
    public var app: String? { envelope.app }
    /// True for an app extension process (`process` = `extension:…`). Stored, not computed:
    /// the replay asks it for every event.
    public let isExtension: Bool

    /// What the launch's life cycle (``AppLifecycle``, applied by the replay before any check
    /// sees an event; its fields are the accessors below) said of the event being replayed: nil for a legal move. Checks that
    /// judge order pass over an event with a breach, so that one bad event yields one finding.
    public var breach: LifecycleBreach? { currentBreach }

    /// The app's state after the events replayed so far.
    public var state: AppState { machine.state }
    /// True once the launch logged a scene event: its app state follows from its scenes.
    public var isSceneBased: Bool { machine.isSceneBased }
    /// The launch's scenes and their states.
    public var scenes: SceneStates { machine.scenes }
    /// The state before the event being replayed (equal to ``state`` when the event moved nothing).
    public var stateBefore: AppState { machine.stateBefore }
    /// True while ``state`` is a guess (see ``AppLifecycle/stateInferred``).
    public var stateInferred: Bool { machine.stateInferred }
    /// True when the event being replayed is not a legal move of the life cycle (``breach``).
    public var lifecycleBreach: Bool { hasBreach }
    /// The `launch` event, when it was logged.
    public var launchEvent: ReplayEvent? { machine.launchEvent }
    /// True once the launch sequence is over (see ``AppLifecycle/launchSequenceEnded``).
    public var launchSequenceEnded: Bool { machine.launchSequenceEnded }
    /// The `begin` of an app-level `didEnterBackground` call that has not returned yet.
    public var didEnterBackgroundBegin: ReplayEvent? { machine.didEnterBackgroundBegin }
    /// The event that started the current background period (see ``AppLifecycle/backgroundSince``).
    public var backgroundSince: ReplayEvent? { machine.backgroundSince }
    /// The background period the latest `suspend` ended (see ``AppLifecycle/suspendedPeriod``).
    public var suspendedPeriod: (since: ReplayEvent, reading: ReplayEvent?)? { machine.suspendedPeriod }
    /// The latest `backgroundTimeRemaining` reading of the current background period.
    public var lastTimeRemaining: ReplayEvent? { machine.lastTimeRemaining }
    /// The `terminate` event, once the process has ended.
    public var terminated: ReplayEvent? { machine.terminated }
    /// True when the latest event was the launch's first `terminate`: the one that ends it.
    var latestTerminated: Bool { machine.latestTerminated }
    /// The `suspend` that put the app in the suspended state.
    public var suspendedBy: ReplayEvent? { machine.suspendedBy }
    /// `BGTaskSchedulerPermittedIdentifiers` from this launch's `config`, if logged.
    @exclusivity(unchecked) public private(set) var permittedIdentifiers: [String]?
    /// `UIBackgroundModes` from this launch's `config`, if logged.
    @exclusivity(unchecked) public private(set) var backgroundModes: [String]?
    /// `debugger` from this launch's `config` (v1.1): a debugger was attached.
    @exclusivity(unchecked) public private(set) var debuggerAttached: Bool?
    /// Identifiers passed to `bgtask.register` in this launch.
    @exclusivity(unchecked) public private(set) var registered = TextIDs()
    /// ``registered`` as it stood after the event that ended the launch sequence (nil before):
    /// what the launch registered in time, for a check that judges it without hearing that event.
    @exclusivity(unchecked) public private(set) var registeredInLaunchSequence: TextIDs?
    /// The first and the latest event of the launch.
    public let firstEvent: ReplayEvent
    /// The events of the launch replayed so far, the latest included.
    @exclusivity(unchecked) private var eventsApplied = 0
    /// True while the event being replayed is the launch's first (``firstEvent``): a count, so
    /// that a check need not compare events.
    public var isAtFirstEvent: Bool { eventsApplied == 1 }
    @exclusivity(unchecked) public internal(set) var lastEvent: ReplayEvent
    /// Findings of this launch whose rule ``Rule/explainsTermination``, in the order they were
    /// reported or said to still stand.
    @exclusivity(unchecked) public internal(set) var explanations: [Explanation] = []
    /// Work still open when the launch's log ended without a `terminate` (see ``OpenWork``),
    /// filled by the checks while the launch ends.
    @exclusivity(unchecked) public var openWork: [OpenWork] = []
    /// True when the caller said the log holding this launch's last event was cut short (a file
    /// truncated mid-write, a stream that ended mid-line): set before the launch's checks hear
    /// that it ended. See ``Replayer/logWasCutShort(device:launch:)``.
    @exclusivity(unchecked) public internal(set) var logCutShort = false

    /// The life cycle and the breach of the current event, behind accessors: a check in another
    /// module that accessed a stored property directly would check its exclusivity at run time
    /// despite `@exclusivity(unchecked)`; the accessors' own accesses are not checked.
    @exclusivity(unchecked) private var machine: AppLifecycle
    @exclusivity(unchecked) private var currentBreach: LifecycleBreach?
    /// `currentBreach != nil`, kept apart: checks ask it for nearly every event.
    @exclusivity(unchecked) private var hasBreach = false

    /// One slot per blueprint of the rule book: this launch's check, or none; this launch frees them.
    let checks: CheckSlots
    /// What the launch's derived records are made from, while it runs and only when the replay's
    /// caller wants them (``DeviceState/isRecording``).
    @exclusivity(unchecked) var recorder: LaunchRecorder?
    /// The launch's number in the replay's derived records (``LaunchRecord/number``): the other
    /// records of the launch name it by this. 0 when the replay makes no records.
    @exclusivity(unchecked) public private(set) var recordNumber = 0

    deinit { checks.free() }

    /// The state of the launch `header` names, numbered `serial`, which `first` begins; `checks`:
    /// how many blueprints the launch's rule book has.
    init(_ header: LaunchHeader, serial: UInt32, first: ReplayEvent, checks: Int) {
        self.checks = CheckSlots(count: checks)
        launch = header.launch
        self.serial = serial
        process = header.process
        envelope = header
        envelopeIsIncomplete = header.app == nil || header.appVersion == nil || header.os == nil
        isExtension = header.process?.hasPrefix("extension:") ?? false
        firstEvent = first
        lastEvent = first
        machine = AppLifecycle(isExtension: isExtension)
    }

    /// Applies `event` to the life cycle and records the identifiers it registers, before any
    /// check sees it (a `config` is read by ``read(config:device:)``).
    func apply(_ event: ReplayEvent, kind: EventKind) {
        eventsApplied &+= 1
        currentBreach = machine.apply(event, kind: kind)
        hasBreach = currentBreach != nil
        if kind == .bgtaskRegister, !machine.hasEnded, let identifier = event.identifier {
            registered.insert(identifier)
        }
        if registeredInLaunchSequence == nil, machine.launchSequenceEnded { registeredInLaunchSequence = registered }
        if recorder != nil { record(event, kind: kind) }
    }

    /// Out of line, so that the events of a replay with no recorder (the in-memory replay, `check
    /// --stdin`) do not pay for a copy of the event that the inlined recorder needs.
    @inline(never)
    private func record(_ event: ReplayEvent, kind: EventKind) {
        recorder?.observe(event, kind: kind, state: machine.state)
    }

    /// Records what a `config` event says of the launch, as `device` read it (see
    /// ``DeviceState/config(_:)``). Apart from ``apply(_:kind:)`` so that the other events do not
    /// pass the device.
    func read(config event: ReplayEvent, device: DeviceState) {
        guard !machine.hasEnded, case .config(let attrs) = event.details else { return }
        let config = device.config(attrs)
        permittedIdentifiers = config.permittedIdentifiers
        backgroundModes = config.backgroundModes
        debuggerAttached = config.debuggerAttached
    }

    /// Fills the app, version and OS the envelope lacks from `event`, a later event of the launch:
    /// a stream learns them as they come, as a store works them out (a team may log them on the
    /// `config` line).
    @inline(never)
    func completeEnvelope(from event: borrowing Event) {
        envelope.app = envelope.app ?? event.app
        envelope.appVersion = envelope.appVersion ?? event.appVersion
        envelope.os = envelope.os ?? event.os
        envelopeIsIncomplete = envelope.app == nil || envelope.appVersion == nil || envelope.os == nil
    }

    /// Numbers the launch for the derived records of `device`'s replay and starts following it.
    func startRecording(in device: DeviceState) {
        guard let records = device.records else { return }
        recordNumber = records.launchesBegun
        records.launchesBegun += 1
        records.sink.launchBegan(number: recordNumber)
        recorder = LaunchRecorder(
            device: device, number: recordNumber, first: firstEvent, isExtension: isExtension,
            didEnterBackgroundBudget: records.didEnterBackgroundBudget)
    }

    /// The launch ended, as `ending` says: later events are judged as coming after its end, and
    /// its derived records are made.
    func ended(_ ending: LaunchEnding) {
        machine.launchEnded()
        if let recorder {
            self.recorder = nil
            recorder.launchEnded(ending, launch: self)
        }
    }
}

/// How a launch came to an end, and the event at which the replay learnt it.
public enum LaunchEnding: Sendable {
    /// Its `terminate` event.
    case terminated(ReplayEvent)
    /// A new launch of the same process began (this is its first event): the old one ended
    /// without a word, killed or quietly reclaimed.
    case superseded(by: ReplayEvent)
    /// The device's log ended (this is the launch's last event).
    case endOfLog(ReplayEvent)

    /// The event at which the end became known: findings about it carry its time.
    public var event: ReplayEvent {
        switch self {
        case .terminated(let event), .superseded(let event), .endOfLog(let event): event
        }
    }

    /// True when the log stopped without saying the process ended (no `terminate`): what was
    /// open then is not known to have been left undone.
    public var isEndOfLogOnly: Bool {
        if case .terminated = self { return false }
        return true
    }
}
