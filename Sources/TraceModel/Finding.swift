/// One breach of a documented sequence found by a replay: which rule, where, when, the events
/// behind it, and a sentence a person can act on.
public struct Finding: Sendable, Hashable, Codable {
    /// The rule's stable id, e.g. `bgtask-refresh-overrun`.
    public var rule: String
    public var category: RuleCategory
    public var severity: Severity
    public var device: String
    public var launch: String
    /// When the replay first knew of the breach (see rules.md, "When a finding happens").
    public var ts: Timestamp
    /// The events the finding rests on, oldest first.
    public var events: [EventRef]
    /// The budget the rule measured against, by name, with its value in seconds.
    public var budget: String?
    public var budgetSeconds: Double?
    /// What was measured against the budget, in ``unit``.
    public var measured: Double?
    /// The unit of ``measured``: `"s"` for durations (most rules), or a noun for counts
    /// (`"requests"`).
    public var unit: String?
    public var message: String
    /// For a termination: the finding that explains it (`rule` and `ts` of that finding).
    public var explainedBy: FindingRef?
    /// For a request that waited too long to run (`bgtask-never-ran`, `fetch-never-ran`): what
    /// the log shows that held it back, most of the wait first. Empty for every other rule, and
    /// for a wait the log shows no reason for.
    public var factors: [Factor]

    public init(
        rule: String, category: RuleCategory, severity: Severity, device: String, launch: String,
        ts: Timestamp, events: [EventRef], budget: String? = nil, budgetSeconds: Double? = nil,
        measured: Double? = nil, unit: String? = nil, message: String, explainedBy: FindingRef? = nil,
        factors: [Factor] = []
    ) {
        self.rule = rule
        self.category = category
        self.severity = severity
        self.device = device
        self.launch = launch
        self.ts = ts
        self.events = events
        self.budget = budget
        self.budgetSeconds = budgetSeconds
        self.measured = measured
        self.unit = measured == nil ? nil : unit ?? "s"
        self.message = message
        self.explainedBy = explainedBy
        self.factors = factors
    }
}

extension Finding {
    /// Something iOS weighs before it runs an app's background work, as the log shows it during
    /// a wait: the factors of Apple's "What's affecting Background Execution?" that leave a trace
    /// in a log, and the request's own conditions. A closed set: its raw values are public names
    /// (JSON, the store's `factors` column).
    public enum FactorKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A `power` reading said Low Power Mode was on.
        case lowPowerMode = "low-power-mode"
        /// A `power` reading said the battery was at 20% or less and not charging.
        case lowBattery = "low-battery"
        /// `backgroundRefreshStatus` was `denied` or `restricted`.
        case refreshDisabled = "refresh-disabled"
        /// The user swiped the app away (`terminate` with reason `user`) and had not opened it again.
        case swipedAway = "swiped-away"
        /// The user did not open the app during the wait.
        case appUnused = "app-unused"
        /// A processing request that requires external power, and no reading saw the device charging.
        case powerRequired = "power-required"
        /// A request that requires network connectivity, and no reading saw the network reachable.
        case networkRequired = "network-required"
        /// Launches during the wait did not register the task's identifier.
        case notRegistered = "not-registered"
        /// A later submit moved the request's earliest begin date forward.
        case rescheduled = "rescheduled"
    }

    /// One factor of a wait: its kind, the share of the wait it covered (0 to 1) and the events
    /// that show it.
    public struct Factor: Sendable, Hashable, Codable {
        public var kind: FactorKind
        /// The part of the wait the factor covered, from 0 to 1.
        public var share: Double
        /// The events that show it, oldest first (the reading that turned it on, the `terminate`,
        /// the submits).
        public var evidence: [EventRef]

        public init(kind: FactorKind, share: Double, evidence: [EventRef]) {
            self.kind = kind
            self.share = share
            self.evidence = evidence
        }
    }
}

/// A pointer from a finding to one event: its store row id when replayed from a database,
/// its `seq` when the log had one, its name and time always.
public struct EventRef: Sendable, Hashable, Codable {
    public var rowID: Int64?
    public var seq: Int64?
    public var name: String
    public var ts: Timestamp

    public init(rowID: Int64?, seq: Int64?, name: String, ts: Timestamp) {
        self.rowID = rowID
        self.seq = seq
        self.name = name
        self.ts = ts
    }

    public init(_ event: Event) {
        rowID = event.rowID
        seq = event.seq
        name = event.name
        ts = event.ts
    }
}

/// A reference from one finding to another (rule and time), e.g. a termination's cause.
public struct FindingRef: Sendable, Hashable, Codable {
    public var rule: String
    public var ts: Timestamp

    public init(rule: String, ts: Timestamp) {
        self.rule = rule
        self.ts = ts
    }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        microseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(microseconds)
    }
}
