import Replay
@testable import Rules
import Testing
import TraceModel

/// The scheduling of background URL session tasks (trace format v1.1): delayed requests and how
/// tasks are created.
@Suite struct URLSessionSchedulingTests {
    // MARK: Delayed requests

    @Test func aDelayedRequestLeftOpenAtTheLogsEndIsOpenWork() throws {
        let findings = try LifecycleReplay.findings(ExampleTraces.delayedRequestDelivered)
        #expect(findings.map(\.rule) == ["log-ended-with-open-work"])
        #expect(findings.first?.message.contains("delayed request of task 7 of background session com.example.download (call 2)") == true)

        // A new launch with no terminate logged: the same.
        let superseded = try LifecycleReplay.findings("""
            \(ExampleTraces.delayedRequestDelivered)
            {"launch":"L2","ts":100,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":100.3,"seq":1,"event":"didBecomeActive"}
            """)
        #expect(!superseded.contains { $0.rule == "urlsession-delayed-request-completion-missing" })
        #expect(superseded.contains { $0.rule == "log-ended-with-open-work" })
    }

    @Test func aDelayedRequestMissingAtTheTerminateIsMissed() throws {
        let findings = try workFindings("""
            \(ExampleTraces.delayedRequestDelivered)
            {"ts":29,"seq":13,"event":"terminate","reason":"watchdog"}
            """)
        let missing = try #require(findings.first { $0.rule == "urlsession-delayed-request-completion-missing" })
        #expect(missing.ts == Timestamp(seconds: 29))
        #expect(missing.message.contains("before the process was terminated"))
        #expect(missing.message.contains("call 2"))
        #expect(missing.message.contains("task 7 of background session com.example.download"))
        #expect(missing.measured.map { abs($0 - 27.9) < 1e-9 } == true)
    }

    /// A late answer after the finding is not reported again, as unknown or as a repeat.
    @Test func aLateAnswerAfterTheSuspensionIsNotASecondFinding() throws {
        let findings = try workFindings("""
            \(ExampleTraces.delayedRequestDelivered)
            {"ts":3,"seq":13,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
            {"ts":3.05,"seq":14,"event":"urlsession.complete","call":1}
            {"ts":3.2,"seq":15,"event":"snapshot"}
            {"ts":3.5,"seq":16,"event":"suspend"}
            {"ts":50,"seq":17,"event":"resume","reason":"system","cause":"urlsession"}
            {"ts":50.1,"seq":18,"event":"didEnterBackground","phase":"begin"}
            {"ts":50.2,"seq":19,"event":"didEnterBackground","phase":"end"}
            {"ts":50.3,"seq":20,"event":"urlsession.delayedRequest.complete","call":2,"disposition":"cancel"}
            """)
        #expect(findings.map(\.rule) == ["urlsession-delayed-request-completion-missing"])
    }

    // MARK: Task creation

    static func create(_ attributes: String, ts: Double = 5, seq: Int = 10) -> String {
        #"{"ts":\#(ts),"seq":\#(seq),"event":"urlsession.task.create","identifier":"com.example.download","task":7,\#(attributes)}"#
    }

    @Test func byteCountsMissingNamesWhichOne() throws {
        let one = try workFindings("""
            \(ExampleTraces.userLaunch)
            \(Self.create(#""earliest_begin":"1970-01-01T01:00:00Z","discretionary":true,"expected_send":600,"expected_receive":-1"#))
            """)
        #expect(one.map(\.rule) == ["urlsession-byte-counts-missing"])
        let message = try #require(one.first?.message)
        #expect(message.contains("Task 7 of background session com.example.download"))
        #expect(message.contains("without expected_receive (countOfBytesClientExpectsToReceive)"))
        #expect(!message.contains("expected_send"))
        #expect(message.contains("1970-01-01T01:00:00.000000Z"))

        let both = try workFindings("""
            \(ExampleTraces.userLaunch)
            \(Self.create(#""earliest_begin":3600,"discretionary":true,"expected_send":"600""#))
            """)
        #expect(both.first?.message.contains("without expected_send (countOfBytesClientExpectsToSend) or expected_receive") == true)
    }

    /// An earliest begin date that is not a time (nor a number `Double` holds, like 1e999) is not
    /// judged; times beyond the range saturate, and nothing traps.
    @Test func oddEarliestBeginDates() throws {
        let notATime = try workFindings("""
            \(ExampleTraces.userLaunch)
            \(Self.create(#""earliest_begin":"soon","discretionary":true"#))
            \(Self.create(#""earliest_begin":null,"discretionary":true"#, ts: 6, seq: 11))
            \(Self.create(#""earliest_begin":1e999,"discretionary":true"#, ts: 7, seq: 12))
            """)
        #expect(notATime.isEmpty)
        let huge = try workFindings("""
            \(ExampleTraces.userLaunch)
            \(Self.create(#""earliest_begin":1e300,"discretionary":true,"expected_send":1e999"#))
            \(Self.create(#""earliest_begin":-1e300,"discretionary":true,"expected_receive":5"#, ts: 6, seq: 11))
            """)
        #expect(huge.count == 2)
        #expect(huge.allSatisfy { $0.rule == "urlsession-byte-counts-missing" && !$0.message.isEmpty })
    }

    @Test func discretionaryFalseCountsInTheBackgroundOnly() throws {
        // Inside didEnterBackground: the app is in the background.
        let inside = try workFindings("""
            \(ExampleTraces.userLaunchLeavingForeground())
            \(Self.create(#""discretionary":false"#, ts: 10.15, seq: 12))
            {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
            """)
        #expect(inside.map(\.rule) == ["urlsession-background-enqueue-discretionary"])
        let message = try #require(inside.first?.message)
        #expect(message.contains("Task 7 of background session com.example.download was created at \(Timestamp(seconds: 10.15))"))
        #expect(message.contains("since didEnterBackground at \(Timestamp(seconds: 10.1))"))

        // willResignActive only: still in the foreground (inactive). Not logged: not judged.
        let inactive = try workFindings("""
            \(ExampleTraces.userLaunch)
            {"ts":10,"seq":10,"event":"willResignActive"}
            \(Self.create(#""discretionary":false"#, ts: 10.05, seq: 11))
            \(Self.create(#""earliest_begin":"1970-01-01T01:00:00Z","expected_send":1,"expected_receive":1"#, ts: 10.06, seq: 12))
            """)
        #expect(inactive.isEmpty)
    }

    /// A state only guessed (the log began mid-launch) and an extension process are not judged.
    @Test func guessedStatesAndExtensionsAreNotJudged() throws {
        let midLaunch = try workFindings("""
            {"launch":"L1","ts":0,"seq":5,"event":"location.update"}
            \(Self.create(#""discretionary":false"#, ts: 1, seq: 6))
            """)
        #expect(midLaunch.isEmpty)
        let inExtension = try workFindings("""
            {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
            {"ts":0.2,"seq":1,"event":"urlsession.task.create","identifier":"s","task":1,"discretionary":false,"process":"extension:nse"}
            """)
        #expect(inExtension.isEmpty)
    }
}
