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
    /// Report only findings of the launches of this app or app version (`--app`,
    /// `--app-version`); from a store, only the devices that ran one are replayed (each whole).
    public var apps = AppSelection()
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

    /// Whether `time` falls in `since ..< until` (always, without them).
    public func inWindow(_ time: Timestamp) -> Bool {
        (since.map { time >= $0 } ?? true) && (until.map { time < $0 } ?? true)
    }

    /// Whether `--since` or `--until` is given.
    public var hasWindow: Bool { since != nil || until != nil }

    /// The window in words, "since … and until …", for a message.
    public var windowDescription: String {
        [since.map { "since \($0)" }, until.map { "until \($0)" }].compactMap { $0 }.joined(separator: " and ")
    }

    /// Whether every finding is reported (no `--rule`, `--since`, `--until`, `--app` or
    /// `--app-version`).
    public var reportsAll: Bool { rules == nil && since == nil && until == nil && !apps.isSet }

    /// The filters in words, for the report's header.
    public var filterDescriptions: [String] {
        var filters: [String] = []
        if case .only(let names) = devices { filters.append("device \(names.joined(separator: ", "))") }
        if let rules { filters.append("rule \(rules.sorted().joined(separator: ", "))") }
        if let since { filters.append("since \(since)") }
        if let until { filters.append("until \(until)") }
        if apps.isSet { filters.append(apps.description) }
        return filters
    }
}

/// `--app` and `--app-version`: the launches of one app, or of one version. A launch is one
/// process and belongs to the app and version of its first event. Versions are per app: a
/// version without an app selects that version of whichever app logs it.
public struct AppSelection: Sendable, Hashable, CustomStringConvertible {
    /// The bundle id (`app` of the logs), or nil for any app.
    public var app: String?
    /// The version (`app_version` of the logs), or nil for any version.
    public var version: String?

    public init(app: String? = nil, version: String? = nil) {
        self.app = app
        self.version = version
    }

    /// Whether it selects anything less than every launch.
    public var isSet: Bool { app != nil || version != nil }

    /// Whether a launch whose first event names `app` and `version` is selected.
    public func matches(app: String?, version: String?) -> Bool {
        (self.app == nil || app == self.app) && (self.version == nil || version == self.version)
    }

    /// "app com.example.news version 5.12.0", "app com.example.news", "app version 5.12.0".
    public var description: String {
        switch (app, version) {
        case let (app?, version?): "app \(ShownValue.shown(app)) version \(ShownValue.shown(version))"
        case let (app?, nil): "app \(ShownValue.shown(app))"
        case let (nil, version?): "app version \(ShownValue.shown(version))"
        case (nil, nil): "every app"
        }
    }
}
