import Foundation
import Testing

/// `--app` and `--app-version` on `check`, `timeline`, `report` and `query`, end to end on a
/// store of two apps with two versions each: `queries/tests/apps.jsonl`, where
///
/// - com.example.news: device N1 runs 5.11.2 (launch N1-L1: did-enter-background-overrun, then a
///   memory kill: termination-unexplained), then 5.12.0 (N1-L2: bgtask-refresh-overrun); N2 runs
///   5.12.0 cleanly;
/// - com.example.weather: W1 runs 2.0.0 (did-enter-background-overrun, then a watchdog kill:
///   termination-unexplained), W4 2.0.0 (a watchdog kill), W2 2.1.0 (bgtask-refresh-overrun), and
///   W3 2.0.0 cleanly, then 2.1.0 (a memory kill).
///
/// So 8 findings: news 5.11.2 has 2, 5.12.0 1; weather 2.0.0 has 3, 2.1.0 2.
@Suite(.serialized) struct AppFilterTests {
    static let trace = CLI.root.appendingPathComponent("queries/tests/apps.jsonl").path
    static let news = "com.example.news", weather = "com.example.weather"

    /// A fresh store of the trace, checked once.
    static func store() throws -> String {
        let database = try CLI.temporaryDirectory().appendingPathComponent("apps.db").path
        let result = try CLI.run(["check", "--quiet", "--db", database, trace])
        #expect(result.status == 0, "\(result.stderr)")
        return database
    }

    /// The findings `check` reports, as "rule device launch".
    static func reported(_ database: String, _ filters: [String]) throws -> [String] {
        let result = try CLI.run(["check", "--db", database, "--format", "jsonl"] + filters)
        #expect(result.status == 0, "\(filters): \(result.stderr)")
        return try findings(result.stdout)
    }

    static func findings(_ jsonl: String) throws -> [String] {
        try jsonl.split(separator: "\n").map { line in
            let object = try CLI.json(String(line))
            return "\(object["rule"] ?? "") \(object["device"] ?? "") \(object["launch"] ?? "")"
        }.sorted()
    }

    // MARK: check

