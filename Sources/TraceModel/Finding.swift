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

    public init(
        rule: String, category: RuleCategory, severity: Severity, device: String, launch: String,
        ts: Timestamp, events: [EventRef], budget: String? = nil, budgetSeconds: Double? = nil,
        measured: Double? = nil, unit: String? = nil, message: String, explainedBy: FindingRef? = nil
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
