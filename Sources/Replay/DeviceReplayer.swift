import TraceModel

/// Replays the events of one device, in order, through every check of a rule book.
///
/// Memory is bounded by what is open: a launch's checks are dropped when it ends, and only the
/// latest few ended launches are kept, to recognise events that come after a `terminate`.
///
/// Not checked for exclusivity at run time, for the reason given at ``LaunchState``: a device's
/// replay runs on one thread (it is not `Sendable`); the checks were a sixth of the cost of
/// starting and ending a launch.
public final class DeviceReplayer {
    private let book: RuleBook
    private let state: DeviceState
    /// The device-scoped checks, and per blueprint up to two launch-scoped checks ended launches
    /// left cleared for the next launches to use (see ``Check/clearForNextLaunch()``); two, as an
    /// app's launches and an extension's often take turns. This replayer frees them.
    private let deviceChecks: CheckSlots
    private let spares: [CheckSlots]
    /// The book's dispatch tables, read for every event.
    private let dispatch: DispatchTable.View
    /// The live launches by serial, and the live launch of each process kind (nil for the app),
    /// so a new launch of it supersedes the old one. A device runs a few at once, so each is a
    /// short list (``KeyedList``): hashing a launch's id, a string, at every start, end and switch
    /// took a hundred times more than comparing its serial.
    @exclusivity(unchecked) private var live = KeyedList<UInt32, LaunchState>()
    @exclusivity(unchecked) private var liveByProcess = KeyedList<String?, UInt32>()
    /// The serial of each launch held that was begun by an ``Event``, by id, for the events that
    /// name their launch by id (a batch's events name it by serial).
    @exclusivity(unchecked) private var serials: [String: UInt32] = [:]
    /// The latest launches that ended, oldest first, to recognise events logged after their end.
    /// Only the last ``endedLaunchesKept`` are kept, so memory does not grow with the log.
    @exclusivity(unchecked) private var ended: [LaunchState] = []
    static let endedLaunchesKept = 4

    /// How many ended launches are held (for tests of the memory bound).
    var endedLaunchesHeld: Int { ended.count }
    /// The launch of the latest event. Read for every event: not checked for exclusivity at run
    /// time, for the reason given at ``LaunchState``.
    @exclusivity(unchecked) private var current: LaunchState?
    /// The launch of the latest event of another launch than `current`'s: an extension's events
    /// come between the app's, and each switch would otherwise hash the launch's id.
    @exclusivity(unchecked) private var previous: LaunchState?
    /// What the caller said was cut short: these launches, and with `deviceCut` every launch
    /// still open when the device's log ends.
    @exclusivity(unchecked) private var cutLaunches: Set<String> = []
    @exclusivity(unchecked) private var deviceCut = false
    /// The serial the next new launch gets (see ``LaunchState/serial``).
    @exclusivity(unchecked) private var nextSerial: UInt32 = 0
    /// The launches named by the batches received so far, by serial (see ``CompactBatch``).
    @exclusivity(unchecked) private var fedLaunches: [LaunchHeader] = []

    /// `records`: where derived records go (``DerivedRecord``; nil for none).
    public init(device: String, book: RuleBook, configuration: ReplayConfiguration, records: RecordSink? = nil) {
        self.book = book
        state = DeviceState(
            device: device, budgets: configuration.budgets, severities: configuration.severities, records: records)
        deviceChecks = CheckSlots(count: book.blueprints.count)
        for (index, blueprint) in book.blueprints.enumerated() where blueprint.scope == .device {
            deviceChecks.put(blueprint.make(configuration.budgets), at: index)
        }
        spares = [CheckSlots(count: book.blueprints.count), CheckSlots(count: book.blueprints.count)]
        dispatch = book.table.view
    }

    deinit {
        deviceChecks.free()
        for row in spares { row.free() }
    }

    /// The checks the next launch would take over (for tests of their clearing).
    var spareChecks: [(blueprint: Int, check: Check)] {
        spares.flatMap { row in row.all.enumerated().compactMap { index, check in check.map { (index, $0) } } }
    }

    public var device: String { state.device }

    /// Replays one event; findings it makes evident are passed to `emit`.
    ///
    /// The event is made compact (``ReplayEvent``) once, here, where its launch is known; every
    /// check then copies only that.
    public func receive(_ event: borrowing Event, emit: (Finding) -> Void) {
        let launch = launchState(for: event)
        if launch.envelopeIsIncomplete { launch.completeEnvelope(from: event) }
        replay(ReplayEvent(event, launch: launch.serial, texts: state.texts), in: launch, emit: emit)
    }

