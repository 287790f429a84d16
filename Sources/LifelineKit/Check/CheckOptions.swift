import Replay
import TraceModel
import TraceStore

/// What a check replays, with which budgets, and which findings it reports.
public struct CheckOptions: Sendable {
    public var configuration = ReplayConfiguration()
    /// Devices to replay (each device is replayed whole, so its findings are exact).
    public var devices: Store.DeviceSelection = .all
    /// Report only these rules (nil: all).
    public var rules: Set<String>?
    /// Report only findings at or after / before this time.
    public var since: Timestamp?
    public var until: Timestamp?
    /// Whether `check` records the run and its findings in the store (false for a database
    /// that cannot be written: the findings are reported only).
    public var record = true

    public init() {}

    /// Whether a finding passes the report filters (`--rule`, `--since`, `--until`).
    public func reports(_ finding: Finding) -> Bool {
        if let rules, !rules.contains(finding.rule) { return false }
        if let since, finding.ts < since { return false }
        if let until, finding.ts >= until { return false }
        return true
    }

    /// Whether every finding is reported (no `--rule`, `--since` or `--until`).
    public var reportsAll: Bool { rules == nil && since == nil && until == nil }

    /// The filters in words, for the report's header.
    public var filterDescriptions: [String] {
        var filters: [String] = []
        if case .only(let names) = devices { filters.append("device \(names.joined(separator: ", "))") }
        if let rules { filters.append("rule \(rules.sorted().joined(separator: ", "))") }
        if let since { filters.append("since \(since)") }
        if let until { filters.append("until \(until)") }
        return filters
    }
}
