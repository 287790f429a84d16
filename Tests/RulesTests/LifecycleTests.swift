import Foundation
import Replay
@testable import Rules
import Testing
import TraceModel

@Suite struct LifecycleTests {
    @Test func anInterruptionNeverLeavesTheForeground() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":10,"seq":2,"event":"willResignActive"}
            {"ts":14,"seq":3,"event":"didBecomeActive"}
            {"ts":20,"seq":4,"event":"willResignActive"}
            {"ts":20.5,"seq":5,"event":"didBecomeActive"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func aBounceBeforeSuspensionIsLegal() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.leavingForeground)
            {"ts":60.2,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":60.4,"seq":5,"event":"willEnterForeground"}
            {"ts":60.5,"seq":6,"event":"didBecomeActive"}
            {"ts":80,"seq":7,"event":"willResignActive"}
            {"ts":80.1,"seq":8,"event":"didEnterBackground","phase":"begin"}
            {"ts":80.2,"seq":9,"event":"didEnterBackground","phase":"end"}
            {"ts":80.3,"seq":10,"event":"snapshot"}
            {"ts":80.35,"seq":11,"event":"willEnterForeground"}
            {"ts":80.4,"seq":12,"event":"didBecomeActive"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func aUserResumeGoesToTheForegroundWithNoBackgroundSequence() throws {
        let user = try LifecycleReplay.own("""
            \(ExampleTraces.suspended)
            {"ts":300,"seq":7,"event":"resume","reason":"user"}
            {"ts":300.1,"seq":8,"event":"willEnterForeground"}
            {"ts":300.2,"seq":9,"event":"didBecomeActive"}
            """)
        #expect(user.isEmpty, "\(user.map(\.message))")

        // The same events after a resume for a push: the background-resume sequence applies, and
        // willEnterForeground ends it (the user opened the app) — but the snapshot came too early.
        let background = try LifecycleReplay.own("""
            \(ExampleTraces.suspended)
            {"ts":300,"seq":7,"event":"resume","reason":"system","cause":"push"}
            {"ts":300.1,"seq":8,"event":"snapshot"}
            {"ts":300.2,"seq":9,"event":"willEnterForeground"}
            {"ts":300.3,"seq":10,"event":"didBecomeActive"}
            """)
        #expect(background.map(\.rule) == ["background-resume-sequence"])
        #expect(background.first?.ts == Timestamp(seconds: 300.1))
    }

    @Test func anIllegalTransitionYieldsOneFindingAndTheReplayContinues() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":60,"seq":2,"event":"didEnterBackground","phase":"begin"}
            {"ts":60.1,"seq":3,"event":"didEnterBackground","phase":"end"}
            {"ts":60.2,"seq":4,"event":"snapshot"}
            {"ts":61,"seq":5,"event":"suspend"}
            {"ts":300,"seq":6,"event":"resume","reason":"user"}
            {"ts":300.1,"seq":7,"event":"willEnterForeground"}
            {"ts":300.2,"seq":8,"event":"didBecomeActive"}
            {"ts":400,"seq":9,"event":"willResignActive"}
            {"ts":400.1,"seq":10,"event":"didEnterBackground","phase":"begin"}
            {"ts":400.2,"seq":11,"event":"didEnterBackground","phase":"end"}
            {"ts":400.3,"seq":12,"event":"snapshot"}
            {"ts":401,"seq":13,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
        #expect(findings.first?.ts == Timestamp(seconds: 60))
        #expect(findings.first?.message.contains("willResignActive") == true)
    }

    @Test func didBecomeActiveInTheBackgroundIsOneFindingThenTheAppIsActive() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.backgroundLaunch(cause: "fetch"))
            {"ts":0.3,"seq":3,"event":"fetch.perform","call":1}
            {"ts":1,"seq":4,"event":"fetch.complete","call":1,"result":"noData"}
            {"ts":1.1,"seq":5,"event":"didBecomeActive"}
            {"ts":30,"seq":6,"event":"willResignActive"}
            {"ts":30.1,"seq":7,"event":"didBecomeActive"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
        #expect(findings.first?.ts == Timestamp(seconds: 1.1))
    }

    @Test func codeWhileSuspendedAssumesTheMissingResume() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.suspended)
            {"ts":200,"seq":7,"event":"network","reachable":true,"wifi":true}
            {"ts":300,"seq":8,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
            {"ts":301,"seq":9,"event":"push.complete","call":1,"result":"newData"}
            {"ts":301.1,"seq":10,"event":"snapshot"}
            {"ts":302,"seq":11,"event":"suspend"}
            {"ts":500,"seq":12,"event":"resume","reason":"user"}
            {"ts":500.1,"seq":13,"event":"willEnterForeground"}
            {"ts":500.2,"seq":14,"event":"didBecomeActive"}
            """)
        #expect(findings.map(\.rule) == ["event-while-suspended"])
        #expect(findings.first?.ts == Timestamp(seconds: 300))
    }

    @Test func eventsAfterTerminateAreOneFinding() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"ts":10,"seq":2,"event":"terminate","reason":"crash"}
            {"ts":11,"seq":3,"event":"willResignActive"}
            {"ts":12,"seq":4,"event":"didEnterBackground","phase":"begin"}
            {"ts":13,"seq":5,"event":"terminate","reason":"watchdog"}
            """)
        #expect(findings.map(\.rule) == ["event-after-terminate"])
        #expect(findings.first?.ts == Timestamp(seconds: 11))
    }

    @Test func anExtensionProcessGetsNoneOfTheUIKitRules() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"X1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"launch":"X1","ts":0.1,"seq":1,"event":"didBecomeActive","process":"extension:nse"}
            {"launch":"X1","ts":0.2,"seq":2,"event":"snapshot","process":"extension:nse"}
            {"launch":"X1","ts":0.3,"seq":3,"event":"resume","reason":"system","process":"extension:nse"}
            {"launch":"X1","ts":0.4,"seq":4,"event":"didEnterBackground","phase":"begin","process":"extension:nse"}
            {"launch":"X1","ts":20,"seq":5,"event":"terminate","reason":"memory","process":"extension:nse"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")

        // The data rules still apply.
        let after = try LifecycleReplay.own("""
            {"launch":"X1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"launch":"X1","ts":1,"seq":1,"event":"terminate","reason":"quiet","process":"extension:nse"}
            {"launch":"X1","ts":2,"seq":2,"event":"nse.receive","call":1,"process":"extension:nse"}
            """)
        #expect(after.map(\.rule) == ["event-after-terminate"])
    }

    @Test func anExtensionDoesNotDisturbTheAppsLifeCycle() throws {
        let findings = try LifecycleReplay.own("""
            \(ExampleTraces.active)
            {"launch":"X1","ts":5,"seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"launch":"X1","ts":5.1,"seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
            {"ts":6,"seq":2,"event":"willResignActive"}
            {"launch":"X1","ts":6.5,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
            {"ts":7,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"ts":7.1,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":7.2,"seq":5,"event":"snapshot"}
            {"ts":8,"seq":6,"event":"suspend"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func aLogStartingMidLaunchDoesNotCascade() throws {
        // Began inside didFinishLaunching of a user launch.
        let duringLaunch = try LifecycleReplay.own("""
            {"ts":0.05,"seq":4,"event":"bgtask.register","identifier":"r"}
            {"ts":0.09,"seq":5,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.3,"seq":6,"event":"didBecomeActive"}
            {"ts":60,"seq":7,"event":"willResignActive"}
            {"ts":60.1,"seq":8,"event":"didEnterBackground","phase":"begin"}
            {"ts":60.2,"seq":9,"event":"didEnterBackground","phase":"end"}
            {"ts":60.3,"seq":10,"event":"snapshot"}
            {"ts":61,"seq":11,"event":"suspend"}
            """)
        #expect(duringLaunch.isEmpty, "\(duringLaunch.map(\.message))")

        // Began in the middle of a background period, and was killed there.
        let inBackground = try LifecycleReplay.own("""
            {"ts":100,"seq":40,"event":"push.complete","call":3,"result":"noData"}
            {"ts":100.1,"seq":41,"event":"snapshot"}
            {"ts":100.5,"seq":42,"event":"suspend"}
            {"ts":300,"seq":43,"event":"resume","reason":"user"}
            {"ts":300.1,"seq":44,"event":"willEnterForeground"}
            {"ts":300.2,"seq":45,"event":"didBecomeActive"}
            """)
        #expect(inBackground.isEmpty, "\(inBackground.map(\.message))")

        // Began in the foreground: the first life-cycle event is taken as it comes.
        let inForeground = try LifecycleReplay.own("""
            {"ts":100,"seq":40,"event":"network","reachable":true,"wifi":true}
            {"ts":100.1,"seq":41,"event":"willResignActive"}
            {"ts":100.2,"seq":42,"event":"didEnterBackground","phase":"begin"}
            {"ts":100.3,"seq":43,"event":"didEnterBackground","phase":"end"}
            {"ts":100.4,"seq":44,"event":"snapshot"}
            {"ts":101,"seq":45,"event":"suspend"}
            """)
        #expect(inForeground.isEmpty, "\(inForeground.map(\.message))")

        // A guessed state says nothing about a kill.
        let killed = try LifecycleReplay.own("""
            {"ts":100,"seq":40,"event":"network","reachable":true,"wifi":true}
            {"ts":101,"seq":41,"event":"terminate","reason":"watchdog"}
            """)
        #expect(killed.isEmpty, "\(killed.map(\.message))")
    }

    @Test func aPrewarmedLaunchIsFinishedWhenTheUserOpensTheApp() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"prewarm"}
            {"ts":600,"seq":1,"event":"willFinishLaunching","phase":"begin"}
            {"ts":600.1,"seq":2,"event":"willFinishLaunching","phase":"end"}
            {"ts":600.2,"seq":3,"event":"didFinishLaunching","phase":"begin"}
            {"ts":600.3,"seq":4,"event":"didFinishLaunching","phase":"end"}
            {"ts":600.4,"seq":5,"event":"didBecomeActive"}
            {"ts":700,"seq":6,"event":"willResignActive"}
            {"ts":700.1,"seq":7,"event":"didEnterBackground","phase":"begin"}
            {"ts":700.2,"seq":8,"event":"didEnterBackground","phase":"end"}
            {"ts":700.3,"seq":9,"event":"snapshot"}
            {"ts":701,"seq":10,"event":"suspend"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// A day of one device with nothing wrong: a user session with an interruption and an upload,
    /// a bounce, a user resume, a resume for a background push, a quiet reclaim, and a launch into
    /// the background for a BGAppRefreshTask. The whole catalog must find nothing.
    @Test func aRealisticCleanDayHasNoFindings() throws {
        let findings = try LifecycleReplay.findings(Self.cleanDay)
        #expect(findings.isEmpty, "\(findings.map { "\($0.rule) \($0.ts): \($0.message)" })")
    }

    static let cleanDay = """
        {"launch":"L1","ts":"2026-11-21T08:00:00.000Z","seq":0,"event":"launch","reason":"user","mono":1000.000}
        {"launch":"L1","ts":"2026-11-21T08:00:00.002Z","seq":1,"event":"config","permitted_identifiers":["com.example.news.refresh","com.example.news.cleanup"],"background_modes":["fetch","processing","remote-notification"],"mono":1000.002}
        {"launch":"L1","ts":"2026-11-21T08:00:00.010Z","seq":2,"event":"willFinishLaunching","phase":"begin","mono":1000.010}
        {"launch":"L1","ts":"2026-11-21T08:00:00.020Z","seq":3,"event":"willFinishLaunching","phase":"end","mono":1000.020}
        {"launch":"L1","ts":"2026-11-21T08:00:00.021Z","seq":4,"event":"restoreState","phase":"begin","mono":1000.021}
        {"launch":"L1","ts":"2026-11-21T08:00:00.040Z","seq":5,"event":"restoreState","phase":"end","mono":1000.040}
        {"launch":"L1","ts":"2026-11-21T08:00:00.041Z","seq":6,"event":"didFinishLaunching","phase":"begin","mono":1000.041}
        {"launch":"L1","ts":"2026-11-21T08:00:00.045Z","seq":7,"event":"bgtask.register","identifier":"com.example.news.refresh","mono":1000.045}
        {"launch":"L1","ts":"2026-11-21T08:00:00.046Z","seq":8,"event":"bgtask.register","identifier":"com.example.news.cleanup","mono":1000.046}
        {"launch":"L1","ts":"2026-11-21T08:00:00.060Z","seq":9,"event":"urlsession.create","identifier":"com.example.news.downloads","mono":1000.060}
        {"launch":"L1","ts":"2026-11-21T08:00:00.200Z","seq":10,"event":"didFinishLaunching","phase":"end","mono":1000.200}
        {"launch":"L1","ts":"2026-11-21T08:00:00.260Z","seq":11,"event":"didBecomeActive","mono":1000.260}
        {"launch":"L1","ts":"2026-11-21T08:00:00.300Z","seq":12,"event":"refreshStatus","status":"available","mono":1000.300}
        {"launch":"L1","ts":"2026-11-21T08:00:00.320Z","seq":13,"event":"network","reachable":true,"wifi":true,"mono":1000.320}
        {"launch":"L1","ts":"2026-11-21T08:00:00.350Z","seq":14,"event":"power","low_power_mode":false,"battery":0.91,"charging":false,"mono":1000.350}
        {"launch":"L1","ts":"2026-11-21T08:03:10.000Z","seq":15,"event":"beginBackgroundTask","task":1,"name":"upload-reading-history","mono":1190.000}
        {"launch":"L1","ts":"2026-11-21T08:03:12.500Z","seq":16,"event":"endBackgroundTask","task":1,"mono":1192.500}
        {"launch":"L1","ts":"2026-11-21T08:05:00.000Z","seq":17,"event":"willResignActive","mono":1300.000}
        {"launch":"L1","ts":"2026-11-21T08:05:04.000Z","seq":18,"event":"didBecomeActive","mono":1304.000}
        {"launch":"L1","ts":"2026-11-21T08:06:00.000Z","seq":19,"event":"memoryWarning","mono":1360.000}
        {"launch":"L1","ts":"2026-11-21T08:10:00.000Z","seq":20,"event":"willResignActive","mono":1600.000}
        {"launch":"L1","ts":"2026-11-21T08:10:00.010Z","seq":21,"event":"didEnterBackground","phase":"begin","mono":1600.010}
        {"launch":"L1","ts":"2026-11-21T08:10:00.015Z","seq":22,"event":"bgtask.submit","identifier":"com.example.news.refresh","type":"refresh","earliest_begin":"2026-11-21T09:00:00Z","mono":1600.015}
        {"launch":"L1","ts":"2026-11-21T08:10:00.020Z","seq":23,"event":"bgtask.submit","identifier":"com.example.news.cleanup","type":"processing","requires_power":true,"requires_network":false,"mono":1600.020}
        {"launch":"L1","ts":"2026-11-21T08:10:00.150Z","seq":24,"event":"didEnterBackground","phase":"end","mono":1600.150}
        {"launch":"L1","ts":"2026-11-21T08:10:00.250Z","seq":25,"event":"snapshot","mono":1600.250}
        {"launch":"L1","ts":"2026-11-21T08:10:00.400Z","seq":26,"event":"willEnterForeground","mono":1600.400}
        {"launch":"L1","ts":"2026-11-21T08:10:00.450Z","seq":27,"event":"didBecomeActive","mono":1600.450}
        {"launch":"L1","ts":"2026-11-21T08:12:00.000Z","seq":28,"event":"willResignActive","mono":1720.000}
        {"launch":"L1","ts":"2026-11-21T08:12:00.010Z","seq":29,"event":"didEnterBackground","phase":"begin","mono":1720.010}
        {"launch":"L1","ts":"2026-11-21T08:12:00.100Z","seq":30,"event":"didEnterBackground","phase":"end","mono":1720.100}
        {"launch":"L1","ts":"2026-11-21T08:12:00.200Z","seq":31,"event":"snapshot","mono":1720.200}
        {"launch":"L1","ts":"2026-11-21T08:12:00.700Z","seq":32,"event":"suspend","mono":1720.700}
        {"launch":"L1","ts":"2026-11-21T12:30:00.000Z","seq":33,"event":"resume","reason":"user","mono":17200.000}
        {"launch":"L1","ts":"2026-11-21T12:30:00.030Z","seq":34,"event":"willEnterForeground","mono":17200.030}
        {"launch":"L1","ts":"2026-11-21T12:30:00.090Z","seq":35,"event":"didBecomeActive","mono":17200.090}
        {"launch":"L1","ts":"2026-11-21T12:30:00.120Z","seq":36,"event":"network","reachable":true,"wifi":false,"mono":17200.120}
        {"launch":"L1","ts":"2026-11-21T12:41:00.000Z","seq":37,"event":"willResignActive","mono":17860.000}
        {"launch":"L1","ts":"2026-11-21T12:41:00.010Z","seq":38,"event":"didEnterBackground","phase":"begin","mono":17860.010}
        {"launch":"L1","ts":"2026-11-21T12:41:00.020Z","seq":39,"event":"bgtask.submit","identifier":"com.example.news.refresh","type":"refresh","earliest_begin":"2026-11-21T13:30:00Z","mono":17860.020}
        {"launch":"L1","ts":"2026-11-21T12:41:00.090Z","seq":40,"event":"didEnterBackground","phase":"end","mono":17860.090}
        {"launch":"L1","ts":"2026-11-21T12:41:00.180Z","seq":41,"event":"snapshot","mono":17860.180}
        {"launch":"L1","ts":"2026-11-21T12:41:00.600Z","seq":42,"event":"suspend","mono":17860.600}
        {"launch":"L1","ts":"2026-11-21T14:05:00.000Z","seq":43,"event":"resume","reason":"system","cause":"push","mono":22900.000}
        {"launch":"L1","ts":"2026-11-21T14:05:00.004Z","seq":44,"event":"didEnterBackground","phase":"begin","mono":22900.004}
        {"launch":"L1","ts":"2026-11-21T14:05:00.040Z","seq":45,"event":"didEnterBackground","phase":"end","mono":22900.040}
        {"launch":"L1","ts":"2026-11-21T14:05:00.060Z","seq":46,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background","mono":22900.060}
        {"launch":"L1","ts":"2026-11-21T14:05:00.080Z","seq":47,"event":"network","reachable":true,"wifi":true,"mono":22900.080}
        {"launch":"L1","ts":"2026-11-21T14:05:03.200Z","seq":48,"event":"push.complete","call":1,"result":"newData","mono":22903.200}
        {"launch":"L1","ts":"2026-11-21T14:05:03.300Z","seq":49,"event":"snapshot","mono":22903.300}
        {"launch":"L1","ts":"2026-11-21T14:05:03.800Z","seq":50,"event":"suspend","mono":22903.800}
        {"launch":"L1","ts":"2026-11-21T16:40:00.000Z","seq":51,"event":"terminate","reason":"quiet","mono":32200.000}
        {"launch":"L2","ts":"2026-11-21T17:02:00.000Z","seq":0,"event":"launch","reason":"system","cause":"bgtask","mono":33520.000}
        {"launch":"L2","ts":"2026-11-21T17:02:00.002Z","seq":1,"event":"config","permitted_identifiers":["com.example.news.refresh","com.example.news.cleanup"],"background_modes":["fetch","processing","remote-notification"],"mono":33520.002}
        {"launch":"L2","ts":"2026-11-21T17:02:00.030Z","seq":2,"event":"willFinishLaunching","phase":"begin","mono":33520.030}
        {"launch":"L2","ts":"2026-11-21T17:02:00.040Z","seq":3,"event":"willFinishLaunching","phase":"end","mono":33520.040}
        {"launch":"L2","ts":"2026-11-21T17:02:00.041Z","seq":4,"event":"didFinishLaunching","phase":"begin","mono":33520.041}
        {"launch":"L2","ts":"2026-11-21T17:02:00.044Z","seq":5,"event":"bgtask.register","identifier":"com.example.news.refresh","mono":33520.044}
        {"launch":"L2","ts":"2026-11-21T17:02:00.045Z","seq":6,"event":"bgtask.register","identifier":"com.example.news.cleanup","mono":33520.045}
        {"launch":"L2","ts":"2026-11-21T17:02:00.060Z","seq":7,"event":"urlsession.create","identifier":"com.example.news.downloads","mono":33520.060}
        {"launch":"L2","ts":"2026-11-21T17:02:00.150Z","seq":8,"event":"didFinishLaunching","phase":"end","mono":33520.150}
        {"launch":"L2","ts":"2026-11-21T17:02:00.160Z","seq":9,"event":"didEnterBackground","phase":"begin","mono":33520.160}
        {"launch":"L2","ts":"2026-11-21T17:02:00.170Z","seq":10,"event":"didEnterBackground","phase":"end","mono":33520.170}
        {"launch":"L2","ts":"2026-11-21T17:02:00.200Z","seq":11,"event":"bgtask.launch","identifier":"com.example.news.refresh","task":1,"mono":33520.200}
        {"launch":"L2","ts":"2026-11-21T17:02:00.230Z","seq":12,"event":"network","reachable":true,"wifi":true,"mono":33520.230}
        {"launch":"L2","ts":"2026-11-21T17:02:00.300Z","seq":13,"event":"backgroundTimeRemaining","value":29.7,"mono":33520.300}
        {"launch":"L2","ts":"2026-11-21T17:02:00.320Z","seq":14,"event":"bgtask.submit","identifier":"com.example.news.refresh","type":"refresh","earliest_begin":"2026-11-21T18:00:00Z","mono":33520.320}
        {"launch":"L2","ts":"2026-11-21T17:02:06.500Z","seq":15,"event":"bgtask.complete","task":1,"success":true,"mono":33526.500}
        {"launch":"L2","ts":"2026-11-21T17:02:06.600Z","seq":16,"event":"snapshot","mono":33526.600}
        {"launch":"L2","ts":"2026-11-21T17:02:07.000Z","seq":17,"event":"suspend","mono":33527.000}
        """
}
