import TraceModel

/// What a replay is run with: budgets and per-rule severity overrides.
public struct ReplayConfiguration: Sendable, Hashable {
    public var budgets: Budgets
    /// Severity per rule id, overriding the rule's default.
    public var severities: [String: Severity]

    public init(budgets: Budgets = Budgets(), severities: [String: Severity] = [:]) {
        self.budgets = budgets
        self.severities = severities
    }
}
