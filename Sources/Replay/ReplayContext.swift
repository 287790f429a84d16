import TraceModel

/// What a check sees while it handles an event: the device and launch being replayed, the
/// budgets, and the way to report a finding.
///
/// A context lives only for the call it is passed to, while the replay holds its device and
/// launch: it refers to them without counting references (`Unmanaged`), so that making one per
/// check call, and reading `device` or `launch` in it, costs no retain and release (making one
/// cost 5% of the replay; `unowned(unsafe)` still retained at every read, as much again). A
/// check that keeps `device` or `launch` beyond the call stores a strong reference of its own.
public struct ReplayContext {
    @usableFromInline let deviceReference: Unmanaged<DeviceState>
    @usableFromInline let launchReference: Unmanaged<LaunchState>

    @inlinable public var device: DeviceState { deviceReference._withUnsafeGuaranteedRef { $0 } }
    @inlinable public var launch: LaunchState { launchReference._withUnsafeGuaranteedRef { $0 } }
    /// The blueprint of the check being called (its index in the rule book); -1 outside a call.
    private var blueprint = -1
    #if DEBUG
    /// The rules the check being called declares; nil outside a check's call.
    private var declaredRules: Set<String>?
    #endif

    init(device: DeviceState, launch: LaunchState) {
        deviceReference = .passUnretained(device)
        launchReference = .passUnretained(launch)
    }

    /// This context for a call of the check of `blueprint`: in debug builds, reporting a rule that
    /// blueprint does not declare stops at an assertion, so no rule can be reported unlisted (and
    /// so missing from the catalogue, its docs and its tests). Release builds pay nothing.
    @inline(__always)
    func calling(blueprint: Int, of book: RuleBook) -> ReplayContext {
        var context = self
        context.blueprint = blueprint
        #if DEBUG
        context.declaredRules = book.declaredRuleIDs[blueprint]
        #endif
        return context
    }

    /// Asks that the calling device-scoped check be woken (``Check/wake(at:context:)``) at the
    /// device's first event later than `time`, replacing what it asked before; `.max` (or any
    /// time no event passes) asks for nothing. Waking is one comparison per event for the
    /// replay, where hearing every event would be a call.
    public func wake(after time: Timestamp) {
        assert(blueprint >= 0, "wake(after:) is for a check's call")
        guard blueprint >= 0 else { return }
        device.wake(blueprint: blueprint, after: time)
    }

    public var budgets: Budgets { device.budgets }

    /// Seconds between two events: from `mono` when both carry it (a wall clock can jump),
    /// else from `ts`; never negative, so a small clock skew reads as zero. Always finite: a
    /// `mono` difference that is not (a value from input near the ends of `Double`) falls back
    /// to `ts`, and a huge finite result is kept — it is what the log says.
    public func seconds(from start: ReplayEvent, to end: ReplayEvent) -> Double {
        Self.seconds(from: start, to: end)
    }

    /// ``seconds(from:to:)``, for the engine's own measurements.
    static func seconds(from start: ReplayEvent, to end: ReplayEvent) -> Double {
        var elapsed = end.ts.seconds(since: start.ts)
        if let a = start.mono, let b = end.mono, start.launch == end.launch, (b - a).isFinite {
            elapsed = b - a
        }
        return max(0, elapsed)
    }

    /// True when the replay's caller wants derived records (``DerivedRecord``): a check makes
    /// one only then, so that a replay that writes no table pays nothing for them.
    public var isRecording: Bool { device.isRecording }

    /// True when the caller wants the records of callbacks, work and task requests
    /// (``IntervalRecord``, ``TaskRecord``, ``RequestRecord``), not only those of launches.
    public var isRecordingWork: Bool { device.isRecordingWork }

    /// Hands a derived record to the replay's caller (nothing when ``isRecording`` is false).
    /// Make it when its subject is finished, with its texts resolved.
    public func record(_ record: consuming TaskRecord) { device.records?.sink.record(record) }
    public func record(_ record: consuming RequestRecord) { device.records?.sink.record(record) }

