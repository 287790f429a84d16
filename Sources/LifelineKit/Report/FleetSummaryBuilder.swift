import Reports
import Rules
import TraceModel
import TraceStore

/// Reads a ``FleetSummary`` out of a store: the `runs` and `findings` of the latest `check`, and
/// the terminations in `events`, in the window asked for. A finding's app version and OS are its
/// launch's (from the launch's first event), so `--app-version` picks whole launches.
public struct FleetSummaryBuilder {
    public var samplesPerRule = 3
    public var top = 10

    public init() {}

    public func summary(of store: Store, window: FleetSummary.Window, since: Timestamp?, until: Timestamp?) throws -> FleetSummary {
        let parameters = [
            "since": String(since?.microseconds ?? .min), "until": String(until?.microseconds ?? .max),
            "app": window.app ?? "", "version": window.appVersion ?? "",
        ]
        func rows(_ sql: String, _ extra: [String: String] = [:]) throws -> [[QueryValue]] {
            try store.query(sql, parameters: parameters.merging(extra) { $1 }).rows
        }
        func run(_ sql: String) throws -> FleetSummary.Run? {
            try rows("SELECT id, finished_at, version, devices, events, findings, scope IS NULL FROM runs " + sql).first.map {
                FleetSummary.Run(
                    id: $0[0].integer, finishedAt: $0[1].text, version: $0[2].text, devices: Int($0[3].integer),
                    events: Int($0[4].integer), findings: Int($0[5].integer), wholeStore: $0[6].integer == 1)
            }
        }
        let latestRun = try run("ORDER BY id DESC LIMIT 1")
        // Only whole-store runs compare: a run of some devices counts only their findings.
        let previousRun = try latestRun.flatMap { latest in
            latest.wholeStore ? try run("WHERE scope IS NULL AND id < \(latest.id) ORDER BY id DESC LIMIT 1") : nil
        }
        var events = try rows("SELECT count(*) FROM events e WHERE \(Self.eventWindow)").first?[0].integer ?? 0
        // Findings loaded by `import-findings` (a replay elsewhere, such as the Spark job) come
        // without their events: the run's own count is the number of events behind them.
        if events == 0, let run = latestRun, try rows("SELECT EXISTS (SELECT 1 FROM event_rows)").first?[0].integer == 0 {
            events = Int64(run.events)
        }
        let bySeverity = try rows(Self.scoped + "SELECT severity, count(*) FROM scoped GROUP BY severity")
        let sections = try rows(Self.scoped + """
            SELECT rule, category, severity, count(*), count(DISTINCT device) FROM scoped
            GROUP BY rule ORDER BY count(*) DESC, rule
            """).map { row in
                let rule = row[0].text
                let samples = try rows(Self.scoped + """
                    SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ts / 1e6, 'unixepoch'), device, launch, message FROM scoped
                    WHERE rule = :rule ORDER BY ts, device LIMIT \(samplesPerRule)
                    """, ["rule": rule]).map { FleetSummary.Sample(ts: $0[0].text, device: $0[1].text, launch: $0[2].text, message: $0[3].text) }
                let declared = RuleCatalog.rule(id: rule)
                return FleetSummary.RuleSection(
                    rule: rule, category: row[1].text, severity: row[2].text, summary: declared?.summary ?? "",
                    source: declared?.source ?? "", findings: Int(row[3].integer), devices: Int(row[4].integer), samples: samples)
            }
        let durations = [FleetSummary.Histogram(
            name: "didEnterBackground", budgetSeconds: 5,
            bins: try rows(Self.didEnterBackgroundBins).map { FleetSummary.Count(name: $0[0].text, count: Int($0[1].integer)) })]
        let counts = { (sql: String) in try rows(sql).map { FleetSummary.Count(name: $0[0].text, count: Int($0[1].integer), detail: $0.count > 2 ? $0[2].text : nil) } }
        var summary = FleetSummary(
            database: store.path, window: window, latestRun: latestRun, previousRun: previousRun,
            events: Int(events), findings: bySeverity.reduce(0) { $0 + Int($1[1].integer) },
            findingsBySeverity: Dictionary(uniqueKeysWithValues: bySeverity.map { ($0[0].text, Int($0[1].integer)) }),
            rules: sections,
            perDay: try counts(Self.scoped + """
                SELECT date(ts / 1e6, 'unixepoch') AS day, count(*), rule FROM scoped GROUP BY day, rule ORDER BY day, rule
                """),
            terminations: try counts("""
                SELECT coalesce(e.reason, '(none)'), count(*),
                       sum(EXISTS (SELECT 1 FROM findings x WHERE x.rule = 'termination-explained'
                                   AND x.device = e.device AND x.launch = e.launch AND x.ts = e.ts))
                FROM events e WHERE e.event = 'terminate' AND \(Self.eventWindow)
                GROUP BY e.reason ORDER BY count(*) DESC, e.reason
                """),
            topDevices: try counts(Self.scoped + "SELECT device, count(*) FROM scoped GROUP BY device ORDER BY count(*) DESC, device LIMIT \(top)"),
            topVersions: try counts(Self.scoped + "SELECT coalesce(app_version, '(none)'), count(*) FROM scoped GROUP BY app_version ORDER BY count(*) DESC, app_version LIMIT \(top)"),
            topOSReleases: try counts(Self.scoped + "SELECT coalesce(os, '(none)'), count(*) FROM scoped GROUP BY os ORDER BY count(*) DESC, os LIMIT \(top)"))
        summary.durations = durations
        return summary
    }

