import Replay
import Rules
import Testing
import TraceModel

/// The derived records of a replay (`launches`, `intervals`, `tasks`, `requests`): made once per
/// subject when it is finished, from the same replay as the findings, and consistent with them.
@Suite struct DerivedRecordsTests {
    /// What a replay of `trace` (example syntax) through the whole catalog makes.
    struct Replayed {
        var records: [DerivedRecord] = []
        var findings: [Finding] = []

        var launches: [LaunchRecord] { records.compactMap { if case .launch(let r) = $0 { r } else { nil } } }
        var intervals: [IntervalRecord] { records.compactMap { if case .interval(let r) = $0 { r } else { nil } } }
        var tasks: [TaskRecord] { records.compactMap { if case .task(let r) = $0 { r } else { nil } } }
        var requests: [RequestRecord] { records.compactMap { if case .request(let r) = $0 { r } else { nil } } }
        var callbacks: [IntervalRecord] { intervals }
        /// Every launch's background periods, launch after launch in the order they ended.
        var periods: [BackgroundPeriod] { launches.flatMap(\.backgroundPeriods) }
    }

    final class Box { var replayed = Replayed() }

    static func replay(_ trace: String, budgets: Budgets = Budgets()) throws -> Replayed {
        let events = try ExampleTrace(Example(trace)).events
        let box = Box()
        let replayer = Replayer(
            book: RuleCatalog.standard, configuration: ReplayConfiguration(budgets: budgets),
            records: { box.replayed.records.append($0) })
        for event in events { replayer.receive(event) { box.replayed.findings.append($0) } }
        replayer.finishAll { box.replayed.findings.append($0) }
        return box.replayed
    }

    /// A user launch, 10 s in the foreground, 2 s in the background, suspended until a quiet
    /// termination at 100.
    static let session = """
        {"ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.4,"seq":2,"event":"didFinishLaunching","phase":"end"}
        {"ts":1,"seq":3,"event":"didBecomeActive"}
        {"ts":9,"seq":4,"event":"willResignActive"}
        {"ts":10,"seq":5,"event":"didEnterBackground","phase":"begin"}
        {"ts":11,"seq":6,"event":"didEnterBackground","phase":"end"}
        {"ts":11.1,"seq":7,"event":"snapshot"}
        {"ts":12,"seq":8,"event":"suspend"}
        {"ts":100,"seq":9,"event":"terminate","reason":"quiet"}
        """

    // MARK: Launches

    @Test func aLaunchIsWrittenDownWhenItEnds() throws {
        let replayed = try Self.replay(Self.session)
        #expect(replayed.findings.isEmpty)
        let launch = try #require(replayed.launches.first)
        #expect(replayed.launches.count == 1)
        #expect(launch.number == 0)
        #expect(launch.device == "D" && launch.launch == "L1")
        #expect(launch.started == "user" && launch.cause == nil)
        #expect(launch.ended == .terminated && launch.endReason == "quiet" && launch.endState == "suspended")
        #expect(launch.firstTS == Timestamp(seconds: 0) && launch.lastTS == Timestamp(seconds: 100))
        #expect(abs(launch.foregroundSeconds - 10) < 1e-9)
        #expect(abs(launch.backgroundSeconds - 2) < 1e-9)
        #expect(abs(launch.suspendedSeconds - 88) < 1e-9)
        #expect(!launch.logCutShort)
        // The launch's record comes after those of its callbacks, which name it by number.
        #expect(replayed.records.last == .launch(launch))
        #expect(replayed.intervals.allSatisfy { $0.launch == 0 })
    }

