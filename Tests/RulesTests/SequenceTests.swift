import Replay
@testable import Rules
import Testing
import TraceModel

@Suite struct SequenceTests {
    @Test func terminateCutsASequenceShortWithoutAFinding() throws {
        // The user swipes the app away from the app switcher.
        let swiped = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":60,"seq":2,"event":"willResignActive"}
            {"ts":60.01,"seq":3,"event":"willTerminate"}
            {"ts":60.02,"seq":4,"event":"terminate","reason":"user"}
            """)
        #expect(swiped.isEmpty, "\(swiped.map(\.message))")

        // Killed for memory before the event it was launched for was delivered: the kill is
        // reported (as unexplained), the sequence is not.
        let killed = try LifecycleReplay.own("""
            \(ExampleTraces.backgroundLaunch(cause: "bgtask"))
            {"ts":0.5,"seq":3,"event":"terminate","reason":"memory"}
            """)
        #expect(killed.map(\.rule) == ["termination-unexplained"])
    }

    @Test func aSnapshotBeforeDidEnterBackgroundReturnedIsOneActionableFinding() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.leavingForeground)
            {"ts":60.2,"seq":4,"event":"snapshot"}
            {"ts":60.3,"seq":5,"event":"didEnterBackground","phase":"end"}
            {"ts":60.4,"seq":6,"event":"snapshot"}
            {"ts":61,"seq":7,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["foreground-to-background-sequence"])
        let finding = try #require(findings.first)
        #expect(finding.ts == Timestamp(seconds: 60.2))
        #expect(finding.category == .violation)
        #expect(finding.message.contains("snapshot"))
        #expect(finding.message.contains("applicationDidEnterBackground(_:)"))
        #expect(finding.events.map(\.name) == ["willResignActive", "didEnterBackground", "snapshot"])
    }

    @Test func readingsSubmitsAndCompletionsDoNotBreakASequence() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":0.01,"seq":1,"event":"power","low_power_mode":false,"battery":0.5,"charging":true}
            {"ts":0.1,"seq":2,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.12,"seq":3,"event":"bgtask.submit","identifier":"r","type":"refresh"}
            {"ts":0.2,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":0.25,"seq":5,"event":"network","reachable":true,"wifi":true}
            {"ts":0.3,"seq":6,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
            {"ts":0.4,"seq":7,"event":"backgroundTimeRemaining","value":29.5}
            {"ts":2,"seq":8,"event":"push.complete","call":1,"result":"newData"}
            {"ts":2.1,"seq":9,"event":"snapshot"}
            {"ts":2.2,"seq":10,"event":"suspend"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func theCauseEventIsTheOneTheLaunchWasFor() throws {
        // Launched for a push; a location update is no step, and the push never came.
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.backgroundLaunch(cause: "push"))
            {"ts":0.3,"seq":3,"event":"location.update"}
            {"ts":0.4,"seq":4,"event":"snapshot"}
            {"ts":1,"seq":5,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["background-launch-sequence"])
        #expect(findings.first?.ts == Timestamp(seconds: 0.4))
        #expect(findings.first?.message.contains("push.receive") == true)
    }

    @Test func aResumeForAnEventRestartsTheSequenceEachTime() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.backgroundLaunch(cause: "fetch"))
            {"ts":0.3,"seq":3,"event":"fetch.perform","call":1}
            {"ts":1,"seq":4,"event":"fetch.complete","call":1,"result":"noData"}
            {"ts":1.1,"seq":5,"event":"snapshot"}
            {"ts":1.5,"seq":6,"event":"suspend"}
            {"ts":900,"seq":7,"event":"resume","reason":"system","cause":"fetch"}
            {"ts":900.1,"seq":8,"event":"didEnterBackground","phase":"begin"}
            {"ts":900.2,"seq":9,"event":"didEnterBackground","phase":"end"}
            {"ts":900.3,"seq":10,"event":"fetch.perform","call":2}
            {"ts":901,"seq":11,"event":"fetch.complete","call":2,"result":"noData"}
            {"ts":901.5,"seq":12,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["background-resume-sequence"])
        #expect(findings.first?.ts == Timestamp(seconds: 901.5))
    }

    @Test func anOutOfOrderLaunchIsOneFinding() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.2,"seq":2,"event":"willFinishLaunching","phase":"begin"}
            {"ts":0.3,"seq":3,"event":"willFinishLaunching","phase":"end"}
            {"ts":0.4,"seq":4,"event":"didBecomeActive"}
            {"ts":0.5,"seq":5,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.6,"seq":6,"event":"restoreState"}
            """)
        #expect(findings.map(\.rule) == ["launch-sequence"])
        #expect(findings.first?.ts == Timestamp(seconds: 0.2))
    }

    @Test func anIllegalEventIsNotAlsoASequenceBreach() throws {
        // suspend while active: illegal-transition only, not foreground-to-background-sequence too.
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":60,"seq":2,"event":"willResignActive"}
            {"ts":61,"seq":3,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
    }

    @Test func didEnterBackgroundThatNeverReturnsOverrunsAtSuspension() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":60,"seq":2,"event":"willResignActive"}
            {"ts":60.1,"seq":3,"event":"didEnterBackground","phase":"begin","mono":100.0}
            {"ts":60.2,"seq":4,"event":"snapshot"}
            {"ts":80,"seq":5,"event":"suspend","mono":107.5}
            """)
        #expect(Set(findings.map(\.rule)) == ["foreground-to-background-sequence", "did-enter-background-overrun"])
        let overrun = try #require(findings.first { $0.rule == "did-enter-background-overrun" })
        #expect(overrun.ts == Timestamp(seconds: 80))
        #expect(overrun.measured == 7.5)  // from mono, not ts
        #expect(overrun.budget == "did-enter-background")
        #expect(overrun.budgetSeconds == 5)
    }

    @Test func didEnterBackgroundWithinItsBudgetAtSuspensionIsNoOverrun() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"audio"}
            {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
            {"ts":2,"seq":2,"event":"suspend"}
            """)
        #expect(!findings.map(\.rule).contains("did-enter-background-overrun"))
    }
}
