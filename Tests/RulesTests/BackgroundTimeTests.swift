import Replay
import Rules
import Testing
import TraceModel

/// Extra background time (`beginBackgroundTask`): budgets, readings, `mono`, the expiration
/// grace, and what happens around suspension.
@Suite struct BackgroundTimeTests {
    /// A user launch that begins task 1 in the foreground and enters the background at ts 10.
    static let intoBackground = """
        {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
        {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"begin"}
        {"ts":0.2,"seq":2,"event":"willFinishLaunching","phase":"end"}
        {"ts":0.3,"seq":3,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.4,"seq":4,"event":"didFinishLaunching","phase":"end"}
        {"ts":1,"seq":5,"event":"didBecomeActive"}
        {"ts":5,"seq":6,"event":"beginBackgroundTask","task":1,"name":"upload"}
        {"ts":9.9,"seq":7,"event":"willResignActive"}
        {"ts":10,"seq":8,"event":"didEnterBackground","phase":"begin"}
        {"ts":10.1,"seq":9,"event":"didEnterBackground","phase":"end"}
        {"ts":10.2,"seq":10,"event":"snapshot"}
        """

    /// Like ``intoBackground``, with `mono` on every event (100 s ahead of `ts`), no
    /// willFinishLaunching and task 1 unnamed (`seq` 0–8).
    static let intoBackgroundWithMono = """
        {"ts":0,"launch":"L1","seq":0,"mono":100,"event":"launch","reason":"user"}
        {"ts":0.4,"seq":1,"mono":100.4,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.5,"seq":2,"mono":100.5,"event":"didFinishLaunching","phase":"end"}
        {"ts":1,"seq":3,"mono":101,"event":"didBecomeActive"}
        {"ts":5,"seq":4,"mono":105,"event":"beginBackgroundTask","task":1}
        {"ts":9.9,"seq":5,"mono":109.9,"event":"willResignActive"}
        {"ts":10,"seq":6,"mono":110,"event":"didEnterBackground","phase":"begin"}
        {"ts":10.1,"seq":7,"mono":110.1,"event":"didEnterBackground","phase":"end"}
        {"ts":10.2,"seq":8,"mono":110.2,"event":"snapshot"}
        """

    @Test func endingExactlyAtTheBudgetIsFineAndJustAfterIsAnOverrun() throws {
        let atBudget = try workFindings(Self.intoBackground + """

            {"ts":40,"seq":11,"event":"endBackgroundTask","task":1}
            {"ts":40.5,"seq":12,"event":"suspend"}
            """)
        #expect(atBudget.isEmpty)
        let over = try workFindings(Self.intoBackground + """

            {"ts":40.1,"seq":11,"event":"endBackgroundTask","task":1}
            {"ts":40.5,"seq":12,"event":"suspend"}
            """)
        #expect(over.map(\.rule) == ["background-task-overrun"])
        #expect(abs((over.first?.measured ?? 0) - 30.1) < 1e-9)
        #expect(over.first?.budget == "background-time")
        #expect(over.first?.budgetSeconds == 30)
        #expect(over.first?.message.contains("30.1 s") == true)
    }

    @Test func monoIsPreferredOverTs() throws {
        // ts says 45 s in the background, the monotonic clock 20 s: the wall clock jumped.
        let jumped = try workFindings("""
            \(Self.intoBackgroundWithMono)
            {"ts":55,"seq":9,"mono":130,"event":"endBackgroundTask","task":1}
            {"ts":55.5,"seq":10,"mono":130.5,"event":"suspend"}
            """)
        #expect(!jumped.contains { $0.rule == "background-task-overrun" })
        // And the other way round: ts says 20 s, mono 45 s.
        let slow = try workFindings("""
            \(Self.intoBackgroundWithMono)
            {"ts":30,"seq":9,"mono":155,"event":"endBackgroundTask","task":1}
            {"ts":30.5,"seq":10,"mono":155.5,"event":"suspend"}
            """)
        #expect(slow.filter { $0.rule == "background-task-overrun" }.map(\.measured) == [45])
    }

    @Test func theExpirationGraceIsStrictlyExceededOnly() throws {
        let atGrace = try workFindings(Self.intoBackground + """

            {"ts":37,"seq":11,"event":"backgroundTaskExpired","task":1}
            {"ts":42,"seq":12,"event":"endBackgroundTask","task":1}
            {"ts":42.5,"seq":13,"event":"suspend"}
            """, budgets: Budgets([.backgroundTime: 60]))
        #expect(atGrace.isEmpty)
        let late = try workFindings(Self.intoBackground + """

            {"ts":37,"seq":11,"event":"backgroundTaskExpired","task":1}
            {"ts":42.2,"seq":12,"event":"endBackgroundTask","task":1}
            {"ts":42.5,"seq":13,"event":"suspend"}
            """, budgets: Budgets([.backgroundTime: 60]))
        #expect(late.map(\.rule) == ["background-task-expired"])
        #expect(late.first?.budget == "expiration-grace")
        #expect(abs((late.first?.measured ?? 0) - 5.2) < 1e-9)
        // A longer configured grace forgives it.
        let forgiven = try workFindings(Self.intoBackground + """

            {"ts":37,"seq":11,"event":"backgroundTaskExpired","task":1}
            {"ts":42.2,"seq":12,"event":"endBackgroundTask","task":1}
            {"ts":42.5,"seq":13,"event":"suspend"}
            """, budgets: Budgets([.backgroundTime: 60, .expirationGrace: 10]))
        #expect(forgiven.isEmpty)
    }