    /// The number of the latest finding reported in this replay (from 0, in the order findings
    /// reach the caller, across devices), for a record that names the finding it caused; nil when
    /// no finding was reported yet or ``isRecording`` is false.
    public var latestFindingNumber: Int? { device.latestFindingNumber }

    /// `event` with its texts, for a finding's message.
    public func resolved(_ event: ReplayEvent) -> ResolvedEvent { ResolvedEvent(event, texts: device.texts) }

    /// One text of an event (nil for none), where resolving the whole event would make a string
    /// of each of its texts.
    public func text(_ id: TextID?) -> String? { id.map { device.texts[$0] } }

    /// Reports a finding of `rule` at `event` (the moment the breach became evident). For a rule
    /// that ``Rule/explainsTermination``, `detail` is the cause in words for the sentence of a kill
    /// the finding explains (see ``Explanation/detail``).
    @discardableResult
    public func report(
        _ rule: Rule, at event: ReplayEvent, events: [ReplayEvent], message: String, budget: BudgetName? = nil,
        budgetSeconds: Double? = nil, measured: Double? = nil, unit: String? = nil, explainedBy: Finding? = nil,
        detail: String? = nil, factors: [Finding.Factor] = []
    ) -> Finding {
        #if DEBUG
        assert(declaredRules?.contains(rule.id) ?? true, "a check reported \(rule.id), which its blueprint does not declare")
        #endif
        let finding = Finding(
            rule: rule.id, category: rule.category, severity: device.severity(of: rule),
            device: device.device, launch: launch.launch, ts: event.ts,
            events: Self.distinct(events).map { resolved($0).reference }, budget: budget?.rawValue,
            budgetSeconds: Self.finite(budgetSeconds ?? budget.map { budgets[$0] }), measured: Self.finite(measured),
            unit: unit,
            message: message,
            explainedBy: explainedBy.map { FindingRef(rule: $0.rule, ts: $0.ts) }, factors: factors)
        device.emit(finding)
        if rule.explainsTermination { launch.explanations.append(Explanation(finding: finding, at: event.ts, detail: detail)) }
        return finding
    }

    /// Says that the breach of `finding`, reported earlier in this launch, still stands at `event`
    /// (a resource still held): a kill from then on is explained by it, as by a finding reported at
    /// `event`, though the breach is reported only once. `detail` as for ``report(_:at:events:message:budget:budgetSeconds:measured:unit:explainedBy:detail:factors:)``.
    public func stillExplains(_ finding: Finding, at event: ReplayEvent, detail: String? = nil) {
        launch.explanations.append(Explanation(finding: finding, at: event.ts, detail: detail))
    }

    /// A number a finding can carry into JSON: NaN is no measurement, ±∞ the largest finite value.
    private static func finite(_ value: Double?) -> Double? {
        guard let value, !value.isNaN else { return nil }
        return value.isFinite ? value : value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
    }

    /// `events` without repeats (the event that opened work can also be the one at which the
    /// breach became evident), in their order.
    private static func distinct(_ events: [ReplayEvent]) -> [ReplayEvent] {
        var kept: [ReplayEvent] = []
        for event in events where !kept.contains(event) { kept.append(event) }
        return kept
    }
}

