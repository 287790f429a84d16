/// How much a finding matters, in increasing order; `--fail-on` compares against it.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Worth knowing; nothing is wrong with the app.
    case info
    /// Likely harmful or a sign of missing evidence.
    case warning
    /// The documented contract was broken; the system may kill the app for it.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The closed set of rule categories (see docs/rules.md).
public enum RuleCategory: String, Sendable, Codable, CaseIterable {
    /// The documented order was broken.
    case violation
    /// A completion handler or end call never came.
    case missedCompletion = "missed-completion"
    /// Work outlived its budget.
    case overrun
    /// Legal but documented as harmful.
    case advisory
    /// The log itself is incomplete or inconsistent, so evidence is partial.
    case data
}
