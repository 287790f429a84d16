import TraceModel

/// One documented fact, declared once: its stable id, category and default severity, the
/// sentence of Apple's documentation it rests on, the budget it measures against, and
/// examples that are run as tests. Checks report findings through it.
public struct Rule: Sendable, Hashable, Identifiable {
    /// Stable kebab-case public name, never reused: reports, exit codes and SQL use it.
    public let id: String
    public let category: RuleCategory
    public let severity: Severity
    /// One sentence: what the rule wants.
    public let summary: String
    /// Where it comes from: the seed file, the page, and the sentence, quoted.
    public let source: String
    /// Where the documentation leaves room: what we picked, and why.
    public let notes: String?
    public let budget: BudgetName?
    /// True when a finding of this rule is a reason the system kills an app (held work, an
    /// overrun): a later termination of the same launch is then reported as explained by it.
    public let explainsTermination: Bool
    /// Traces that must not trigger the rule.
    public let passing: [Example]
    /// Traces that must trigger it, with `↓` before each line where a finding lands.
    public let failing: [Example]

    public init(
        id: String, category: RuleCategory, severity: Severity, summary: String, source: String,
        notes: String? = nil, budget: BudgetName? = nil, explainsTermination: Bool = false,
        passing: [Example], failing: [Example]
    ) {
        self.id = id
        self.category = category
        self.severity = severity
        self.summary = summary
        self.source = source
        self.notes = notes
        self.budget = budget
        self.explainsTermination = explainsTermination
        self.passing = passing
        self.failing = failing
    }

    public static func == (lhs: Rule, rhs: Rule) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A tiny trace in JSON lines. Lines may omit `device` and `launch` (they default to `"D"` and
/// `"L1"`), and `ts` may be plain seconds, so examples stay short enough to read.
/// In a failing example, `↓` before a line marks an event at which the rule must report.
public struct Example: Sendable, Hashable {
    public let trace: String

    public init(_ trace: String) {
        self.trace = trace
    }
}
