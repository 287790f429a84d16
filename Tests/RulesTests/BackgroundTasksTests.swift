import Replay
import Rules
import Testing
import TraceModel

/// BackgroundTasks: pending requests across launches, task types, budgets and `mono`.
@Suite struct BackgroundTasksTests {
    /// A user session of launch `launch` at `t` that submits `submits` (JSON lines without
    /// envelope) inside `didEnterBackground`, then is suspended.
    static func session(_ launch: String, at t: Double, submits: [String]) -> String {
        var lines = [
            #"{"ts":\#(t),"launch":"\#(launch)","seq":0,"event":"launch","reason":"user"}"#,
            #"{"ts":\#(t + 0.3),"launch":"\#(launch)","seq":1,"event":"didFinishLaunching","phase":"begin"}"#,
            #"{"ts":\#(t + 0.4),"launch":"\#(launch)","seq":2,"event":"didFinishLaunching","phase":"end"}"#,
            #"{"ts":\#(t + 1),"launch":"\#(launch)","seq":3,"event":"didBecomeActive"}"#,
            #"{"ts":\#(t + 9),"launch":"\#(launch)","seq":4,"event":"willResignActive"}"#,
            #"{"ts":\#(t + 10),"launch":"\#(launch)","seq":5,"event":"didEnterBackground","phase":"begin"}"#,
        ]
        for (index, submit) in submits.enumerated() {
            let ts = t + 10 + Double(index + 1) / 100
            lines.append(#"{"ts":\#(ts),"launch":"\#(launch)","seq":\#(6 + index),"#
                + submit.dropFirst())
        }
        let seq = 6 + submits.count
        lines += [
            #"{"ts":\#(t + 11),"launch":"\#(launch)","seq":\#(seq),"event":"didEnterBackground","phase":"end"}"#,
            #"{"ts":\#(t + 11.1),"launch":"\#(launch)","seq":\#(seq + 1),"event":"snapshot"}"#,
            #"{"ts":\#(t + 11.5),"launch":"\#(launch)","seq":\#(seq + 2),"event":"suspend"}"#,
            #"{"ts":\#(t + 100),"launch":"\#(launch)","seq":\#(seq + 3),"event":"terminate","reason":"quiet"}"#,
        ]
        return lines.joined(separator: "\n")
    }

    /// A launch for a BGTask at `t` that registers and runs `identifier` as task 1 for `seconds`.
    static func run(
        _ launch: String, at t: Double, identifier: String, seconds: Double, modes: String? = nil,
        during: [String] = []
    ) -> String {
        var lines = [#"{"ts":\#(t),"launch":"\#(launch)","seq":0,"event":"launch","reason":"system","cause":"bgtask"}"#]
        if let modes {
            lines.append(#"{"ts":\#(t + 0.01),"launch":"\#(launch)","seq":1,"event":"config","background_modes":\#(modes)}"#)
        }
        lines += [
            #"{"ts":\#(t + 0.3),"launch":"\#(launch)","seq":2,"event":"didFinishLaunching","phase":"begin"}"#,
            #"{"ts":\#(t + 0.31),"launch":"\#(launch)","seq":3,"event":"bgtask.register","identifier":"\#(identifier)"}"#,
            #"{"ts":\#(t + 0.4),"launch":"\#(launch)","seq":4,"event":"didFinishLaunching","phase":"end"}"#,
            #"{"ts":\#(t + 0.5),"launch":"\#(launch)","seq":5,"event":"didEnterBackground","phase":"begin"}"#,
            #"{"ts":\#(t + 0.6),"launch":"\#(launch)","seq":6,"event":"didEnterBackground","phase":"end"}"#,
            #"{"ts":\#(t + 1),"launch":"\#(launch)","seq":7,"event":"bgtask.launch","identifier":"\#(identifier)","task":1}"#,
        ]
        for (index, line) in during.enumerated() {
            lines.append(#"{"ts":\#(t + 1 + Double(index + 1) / 100),"launch":"\#(launch)","seq":\#(8 + index),"#
                + line.dropFirst())
        }
        let seq = 8 + during.count
        lines += [
            #"{"ts":\#(t + 1 + seconds),"launch":"\#(launch)","seq":\#(seq),"event":"bgtask.complete","task":1,"success":true}"#,
            #"{"ts":\#(t + 1.1 + seconds),"launch":"\#(launch)","seq":\#(seq + 1),"event":"snapshot"}"#,
            #"{"ts":\#(t + 1.5 + seconds),"launch":"\#(launch)","seq":\#(seq + 2),"event":"suspend"}"#,
        ]
        return lines.joined(separator: "\n")
    }

    static func submit(_ identifier: String, _ type: String, error: String? = nil) -> String {
        let error = error.map { #","error":"\#($0)""# } ?? ""
        return #"{"event":"bgtask.submit","identifier":"\#(identifier)","type":"\#(type)"\#(error)}"#
    }

    // MARK: Pending requests

    @Test func aResubmitReplacesItsPendingRequest() throws {
        let result = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh"), Self.submit("a", "refresh"), Self.submit("a", "refresh"),
        ]))
        #expect(result.isEmpty)
    }