    /// Replays the events of a batch made for this device on another thread (see ``CompactBatch``).
    /// A device's events come either all as batches or all as ``Event``s.
    func receive(_ batch: CompactBatch, emit: (Finding) -> Void) {
        state.texts.append(fedTexts: batch.newTexts)
        fedLaunches += batch.newLaunches
        for event in batch.events {
            guard let launch = launchState(fed: event) else { continue }
            replay(event, in: launch, emit: emit)
        }
    }

    /// Inlined into both ways in, so that the event is not copied once more on the way.
    @inline(__always)
    private func replay(_ event: ReplayEvent, in launch: LaunchState, emit: (Finding) -> Void) {
        let kind = event.kind
        let ordinal = kind.ordinal
        state.eventNumber &+= 1
        // The life cycle moves first: every check reads the state after the event.
        launch.apply(event, kind: kind)
        if kind == .config { launch.read(config: event, device: state) }
        let context = ReplayContext(device: state, launch: launch)
        let isExtension = launch.isExtension
        let launchChecks = launch.checks
        for index in dispatch.blueprints(isExtension ? .extensionLaunch : .appLaunch, ordinal: ordinal) {
            let index = Int(index)
            launchChecks.with(index) { $0.receive(event, kind: kind, context: context.calling(blueprint: index, of: book)) }
        }
        let hearing = dispatch.blueprints(isExtension ? .extensionDevice : .appDevice, ordinal: ordinal)
        if event.ts > state.nextWake {
            wakeAndReplay(event, kind: kind, hearing: hearing, context: context)
        } else {
            for index in hearing {
                let index = Int(index)
                deviceChecks.with(index) { $0.receive(event, kind: kind, context: context.calling(blueprint: index, of: book)) }
            }
        }
        launch.lastEvent = event
        // The launch's first terminate ends it (ending twice does nothing).
        if kind == .terminate, launch.latestTerminated { ended(launch, terminatedBy: event) }
        flush(emit)
    }

    /// Apart, with its copy of the event: inline, the copy was made for every event.
    @inline(never)
    private func ended(_ launch: LaunchState, terminatedBy event: ReplayEvent) {
        end(launch, .terminated(event))
    }

    /// The device checks' part of an event at which a check may be due to wake: in blueprint
    /// order, each check is woken if due, then hears the event if it listens to its kind — the
    /// order the checks would have run in had they heard every event.
    private func wakeAndReplay(
        _ event: ReplayEvent, kind: EventKind, hearing: UnsafeBufferPointer<Int32>, context: ReplayContext
    ) {
        let dispatch = context.launch.isExtension ? book.appExtension : book.app
        for index in dispatch.deviceBlueprints {
            let context = context.calling(blueprint: index, of: book)
            if state.takeWake(blueprint: index, at: event.ts) { deviceChecks.with(index) { $0.wake(at: event, context: context) } }
            if hearing.contains(Int32(index)) { deviceChecks.with(index) { $0.receive(event, kind: kind, context: context) } }
        }
        state.settleNextWake()
    }

    /// Says that the log holding `launch`'s last event was cut short (nil: the device's log,
    /// so every launch still open when it ends): unless the launch ends with its `terminate`, its
    /// log may have lost lines at its end. Call it before the launch ends.
    public func logWasCutShort(launch: String?) {
        if let launch { cutLaunches.insert(launch) } else { deviceCut = true }
    }

    /// The app state of a launch after the events replayed so far (nil for an unknown launch).
    public func state(ofLaunch launch: String) -> AppState? {
        held(launch)?.state
    }

    /// The launch of this id held live or ended, if any. A batch's launches are not in
    /// `serials`: they are looked for among the few held.
    private func held(_ launch: String) -> LaunchState? {
        if let serial = serials[launch] { return held(serial: serial) }
        guard !fedLaunches.isEmpty else { return nil }
        return live.elements.first { $0.value.launch == launch }?.value ?? ended.last { $0.launch == launch }
    }

    private func held(serial: UInt32) -> LaunchState? {
        live[serial] ?? ended.last { $0.serial == serial }
    }

    /// Ends every launch still open: the log is over.
    public func finish(emit: (Finding) -> Void) {
        for launch in live.elements.map(\.value).sorted(by: { $0.firstEvent.ts < $1.firstEvent.ts }) {
            end(launch, .endOfLog(launch.lastEvent))
        }
        if let current {
            let context = ReplayContext(device: state, launch: current)
            for index in 0 ..< deviceChecks.count {
                deviceChecks.with(index) { $0.logEnded(context: context.calling(blueprint: index, of: book)) }
            }
        }
        flush(emit)
    }

    /// Inlined for its test, run after every event; the rare hand-over is not.
    @inline(__always)
    private func flush(_ emit: (Finding) -> Void) {
        guard !state.pending.isEmpty else { return }
        handOver(emit)
    }

