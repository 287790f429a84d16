@testable import Replay
import Testing
import TraceModel

/// The generic obligation, on a made-up pair of events so that the mechanism is tested apart
/// from the catalogue's rules.
@Suite struct ObligationTests {
    static let missing = testRule("work-missing", explains: true)
    static let overrun = testRule("work-overrun", .overrun)
    static let expired = testRule("work-expired")
    static let repeated = testRule("work-repeated", .violation)
    static let unknown = testRule("work-unknown", .violation)

    static let book = RuleBook([
        Obligation(
            opens: .beginBackgroundTask, closes: .endBackgroundTask, expires: .backgroundTaskExpired, key: .task,
            deadline: .budget(.refreshTask),
            missing: .init(missing) { "missing \($0.opening?.task ?? -1)" },
            overrun: [.refreshTask: .init(overrun) { "overrun \($0.seconds ?? -1)" }],
            expired: .init(expired) { "expired \($0.seconds ?? -1)" },
            repeated: .init(repeated) { _ in "again" },
            unknown: .init(unknown) { _ in "unknown" }
        ).blueprint,
    ])

    private func findings(_ events: [Event], budgets: Budgets = Budgets()) -> [Finding] {
        Replayer.findings(in: events, book: Self.book, configuration: ReplayConfiguration(budgets: budgets))
    }

    /// Task ids a log may carry, extremes first, then thousands more: what is open passes from
    /// a short list to an indexed one and back (``KeyedList``) while every open finds its close,
    /// in reverse order, a repeat is a repeat, and what stays open is missing at the suspension,
    /// in the order opened.
    @Test func thousandsOfTasksAtTheExtremesKeepTheirKeys() {
        let tasks: [Int64] = [.min, .max, -1, 0, 1] + (2 ..< 20_000).map { Int64($0) * 7_919 - 50_000_000 }
        var events = tasks.map { event(0, "beginBackgroundTask", task: $0) }
        events += tasks.dropFirst(3).reversed().map { event(1, "endBackgroundTask", task: $0) }
        events += [event(2, "endBackgroundTask", task: 0), event(3, "suspend")]
        let found = findings(events)
        #expect(found.map(\.rule) == ["work-repeated", "work-missing", "work-missing", "work-missing"])
        #expect(found.dropFirst().map(\.message) == ["missing \(Int64.min)", "missing \(Int64.max)", "missing -1"])
    }

    @Test func dischargedWithinTheBudgetIsClean() {
        #expect(findings([event(0, "beginBackgroundTask", task: 1), event(30, "endBackgroundTask", task: 1)]).isEmpty)
    }

    @Test func dischargedLateIsAnOverrunAtTheDischarge() {
        let found = findings([event(0, "beginBackgroundTask", task: 1), event(30.5, "endBackgroundTask", task: 1)])
        #expect(found.map(\.rule) == ["work-overrun"])
        #expect(found[0].ts == Timestamp(seconds: 30.5))
        #expect(found[0].measured == 30.5)
        #expect(found[0].budgetSeconds == 30)
        #expect(found[0].events.map(\.name) == ["beginBackgroundTask", "endBackgroundTask"])
    }

    @Test func budgetsCanBeChanged() {
        var budgets = Budgets()
        budgets[.refreshTask] = 40
        #expect(findings([event(0, "beginBackgroundTask", task: 1), event(35, "endBackgroundTask", task: 1)], budgets: budgets).isEmpty)
    }

    @Test func monoIsPreferredOverWallClock() {
        var begin = event(0, "beginBackgroundTask", task: 1)
        begin.mono = 100
        var end = event(60, "endBackgroundTask", task: 1)  // the wall clock jumped
        end.mono = 110
        #expect(findings([begin, end]).isEmpty)
    }

    @Test func neverDischargedIsMissingAtSuspension() {
        let found = findings([event(0, "beginBackgroundTask", task: 1), event(3, "suspend")])
        #expect(found.map(\.rule) == ["work-missing"])
        #expect(found[0].ts == Timestamp(seconds: 3))
    }

    /// The end of a log is not evidence: work open when the log stops, or when a new launch begins
    /// with no terminate, is handed to the launch as open work, never reported as missing.
    @Test func theEndOfTheLogOrANewLaunchIsNotEvidence() {
        #expect(findings([event(0, "beginBackgroundTask", task: 1), event(2, "memoryWarning")]).isEmpty)
        #expect(findings([event(0, "beginBackgroundTask", task: 1), event(9, "launch", launch: "L2")]).isEmpty)
    }