    @Test func howLaunchesEndWithoutATerminate() throws {
        let replayed = try Self.replay("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"launch":"L1","ts":0.5,"seq":1,"event":"suspend"}
            {"launch":"L2","ts":10,"seq":0,"event":"launch","cause":"fetch"}
            {"launch":"L2","ts":11,"seq":1,"event":"fetch.perform","call":"1"}
            {"launch":"L3","ts":20,"seq":0,"event":"snapshot"}
            {"launch":"L3","ts":25,"seq":1,"event":"memoryWarning"}
            """)
        let launches = Dictionary(uniqueKeysWithValues: replayed.launches.map { ($0.launch, $0) })
        // A new launch began while L1 was suspended: reclaimed; while L2 ran: superseded.
        #expect(launches["L1"]?.ended == .reclaimed)
        #expect(launches["L1"]?.endState == "suspended")
        #expect(launches["L1"]?.started == "system" && launches["L1"]?.cause == "push")
        #expect(launches["L2"]?.ended == .superseded)
        #expect(launches["L2"]?.endState == "background")
        // A cause and no reason: the system's launch, as the life cycle reads it.
        #expect(launches["L2"]?.started == "system" && launches["L2"]?.cause == "fetch")
        #expect(launches["L2"]?.lastTS == Timestamp(seconds: 11))
        // L3's log began after its launch, and the log ended with it running.
        #expect(launches["L3"]?.started == "unknown")
        #expect(launches["L3"]?.ended == .logEnded)
        #expect(launches["L3"].map { abs($0.backgroundSeconds - 5) < 1e-9 } == true)
        // Numbers follow the order the launches began.
        #expect(launches["L1"]?.number == 0 && launches["L2"]?.number == 1 && launches["L3"]?.number == 2)
        // L2's fetch was open when its log ended: not evidence of a missed completion.
        let fetch = try #require(replayed.tasks.first)
        #expect(replayed.tasks.count == 1)
        #expect(fetch.kind == .fetch && fetch.launch == 1 && fetch.call == "1" && fetch.outcome == .logEnded)
        #expect(fetch.closed == nil && fetch.overBudget == nil && fetch.findingNumber == nil)
    }

    /// Reasons and causes are written as logged, listed ones or not.
    @Test func reasonsAndCausesAreWrittenAsLogged() throws {
        let reasons = Reason.listed.map(\.text) + ["jetsam-pressure"]
        let causes = Cause.listed.map(\.text) + ["ble"]
        let trace = zip(reasons.indices, reasons).map { index, reason in
            let cause = causes[index % causes.count]
            return #"{"launch":"L\#(index)","ts":\#(index * 10),"seq":0,"event":"launch","reason":"\#(reason)","cause":"\#(cause)"}"#
                + "\n" + #"{"launch":"L\#(index)","ts":\#(index * 10 + 1),"seq":1,"event":"terminate","reason":"\#(reason)"}"#
        }.joined(separator: "\n")
        let launches = try Self.replay(trace).launches
        #expect(launches.map(\.started) == reasons)
        #expect(launches.map(\.endReason) == reasons)
        #expect(launches.map(\.cause) == reasons.indices.map { causes[$0 % causes.count] })
    }

    @Test func theEnvelopeOfTheFirstEventIsTheLaunchs() throws {
        let replayed = try Self.replay("""
            {"ts":0,"seq":0,"event":"launch","reason":"user","app":"com.example.news","app_version":"5.12.0","os":"18.0","model":"iPhone15,2"}
            {"ts":1,"seq":1,"event":"didBecomeActive","app_version":"5.13.0"}
            """)
        let launch = try #require(replayed.launches.first)
        #expect(launch.app == "com.example.news" && launch.appVersion == "5.12.0" && launch.os == "18.0")
        #expect(launch.model == "iPhone15,2" && launch.process == nil)
        #expect(launch.ended == .logEnded && launch.endState == "active")
    }

    // MARK: Intervals

    @Test func callbacksArePairedBeginToEnd() throws {
        let replayed = try Self.replay(Self.session)
        let callbacks = replayed.callbacks
        #expect(callbacks.map(\.callback) == ["didFinishLaunching", "didEnterBackground"])
        #expect(callbacks.allSatisfy { $0.outcome == .returned && $0.end != nil })
        #expect(abs(callbacks[0].seconds - 0.1) < 1e-9)
        #expect(callbacks[0].budget == nil && callbacks[0].overBudget == nil)
        #expect(callbacks[1].budget == "did-enter-background" && callbacks[1].budgetSeconds == 5)
        #expect(callbacks[1].overBudget == false && callbacks[1].seconds == 1)
        // The background period: from didEnterBackground's begin to the suspend.
        #expect(replayed.periods == [BackgroundPeriod(seconds: 2, ended: .suspended)])
    }

    @Test func aCallbackCutOffIsMeasuredToWhatCutIt() throws {
        let replayed = try Self.replay("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L1","ts":1,"seq":1,"event":"didBecomeActive"}
            {"launch":"L1","ts":9,"seq":2,"event":"willResignActive"}
            {"launch":"L1","ts":10,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"launch":"L1","ts":17,"seq":4,"event":"suspend"}
            {"launch":"L2","ts":100,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":101,"seq":1,"event":"didBecomeActive"}
            {"launch":"L2","ts":109,"seq":2,"event":"willResignActive"}
            {"launch":"L2","ts":110,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"launch":"L2","ts":112,"seq":4,"event":"terminate","reason":"watchdog"}
            {"launch":"L3","ts":200,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L3","ts":201,"seq":1,"event":"didBecomeActive"}
            {"launch":"L3","ts":209,"seq":2,"event":"willResignActive"}
            {"launch":"L3","ts":210,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"launch":"L3","ts":290,"seq":4,"event":"snapshot"}
            """)
        let calls = replayed.callbacks
        #expect(calls.map(\.outcome) == [.suspended, .terminated, .logEnded])
        #expect(calls.map(\.seconds) == [7, 2, 80])
        #expect(calls.allSatisfy { $0.end == nil })
        // Over budget when cut off by a suspend or terminate, as the overrun rule measures it; the
        // end of a log is no evidence either way.
        #expect(calls.map(\.overBudget) == [true, false, nil])
        let overruns = replayed.findings.filter { $0.rule == "did-enter-background-overrun" }
        #expect(overruns.count == 1 && overruns.first?.launch == "L1")
        // The periods: suspended, terminated, and still under way when the log ended.
        #expect(replayed.periods == [
            BackgroundPeriod(seconds: 7, ended: .suspended), BackgroundPeriod(seconds: 2, ended: .terminated),
            BackgroundPeriod(seconds: 80, ended: .logEnded),
        ])
    }

    @Test func aCallbackBegunAgainRestartsAndScenesAndActivitiesPairApart() throws {
        let replayed = try Self.replay("""
            {"ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"end"}
            {"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.3,"seq":3,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.5,"seq":4,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.6,"seq":5,"event":"scene.willConnect","scene":"A"}
            {"ts":0.61,"seq":6,"event":"scene.willConnect","scene":"B"}
            {"ts":0.7,"seq":7,"event":"scene.willEnterForeground","scene":"A"}
            {"ts":0.71,"seq":8,"event":"scene.willEnterForeground","scene":"B"}
            {"ts":1,"seq":9,"event":"expiringActivity","phase":"begin","reason":"upload"}
            {"ts":2,"seq":10,"event":"expiringActivity","phase":"begin","reason":"sync"}
            {"ts":3,"seq":11,"event":"expiringActivity","phase":"end","reason":"upload"}
            {"ts":9,"seq":12,"event":"scene.didEnterBackground","scene":"A","phase":"begin"}
            {"ts":9.5,"seq":13,"event":"scene.didEnterBackground","scene":"B","phase":"begin"}
            {"ts":10,"seq":14,"event":"scene.didEnterBackground","scene":"A","phase":"end"}
            {"ts":16,"seq":15,"event":"scene.didEnterBackground","scene":"B","phase":"end"}
            {"ts":17,"seq":16,"event":"expiringActivity","phase":"end","reason":"sync"}
            """)
        let calls = replayed.callbacks.map { ($0.callback, $0.scene, $0.outcome, $0.seconds) }
        // The end without a begin (the log began while it ran) is passed over.
        #expect(calls.count == 6)
        #expect(calls[0].0 == "didFinishLaunching" && abs(calls[0].3 - 0.1) < 1e-9)
        #expect(calls[0].2 == .restarted && calls[1].2 == .returned)
        #expect(abs(calls[1].3 - 0.2) < 1e-9)
        #expect(calls[2].0 == "expiringActivity" && calls[2].3 == 2)
        #expect(calls[3].0 == "scene.didEnterBackground" && calls[3].1 == "A" && calls[3].3 == 1)
        #expect(calls[4].1 == "B" && calls[4].3 == 6.5)
        #expect(replayed.callbacks[4].overBudget == true)
        #expect(calls[5].0 == "expiringActivity" && calls[5].3 == 15)
        #expect(replayed.findings.filter { $0.rule == "did-enter-background-overrun" }.count == 1)
    }

    // MARK: Tasks

    @Test func eachPieceOfWorkIsWrittenDownWithWhatBecameOfIt() throws {
        let replayed = try Self.replay("""
            {"ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.4,"seq":2,"event":"didFinishLaunching","phase":"end"}
            {"ts":1,"seq":3,"event":"didBecomeActive"}
            {"ts":2,"seq":4,"event":"beginBackgroundTask","task":1,"name":"save"}
            {"ts":3,"seq":5,"event":"beginBackgroundTask","task":2,"name":"upload"}
            {"ts":4,"seq":6,"event":"beginBackgroundTask","task":3,"name":"sync"}
            {"ts":5,"seq":7,"event":"endBackgroundTask","task":1}
            {"ts":6,"seq":8,"event":"beginBackgroundTask","task":2,"name":"upload again"}
            {"ts":9,"seq":9,"event":"willResignActive"}
            {"ts":10,"seq":10,"event":"didEnterBackground","phase":"begin"}
            {"ts":10.2,"seq":11,"event":"didEnterBackground","phase":"end"}
            {"ts":38,"seq":12,"event":"backgroundTaskExpired","task":3}
            {"ts":45,"seq":13,"event":"endBackgroundTask","task":3}
            {"ts":46,"seq":14,"event":"snapshot"}
            {"ts":47,"seq":15,"event":"suspend"}
            """)
        let tasks = replayed.tasks
        #expect(tasks.allSatisfy { $0.kind == .backgroundTask && $0.launch == 0 })
        // Task 1 completed; task 2 was begun again (replaced); task 3 ended 7 s after its expiry;
        // the second task 2 never ended before the suspend.
        #expect(tasks.map(\.outcome) == [.completed, .replaced, .expired, .neverCompleted])
        #expect(tasks.map(\.task) == [1, 2, 3, 2])
        #expect(tasks.map(\.identifier) == ["save", "upload", "sync", "upload again"])
        #expect(tasks.map(\.seconds) == [3, 3, 41, 41])
        #expect(tasks[2].expired == Timestamp(seconds: 38) && tasks[2].closed == Timestamp(seconds: 45))
        // Measured against the background time from the start of the background period.
        #expect(tasks[0].budget == nil && tasks[0].overBudget == nil)
        #expect(tasks[2].budget == "background-time" && tasks[2].measured == 35 && tasks[2].overBudget == true)
        // The task still open at the suspend is measured to it, against the period the suspend ended.
        #expect(tasks[3].budget == "background-time" && tasks[3].budgetSeconds == 30)
        #expect(tasks[3].measured == 37 && tasks[3].overBudget == true)
        // Each finding a task caused is named by its number in the replay's findings.
        for task in tasks {
            guard let number = task.findingNumber else { continue }
            #expect(replayed.findings[number].rule == task.findingRule)
            #expect(replayed.findings[number].launch == "L1")
        }
        #expect(tasks[2].findingRule == "background-task-expired")
        #expect(tasks[3].findingRule == "background-task-not-ended")
        #expect(tasks[0].findingNumber == nil && tasks[1].findingNumber == nil)
    }

    /// A `backgroundTimeRemaining` reading sets the budget of the work still open at the suspend:
    /// the time the period had spent at the reading, plus what the reading said remained.
    @Test func workOpenAtASuspendIsMeasuredAgainstTheLatestReadingOfItsPeriod() throws {
        // Task 1 begun at 5 in the foreground; the background period begins at 10.
        let replayed = try Self.replay(BackgroundTimeTests.intoBackground + """

            {"ts":12,"seq":11,"event":"backgroundTimeRemaining","value":20}
            {"ts":20,"seq":12,"event":"suspend"}
            """)
        let task = try #require(replayed.tasks.first)
        #expect(task.outcome == .neverCompleted && task.seconds == 15)
        #expect(task.budget == "background-time" && task.budgetSeconds == 22)
        #expect(task.measured == 10 && task.overBudget == false)
    }

    @Test func aBGTaskRunIsMeasuredAgainstItsTypesBudget() throws {
        let trace = BackgroundTasksTests.session("L1", at: 0, submits: [
            #"{"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}"#,
        ]) + "\n" + BackgroundTasksTests.run("L2", at: 1000, identifier: "com.example.refresh", seconds: 41)
        let replayed = try Self.replay(trace)
        let run = try #require(replayed.tasks.first { $0.kind == .bgtask })
        #expect(run.identifier == "com.example.refresh" && run.task == 1 && run.launch == 1)
        #expect(run.outcome == .overBudget && run.budget == "refresh-task" && run.budgetSeconds == 30)
        #expect(abs(run.seconds - 41) < 1e-6 && run.overBudget == true)
        let number = try #require(run.findingNumber)
        #expect(replayed.findings[number].rule == "bgtask-refresh-overrun")
        #expect(run.findingRule == "bgtask-refresh-overrun")
        // Its request: submitted in L1, run in L2, waiting from its submit (no earliest begin date).
        let request = try #require(replayed.requests.first)
        #expect(replayed.requests.count == 1)
        #expect(request.outcome == .launched && request.launch == 0 && request.ranIn == 1 && request.task == 1)
        #expect(request.identifier == "com.example.refresh" && request.type == "refresh")
        #expect(request.ended == Timestamp(seconds: 1001))
        #expect(request.waitSeconds.map { abs($0 - (1001 - 10.01)) < 1e-6 } == true)
    }

    // MARK: Requests

    @Test func everySubmitIsARequestWithItsFate() throws {
        let trace = """
            {"ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":1,"seq":1,"event":"didBecomeActive"}
            {"ts":2,"seq":2,"event":"bgtask.submit","identifier":"a","type":"refresh","earliest_begin":1000}
            {"ts":3,"seq":3,"event":"bgtask.submit","identifier":"a","type":"refresh","earliest_begin":2000}
            {"ts":4,"seq":4,"event":"bgtask.submit","identifier":"b","type":"refresh"}
            {"ts":5,"seq":5,"event":"bgtask.submit","identifier":"c","type":"processing","requires_power":true}
            {"ts":6,"seq":6,"event":"bgtask.submit","identifier":"d","type":"processing","error":"notPermitted"}
            {"ts":7,"seq":7,"event":"bgtask.submit","identifier":"e","type":"nightly"}
            {"ts":8,"seq":8,"event":"bgtask.cancel","identifier":"c"}
            {"ts":9,"seq":9,"event":"bgtask.submit","identifier":"f","type":"processing"}
            {"ts":10,"seq":10,"event":"bgtask.launch","identifier":"a","task":7}
            {"ts":11,"seq":11,"event":"bgtask.complete","task":7,"success":true}
            {"ts":12,"seq":12,"event":"bgtask.submit","identifier":"g","type":"processing"}
            {"ts":13,"seq":13,"event":"bgtask.cancel"}
            {"ts":14,"seq":14,"event":"bgtask.submit","identifier":"h","type":"processing"}
            """
        let replayed = try Self.replay(trace)
        let requests = replayed.requests.map { ($0.identifier, $0.outcome) }
        // In the order each was settled: a replaced; b over the one-refresh limit (a is pending);
        // d threw; e names no type; c cancelled; the second a ran; f and g cancelled by the cancel
        // of every request; h still pending when the log ended.
        #expect(requests.map(\.0) == ["a", "b", "d", "e", "c", "a", "f", "g", "h"])
        #expect(requests.map(\.1) == [
            .replaced, .overLimit, .rejected, .untyped, .cancelled, .launched, .cancelled, .cancelled, .pending,
        ])
        let all = replayed.requests
        #expect(all[0].ended == Timestamp(seconds: 3) && all[0].earliestBegin == Timestamp(seconds: 1000))
        #expect(all[2].error == "notPermitted" && all[2].ended == nil)
        #expect(all[4].requiresPower == true && all[4].ended == Timestamp(seconds: 8))
        // It ran before its earliest begin date: a negative wait says so.
        #expect(all[5].waitSeconds == 10 - 2000 && all[5].ranIn == 0 && all[5].task == 7)
        #expect(all[8].ended == nil && all[8].waitSeconds == nil)
        #expect(replayed.findings.filter { $0.rule == "bgtask-too-many-pending" }.count == 1)
    }

    // MARK: Consistency

    @Test func recordingChangesNoFinding() throws {
        let trace = Self.session + "\n" + """
            {"launch":"L2","ts":200,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":201,"seq":1,"event":"didBecomeActive"}
            {"launch":"L2","ts":202,"seq":2,"event":"beginBackgroundTask","task":1}
            {"launch":"L2","ts":209,"seq":3,"event":"willResignActive"}
            {"launch":"L2","ts":210,"seq":4,"event":"didEnterBackground","phase":"begin"}
            {"launch":"L2","ts":217,"seq":5,"event":"didEnterBackground","phase":"end"}
            {"launch":"L2","ts":250,"seq":6,"event":"terminate","reason":"watchdog"}
            """
        let events = try ExampleTrace(Example(trace)).events
        let plain = Replayer.findings(in: events, book: RuleCatalog.standard)
        let replayed = try Self.replay(trace)
        #expect(plain == replayed.findings)
        #expect(replayed.findings.contains { $0.rule == "termination-explained" })
        #expect(replayed.launches.count == 2)
    }
}
