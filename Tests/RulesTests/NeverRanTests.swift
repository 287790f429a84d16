import Replay
import Rules
import Testing
import TraceModel

/// `bgtask-never-ran` and `fetch-never-ran`: pending periods across launches, the wait's start
/// and end, the moment of the finding, and each factor's share of the wait.
@Suite struct NeverRanTests {
    static func findings(_ trace: String, budgets: Budgets = Budgets()) throws -> [Finding] {
        try workFindings(trace, budgets: budgets).filter { $0.rule == "bgtask-never-ran" || $0.rule == "fetch-never-ran" }
    }

    static func at(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }

    /// A user launch `L1` at 0 that registers the refresh and submits it (with `attributes`) at 1.
    static func submitted(_ attributes: String = "") -> String {
        """
        {"ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.2,"seq":2,"event":"bgtask.register","identifier":"com.example.refresh"}
        {"ts":0.3,"seq":3,"event":"didFinishLaunching","phase":"end"}
        {"ts":1,"seq":4,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"\(attributes)}
        """
    }

    /// A push launch (not a user open) of launch `launch` at `t`.
    static func pushLaunch(_ launch: String, at t: Double) -> String {
        #"{"ts":\#(t),"launch":"\#(launch)","seq":0,"event":"launch","reason":"system","cause":"push"}"#
    }

    // MARK: The wait