    @Test func checkReportsTheFindingsOfTheSelectedLaunchesOnly() throws {
        let database = try Self.store()
        #expect(try Self.reported(database, ["--app-version", "5.11.2"]) == [
            "did-enter-background-overrun N1 N1-L1", "termination-unexplained N1 N1-L1"])
        #expect(try Self.reported(database, ["--app", Self.news, "--app-version", "5.12.0"]) == ["bgtask-refresh-overrun N1 N1-L2"])
        #expect(try Self.reported(database, ["--app", Self.weather, "--app-version", "2.1.0"]) == [
            "bgtask-refresh-overrun W2 W2-L1", "termination-unexplained W3 W3-L2"])
        let weather = try Self.reported(database, ["--app", Self.weather])
        #expect(weather.count == 5 && weather.allSatisfy { $0.contains(" W") })
        // Every finding belongs to one version's launches, and versions are per app.
        let all = try Self.reported(database, [])
        let byVersion = try ["5.11.2", "5.12.0", "2.0.0", "2.1.0"].flatMap { try Self.reported(database, ["--app-version", $0]) }
        #expect(all.count == 8 && byVersion.sorted() == all)
        // Another app's version is no version of this one.
        Mistake.expectOneLine(
            try CLI.run(["check", "--db", database, "--app", Self.news, "--app-version", "2.1.0"]), status: 3,
            containing: "nothing to check: no launches of app \(Self.news) version 2.1.0 in \(database);")
    }

    @Test func theDevicesThatRanTheAppAreReplayedWholeAndRecordedWhole() throws {
        let database = try Self.store()
        let before = try CLI.sqlite(database, "SELECT rule, device, launch FROM findings ORDER BY 1, 2, 3")
        let launches = try CLI.sqlite(database, "SELECT device, launch, app_version FROM launches ORDER BY 1, 2")
        let result = try CLI.run(["check", "--db", database, "--app-version", "5.12.0", "--format", "json"])
        #expect(result.status == 0)
        let report = try CLI.json(result.stdout)
        // N1 whole (12 events of 5.11.2, 13 of 5.12.0) and N2 (12).
        #expect(report["devices"] as? Int == 2 && report["events"] as? Int == 37, "\(report)")
        #expect(report["filters"] as? [String] == ["app version 5.12.0"])
        #expect(try CLI.sqlite(database, "SELECT scope, devices, findings FROM runs ORDER BY id DESC LIMIT 1") == #"["N1","N2"]|2|3"#)
        // N1's 5.11.2 findings are recorded again with its 5.12.0 one: the store stays whole per device.
        #expect(try CLI.sqlite(database, "SELECT rule, device, launch FROM findings ORDER BY 1, 2, 3") == before)
        #expect(try CLI.sqlite(database, "SELECT device, launch, app_version FROM launches ORDER BY 1, 2") == launches)
    }

    @Test func anAppThatEveryDeviceRanIsARunOfEveryDevice() throws {
        let database = try Mistake.checkedDatabase()
        let app = try CLI.sqlite(database, "SELECT DISTINCT app FROM events")
        #expect(!app.contains("\n"), "traces/ logs one app")
        let all = try Self.reported(database, [])
        #expect(try Self.reported(database, ["--app", app]) == all)
        #expect(try CLI.sqlite(database, "SELECT scope IS NULL FROM runs ORDER BY id DESC LIMIT 1") == "1")
    }

    @Test func failOnJudgesTheReportedFindingsOnly() throws {
        let database = try Self.store()
        // 5.12.0 has an error (bgtask-refresh-overrun); weather 2.0.0's error is not reported with --rule.
        #expect(try CLI.run(["check", "--db", database, "--quiet", "--app-version", "5.12.0", "--fail-on", "error"]).status == 1)
        #expect(try CLI.run(["check", "--db", database, "--quiet", "--app", Self.weather, "--app-version", "2.0.0",
                             "--rule", "bgtask-refresh-overrun", "--fail-on", "error"]).status == 0)
        // N2 runs 5.12.0 cleanly: nothing reported, though N1 has errors.
        #expect(try CLI.run(["check", "--db", database, "--quiet", "--device", "N2", "--app-version", "5.12.0", "--fail-on", "info"]).status == 0)
    }

    @Test func standardInputIsFilteredAsTheStoreIs() throws {
        let database = try Self.store()
        let lines = try String(contentsOfFile: Self.trace, encoding: .utf8)
        for filters in [["--app", Self.weather], ["--app-version", "5.12.0"], ["--app", Self.news, "--app-version", "5.11.2"]] {
            let stream = try CLI.run(["check", "--stdin"] + filters, stdin: lines)
            #expect(stream.status == 0, "\(stream.stderr)")
            #expect(try Self.findings(stream.stdout) == Self.reported(database, filters), "\(filters)")
        }
        Mistake.expectOneLine(
            try CLI.run(["check", "--stdin", "--quiet", "--app", "com.example.none"], stdin: lines), status: 3,
            containing: "nothing to check: standard input held no launch of app com.example.none (98 events of 6 devices replayed")
    }

    @Test func keyedInputLeavesOutTheDevicesWithoutTheApp() throws {
        let directory = try CLI.temporaryDirectory()
        let keyed = try CLI.run(["key-by-device", Self.trace])
        #expect(keyed.status == 0, "\(keyed.stderr)")
        // Each device's records together, as the shuffle brings them.
        let records = keyed.stdout.split(separator: "\n").enumerated()
            .sorted { ($0.element.split(separator: "\t").dropFirst().first ?? "", $0.offset) < ($1.element.split(separator: "\t").dropFirst().first ?? "", $1.offset) }
            .map { $0.element + "\n" }.joined()
        let result = try CLI.run(["check", "--stdin", "--keyed", "--app-version", "2.1.0", "--summary-json", directory.appendingPathComponent("s.json").path], stdin: records)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.findings(result.stdout) == ["bgtask-refresh-overrun W2 W2-L1", "termination-unexplained W3 W3-L2"])
        let summary = try CLI.json(try String(contentsOf: directory.appendingPathComponent("s.json"), encoding: .utf8))
        #expect(summary["devices"] as? Int == 2, "W2 and W3 only: \(summary)")
    }

    @Test(arguments: [
        (["--app", "com.example.none"], "nothing to check: no launches of app com.example.none in "),
        (["--app-version", "9.9.9"], "nothing to check: no launches of app version 9.9.9 in "),
        (["--device", "N2", "--app", "com.example.weather"], "nothing to check: no launches of app com.example.weather on device N2 in "),
        (["--device", "X", "--app", "com.example.weather"], "nothing to check: no events for device X in "),
        (["--app", ""], "--app needs a bundle id"),
        (["--app-version", ""], "--app-version needs a version"),
        // A hostile value is shown escaped and cut short, never as it is.
        (["--app", "com.x\u{1B}[31mred"], #"nothing to check: no launches of app "com.x\u{1B}[31mred" in "#),
        (["--app", String(repeating: "a", count: 100_000)],
         "nothing to check: no launches of app \"\(String(repeating: "a", count: 80))\"… (100000 bytes) in "),
    ])
    func checkWithNothingSelectedIsOneLineAndChangesNothing(_ filters: [String], message: String) throws {
        let database = try Self.store()
        // check opens the store to record a run, so its pages may move; what it holds may not.
        let before = try Mistake.rows(database)
        let result = try CLI.run(["check", "--db", database, "--fail-on", "info"] + filters)
        Mistake.expectOneLine(result, status: message.hasPrefix("nothing") ? 3 : 64, containing: message)
        if message.hasPrefix("nothing to check: no launches") { #expect(result.stderr.contains("`lifeline query apps --db ")) }
        #expect(try Mistake.rows(database) == before)
    }

    // MARK: timeline

    static func timelineLaunches(_ database: String, _ device: String, _ filters: [String]) throws -> Set<String> {
        let result = try CLI.run(["timeline", device, "--db", database, "--format", "jsonl"] + filters)
        #expect(result.status == 0, "\(result.stderr)")
        return Set(try result.stdout.split(separator: "\n").map { try CLI.json(String($0))["launch"] as? String ?? "" })
    }

    @Test func timelineShowsTheSelectedLaunchesWithTheirFindings() throws {
        let database = try Self.store()
        #expect(try Self.timelineLaunches(database, "N1", []) == ["N1-L1", "N1-L2"])
        #expect(try Self.timelineLaunches(database, "N1", ["--app-version", "5.11.2"]) == ["N1-L1"])
        #expect(try Self.timelineLaunches(database, "W3", ["--app", Self.weather, "--app-version", "2.1.0"]) == ["W3-L2"])
        let text = try CLI.run(["timeline", "N1", "--db", database, "--app-version", "5.12.0"])
        #expect(text.stdout.contains("launch N1-L2 (com.example.news, 5.12.0"))
        #expect(!text.stdout.contains("N1-L1"))
        #expect(text.stdout.contains("▲ bgtask-refresh-overrun") && !text.stdout.contains("termination-unexplained"))
    }

    @Test func exportKeepsTheSelectedLaunches() throws {
        let database = try Self.store()
        let result = try CLI.run(["export", "N1", "--db", database, "--format", "jsonl", "--app-version", "5.12.0"])
        #expect(result.status == 0, "\(result.stderr)")
        let launches = Set(try result.stdout.split(separator: "\n").map { try CLI.json(String($0))["launch"] as? String ?? "" })
        #expect(launches == ["N1-L2"])
        let trace = try CLI.run(["export", "N1", "--db", database, "--app-version", "5.12.0"])
        #expect(trace.stdout.contains("N1-L2") && !trace.stdout.contains("N1-L1"))
        let before = try Mistake.content(database)
        Mistake.expectOneLine(
            try CLI.run(["export", "N1", "--db", database, "--app", Self.weather]), status: 3,
            containing: "nothing to export: no launches of app \(Self.weather) on device N1 in \(database); `lifeline query apps --db ")
        #expect(try Mistake.content(database) == before)
    }

    @Test func timelineWithNothingSelectedIsOneLineAndChangesNothing() throws {
        let database = try Self.store()
        let before = try Mistake.content(database)
        Mistake.expectOneLine(
            try CLI.run(["timeline", "N1", "--db", database, "--app", Self.weather]), status: 3,
            containing: "nothing to check: no launches of app \(Self.weather) on device N1 in \(database); `lifeline query apps --db ")
        Mistake.expectOneLine(
            try CLI.run(["timeline", "N1", "--db", database, "--app-version", "5.12.0", "--until", "2025-11-21T09:00:00Z"]), status: 3,
            containing: "nothing to check: no events of the launches of app version 5.12.0 on device N1 in \(database) in that window")
        Mistake.expectOneLine(
            try CLI.run(["timeline", "X", "--db", database, "--app", Self.weather]), status: 3,
            containing: "nothing to check: no events for device X in \(database)")
        #expect(try Mistake.content(database) == before)
    }

    // MARK: report

    @Test func reportCountsTheSelectedLaunchesFindings() throws {
        let database = try Self.store()
        func findings(_ filters: [String]) throws -> Int {
            let result = try CLI.run(["report", "--db", database, "--format", "json"] + filters)
            #expect(result.status == 0, "\(result.stderr)")
            return try CLI.json(result.stdout)["findings"] as? Int ?? -1
        }
        #expect(try findings([]) == 8)
        #expect(try findings(["--app", Self.weather]) == 5)
        #expect(try findings(["--app", Self.news]) == 3)
        #expect(try findings(["--app-version", "2.1.0"]) == 2)
        #expect(try findings(["--app", Self.news, "--app-version", "5.11.2"]) == 2)
        let before = try Mistake.content(database)
        Mistake.expectOneLine(
            try CLI.run(["report", "--db", database, "--app", "com.example.none"]), status: 3,
            containing: "nothing to report: no launches of app com.example.none in \(database); `lifeline query apps --db ")
        Mistake.expectOneLine(
            try CLI.run(["report", "--db", database, "--app", Self.news, "--app-version", "2.0.0"]), status: 3,
            containing: "nothing to report: no launches of app \(Self.news) version 2.0.0 in \(database)")
        #expect(try Mistake.content(database) == before)
    }

    // MARK: query

    static func query(_ database: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["query", "--db", database, "--format", "csv"] + arguments, in: CLI.root)
    }

    @Test func queryBindsTheFiltersToTheCannedQueriesThatTakeThem() throws {
        let database = try Self.store()
        let expected = try String(contentsOf: CLI.root.appendingPathComponent("queries/tests/terminations.app.csv"), encoding: .utf8)
        let terminations = try Self.query(database, ["terminations", "--app", Self.weather])
        #expect(terminations.status == 0 && terminations.stderr.isEmpty, "\(terminations.stderr)")
        #expect(terminations.stdout == expected)
        // --app-version alone: that version of whichever app logs it.
        let missed = try Self.query(database, ["findings-by-version", "--app-version", "5.12.0"])
        #expect(missed.stdout == "app_version,os,rule,category,findings,devices,worst\n5.12.0,18.0,bgtask-refresh-overrun,overrun,1,1,41.0\n")
        // Every filter of findings-per-day adds up to the whole.
        func total(_ filters: [String]) throws -> Int {
            try Self.query(database, ["findings-per-day"] + filters).stdout.split(separator: "\n").dropFirst()
                .reduce(0) { $0 + (Int($1.split(separator: ",")[3]) ?? 0) }
        }
        #expect(try total([]) == 8)
        #expect(try total(["--app", Self.news]) + total(["--app", Self.weather]) == 8)
        #expect(try total(["--app", Self.weather, "--app-version", "2.0.0"]) == 3)
        // Inline SQL takes them as any parameter.
        let inline = try Self.query(database, ["SELECT count(*) AS n FROM launches WHERE app = :app AND app_version = :app_version",
                                               "--app", Self.weather, "--app-version", "2.0.0"])
        #expect(inline.stdout == "n\n3\n")
        let device = try Self.query(database, ["device-timeline", "--param", "device=N1", "--app-version", "5.12.0"])
        #expect(device.stdout.split(separator: "\n").count == 14, "N1-L2's 13 events: \(device.stdout)")
    }

    @Test func theListShowsWhichQueriesTakeTheFilters() throws {
        let list = try CLI.run(["query", "--list"], in: CLI.root).stdout
        let entries = list.components(separatedBy: "\n\n")
        let terminations = try #require(entries.first { $0.hasPrefix("terminations\n") })
        #expect(terminations.contains("optional: --app ID, --app-version V"))
        let health = try #require(entries.first { $0.hasPrefix("ingest-health\n") })
        #expect(!health.contains("optional"))
        let timeline = try #require(entries.first { $0.hasPrefix("device-timeline\n") })
        #expect(timeline.contains("parameters: --param device=…") && timeline.contains("optional: --app ID, --app-version V"))
    }

    @Test(arguments: [
        (["ingest-health", "--app", "com.example.news"], 2,
         "error: the canned query ingest-health takes no :app parameter, so --app cannot narrow its answer; `lifeline query --list`"),
        (["apps", "--app", "x", "--app-version", "1"], 2,
         "error: the canned query apps takes no :app or :app_version parameter, so --app and --app-version cannot narrow its answer"),
        (["SELECT count(*) FROM events", "--app-version", "5.12.0"], 2,
         "error: the SQL given takes no :app_version parameter, so --app-version cannot narrow its answer"),
        (["terminations", "--app", "x", "--param", "app=y"], 64, "error: --app binds :app: give it or --param app=…, not both"),
        (["terminations", "--app", ""], 64, "error: --app needs a bundle id"),
    ])
    func aFilterAQueryCannotTakeIsRefused(_ arguments: [String], status: Int32, message: String) throws {
        let database = try Self.store()
        let before = try Mistake.content(database)
        Mistake.expectOneLine(try Self.query(database, arguments), status: status, containing: message)
        #expect(try Mistake.content(database) == before)
    }

    @Test func anAppOrVersionWithNoEventsIsAnEmptyAnswerWithANote() throws {
        let database = try Self.store()
        let before = try Mistake.content(database)
        for filters in [["--app", "com.example.none"], ["--app", Self.news, "--app-version", "2.0.0"], ["--app-version", "9"]] {
            let result = try Self.query(database, ["terminations"] + filters)
            #expect(result.status == 0)
            #expect(result.stdout == "reason,app_version,os,terminations,devices\n")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("note: no events of app")
                    && lines[0].hasSuffix("so the answer is empty; `lifeline query apps --db \(database)` lists the apps and versions it holds"),
                    "\(result.stderr)")
        }
        #expect(try Mistake.content(database) == before)
    }

    /// A launch that names its app on its `config` line only is the app's launch for every command:
    /// `check` on a store and on a stream, and `timeline`.
    @Test func aLaunchThatNamesItsAppOnItsConfigLineIsTheAppsEverywhere() throws {
        let trace = """
            {"ts":"2026-11-21T08:00:00Z","device":"C1","launch":"L1","seq":0,"event":"launch","reason":"system","cause":"fetch"}
            {"ts":"2026-11-21T08:00:00.1Z","device":"C1","launch":"L1","seq":1,"event":"config","app":"com.example.news","app_version":"5.12.0"}
            {"ts":"2026-11-21T08:00:00.2Z","device":"C1","launch":"L1","seq":2,"event":"didEnterBackground","phase":"begin"}
            {"ts":"2026-11-21T08:00:09Z","device":"C1","launch":"L1","seq":3,"event":"didEnterBackground","phase":"end"}

            """
        let filters = ["--app", Self.news, "--app-version", "5.12.0", "--rule", "did-enter-background-overrun"]
        let streamed = try CLI.run(["check", "--stdin", "--format", "jsonl"] + filters, stdin: trace)
        #expect(streamed.stdout.contains(#""rule":"did-enter-background-overrun""#), "\(streamed.stderr)")
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("config.jsonl")
        try trace.write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("config.db").path
        let stored = try CLI.run(["check", "--db", database, "--format", "jsonl", file.path] + filters)
        #expect(stored.stdout.contains(#""rule":"did-enter-background-overrun""#), "\(stored.stderr)")
        let timeline = try CLI.run(["timeline", "C1", "--db", database, "--app", Self.news])
        #expect(timeline.status == 0 && timeline.stdout.contains("launch L1 (com.example.news, 5.12.0)"), "\(timeline.stderr)")
        // The stream's launch records name the app and version the config line gave, as the store's do.
        let records = directory.appendingPathComponent("launches.jsonl")
        _ = try CLI.run(["check", "--stdin", "--quiet", "--launches", records.path], stdin: trace)
        let record = try String(contentsOf: records, encoding: .utf8)
        #expect(record.contains(#""app":"com.example.news","app_version":"5.12.0""#), "\(record)")
        #expect(try CLI.sqlite(database, "SELECT app || ' ' || app_version FROM launches") == "com.example.news 5.12.0")
    }

    /// A stream holds a finding of a launch whose app it has not learnt yet, and reports it once a
    /// later line names the app (here the breach is on line 2, the app on line 3).
    @Test func aStreamHoldsAFindingUntilItsLaunchNamesItsApp() throws {
        let trace = """
            {"ts":"2026-11-21T08:00:00Z","device":"H1","launch":"L1","seq":0,"event":"launch","reason":"user"}
            {"ts":"2026-11-21T08:00:01Z","device":"H1","launch":"L1","seq":1,"event":"suspend"}
            {"ts":"2026-11-21T08:00:02Z","device":"H1","launch":"L1","seq":2,"event":"willResignActive","app":"com.example.news"}

            """
        let news = try CLI.run(["check", "--stdin", "--format", "jsonl", "--app", Self.news, "--rule", "illegal-transition"], stdin: trace)
        #expect(news.stdout.contains(#""rule":"illegal-transition""#) && news.stdout.contains("2026-11-21T08:00:01"), "\(news.stderr)")
        let other = try CLI.run(["check", "--stdin", "--format", "jsonl", "--app", Self.weather], stdin: trace)
        #expect(other.status == 3 && other.stdout.isEmpty)
    }
}
