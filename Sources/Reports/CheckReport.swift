import TraceModel

/// Everything a `check` prints: what was replayed, and the findings (already filtered).
public struct CheckReport {
    /// Where the events came from (a database path, or "standard input").
    public var source: String
    public var devices: Int
    public var events: Int
    public var seconds: Double
    /// The findings, in the order they were reported, with their per-rule tally.
    public var findings: FindingLog
    /// The filters applied to the findings, for the reader (e.g. "rule bgtask-expired").
    public var filters: [String]

    public init(source: String, devices: Int, events: Int, seconds: Double, findings: FindingLog, filters: [String] = []) {
        self.source = source
        self.devices = devices
        self.events = events
        self.seconds = seconds
        self.findings = findings
        self.filters = filters
    }

    public init(source: String, devices: Int, events: Int, seconds: Double, findings: [Finding], filters: [String] = []) {
        self.init(source: source, devices: devices, events: events, seconds: seconds, findings: FindingLog(findings), filters: filters)
    }

    /// Per rule: how many findings, on how many devices and launches, and the worst value.
    public struct RuleSummary: Sendable, Hashable {
        public var rule: String
        public var category: RuleCategory
        public var severity: Severity
        public var findings: Int
        public var devices: Int
        public var launches: Int
        /// The largest measured value, with its budget, when the rule measures one.
        public var worst: Double?
        /// The unit of ``worst``.
        public var unit: String?
        public var budget: String?
        public var budgetSeconds: Double?
    }

    /// One row per rule that reported, grouped by category (in the catalogue's category
    /// order), most findings first within a category.
    public var summaries: [RuleSummary] { findings.tally.summaries }

    /// The highest severity among the findings, if any.
    public var worstSeverity: Severity? { findings.tally.worstSeverity }
}