    /// Upper bounds of the duration bins, in seconds; the last bin holds everything above.
    private static let histogramBounds = [0.1, 0.25, 0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20]

    /// `didEnterBackground` calls that returned, counted per bin of their duration (mono when both
    /// ends carry it), every bin present (an empty one counts 0), named by its upper bound (`>20`
    /// for the last). Read from the latest check's `intervals`, whose launches carry the app and
    /// version: pairing the calls' begin and end in `events` took 9 s of a 10 s report over 5M
    /// events.
    private static let didEnterBackgroundBins: String = {
        let lowers = [-1e18] + histogramBounds
        let bins = zip(0..., lowers).map { index, lower -> String in
            let bound = index < histogramBounds.count ? "\(histogramBounds[index])" : "NULL"
            return "(\(index), \(bound), \(lower))"
        }.joined(separator: ", ")
        return """
            WITH durations AS (
                SELECT i.seconds FROM intervals i JOIN launches l ON l.id = i.launch_id
                WHERE i.callback = 'didEnterBackground' AND i.outcome = 'returned'
                  AND i.begin_ts >= :since AND i.begin_ts < :until
                  AND (:app = '' OR l.app = :app) AND (:version = '' OR l.app_version = :version)
            ),
            bins(position, bound, lower) AS (VALUES \(bins))
            SELECT coalesce(CAST(b.bound AS TEXT), '>' || \(histogramBounds.last ?? 0)), count(d.seconds)
            FROM bins b LEFT JOIN durations d ON d.seconds > b.lower AND (b.bound IS NULL OR d.seconds <= b.bound)
            GROUP BY b.position ORDER BY b.position
            """
    }()

    /// The latest findings in the window, each with its launch's app, version and OS (NULL for a
    /// finding whose launch the store does not hold: one loaded by `import-findings`).
    private static let scoped = """
        WITH scoped AS (
            SELECT f.*, l.app, l.app_version, l.os
            FROM findings f
            LEFT JOIN devices d ON d.name = f.device
            LEFT JOIN launch_rows l ON l.device_id = d.id AND l.name = f.launch
            WHERE f.ts >= :since AND f.ts < :until AND (:app = '' OR l.app = :app) AND (:version = '' OR l.app_version = :version)
        )

        """

    private static let eventWindow = "e.ts >= :since AND e.ts < :until AND (:app = '' OR e.app = :app) AND (:version = '' OR e.app_version = :version)"
}

extension QueryValue {
    fileprivate var integer: Int64 {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value.rounded()) ?? 0
        default: 0
        }
    }

    fileprivate var text: String {
        switch self {
        case .text(let value): value
        case .null: ""
        default: plainText
        }
    }
}
