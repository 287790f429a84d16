import Replay
@testable import Rules
import Testing
import TraceModel

@Suite struct TerminationTests {
    @Test func aWatchdogKillDuringDidEnterBackgroundIsExplainedByTheOverrun() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.leavingForeground)
            {"ts":68.1,"seq":4,"event":"terminate","reason":"watchdog"}
            """)
        #expect(findings.map(\.rule) == ["did-enter-background-overrun", "termination-explained"])
        let overrun = try #require(findings.first)
        let explained = try #require(findings.last)
        #expect(overrun.measured == 8)
        #expect(explained.ts == Timestamp(seconds: 68.1))
        #expect(explained.explainedBy == FindingRef(rule: "did-enter-background-overrun", ts: overrun.ts))
        #expect(explained.category == .advisory)
    }

    /// The other helper's `bgtask-not-completed` explains a watchdog kill of an uncompleted task.
    @Test(.enabled(if: RuleCatalog.rule(id: "bgtask-not-completed") != nil))
    func aWatchdogKillOfAnUncompletedBGTaskIsExplainedByIt() throws {
        let findings = try LifecycleReplay.findings("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"bgtask"}
            {"ts":0.001,"seq":1,"event":"config","permitted_identifiers":["r"],"background_modes":["fetch"]}
            {"ts":0.01,"seq":2,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.02,"seq":3,"event":"bgtask.register","identifier":"r"}
            {"ts":0.03,"seq":4,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.04,"seq":5,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.05,"seq":6,"event":"didEnterBackground","phase":"end"}
            {"ts":0.1,"seq":7,"event":"bgtask.launch","identifier":"r","task":1}
            {"ts":29,"seq":8,"event":"terminate","reason":"watchdog"}
            """)
        let explained = try #require(findings.first { $0.rule == "termination-explained" })
        #expect(explained.ts == Timestamp(seconds: 29))
        let cause = try #require(explained.explainedBy)
        #expect(findings.contains { $0.rule == cause.rule && $0.ts == cause.ts })
        #expect(RuleCatalog.rule(id: cause.rule)?.explainsTermination == true)
        #expect(!findings.contains { $0.rule == "termination-unexplained" })
    }

    @Test func aBackgroundKillWithNothingToExplainItIsUnexplained() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.inBackground)
            {"ts":60.9,"seq":6,"event":"terminate","reason":"memory"}
            """)
        #expect(findings.map(\.rule) == ["termination-unexplained"])
        #expect(findings.first?.category == .data)
        #expect(findings.first?.message.contains("memory") == true)
    }

    @Test func aKillWhileSuspendedIsUnexplainedUnlessWorkWasHeldAtSuspension() throws {
        // The overrun came and went; the app was suspended cleanly afterwards... then killed later.
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.leavingForeground)
            {"ts":66.6,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":66.7,"seq":5,"event":"snapshot"}
            {"ts":67,"seq":6,"event":"suspend"}
            {"ts":900,"seq":7,"event":"terminate","reason":"memory"}
            """)
        #expect(findings.map(\.rule) == ["did-enter-background-overrun", "termination-unexplained"])

        // didEnterBackground had not returned when the app was suspended: that explains the kill.
        let held = try LifecycleReplay.own("""
            \(ExampleTraces.leavingForeground)
            {"ts":66.7,"seq":4,"event":"snapshot"}
            {"ts":67,"seq":5,"event":"suspend"}
            {"ts":68,"seq":6,"event":"terminate","reason":"assertion-timeout"}
            """)
        #expect(held.map(\.rule).contains("termination-explained"))
        #expect(!held.map(\.rule).contains("termination-unexplained"))
    }

    @Test func ordinaryEndsNeedNoExplanation() throws {
        let swiped = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
            {"ts":9,"seq":2,"event":"terminate","reason":"user"}
            """)
        // The overrun is reported; the user's swipe is not matched to it.
        #expect(swiped.map(\.rule) == ["did-enter-background-overrun"])

        let quiet = try LifecycleReplay.own("""
            \(ExampleTraces.backgroundLaunch(cause: "audio"))
            {"ts":0.3,"seq":3,"event":"snapshot"}
            {"ts":1,"seq":4,"event":"suspend"}
            {"ts":5000,"seq":5,"event":"terminate","reason":"quiet"}
            """)
        #expect(quiet.isEmpty, "\(quiet.map(\.message))")

        let crashOnScreen = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":30,"seq":2,"event":"terminate","reason":"crash"}
            """)
        #expect(crashOnScreen.isEmpty, "\(crashOnScreen.map(\.message))")
    }

    @Test func aLaunchSupersededWhileHoldingWorkIsExplained() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
            {"ts":6.2,"seq":2,"event":"didEnterBackground","phase":"end"}
            {"launch":"L2","ts":40,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":40.3,"seq":1,"event":"didBecomeActive"}
            """)
        #expect(findings.map(\.rule) == ["did-enter-background-overrun", "termination-explained"])
        #expect(findings.map(\.ts) == [Timestamp(seconds: 6.2), Timestamp(seconds: 40)])
        #expect(findings.allSatisfy { $0.launch == "L1" })
        #expect(findings.last?.explainedBy?.rule == "did-enter-background-overrun")
    }

    @Test func aSuspendedLaunchSupersededOrALogThatStopsIsNotReported() throws {
        let superseded = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"audio"}
            {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
            {"ts":6,"seq":2,"event":"didEnterBackground","phase":"end"}
            {"ts":6.1,"seq":3,"event":"snapshot"}
            {"ts":7,"seq":4,"event":"suspend"}
            {"launch":"L2","ts":4000,"seq":0,"event":"launch","reason":"user"}
            """)
        #expect(superseded.map(\.rule) == ["did-enter-background-overrun"])

        // The log ends while didEnterBackground runs: the end is not a kill, and not evidence of an
        // overrun either (the log cannot say when the call returned): it is open work.
        let stopped = try LifecycleReplay.findings("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"audio"}
            {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
            {"ts":9,"seq":2,"event":"network","reachable":true,"wifi":true}
            """)
        #expect(stopped.map(\.rule) == ["log-ended-with-open-work"])
    }
}