    @Test func pendingRequestsOutliveTheLaunchThatSubmittedThem() throws {
        let result = try workFindings(
            Self.session("L1", at: 0, submits: [Self.submit("a", "refresh")]) + "\n"
                + Self.session("L2", at: 1000, submits: [Self.submit("b", "refresh")]))
        #expect(result.map(\.rule) == ["bgtask-too-many-pending"])
        #expect(result.first?.launch == "L2")
        #expect(result.first?.measured == 2)
    }

    @Test func aLaunchConsumesItsRequest() throws {
        let result = try workFindings(
            Self.session("L1", at: 0, submits: [Self.submit("a", "refresh")]) + "\n"
                + Self.run("L2", at: 1000, identifier: "a", seconds: 5) + "\n"
                + Self.session("L3", at: 2000, submits: [Self.submit("b", "refresh")]))
        #expect(result.isEmpty)
    }

    @Test func cancelRemovesOneOrAll() throws {
        let one = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh"), #"{"event":"bgtask.cancel","identifier":"a"}"#, Self.submit("b", "refresh"),
        ]))
        #expect(one.isEmpty)
        let other = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh"), #"{"event":"bgtask.cancel","identifier":"z"}"#, Self.submit("b", "refresh"),
        ]))
        #expect(other.map(\.rule) == ["bgtask-too-many-pending"])
        let all = try workFindings(
            Self.session("L1", at: 0, submits: [Self.submit("a", "refresh")]) + "\n"
                + Self.session("L2", at: 1000, submits: [
                    #"{"event":"bgtask.cancel"}"#, Self.submit("b", "refresh"),
                ]))
        #expect(all.isEmpty)
    }

    @Test func aSubmitThatThrewSchedulesNothing() throws {
        let result = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh", error: "unavailable"), Self.submit("b", "refresh"),
        ]))
        #expect(result.isEmpty)
    }

    @Test func theRefusedSubmitIsNotCountedAndEachFurtherAttemptIsJudged() throws {
        let result = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh"), Self.submit("b", "refresh"), Self.submit("c", "refresh"),
            Self.submit("a", "refresh"),
        ]))
        #expect(result.map(\.rule) == ["bgtask-too-many-pending", "bgtask-too-many-pending"])
        #expect(result.map(\.measured) == [2, 2])
    }

    @Test func tenProcessingRequestsMayBePendingNotEleven() throws {
        let ten = (1...10).map { Self.submit("p\($0)", "processing") }
        #expect(try workFindings(Self.session("L1", at: 0, submits: ten + [Self.submit("r", "refresh")])).isEmpty)
        let eleven = try workFindings(Self.session("L1", at: 0, submits: ten + [Self.submit("p11", "processing")]))
        #expect(eleven.map(\.rule) == ["bgtask-too-many-pending"])
        #expect(eleven.first?.measured == 11)
        #expect(eleven.first?.events.count == 11)
    }

    @Test func aLoggedTooManyPendingErrorIsAFindingEvenWhenTheLogShowsRoom() throws {
        // The earlier submit predates the log: the system's own error is the evidence.
        let result = try workFindings(Self.session("L1", at: 0, submits: [
            Self.submit("a", "refresh", error: "tooManyPendingTaskRequests"),
        ]))
        #expect(result.map(\.rule) == ["bgtask-too-many-pending"])
        #expect(result.first?.message.contains("tooManyPendingTaskRequests") == true)
    }

    @Test func anExtensionsSubmitsCountButAreNotJudged() throws {
        let result = try workFindings("""
            {"ts":0,"launch":"X1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"ts":0.1,"launch":"X1","seq":1,"event":"bgtask.submit","identifier":"a","type":"refresh","process":"extension:nse"}
            {"ts":0.2,"launch":"X1","seq":2,"event":"bgtask.submit","identifier":"b","type":"refresh","process":"extension:nse"}
            """ + "\n" + Self.session("L1", at: 1000, submits: [Self.submit("c", "refresh")]))
        #expect(result.map(\.launch) == ["L1"])
    }

    // MARK: Task types and budgets

    @Test func theTypeComesFromTheLatestSubmitOnTheDevice() throws {
        let asRefresh = try workFindings(
            Self.session("L1", at: 0, submits: [Self.submit("t", "refresh")]) + "\n"
                + Self.run("L2", at: 1000, identifier: "t", seconds: 40))
        #expect(asRefresh.map(\.rule) == ["bgtask-refresh-overrun"])
        let asProcessing = try workFindings(
            Self.session("L1", at: 0, submits: [Self.submit("t", "refresh"), Self.submit("t", "processing")]) + "\n"
                + Self.run("L2", at: 1000, identifier: "t", seconds: 40))
        #expect(asProcessing.isEmpty)
    }

    @Test func aSubmitWhileTheTaskRunsTellsItsType() throws {
        let result = try workFindings(
            Self.run("L1", at: 0, identifier: "t", seconds: 40, during: [Self.submit("t", "refresh")]))
        #expect(result.map(\.rule) == ["bgtask-refresh-overrun"])
    }

    @Test func anUnknownTypeIsJudgedByTheBackgroundModesElseByTheLargerBudget() throws {
        let fetchOnly = try workFindings(
            Self.run("L1", at: 0, identifier: "t", seconds: 40, modes: #"["fetch"]"#))
        #expect(fetchOnly.map(\.rule) == ["bgtask-refresh-overrun"])
        let both = try workFindings(
            Self.run("L1", at: 0, identifier: "t", seconds: 40, modes: #"["fetch","processing"]"#))
        #expect(both.isEmpty)
        let long = try workFindings(
            Self.run("L1", at: 0, identifier: "t", seconds: 601, modes: #"["fetch","processing"]"#))
        #expect(long.map(\.rule) == ["bgtask-processing-overrun"])
        let noConfig = try workFindings(Self.run("L1", at: 0, identifier: "t", seconds: 601))
        #expect(noConfig.map(\.rule) == ["bgtask-processing-overrun"])
    }

    @Test func budgetsAreStrictlyExceededAndConfigurable() throws {
        let refresh = [Self.submit("t", "refresh")]
        #expect(try workFindings(Self.run("L1", at: 0, identifier: "t", seconds: 30, during: refresh)).isEmpty)
        let over = try workFindings(Self.run("L1", at: 0, identifier: "t", seconds: 30.1, during: refresh))
        #expect(over.map(\.rule) == ["bgtask-refresh-overrun"])
        #expect(over.first?.message.contains("30.1 s") == true)
        let relaxed = try workFindings(
            Self.run("L1", at: 0, identifier: "t", seconds: 45, during: refresh),
            budgets: Budgets([.refreshTask: 60]))
        #expect(relaxed.isEmpty)
        let processing = [Self.submit("p", "processing")]
        let strict = try workFindings(
            Self.run("L1", at: 0, identifier: "p", seconds: 420, during: processing),
            budgets: Budgets([.processingTask: 300]))
        #expect(strict.map(\.rule) == ["bgtask-processing-overrun"])
        #expect(strict.first?.budgetSeconds == 300)
        #expect(strict.first?.budget == "processing-task")
    }

    @Test func monoIsPreferredOverTs() throws {
        let result = try workFindings("""
            {"ts":0,"launch":"L1","seq":0,"mono":50,"event":"launch","reason":"system","cause":"bgtask"}
            {"ts":0.3,"seq":1,"mono":50.3,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.31,"seq":2,"mono":50.31,"event":"bgtask.register","identifier":"t"}
            {"ts":0.4,"seq":3,"mono":50.4,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.5,"seq":4,"mono":50.5,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.6,"seq":5,"mono":50.6,"event":"didEnterBackground","phase":"end"}
            {"ts":1,"seq":6,"mono":51,"event":"bgtask.launch","identifier":"t","task":1}
            {"ts":1.1,"seq":7,"mono":51.1,"event":"bgtask.submit","identifier":"t","type":"refresh"}
            {"ts":3601,"seq":8,"mono":61,"event":"bgtask.complete","task":1,"success":true}
            {"ts":3601.1,"seq":9,"mono":61.1,"event":"snapshot"}
            {"ts":3601.5,"seq":10,"mono":61.5,"event":"suspend"}
            """)
        #expect(result.isEmpty)
    }

    @Test func aCompletionAfterTheNotCompletedFindingIsNotReportedAgain() throws {
        let result = try workFindings("""
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"bgtask"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.31,"seq":2,"event":"bgtask.register","identifier":"t"}
            {"ts":0.4,"seq":3,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.5,"seq":4,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.6,"seq":5,"event":"didEnterBackground","phase":"end"}
            {"ts":1,"seq":6,"event":"bgtask.launch","identifier":"t","task":1}
            {"ts":2,"seq":7,"event":"snapshot"}
            {"ts":2.5,"seq":8,"event":"suspend"}
            {"ts":500,"seq":9,"event":"resume","reason":"system","cause":"push"}
            {"ts":500.1,"seq":10,"event":"didEnterBackground","phase":"begin"}
            {"ts":500.2,"seq":11,"event":"didEnterBackground","phase":"end"}
            {"ts":500.3,"seq":12,"event":"bgtask.complete","task":1,"success":true}
            {"ts":500.4,"seq":13,"event":"bgtask.complete","task":1,"success":true}
            """)
        #expect(result.map(\.rule) == ["bgtask-not-completed", "bgtask-complete-twice"])
    }

    @Test func registrationIsJudgedOnlyWithAConfigAndFromTheLaunchEvent() throws {
        // Logged from mid-launch: no registration can be judged missing.
        let midLaunch = try workFindings("""
            {"ts":1,"launch":"L1","seq":7,"event":"bgtask.launch","identifier":"t","task":1}
            {"ts":2,"launch":"L1","seq":8,"event":"bgtask.complete","task":1,"success":true}
            """)
        #expect(!midLaunch.contains { $0.rule == "bgtask-launch-unregistered" })
    }
}
