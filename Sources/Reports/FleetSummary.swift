/// What a scheduled job reports about a store: the latest `check` run against the one before,
/// findings per rule (with the rule's sentence and a few examples), per rule per day, how the
/// processes ended and how many background kills a finding explains, and where the findings
/// concentrate. Built by `LifelineKit`'s report builder; every renderer reads only this value.
public struct FleetSummary: Sendable, Hashable, Codable {
    /// The filters the summary was made with (nil: not filtered).
    public struct Window: Sendable, Hashable, Codable {
        public var since: String?
        public var until: String?
        public var app: String?
        public var appVersion: String?

        public init(since: String? = nil, until: String? = nil, app: String? = nil, appVersion: String? = nil) {
            self.since = since
            self.until = until
            self.app = app
            self.appVersion = appVersion
        }
    }

    /// One `check` run, from the `runs` table.
    public struct Run: Sendable, Hashable, Codable {
        public var id: Int64
        public var finishedAt: String
        public var version: String
        /// The devices, events and findings of this run: of the devices it replayed, which are
        /// all of the store's only when ``wholeStore``.
        public var devices: Int
        public var events: Int
        public var findings: Int
        /// Whether the run replayed every device (a `check` without `--device`, or whose
        /// `--app` or `--app-version` every device ran), replacing every finding.
        public var wholeStore: Bool

        public init(id: Int64, finishedAt: String, version: String, devices: Int, events: Int, findings: Int, wholeStore: Bool) {
            self.id = id
            self.finishedAt = finishedAt
            self.version = version
            self.devices = devices
            self.events = events
            self.findings = findings
            self.wholeStore = wholeStore
        }
    }

    /// One rule that has findings in the window.
    public struct RuleSection: Sendable, Hashable, Codable {
        public var rule: String
        public var category: String
        public var severity: String
        /// What the rule checks, in one sentence.
        public var summary: String
        /// The documentation the rule rests on.
        public var source: String
        public var findings: Int
        public var devices: Int
        /// The first findings, oldest first.
        public var samples: [Sample]

        public init(rule: String, category: String, severity: String, summary: String, source: String, findings: Int,
                    devices: Int, samples: [Sample]) {
            self.rule = rule
            self.category = category
            self.severity = severity
            self.summary = summary
            self.source = source
            self.findings = findings
            self.devices = devices
            self.samples = samples
        }
    }

    /// One finding, as a report shows it.
    public struct Sample: Sendable, Hashable, Codable {
        public var ts: String
        public var device: String
        public var launch: String
        public var message: String

        public init(ts: String, device: String, launch: String, message: String) {
            self.ts = ts
            self.device = device
            self.launch = launch
            self.message = message
        }
    }

    /// A count under a name: a day and rule, a termination reason, a device, a version, an OS.
    public struct Count: Sendable, Hashable, Codable {
        public var name: String
        public var count: Int
        /// For terminations: how many a finding explains; for days: the rule.
        public var detail: String?

        public init(name: String, count: Int, detail: String? = nil) {
            self.name = name
            self.count = count
            self.detail = detail
        }
    }

    /// How a callback's durations spread, against its budget.
    public struct Histogram: Sendable, Hashable, Codable {
        /// What was measured, e.g. `didEnterBackground`.
        public var name: String
        public var budgetSeconds: Double?
        /// One count per bin, `name` holding the bin's upper bound in seconds (the last bin is open).
        public var bins: [Count]

        public init(name: String, budgetSeconds: Double?, bins: [Count]) {
            self.name = name
            self.budgetSeconds = budgetSeconds
            self.bins = bins
        }
    }

    public var database: String
    public var window: Window
    public var latestRun: Run?
    /// The whole-store run before ``latestRun``, when that one is of the whole store too: the
    /// runs whose counts compare (a run of some devices counts only theirs).
    public var previousRun: Run?
    /// Events in the window (all of the store's when not filtered by time).
    public var events: Int
    public var findings: Int
    public var findingsBySeverity: [String: Int]
    public var rules: [RuleSection]
    /// Findings per day (UTC) and rule, `detail` holding the rule.
    public var perDay: [Count]
    /// Terminations by reason, `detail` holding how many a finding explains.
    public var terminations: [Count]
    public var topDevices: [Count]
    public var topVersions: [Count]
    public var topOSReleases: [Count]
    /// Durations of callbacks logged with begin and end, against their budgets.
    public var durations: [Histogram] = []

    public init(
        database: String, window: Window, latestRun: Run?, previousRun: Run?, events: Int, findings: Int,
        findingsBySeverity: [String: Int], rules: [RuleSection], perDay: [Count], terminations: [Count],
        topDevices: [Count], topVersions: [Count], topOSReleases: [Count]
    ) {
        self.database = database
        self.window = window
        self.latestRun = latestRun
        self.previousRun = previousRun
        self.events = events
        self.findings = findings
        self.findingsBySeverity = findingsBySeverity
        self.rules = rules
        self.perDay = perDay
        self.terminations = terminations
        self.topDevices = topDevices
        self.topVersions = topVersions
        self.topOSReleases = topOSReleases
    }
}
