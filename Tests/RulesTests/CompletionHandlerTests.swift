import Replay
import Rules
import Testing
import TraceModel

/// Completion handlers: fetch, background push (and its rate across launches), URL session
/// events and the Notification Service Extension.
@Suite struct CompletionHandlerTests {
    /// The app resumed (or, first, launched) for one background push at `t`, completed after
    /// `seconds`. Pushes of one launch share it; `first` starts the launch.
    static func push(
        at t: Double, call: Int, launch: String = "L1", first: Bool = false, seq: Int, seconds: Double = 2,
        attributes: String = #""content_available":true,"priority":5,"push_type":"background""#
    ) -> String {
        let start = first
            ? #"{"ts":\#(t),"launch":"\#(launch)","seq":\#(seq),"event":"launch","reason":"system","cause":"push"}"#
            : #"{"ts":\#(t),"launch":"\#(launch)","seq":\#(seq),"event":"resume","reason":"system","cause":"push"}"#
        return [
            start,
            #"{"ts":\#(t + 0.1),"launch":"\#(launch)","seq":\#(seq + 1),"event":"didEnterBackground","phase":"begin"}"#,
            #"{"ts":\#(t + 0.2),"launch":"\#(launch)","seq":\#(seq + 2),"event":"didEnterBackground","phase":"end"}"#,
            #"{"ts":\#(t + 0.5),"launch":"\#(launch)","seq":\#(seq + 3),"event":"push.receive","call":\#(call),\#(attributes)}"#,
            #"{"ts":\#(t + 0.5 + seconds),"launch":"\#(launch)","seq":\#(seq + 4),"event":"push.complete","call":\#(call),"result":"newData"}"#,
            #"{"ts":\#(t + 0.6 + seconds),"launch":"\#(launch)","seq":\#(seq + 5),"event":"snapshot"}"#,
            #"{"ts":\#(t + 1 + seconds),"launch":"\#(launch)","seq":\#(seq + 6),"event":"suspend"}"#,
        ].joined(separator: "\n")
    }

    /// Background pushes received at the given times (their `push.receive` is at `t + 0.5`),
    /// one resume each, in one launch.
    static func pushes(at times: [Double]) -> String {
        times.enumerated().map { index, t in
            push(at: t, call: index + 1, first: index == 0, seq: index * 7)
        }.joined(separator: "\n")
    }

    // MARK: Push rate

    @Test func theFourthPushWithinAnHourIsLimited() throws {
        let result = try workFindings(Self.pushes(at: [0, 1000, 2000, 3000]))
        #expect(result.map(\.rule) == ["push-rate-limited"])
        #expect(result.first?.ts == Timestamp(seconds: 3000.5))
        #expect(result.first?.measured == 3000)
        #expect(result.first?.events.count == 4)
    }

    @Test func theWindowSlides() throws {
        // At 3700 the pushes of 1000, 2000 and 3000 are within the hour (0 has left it); at
        // 5000 only 2000, 3000 and 3700 are; at 6700 only 3700 and 5000.
        let result = try workFindings(Self.pushes(at: [0, 1000, 2000, 3000, 3700, 5000, 6700]))
        #expect(result.map(\.ts) == [3000.5, 3700.5, 5000.5].map { Timestamp(seconds: $0) })
    }

    @Test func exactlyAnHourApartIsNotWithinTheHour() throws {
        #expect(try workFindings(Self.pushes(at: [0, 1000, 2000, 3600])).isEmpty)
        #expect(try workFindings(Self.pushes(at: [0, 1000, 2000, 3599.9])).map(\.rule) == ["push-rate-limited"])
    }

    @Test func theRateIsCountedAcrossLaunches() throws {
        let trace = [
            Self.push(at: 0, call: 1, launch: "L1", first: true, seq: 0),
            Self.push(at: 600, call: 2, launch: "L1", seq: 7),
            #"{"ts":900,"launch":"L1","seq":14,"event":"terminate","reason":"quiet"}"#,
            Self.push(at: 1200, call: 1, launch: "L2", first: true, seq: 0),
            Self.push(at: 1800, call: 2, launch: "L2", seq: 7),
        ].joined(separator: "\n")
        let result = try workFindings(trace)
        #expect(result.map(\.rule) == ["push-rate-limited"])
        #expect(result.first?.launch == "L2")
    }