    @Test func neverDischargedIsMissingAtTheTerminate() {
        let found = findings([event(0, "beginBackgroundTask", task: 1), event(9, "terminate")])
        #expect(found.map(\.rule) == ["work-missing"])
        #expect(found[0].ts == Timestamp(seconds: 9))
    }

    @Test func expiredThenLateIsExpiredNotOverrun() {
        let found = findings([
            event(0, "beginBackgroundTask", task: 1), event(25, "backgroundTaskExpired", task: 1),
            event(31, "endBackgroundTask", task: 1),
        ])
        #expect(found.map(\.rule) == ["work-expired"])
        #expect(found[0].measured == 6)
    }

    @Test func expiredAndEndedWithinTheGraceIsClean() {
        #expect(findings([
            event(0, "beginBackgroundTask", task: 1), event(25, "backgroundTaskExpired", task: 1),
            event(29, "endBackgroundTask", task: 1),
        ]).isEmpty)
    }

    @Test func aSecondDischargeIsRepeatedAndAStrangerIsUnknown() {
        let found = findings([
            event(0, "beginBackgroundTask", task: 1), event(1, "endBackgroundTask", task: 1),
            event(2, "endBackgroundTask", task: 1), event(3, "endBackgroundTask", task: 9),
        ])
        #expect(found.map(\.rule) == ["work-repeated", "work-unknown"])
    }

    @Test func keysKeepInstancesApart() {
        let found = findings([
            event(0, "beginBackgroundTask", task: 1), event(1, "beginBackgroundTask", task: 2),
            event(2, "endBackgroundTask", task: 2), event(3, "suspend"),
        ])
        #expect(found.count == 1)
        #expect(found[0].events.first?.ts == Timestamp(seconds: 0))
    }

    @Test func devicesAreReplayedApart() {
        let found = findings([
            event(0, "beginBackgroundTask", device: "A", task: 1), event(0, "beginBackgroundTask", device: "B", task: 1),
            event(1, "endBackgroundTask", device: "A", task: 1), event(2, "suspend", device: "A"),
            event(2, "suspend", device: "B"),
        ])
        #expect(found.map(\.device) == ["B"])
    }
}

@Suite struct DeviceReplayerMemoryTests {
    /// A long log of one device keeps only a few ended launches, not all of them.
    @Test func endedLaunchesAreForgottenBeyondAFew() {
        let replayer = DeviceReplayer(device: "D", book: ObligationTests.book, configuration: ReplayConfiguration())
        var findings: [Finding] = []
        for launch in 0..<10_000 {
            replayer.receive(event(Double(launch), "beginBackgroundTask", launch: "L\(launch)", task: 1)) { findings.append($0) }
            replayer.receive(event(Double(launch) + 0.5, "endBackgroundTask", launch: "L\(launch)", task: 1)) { findings.append($0) }
        }
        replayer.finish { findings.append($0) }
        #expect(findings.isEmpty)
        #expect(replayer.endedLaunchesHeld == DeviceReplayer.endedLaunchesKept)
    }

    /// A log that keeps thousands of processes running at once (one launch each, then a second
    /// launch of each that supersedes the first): each process's launches are told apart, past
    /// the few a short list holds, and every launch ends once.
    @Test func thousandsOfLiveProcessesEachSupersedeTheirOwn() {
        var records: [LaunchRecord] = []
        let replayer = Replayer(book: ObligationTests.book) { record in
            if case .launch(let launch) = record { records.append(launch) }
        }
        let processes = 3_000
        for round in 0 ..< 2 {
            for process in 0 ..< processes {
                let launch = "L\(round)-\(process)"
                replayer.receive(event(Double(round * processes + process), "beginBackgroundTask", launch: launch, task: 1,
                                       process: "extension:\(process)")) { _ in }
            }
        }
        replayer.finishAll { _ in }
        #expect(records.count == 2 * processes)
        #expect(records.filter { $0.launch.hasPrefix("L0-") }.allSatisfy { $0.ended == .superseded })
        #expect(records.filter { $0.launch.hasPrefix("L1-") }.allSatisfy { $0.ended == .logEnded })
    }
}
