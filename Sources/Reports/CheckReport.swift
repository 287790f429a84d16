import TraceModel

/// Everything a `check` prints: what was replayed, and the findings (already filtered).
public struct CheckReport: Sendable, Hashable {
    /// Where the events came from (a database path, or "standard input").
    public var source: String
    public var devices: Int
    public var events: Int
    public var seconds: Double
    public var findings: [Finding]
    /// The filters applied to the findings, for the reader (e.g. "rule bgtask-expired").
    public var filters: [String]

    public init(source: String, devices: Int, events: Int, seconds: Double, findings: [Finding], filters: [String] = []) {
        self.source = source
        self.devices = devices
        self.events = events
        self.seconds = seconds
        self.findings = findings
        self.filters = filters
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
    public var summaries: [RuleSummary] {
        var byRule: [String: (summary: RuleSummary, devices: Set<String>, launches: Set<String>)] = [:]
        for finding in findings {
            var entry = byRule[finding.rule] ?? (
                RuleSummary(rule: finding.rule, category: finding.category, severity: finding.severity, findings: 0,
                            devices: 0, launches: 0, worst: nil, unit: finding.unit, budget: finding.budget, budgetSeconds: finding.budgetSeconds),
                [], [])
            entry.summary.findings += 1
            entry.summary.severity = max(entry.summary.severity, finding.severity)
            entry.devices.insert(finding.device)
            entry.launches.insert(finding.device + "\u{0}" + finding.launch)
            if let measured = finding.measured, measured > (entry.summary.worst ?? -.infinity) {
                entry.summary.worst = measured
            }
            byRule[finding.rule] = entry
        }
        let order = Dictionary(uniqueKeysWithValues: RuleCategory.allCases.enumerated().map { ($1, $0) })
        return byRule.values.map { entry in
            var summary = entry.summary
            summary.devices = entry.devices.count
            summary.launches = entry.launches.count
            return summary
        }.sorted {
            (order[$0.category, default: .max], -$0.findings, $0.rule) < (order[$1.category, default: .max], -$1.findings, $1.rule)
        }
    }

    /// The highest severity among the findings, if any.
    public var worstSeverity: Severity? { findings.map(\.severity).max() }
}