    @Test func onlyContentAvailablePushesCount() throws {
        let alert = #""content_available":false,"priority":10,"push_type":"alert""#
        let trace = [
            Self.push(at: 0, call: 1, first: true, seq: 0),
            Self.push(at: 600, call: 2, seq: 7, attributes: alert),
            Self.push(at: 1200, call: 3, seq: 14),
            Self.push(at: 1800, call: 4, seq: 21, attributes: alert),
            Self.push(at: 2400, call: 5, seq: 28),
        ].joined(separator: "\n")
        #expect(try workFindings(trace).isEmpty)
    }

    @Test func headersAreJudgedOnlyWhenLogged() throws {
        let missing = try workFindings(Self.push(at: 0, call: 1, first: true, seq: 0, attributes: #""content_available":true"#))
        #expect(missing.isEmpty)
        let both = try workFindings(Self.push(
            at: 0, call: 1, first: true, seq: 0,
            attributes: #""content_available":true,"priority":10,"push_type":"alert""#))
        #expect(both.map(\.rule) == ["push-not-background"])
        #expect(both.first?.message.contains("apns-priority 10 and apns-push-type alert") == true)
    }

    // MARK: Completion budgets

    @Test func pushBudgetIsStrictlyExceededAndConfigurable() throws {
        #expect(try workFindings(Self.push(at: 0, call: 1, first: true, seq: 0, seconds: 30)).isEmpty)
        let late = try workFindings(Self.push(at: 0, call: 1, first: true, seq: 0, seconds: 30.2))
        #expect(late.map(\.rule) == ["push-overrun"])
        #expect(late.first?.message.contains("30.2 s after delivery; the budget is 30.0 s") == true)
        let relaxed = try workFindings(
            Self.push(at: 0, call: 1, first: true, seq: 0, seconds: 40), budgets: Budgets([.pushCompletion: 45]))
        #expect(relaxed.isEmpty)
    }

    @Test func fetchUsesMonoWhenBothEventsCarryIt() throws {
        let trace = """
            {"ts":0,"launch":"L1","seq":0,"mono":7,"event":"launch","reason":"system","cause":"fetch"}
            {"ts":0.3,"seq":1,"mono":7.3,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.4,"seq":2,"mono":7.4,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.5,"seq":3,"mono":7.5,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.6,"seq":4,"mono":7.6,"event":"didEnterBackground","phase":"end"}
            {"ts":1,"seq":5,"mono":8,"event":"fetch.perform","call":1}
            {"ts":2,"seq":6,"mono":41,"event":"fetch.complete","call":1,"result":"newData"}
            {"ts":2.1,"seq":7,"mono":41.1,"event":"snapshot"}
            {"ts":2.5,"seq":8,"mono":41.5,"event":"suspend"}
            """
        let result = try workFindings(trace)
        #expect(result.map(\.rule) == ["fetch-overrun"])
        #expect(result.first?.measured == 33)
    }

    @Test func aMissingHandlerIsDueAtSuspensionAndReportedOnce() throws {
        let trace = """
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"fetch"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.4,"seq":2,"event":"didFinishLaunching","phase":"end"}
            {"ts":0.5,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.6,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":1,"seq":5,"event":"fetch.perform","call":1}
            {"ts":2.1,"seq":6,"event":"snapshot"}
            {"ts":2.5,"seq":7,"event":"suspend"}
            {"ts":300,"seq":8,"event":"resume","reason":"system","cause":"fetch"}
            {"ts":300.1,"seq":9,"event":"didEnterBackground","phase":"begin"}
            {"ts":300.2,"seq":10,"event":"didEnterBackground","phase":"end"}
            {"ts":300.3,"seq":11,"event":"fetch.complete","call":1,"result":"failed"}
            {"ts":300.4,"seq":12,"event":"fetch.perform","call":2}
            {"ts":301,"seq":13,"event":"fetch.complete","call":2,"result":"noData"}
            {"ts":301.1,"seq":14,"event":"snapshot"}
            {"ts":301.5,"seq":15,"event":"suspend"}
            """
        let result = try workFindings(trace)
        #expect(result.map(\.rule) == ["fetch-completion-missing"])
        #expect(result.first?.ts == Timestamp(seconds: 2.5))
    }

    // MARK: URL session

    @Test func aResumedLaunchThatCreatedTheSessionEarlierIsFine() throws {
        let trace = """
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
            {"ts":0.3,"seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":0.35,"seq":2,"event":"urlsession.create","identifier":"s"}
            {"ts":0.4,"seq":3,"event":"didFinishLaunching","phase":"end"}
            {"ts":1,"seq":4,"event":"didBecomeActive"}
            {"ts":9,"seq":5,"event":"willResignActive"}
            {"ts":10,"seq":6,"event":"didEnterBackground","phase":"begin"}
            {"ts":10.1,"seq":7,"event":"didEnterBackground","phase":"end"}
            {"ts":10.2,"seq":8,"event":"snapshot"}
            {"ts":10.5,"seq":9,"event":"suspend"}
            {"ts":500,"seq":10,"event":"resume","reason":"system","cause":"urlsession"}
            {"ts":500.1,"seq":11,"event":"didEnterBackground","phase":"begin"}
            {"ts":500.2,"seq":12,"event":"didEnterBackground","phase":"end"}
            {"ts":500.3,"seq":13,"event":"urlsession.handleEvents","identifier":"s","call":1}
            {"ts":501,"seq":14,"event":"urlsession.didFinishEvents","identifier":"s"}
            {"ts":501.1,"seq":15,"event":"urlsession.complete","call":1}
            {"ts":501.2,"seq":16,"event":"snapshot"}
            {"ts":501.5,"seq":17,"event":"suspend"}
            """
        #expect(try workFindings(trace).isEmpty)
    }

    // MARK: Notification Service Extension

    @Test func theExtensionIsJudgedAtItsEndNotAtSuspension() throws {
        // The app's suspension says nothing about the extension process, which runs apart.
        let trace = """
            {"ts":0,"launch":"X1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"ts":0.2,"launch":"X1","seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
            {"ts":1,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"push"}
            {"ts":1.3,"launch":"L1","seq":1,"event":"didFinishLaunching","phase":"begin"}
            {"ts":1.4,"launch":"L1","seq":2,"event":"didFinishLaunching","phase":"end"}
            {"ts":1.5,"launch":"L1","seq":3,"event":"didEnterBackground","phase":"begin"}
            {"ts":1.6,"launch":"L1","seq":4,"event":"didEnterBackground","phase":"end"}
            {"ts":1.7,"launch":"L1","seq":5,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
            {"ts":2,"launch":"L1","seq":6,"event":"push.complete","call":1,"result":"newData"}
            {"ts":2.1,"launch":"L1","seq":7,"event":"snapshot"}
            {"ts":2.5,"launch":"L1","seq":8,"event":"suspend"}
            {"ts":20,"launch":"X1","seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
            {"ts":21,"launch":"X1","seq":3,"event":"nse.receive","call":2,"process":"extension:nse"}
            """
        // The log ends with call 2 open: not a missed handler but open work, at X1's last event.
        let result = try workFindings(trace, everyRule: true).filter { $0.launch == "X1" }
        #expect(result.map(\.rule) == ["log-ended-with-open-work"])
        #expect(result.first?.ts == Timestamp(seconds: 21))
        #expect(result.first?.message.contains("nse.receive (call 2)") == true)
    }

    @Test func nseBudgetIsConfigurable() throws {
        let trace = """
            {"ts":0,"launch":"X1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"ts":0.2,"launch":"X1","seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
            {"ts":20.2,"launch":"X1","seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
            """
        #expect(try workFindings(trace).isEmpty)
        let strict = try workFindings(trace, budgets: Budgets([.nseCompletion: 15]))
        #expect(strict.map(\.rule) == ["nse-overrun"])
        #expect(strict.first?.budgetSeconds == 15)
        #expect(strict.first?.measured == 20)
    }
}
