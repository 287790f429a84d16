import Foundation
import GoldenFiles
import Reports
import Testing
import TraceModel

@Suite struct ReportTests {
    static let golden = Golden(beside: #filePath)
    static func ts(_ seconds: Double) -> Timestamp { Timestamp(seconds: 1_763_712_000 + seconds) }

    static let findings: [Finding] = {
        let launch = EventRef(Event(ts: ts(0), device: "D1", launch: "L1", name: "bgtask.launch", seq: 9, rowID: 42))
        let complete = EventRef(Event(ts: ts(41.2), device: "D1", launch: "L1", name: "bgtask.complete", seq: 10, rowID: 43))
        let kill = EventRef(Event(ts: ts(50), device: "D2", launch: "L9", name: "terminate", seq: 30))
        let submit = EventRef(Event(ts: ts(0), device: "D3", launch: "L10", name: "bgtask.submit", seq: 12, rowID: 70))
        let status = EventRef(Event(ts: ts(-60), device: "D3", launch: "L10", name: "refreshStatus", seq: 5, rowID: 63))
        let power = EventRef(Event(ts: ts(33_480), device: "D3", launch: "L10", name: "power", seq: 40, rowID: 98))
        let swipe = EventRef(Event(ts: ts(33_120), device: "D3", launch: "L10", name: "terminate", seq: 41, rowID: 99))
        let push = EventRef(Event(ts: ts(111_600), device: "D3", launch: "L12", name: "launch", seq: 0, rowID: 140))
        let findings = [
            Finding(rule: "bgtask-refresh-overrun", category: .overrun, severity: .error, device: "D1", launch: "L1",
                    ts: ts(41.2), events: [launch, complete], budget: "refresh-task", budgetSeconds: 30, measured: 41.2,
                    message: "BGAppRefreshTask com.example.refresh ran 41.2 s; the budget is 30.0 s."),
            Finding(rule: "bgtask-refresh-overrun", category: .overrun, severity: .error, device: "D2", launch: "L9",
                    ts: ts(45), events: [kill], budget: "refresh-task", budgetSeconds: 30, measured: 35,
                    message: "BGAppRefreshTask com.example.refresh ran 35.0 s; the budget is 30.0 s."),
            Finding(rule: "termination-explained", category: .advisory, severity: .info, device: "D2", launch: "L9",
                    ts: ts(50), events: [kill], message: "terminate (watchdog) follows from bgtask-refresh-overrun.",
                    explainedBy: FindingRef(rule: "bgtask-refresh-overrun", ts: ts(45))),
            Finding(rule: "illegal-transition", category: .violation, severity: .error, device: "D1", launch: "L1",
                    ts: ts(60), events: [launch], message: "didBecomeActive while in the background."),
            Finding(rule: "bgtask-never-ran", category: .advisory, severity: .info, device: "D3", launch: "L12",
                    ts: ts(111_600), events: [submit, push], budget: "task-wait", budgetSeconds: 86_400, measured: 111_600,
                    message: "The refresh request com.example.sync has waited 31 h since it was submitted at "
                        + "2025-11-21 08:00 UTC with no bgtask.launch, more than task-wait (24 h): Background App Refresh "
                        + "was off for all of the wait, Low Power Mode was on for 70% of it and the user swiped the app "
                        + "away at 2025-11-21 17:12 UTC and did not open it again for 40% of it; these are the user's "
                        + "and the device's settings, not the app's doing: do not count on the task running, and do its "
                        + "work when the app is opened.",
                    factors: [
                        Finding.Factor(kind: .refreshDisabled, share: 1, evidence: [status]),
                        Finding.Factor(kind: .lowPowerMode, share: 0.7, evidence: [power]),
                        Finding.Factor(kind: .swipedAway, share: 0.4, evidence: [swipe]),
                    ]),
        ]
        return findings
    }()

    /// A report of ``findings``; made afresh, as a report's findings are read from their log.
    static var report: CheckReport {
        CheckReport(source: "lifeline.db", devices: 2, events: 1234, seconds: 0.0123, findings: findings)
    }

    @Test func textReport() throws {
        try Self.golden.check(TextReport.render(Self.report) + "\n", "check.txt")
    }

    @Test func jsonReport() throws {
        try Self.golden.check(try JSONReport.render(Self.report) + "\n", "check.json")
    }

    @Test func jsonLinesReport() throws {
        try Self.golden.check(try Self.findings.map(JSONReport.line).joined(separator: "\n") + "\n", "check.jsonl")
    }

    @Test func noFindingsSaysSo() {
        let clean = CheckReport(source: "x.db", devices: 1, events: 10, seconds: 0.001, findings: [])
        #expect(TextReport.render(clean).hasSuffix("No findings: every replayed sequence follows the documented rules."))
    }

    @Test func summariesGroupByCategoryThenCount() {
        let summaries = Self.report.summaries
        #expect(summaries.map(\.rule) == [
            "illegal-transition", "bgtask-refresh-overrun", "bgtask-never-ran", "termination-explained",
        ])
        let overrun = summaries[1]
        #expect(overrun.findings == 2)
        #expect(overrun.devices == 2)
        #expect(overrun.launches == 2)
        #expect(overrun.worst == 41.2)
        #expect(Self.report.worstSeverity == .error)
    }
}