    @Test func anExpiredTaskNeverEndedIsReportedOnceAsExpired() throws {
        let result = try workFindings(Self.intoBackground + """

            {"ts":37,"seq":11,"event":"backgroundTaskExpired","task":1}
            {"ts":45,"seq":12,"event":"terminate","reason":"assertion-timeout"}
            """, everyRule: true)
        let mine = result.filter { $0.rule.hasPrefix("background-task") }
        #expect(mine.map(\.rule) == ["background-task-expired"])
        #expect(mine.first?.ts == Timestamp(seconds: 45))
        #expect(result.contains { $0.rule == "termination-explained" })
    }

    @Test func theBudgetIsConfigurable() throws {
        let trace = Self.intoBackground + """

            {"ts":25,"seq":11,"event":"endBackgroundTask","task":1}
            {"ts":25.5,"seq":12,"event":"suspend"}
            """
        #expect(try workFindings(trace).isEmpty)
        let strict = try workFindings(trace, budgets: Budgets([.backgroundTime: 10]))
        #expect(strict.map(\.rule) == ["background-task-overrun"])
        #expect(strict.first?.budgetSeconds == 10)
    }

    @Test func foregroundTimeDoesNotCount() throws {
        // A task begun long before the app left the foreground: only background time counts.
        let result = try workFindings("""
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.4,"seq":2,"event":"didFinishLaunching","phase":"end"}
            {"ts":1,"seq":3,"event":"didBecomeActive"}
            {"ts":2,"seq":4,"event":"beginBackgroundTask","task":1}
            {"ts":299.9,"seq":5,"event":"willResignActive"}
            {"ts":300,"seq":6,"event":"didEnterBackground","phase":"begin"}
            {"ts":300.1,"seq":7,"event":"didEnterBackground","phase":"end"}
            {"ts":300.2,"seq":8,"event":"snapshot"}
            {"ts":310,"seq":9,"event":"endBackgroundTask","task":1}
            {"ts":310.5,"seq":10,"event":"suspend"}
            """)
        #expect(result.isEmpty)
    }

    @Test func anEndAfterTheNotEndedFindingIsNotAlsoUnknown() throws {
        let result = try workFindings(Self.intoBackground + """

            {"ts":20,"seq":11,"event":"suspend"}
            {"ts":600,"seq":12,"event":"resume","reason":"user"}
            {"ts":600.1,"seq":13,"event":"endBackgroundTask","task":1}
            {"ts":600.2,"seq":14,"event":"willEnterForeground"}
            {"ts":600.3,"seq":15,"event":"didBecomeActive"}
            {"ts":601,"seq":16,"event":"endBackgroundTask","task":1}
            """)
        #expect(result.map(\.rule) == ["background-task-not-ended", "background-task-end-unknown"])
        #expect(result.map(\.ts) == [Timestamp(seconds: 20), Timestamp(seconds: 601)])
    }

    @Test func anExtensionGetsOnlyTheExtensionRule() throws {
        // The task is never ended, but extensions have no suspension rules: one finding.
        let result = try workFindings("""
            {"ts":0,"launch":"X1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"ts":0.2,"launch":"X1","seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
            {"ts":0.3,"launch":"X1","seq":2,"event":"beginBackgroundTask","task":1,"process":"extension:nse"}
            {"ts":1,"launch":"X1","seq":3,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
            {"ts":50,"launch":"X1","seq":4,"event":"endBackgroundTask","task":1,"process":"extension:nse"}
            """)
        #expect(result.map(\.rule) == ["background-task-in-extension"])
    }

    @Test func begunLateOnlyForTheLaunchsFirstTask() throws {
        let result = try workFindings("""
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.4,"seq":2,"event":"didFinishLaunching","phase":"end"}
            {"ts":1,"seq":3,"event":"didBecomeActive"}
            {"ts":9.9,"seq":4,"event":"willResignActive"}
            {"ts":10,"seq":5,"event":"didEnterBackground","phase":"begin"}
            {"ts":10.05,"seq":6,"event":"beginBackgroundTask","task":1}
            {"ts":10.1,"seq":7,"event":"didEnterBackground","phase":"end"}
            {"ts":10.2,"seq":8,"event":"snapshot"}
            {"ts":11,"seq":9,"event":"endBackgroundTask","task":1}
            {"ts":11.5,"seq":10,"event":"willEnterForeground"}
            {"ts":11.6,"seq":11,"event":"didBecomeActive"}
            {"ts":19.9,"seq":12,"event":"willResignActive"}
            {"ts":20,"seq":13,"event":"didEnterBackground","phase":"begin"}
            {"ts":20.05,"seq":14,"event":"beginBackgroundTask","task":2}
            {"ts":20.1,"seq":15,"event":"didEnterBackground","phase":"end"}
            {"ts":20.2,"seq":16,"event":"snapshot"}
            {"ts":21,"seq":17,"event":"endBackgroundTask","task":2}
            {"ts":21.5,"seq":18,"event":"suspend"}
            """)
        #expect(result.map(\.rule) == ["background-task-begun-late"])
        #expect(result.first?.ts == Timestamp(seconds: 10.05))
    }
}