    @inline(never)
    private func handOver(_ emit: (Finding) -> Void) {
        state.pending.forEach(emit)
        state.pending.removeAll(keepingCapacity: true)
    }

    private func launchState(for event: borrowing Event) -> LaunchState {
        // Most events belong to the launch of the event before: skip the dictionary then.
        if let current, current.launch == event.launch { return current }
        let found: LaunchState
        if let previous, previous.launch == event.launch {
            found = previous
        } else {
            found = findLaunchState(for: event)
        }
        previous = current
        current = found
        return found
    }

    private func findLaunchState(for event: borrowing Event) -> LaunchState {
        if let launch = held(event.launch) { return launch }
        let serial = nextSerial
        nextSerial &+= 1
        let first = ReplayEvent(event, launch: serial, texts: state.texts)
        let header = LaunchHeader(
            launch: event.launch, process: event.process, app: event.app, appVersion: event.appVersion, os: event.os,
            model: event.model)
        serials[event.launch] = serial
        return startLaunch(header, serial: serial, first: first)
    }

    /// The launch of a batch's event, begun at its first event (nil for a serial no batch named,
    /// which a reader of this module's batches never makes). A batch's reader numbers each
    /// launch once, so its serial finds it.
    private func launchState(fed event: ReplayEvent) -> LaunchState? {
        if let current, current.serial == event.launch { return current }
        let serial = event.launch
        guard Int(serial) < fedLaunches.count else { return nil }
        let found = held(serial: serial) ?? startLaunch(fedLaunches[Int(serial)], serial: serial, first: event)
        current = found
        return found
    }

    /// Begins the launch `header` names at `first`, ending the live launch of the same process
    /// (a new launch of a process means the old one ended without a word).
    private func startLaunch(_ header: LaunchHeader, serial: UInt32, first: ReplayEvent) -> LaunchState {
        let process = Self.processKind(header.process)
        if let running = liveByProcess[process], let previous = live[running] {
            end(previous, .superseded(by: first))
        }
        let launch = LaunchState(header, serial: serial, first: first, checks: book.blueprints.count)
        if state.isRecording { launch.startRecording(in: state) }
        for index in book.launchScopedBlueprints {
            if let spare = spares.first(where: { $0.has(index) }) {
                spare.move(index, to: launch.checks)
            } else {
                launch.checks.put(book.blueprints[index].make(state.budgets), at: index)
            }
        }
        live.updateValue(launch, forKey: serial)
        liveByProcess.updateValue(serial, forKey: process)
        return launch
    }

    /// The process kind a launch's `process` names: nil for the app (`nil` or `"app"`).
    private static func processKind(_ process: String?) -> String? {
        process == "app" ? nil : process
    }

    private func end(_ launch: LaunchState, _ ending: LaunchEnding) {
        guard live.removeValue(forKey: launch.serial) != nil else { return }
        let process = Self.processKind(launch.process)
        if liveByProcess[process] == launch.serial { liveByProcess.removeValue(forKey: process) }
        if case .endOfLog = ending, deviceCut { launch.logCutShort = true }
        // A launch that logged its terminate lost nothing at its end, whatever became of its file.
        if !cutLaunches.isEmpty, cutLaunches.remove(launch.launch) != nil {
            if case .terminated = ending {} else { launch.logCutShort = true }
        }
        launch.ended(ending)
        let context = ReplayContext(device: state, launch: launch)
        let dispatch = launch.isExtension ? book.appExtension : book.app
        let checks = launch.checks
        for index in dispatch.launchBlueprints {
            checks.with(index) { $0.launchEnded(ending, context: context.calling(blueprint: index, of: book)) }
        }
        for index in dispatch.deviceBlueprints {
            deviceChecks.with(index) { $0.launchEnded(ending, context: context.calling(blueprint: index, of: book)) }
        }
        // Keep the ended launch, with only the checks that outlive it, to flag events logged
        // after its end; give the others, cleared, to the next launch.
        for index in book.endingBlueprints where checks.has(index) {
            if let spare = spares.first(where: { !$0.has(index) }), checks.with(index, { $0.clearForNextLaunch() }) == true {
                checks.move(index, to: spare)
            } else {
                checks.remove(index)
            }
        }
        ended.append(launch)
        if ended.count > Self.endedLaunchesKept {
            let forgotten = ended.removeFirst()
            if serials[forgotten.launch] == forgotten.serial { serials[forgotten.launch] = nil }
            // A later event of it begins a new launch: no cache may still answer for it.
            if current === forgotten { current = nil }
            if previous === forgotten { previous = nil }
        }
    }
}
