import TraceModel

/// Per rule, what a report's summary table and examples need, added up one finding at a time
/// so that the findings themselves need not be held.
public struct FindingTally: Sendable {
    /// The devices and launches are counted by a 64-bit hash of their ids (a launch's with its
    /// device's: a launch id is unique per device only), not kept: 8 bytes each, where the ids
    /// took a hundred and a string made for every finding, so that a replay of millions of
    /// findings does not hold every launch's ids. Two that collide (about one chance in 30 million
    /// with a million launches) would be counted once.
    private struct Entry: Sendable {
        var summary: CheckReport.RuleSummary
        var devices: Set<Int> = []
        var launches: Set<Int> = []
        var examples: [Finding] = []
    }

    private var entries: [String: Entry] = [:]
    public private(set) var worstSeverity: Severity?

    public init() {}

    public mutating func add(_ finding: Finding) {
        worstSeverity = max(worstSeverity ?? finding.severity, finding.severity)
        Self.count(finding, in: &entries[finding.rule, default: Entry(summary: CheckReport.RuleSummary(
            rule: finding.rule, category: finding.category, severity: finding.severity, findings: 0, devices: 0,
            launches: 0, worst: nil, unit: finding.unit, budget: finding.budget, budgetSeconds: finding.budgetSeconds))])
    }

    /// Adds `finding` to its rule's entry, in place.
    private static func count(_ finding: Finding, in entry: inout Entry) {
        entry.summary.findings += 1
        entry.summary.severity = max(entry.summary.severity, finding.severity)
        var device = Hasher()
        device.combine(finding.device)
        var launch = device
        launch.combine(finding.launch)
        entry.devices.insert(device.finalize())
        entry.launches.insert(launch.finalize())
        if let measured = finding.measured, measured > (entry.summary.worst ?? -.infinity) {
            entry.summary.worst = measured
        }
        if entry.examples.count < TextReport.examplesPerRule { entry.examples.append(finding) }
    }

    /// One row per rule that reported, grouped by category (in the catalogue's category
    /// order), most findings first within a category.
    public var summaries: [CheckReport.RuleSummary] {
        let order = Dictionary(uniqueKeysWithValues: RuleCategory.allCases.enumerated().map { ($1, $0) })
        return entries.values.map { entry in
            var summary = entry.summary
            summary.devices = entry.devices.count
            summary.launches = entry.launches.count
            return summary
        }.sorted {
            (order[$0.category, default: .max], -$0.findings, $0.rule) < (order[$1.category, default: .max], -$1.findings, $1.rule)
        }
    }

    /// The first findings of `rule`, as many as a report prints in full.
    public func examples(of rule: String) -> [Finding] { entries[rule]?.examples ?? [] }
}