/// What the replay keeps for one device across its launches.
public final class DeviceState {
    public let device: String
    public let budgets: Budgets
    /// The texts this device's events name (see ``ReplayEvent``), freed with the device's state.
    public let texts = TextTable()
    let severities: [String: Severity]
    /// Findings reported and not yet handed to the caller. Read after every event: not checked
    /// for exclusivity at run time, for the reason given at ``LaunchState``.
    @exclusivity(unchecked) var pending: [Finding] = []
    /// What checks share about this device across launches, one ``DeviceStore`` per type.
    var stores: [ObjectIdentifier: AnyObject] = [:]
    /// Per blueprint, the time after which its device-scoped check asked to be woken (`.max`:
    /// never); grown as checks ask.
    @exclusivity(unchecked) private(set) var wakeTimes: [Timestamp] = []
    /// At most the earliest of ``wakeTimes``: an event no later than it wakes nothing, and the
    /// replay compares every event with it alone. It may lag behind (a check that asked for a
    /// later time), which only costs a look at ``wakeTimes``.
    @exclusivity(unchecked) private(set) var nextWake = Timestamp(microseconds: .max)
    /// The latest `config` read, by its attributes' text number (see ``config(_:)``).
    private var latestConfig: (attrs: TextID?, config: LaunchConfig)?
    /// The number of the event being replayed, counted from 1 over the device's log: an event's
    /// identity within the replay, cheaper to compare than the event.
    @exclusivity(unchecked) public internal(set) var eventNumber = 0
    /// Where derived records go; nil when the caller wants none.
    let records: RecordSink?
    /// `records != nil`, kept apart: asked for every event of a launch and every piece of work.
    let isRecording: Bool
    /// Whether the records of callbacks, work and task requests are wanted too, not only launches'.
    let isRecordingWork: Bool

    init(device: String, budgets: Budgets, severities: [String: Severity], records: RecordSink? = nil) {
        self.device = device
        self.budgets = budgets
        self.severities = severities
        self.records = records
        isRecording = records != nil
        isRecordingWork = records?.sink.takesWork ?? false
        records?.didEnterBackgroundBudget = budgets[.didEnterBackground]
    }

    func severity(of rule: Rule) -> Severity { severities[rule.id] ?? rule.severity }

    func emit(_ finding: Finding) {
        pending.append(finding)
        records?.findingsReported += 1
    }

    func wake(blueprint: Int, after time: Timestamp) {
        if wakeTimes.count <= blueprint {
            wakeTimes += repeatElement(Timestamp(microseconds: .max), count: blueprint + 1 - wakeTimes.count)
        }
        wakeTimes[blueprint] = time
        nextWake = min(nextWake, time)
    }

    /// Whether the check of `blueprint` is due to be woken at `time`; if so, its request is
    /// spent (it asks again from its ``Check/wake(at:context:)``).
    func takeWake(blueprint: Int, at time: Timestamp) -> Bool {
        guard blueprint < wakeTimes.count, time > wakeTimes[blueprint] else { return false }
        wakeTimes[blueprint] = Timestamp(microseconds: .max)
        return true
    }

    /// Makes ``nextWake`` exact again, after the checks due were woken.
    func settleNextWake() {
        nextWake = wakeTimes.min() ?? Timestamp(microseconds: .max)
    }

    func resolved(_ event: ReplayEvent) -> ResolvedEvent { ResolvedEvent(event, texts: texts) }

    /// What a `config` event whose attributes are the text `attrs` says. A device logs the same
    /// configuration at every launch: the latest one read is kept, and its text number (equal
    /// texts have equal numbers) spares parsing it again.
    func config(_ attrs: TextID?) -> LaunchConfig {
        if let latestConfig, latestConfig.attrs == attrs { return latestConfig.config }
        let config = LaunchConfig(attrs.map { texts[$0] })
        latestConfig = (attrs, config)
        return config
    }

    var latestFindingNumber: Int? {
        guard let records, records.findingsReported > 0 else { return nil }
        return records.findingsReported - 1
    }
}

/// Where a replay's derived records go (``Replayer/init(book:configuration:records:)``), shared by
/// the replays of all its devices, with the count of findings reported so far that numbers them:
/// a device's findings reach the caller in the order they were reported, before any other
/// device's next finding, so the count at a report is the finding's position in the output.
public final class RecordSink {
    let sink: any DerivedRecordSink
    var findingsReported = 0
    /// Launches begun so far: the next one's ``LaunchRecord/number``.
    var launchesBegun = 0
    /// The `did-enter-background` budget (every device of a replay has the same budgets), read
    /// once rather than for every launch.
    var didEnterBackgroundBudget = BudgetName.didEnterBackground.defaultSeconds

    public init(_ sink: any DerivedRecordSink) {
        self.sink = sink
    }
}