    @Test func theWaitIsMeasuredFromTheEarliestBeginDate() throws {
        // Earliest begin 2 h after the submit: 24 h after the submit is not yet too long.
        let trace = Self.submitted(#","earliest_begin":"1970-01-01T02:00:00Z""#)
        #expect(try Self.findings(trace + "\n" + Self.pushLaunch("L2", at: 86_500)).isEmpty)
        let late = try Self.findings(trace + "\n" + Self.pushLaunch("L2", at: 86_500) + "\n" + Self.pushLaunch("L3", at: 93_601))
        #expect(late.map(\.ts) == [Self.at(93_601)])
        #expect(late.first?.launch == "L3")
        #expect(late.first?.measured == 86_401)
        #expect(late.first?.budget == "task-wait")
        #expect(late.first?.budgetSeconds == 86_400)
        // Exactly the budget is not more than it.
        #expect(try Self.findings(trace + "\n" + Self.pushLaunch("L2", at: 93_600)).isEmpty)
    }

    @Test func aSubmitWithoutEarliestBeginWaitsFromItsSubmit() throws {
        let found = try Self.findings(Self.submitted() + "\n" + Self.pushLaunch("L2", at: 86_402))
        #expect(found.map(\.ts) == [Self.at(86_402)])
        #expect(found.first?.measured == 86_401)
        #expect(found.first?.message.contains("since it was submitted at 1970-01-01 00:00 UTC") == true)
    }

    @Test func replacingSubmitsExtendTheSamePeriod() throws {
        let trace = Self.submitted() + "\n" + """
            {"ts":50000,"seq":5,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
            {"ts":80000,"seq":6,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
            {"ts":86402,"seq":7,"event":"memoryWarning"}
            {"ts":100000,"seq":8,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
            {"ts":200000,"seq":9,"event":"memoryWarning"}
            """
        let found = try Self.findings(trace)
        // Measured from the first submit of the period; one finding for the whole period.
        #expect(found.map(\.ts) == [Self.at(86_402)])
        #expect(found.first?.events.map(\.ts) == [Self.at(1), Self.at(80_000), Self.at(86_402)])
        // Resubmits with no later earliest begin date are no factor of their own.
        #expect(found.first?.factors.map(\.kind).contains(.rescheduled) == false)
    }

    @Test func aCancelEndsThePeriodAndTheNextSubmitBeginsAnother() throws {
        let cancelled = Self.submitted() + "\n" + """
            {"ts":1000,"seq":5,"event":"bgtask.cancel","identifier":"com.example.refresh"}
            {"ts":100000,"seq":6,"event":"memoryWarning"}
            """
        #expect(try Self.findings(cancelled).isEmpty)
        let all = Self.submitted() + "\n" + """
            {"ts":1000,"seq":5,"event":"bgtask.cancel"}
            {"ts":100000,"seq":6,"event":"memoryWarning"}
            """
        #expect(try Self.findings(all).isEmpty)
        let again = Self.submitted() + "\n" + """
            {"ts":1000,"seq":5,"event":"bgtask.cancel","identifier":"com.example.refresh"}
            {"ts":2000,"seq":6,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
            {"ts":88000,"seq":7,"event":"memoryWarning"}
            {"ts":88401,"seq":8,"event":"memoryWarning"}
            """
        let found = try Self.findings(again)
        #expect(found.map(\.ts) == [Self.at(88_401)])
        #expect(found.first?.measured == 86_401)
    }

    @Test func aLogThatEndsBeforeTheBudgetPassesIsNoEvidence() throws {
        let trace = Self.submitted() + "\n" + """
            {"ts":86000,"seq":5,"event":"memoryWarning"}
            {"ts":86401,"seq":6,"event":"memoryWarning"}
            """
        #expect(try Self.findings(trace).isEmpty)
    }

    @Test func aRunEndsThePeriodButARunAfterTheBudgetComesTooLate() throws {
        let run = #"{"ts":%T,"seq":5,"event":"bgtask.launch","identifier":"com.example.refresh","task":1}"#
        let inTime = Self.submitted() + "\n" + run.replacingOccurrences(of: "%T", with: "80000") + "\n"
            + #"{"ts":200000,"seq":6,"event":"memoryWarning"}"#
        #expect(try Self.findings(inTime).isEmpty)
        let late = Self.submitted() + "\n" + run.replacingOccurrences(of: "%T", with: "90000") + "\n"
            + #"{"ts":200000,"seq":6,"event":"memoryWarning"}"#
        #expect(try Self.findings(late).map(\.ts) == [Self.at(90_000)])
    }

    @Test func aSubmitThatThrewOrWasRefusedSchedulesNothing() throws {
        let threw = Self.submitted(#","error":"unavailable""#) + "\n" + Self.pushLaunch("L2", at: 100_000)
        #expect(try Self.findings(threw).isEmpty)
        // A second refresh request is over the limit of one: refused, it never waits.
        let refused = Self.submitted() + "\n" + """
            {"ts":2,"seq":5,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh"}
            {"ts":3,"seq":6,"event":"bgtask.launch","identifier":"com.example.refresh","task":1}
            {"ts":100000,"seq":7,"event":"memoryWarning"}
            """
        #expect(try Self.findings(refused).isEmpty)
    }

    @Test func theBudgetIsConfigurable() throws {
        let trace = Self.submitted() + "\n" + Self.pushLaunch("L2", at: 4000)
        #expect(try Self.findings(trace).isEmpty)
        let found = try Self.findings(trace, budgets: Budgets([.taskWait: 3600]))
        #expect(found.map(\.budgetSeconds) == [3600])
        #expect(found.first?.message.contains("more than task-wait (1 h)") == true)
    }

    // MARK: Factors

    /// A wait of exactly 100,000 s (submit at 0, the finding at 100,000) with readings at round
    /// times, so that each share is a round fraction.
    static let factorTrace = """
        {"ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0,"seq":1,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
        {"ts":0.1,"seq":2,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.2,"seq":3,"event":"bgtask.register","identifier":"com.example.refresh"}
        {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"end"}
        {"ts":10000,"seq":5,"event":"power","low_power_mode":false,"battery":0.9,"charging":false}
        {"ts":20000,"seq":6,"event":"power","low_power_mode":true,"battery":0.5,"charging":false}
        {"ts":50000,"seq":7,"event":"power","low_power_mode":false,"battery":0.15,"charging":false}
        {"ts":60000,"seq":8,"event":"power","low_power_mode":false,"battery":0.16,"charging":true}
        {"ts":60000,"seq":9,"event":"refreshStatus","status":"denied"}
        {"ts":80000,"seq":10,"event":"terminate","reason":"user"}
        {"ts":100000,"launch":"L2","seq":0,"event":"launch","reason":"system","cause":"push"}
        """

    @Test func eachFactorCoversItsShareOfTheWaitMostFirst() throws {
        let found = try Self.findings(Self.factorTrace)
        #expect(found.count == 1)
        let factors = try #require(found.first?.factors)
        #expect(factors.map(\.kind) == [.appUnused, .refreshDisabled, .lowPowerMode, .swipedAway, .lowBattery])
        #expect(factors.map(\.share) == [1, 0.4, 0.3, 0.2, 0.1])
        let evidence = factors.map { $0.evidence.map(\.ts) }
        #expect(evidence == [[Self.at(0)], [Self.at(60_000)], [Self.at(20_000)], [Self.at(80_000)], [Self.at(50_000)]])
        #expect(factors.first?.evidence.first?.name == "launch")
        #expect(factors[3].evidence.first?.name == "terminate")
    }

    @Test func theMessageNamesTheWaitEachFactorAndWhatToDo() throws {
        let message = try #require(try Self.findings(Self.factorTrace).first?.message)
        #expect(message == "The refresh request com.example.refresh has waited 27.8 h since it was submitted at "
            + "1970-01-01 00:00 UTC with no bgtask.launch, more than task-wait (24 h): the user did not open the "
            + "app during the wait (last opened 1970-01-01 00:00 UTC), Background App Refresh was off for 40% of "
            + "it, Low Power Mode was on for 30% of it, the user swiped the app away at 1970-01-01 22:13 UTC and "
            + "did not open it again for 20% of it and the battery was at 20% or less and not charging for 10% "
            + "of it; these are the user's and the device's settings, not the app's doing: do not count on the "
            + "task running, and do its work when the app is opened.")
    }

    @Test func aConditionOnBeforeTheWaitCountsFromItsStart() throws {
        // Low Power Mode on before the request (whose wait starts at its earliest begin date),
        // and the app opened again by the user at 50,000: no swipe or unused app after that.
        let trace = """
            {"ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0,"seq":1,"event":"power","low_power_mode":true,"battery":0.5,"charging":false}
            {"ts":0,"seq":2,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh","earliest_begin":"1970-01-01T02:46:40Z"}
            {"ts":5000,"seq":3,"event":"terminate","reason":"user"}
            {"ts":50000,"launch":"L2","seq":0,"event":"launch","reason":"user"}
            {"ts":110000,"launch":"L2","seq":1,"event":"memoryWarning"}
            """
        let factors = try #require(try Self.findings(trace).first?.factors)
        // Wait 10,000 → 110,000: Low Power Mode all of it, the swipe from 10,000 to 50,000.
        #expect(factors.map(\.kind) == [.lowPowerMode, .swipedAway])
        #expect(factors.map(\.share) == [1, 0.4])
        #expect(factors.map { $0.evidence.map(\.ts) } == [[Self.at(0)], [Self.at(5000)]])
    }

    /// The request's own conditions: a processing request that requires power and network, a
    /// launch that does not register it, a resubmit that moves its earliest begin date later.
    @Test func theRequestsOwnFactorsAndWhatToDo() throws {
        let trace = """
            {"ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0,"seq":1,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true,"requires_network":true}
            {"ts":0.1,"seq":2,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.2,"seq":3,"event":"bgtask.register","identifier":"com.example.cleanup"}
            {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"end"}
            {"ts":1000,"seq":5,"event":"power","low_power_mode":false,"battery":0.8,"charging":false}
            {"ts":1000,"seq":6,"event":"network","reachable":false,"wifi":false}
            {"ts":2000,"seq":7,"event":"terminate","reason":"quiet"}
            {"ts":40000,"launch":"L2","seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":40000.1,"launch":"L2","seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":40000.2,"launch":"L2","seq":2,"event":"bgtask.register","identifier":"com.example.refresh"}
            {"ts":40000.3,"launch":"L2","seq":3,"event":"didFinishLaunching","phase":"end"}
            {"ts":50000,"launch":"L2","seq":4,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true,"requires_network":false,"earliest_begin":"1970-01-01T22:13:20Z"}
            {"ts":100000,"launch":"L3","seq":0,"event":"launch","reason":"system","cause":"push"}
            """
        let finding = try #require(try Self.findings(trace).first)
        #expect(finding.factors.map(\.kind) == [.appUnused, .powerRequired, .notRegistered, .networkRequired, .rescheduled])
        #expect(finding.factors.map(\.share) == [1, 1, 0.6, 0.5, 0.3])
        #expect(finding.factors.map { $0.evidence.map(\.ts) } == [
            [Self.at(0)], [Self.at(0)], [Self.at(40_000)], [Self.at(0)], [Self.at(50_000)],
        ])
        #expect(finding.message.contains("register com.example.cleanup with BGTaskScheduler"))
        #expect(finding.message.contains("launches from 1970-01-01 11:06 UTC did not register it, for 60% of it"))
    }

    @Test func aChargingOrReachableReadingDuringTheWaitClearsTheRequirement() throws {
        let trace = """
            {"ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":0,"seq":1,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true,"requires_network":true}
            {"ts":30000,"seq":2,"event":"power","low_power_mode":false,"battery":0.8,"charging":true}
            {"ts":30000,"seq":3,"event":"network","reachable":true,"wifi":true}
            {"ts":100000,"seq":4,"event":"memoryWarning"}
            """
        let finding = try #require(try Self.findings(trace).first)
        #expect(finding.factors.map(\.kind) == [.appUnused])
    }

    @Test func aWaitTheLogShowsNoReasonForHasNoFactors() throws {
        let trace = """
            {"ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":0,"seq":1,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
            {"ts":50000,"launch":"L2","seq":0,"event":"launch","reason":"user"}
            {"ts":100000,"launch":"L2","seq":1,"event":"memoryWarning"}
            """
        let finding = try #require(try Self.findings(trace).first)
        #expect(finding.factors.isEmpty)
        #expect(finding.message.hasSuffix(
            "and the log shows nothing that held it back (system budgets and rate limits do not show in a log); "
                + "log power and refreshStatus readings to see more, and do not count on the task running."))
    }

    /// Numbers from input at the ends of their range: nothing traps, a wait that begins at the end
    /// of time never passes its budget, one from a date long past (or none that reads as a time)
    /// is measured from its submit.
    @Test(arguments: ["1e300", "-1e300", "1e999", "-1e999", #""9999-12-31T23:59:59Z""#, #""0001-01-01T00:00:00Z""#, "true"])
    func extremeEarliestBeginDatesNeverTrap(_ earliest: String) throws {
        let trace = Self.submitted(#","earliest_begin":\#(earliest)"#) + "\n" + """
            {"ts":50000,"seq":5,"event":"power","low_power_mode":true,"battery":1e999,"charging":false}
            {"ts":60000,"seq":6,"event":"power","low_power_mode":false,"battery":-1e999,"charging":true}
            {"ts":70000,"seq":7,"event":"network","reachable":"yes","wifi":1e999}
            {"ts":80000,"seq":8,"event":"refreshStatus","status":"\\u0000"}
            {"ts":"9999-12-31T00:00:00Z","seq":9,"event":"memoryWarning"}
            """
        let found = try Self.findings(trace)
        // 1e999 is no number the attributes keep: no earliest begin date, so the wait counts from the submit.
        let future = ["1e300", #""9999-12-31T23:59:59Z""#].contains(earliest)
        #expect(found.count == (future ? 0 : 1), "\(found.map(\.message))")
        for finding in found {
            #expect(finding.measured.map(\.isFinite) == true)
            #expect(finding.factors.allSatisfy { (0...1).contains($0.share) })
            #expect(finding.events.first?.ts == Self.at(1))
        }
    }

    @Test(arguments: ["1e999", "-1e999", "-0", "999999999.9", "1e-300"])
    func extremeFetchIntervals(_ interval: String) throws {
        let found = try Self.findings(Self.fetchTrace(interval, then: #"{"ts":90000,"seq":2,"event":"memoryWarning"}"#))
        let explicit = ["999999999.9", "1e-300"].contains(interval)
        #expect(found.map(\.rule) == (explicit ? ["fetch-never-ran"] : []))
    }

    // MARK: Fetch

    static func fetchTrace(_ interval: String, then lines: String) -> String {
        """
        {"ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":1,"seq":1,"event":"fetch.setMinimumInterval","interval":\(interval)}
        \(lines)
        """
    }

    @Test func anExplicitFetchIntervalWaitsUntilAFetch() throws {
        let found = try Self.findings(Self.fetchTrace("3600", then: #"{"ts":90000,"seq":2,"event":"memoryWarning"}"#))
        #expect(found.map(\.rule) == ["fetch-never-ran"])
        #expect(found.first?.message.hasPrefix(
            "Background fetch has not run for 25 h since the app set a minimum interval of 3600 s at "
                + "1970-01-01 00:00 UTC, more than task-wait (24 h): the user did not open the app") == true)
        // The first set since the last fetch counts; a fetch ends the wait.
        let reset = try Self.findings(Self.fetchTrace("3600", then: """
            {"ts":50000,"seq":2,"event":"fetch.setMinimumInterval","interval":1800}
            {"ts":60000,"seq":3,"event":"fetch.perform","call":1}
            {"ts":60001,"seq":4,"event":"fetch.setMinimumInterval","interval":1800}
            {"ts":140000,"seq":5,"event":"memoryWarning"}
            {"ts":146402,"seq":6,"event":"memoryWarning"}
            """))
        #expect(reset.map(\.ts) == [Self.at(146_402)])
    }

    @Test(arguments: ["0", "1e9", "1.7976931348623157e308", "-5"])
    func noExplicitIntervalNoWait(_ interval: String) throws {
        #expect(try Self.findings(Self.fetchTrace(interval, then: #"{"ts":90000,"seq":2,"event":"memoryWarning"}"#)).isEmpty)
    }

    @Test func settingTheIntervalToNeverEndsTheWait() throws {
        let trace = Self.fetchTrace("3600", then: """
            {"ts":1000,"seq":2,"event":"fetch.setMinimumInterval","interval":1.7976931348623157e308}
            {"ts":90000,"seq":3,"event":"memoryWarning"}
            """)
        #expect(try Self.findings(trace).isEmpty)
    }

    @Test func fetchFactorsAreTheUsersAndTheDevicesOnly() throws {
        let trace = Self.fetchTrace("3600", then: """
            {"ts":1,"seq":2,"event":"refreshStatus","status":"restricted"}
            {"ts":90001,"seq":3,"event":"memoryWarning"}
            """)
        let finding = try #require(try Self.findings(trace).first)
        #expect(finding.factors.map(\.kind) == [.refreshDisabled, .appUnused])
        #expect(finding.factors.first?.share == 1)
        #expect(finding.message.hasSuffix("move the work to a BGAppRefreshTask, and do not count on it running."))
    }
}
