import Replay
@testable import Rules
import Testing
import TraceModel

/// Shared resources held at suspension (and the kills they cause) and listeners (trace format v1.1).
@Suite struct SharedResourceTests {
    static let store = "group.com.example/articles.sqlite"
    static let lock = "group.com.example/reading-list.lock"

    static func acquire(_ resource: String, kind: String, ts: Double, seq: Int) -> String {
        #"{"ts":\#(ts),"seq":\#(seq),"event":"resource.acquire","resource":"\#(resource)","kind":"\#(kind)"}"#
    }

    static func release(_ resource: String, ts: Double, seq: Int) -> String {
        #"{"ts":\#(ts),"seq":\#(seq),"event":"resource.release","resource":"\#(resource)"}"#
    }

    /// The suspended app resumed at `t` for a location update, which comes at `t + 0.3` (`seq` to `seq + 3`).
    static func resumedForLocation(at t: Double, seq: Int) -> String {
        """
        {"ts":\(t),"seq":\(seq),"event":"resume","reason":"system","cause":"location"}
        {"ts":\(t + 0.1),"seq":\(seq + 1),"event":"didEnterBackground","phase":"begin"}
        {"ts":\(t + 0.2),"seq":\(seq + 2),"event":"didEnterBackground","phase":"end"}
        {"ts":\(t + 0.3),"seq":\(seq + 3),"event":"location.update"}
        """
    }

    static let resourceRules: Set = [
        "shared-resource-held-at-suspension", "listener-open-at-suspension", "termination-explained",
        "termination-unexplained",
    ]

    static func resourceFindings(_ trace: String) throws -> [Finding] {
        try LifecycleReplay.findings(trace).filter { resourceRules.contains($0.rule) }
    }

    // MARK: Shared resources

    /// Held at the suspension, then killed while suspended: one finding (at the suspend), and the
    /// kill is explained by it, naming the resource, its kind and since when it was held.
    @Test func aHoldIsOneFindingAndExplainsTheKillThatFollows() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.inBackground)
            \(Self.acquire(Self.store, kind: "database", ts: 60.4, seq: 6))
            {"ts":61,"seq":7,"event":"suspend"}
            {"ts":64,"seq":8,"event":"terminate","reason":"resource"}
            """)
        #expect(findings.map(\.rule) == ["shared-resource-held-at-suspension", "termination-explained"])
        let held = try #require(findings.first)
        #expect(held.ts == Timestamp(seconds: 61))
        #expect(held.measured.map { abs($0 - 0.6) < 1e-9 } == true)
        #expect(held.events.map(\.name) == ["resource.acquire", "suspend"])
        #expect(held.message.contains("database \"\(Self.store)\""))
        #expect(held.message.contains("applicationDidEnterBackground"))
        let explained = try #require(findings.last)
        #expect(explained.explainedBy == FindingRef(rule: held.rule, ts: held.ts))
        #expect(explained.message.contains("database \"\(Self.store)\" held since \(Timestamp(seconds: 60.4)) (3.6 s when the app was killed)"))
    }

    /// Killed in the background holding two resources (and a listener): a finding for each
    /// resource, none for the listener, and the explanation names both resources.
    @Test func aKillInTheBackgroundNamesEveryResourceHeld() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.backgroundLaunch(cause: "location"))
            {"ts":0.3,"seq":3,"event":"location.update"}
            \(Self.acquire(Self.store, kind: "database", ts: 0.4, seq: 4))
            \(Self.acquire("_share._tcp", kind: "bonjour", ts: 0.45, seq: 5))
            \(Self.acquire(Self.lock, kind: "file-lock", ts: 0.5, seq: 6))
            {"ts":2,"seq":7,"event":"snapshot"}
            {"ts":2.5,"seq":8,"event":"terminate","reason":"resource"}
            """)
        #expect(findings.map(\.rule) == [
            "shared-resource-held-at-suspension", "shared-resource-held-at-suspension", "termination-explained",
        ])
        #expect(findings[0].message.contains(Self.store) && findings[1].message.contains("file lock \"\(Self.lock)\""))
        #expect(findings[0].message.contains("reason resource"))
        let explained = try #require(findings.last)
        #expect(explained.explainedBy == FindingRef(rule: "shared-resource-held-at-suspension", ts: Timestamp(seconds: 2.5)))
        #expect(explained.message.contains("database \"\(Self.store)\"") && explained.message.contains("file lock \"\(Self.lock)\""))
        #expect(!explained.message.contains("_share._tcp"))
    }

    /// Reported at a suspension, still held after a resume, then killed in the background: not
    /// reported again, yet the kill is explained by that finding.
    @Test func aHoldReportedAtAnEarlierSuspensionStillExplainsALaterKill() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.inBackground)
            \(Self.acquire(Self.store, kind: "database", ts: 60.4, seq: 6))
            {"ts":61,"seq":7,"event":"suspend"}
            \(Self.resumedForLocation(at: 300, seq: 8))
            {"ts":301,"seq":12,"event":"snapshot"}
            {"ts":302,"seq":13,"event":"terminate","reason":"resource"}
            """)
        #expect(findings.map(\.rule) == ["shared-resource-held-at-suspension", "termination-explained"])
        let explained = try #require(findings.last)
        #expect(explained.explainedBy == FindingRef(rule: "shared-resource-held-at-suspension", ts: Timestamp(seconds: 61)))
        #expect(explained.message.contains("held since \(Timestamp(seconds: 60.4))"))
        #expect(explained.message.contains("(241.6 s when the app was killed)"))
    }

    /// Released and acquired again, it is a new hold: reported again at the next suspension.
    @Test func aResourceAcquiredAgainIsANewBreach() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.inBackground)
            \(Self.acquire(Self.store, kind: "database", ts: 60.4, seq: 6))
            {"ts":61,"seq":7,"event":"suspend"}
            \(Self.resumedForLocation(at: 300, seq: 8))
            \(Self.release(Self.store, ts: 300.4, seq: 12))
            \(Self.acquire(Self.store, kind: "database", ts: 300.5, seq: 13))
            \(Self.acquire(Self.store, kind: "database", ts: 300.6, seq: 14))
            {"ts":301,"seq":15,"event":"snapshot"}
            {"ts":302,"seq":16,"event":"suspend"}
            \(Self.resumedForLocation(at: 900, seq: 17))
            {"ts":901,"seq":21,"event":"snapshot"}
            {"ts":902,"seq":22,"event":"suspend"}
            """)
        #expect(findings.map(\.ts) == [Timestamp(seconds: 61), Timestamp(seconds: 302)])
        // Acquiring a held resource again changes nothing: it has been held since 300.5.
        #expect(findings.last?.message.contains("acquired at \(Timestamp(seconds: 300.5))") == true)
    }

    /// A kill for a resource with none held in the log is unexplained, even with another finding
    /// that would explain another kill (a background task never ended).
    @Test func aResourceKillWithNothingHeldIsUnexplained() throws {
        let findings = try LifecycleReplay.findings("""
            \(ExampleTraces.uploadInBackground)
            \(Self.acquire(Self.store, kind: "database", ts: 11, seq: 15))
            \(Self.release(Self.store, ts: 12, seq: 16))
            \(Self.acquire("_share._tcp", kind: "bonjour", ts: 13, seq: 17))
            {"ts":20,"seq":18,"event":"terminate","reason":"resource"}
            """)
        #expect(findings.map(\.rule) == ["background-task-not-ended", "termination-unexplained"])
        let unexplained = try #require(findings.last)
        #expect(unexplained.message.contains("terminate (resource)"))
        #expect(unexplained.message.contains("resource.acquire"))
    }

    /// A kill for another reason is still explained as before (by the task), not by the resource rule.
    @Test func otherKillsKeepTheirExplanations() throws {
        let findings = try LifecycleReplay.findings("""
            \(ExampleTraces.uploadInBackground)
            \(Self.acquire(Self.store, kind: "database", ts: 11, seq: 15))
            {"ts":39,"seq":16,"event":"terminate","reason":"assertion-timeout"}
            """)
        #expect(findings.map(\.rule) == ["background-task-not-ended", "termination-explained"])
        #expect(findings.last?.explainedBy?.rule == "background-task-not-ended")
    }

    /// Resources belong to one launch: one held when a launch's log ends is not carried into the
    /// next launch, and is not reported (holding one while running is legal).
    @Test func resourcesBelongToOneLaunch() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.active)
            \(Self.acquire(Self.store, kind: "database", ts: 5, seq: 2))
            {"launch":"L2","ts":100,"seq":0,"event":"launch","reason":"user"}
            {"launch":"L2","ts":100.3,"seq":1,"event":"didBecomeActive"}
            {"launch":"L2","ts":160,"seq":2,"event":"willResignActive"}
            {"launch":"L2","ts":160.1,"seq":3,"event":"didEnterBackground","phase":"begin"}
            {"launch":"L2","ts":160.2,"seq":4,"event":"didEnterBackground","phase":"end"}
            {"launch":"L2","ts":160.3,"seq":5,"event":"snapshot"}
            {"launch":"L2","ts":161,"seq":6,"event":"suspend"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// Thousands of resources: one finding each, and a kill's sentence names the first few.
    @Test func manyResources() throws {
        let count = 2_000
        let acquires = (0..<count).map { Self.acquire("r\($0)", kind: "database", ts: 0.3 + Double($0) * 0.0001, seq: 3 + $0) }
        let churn = (0..<count).flatMap {
            [Self.acquire("c", kind: "file-lock", ts: 1 + Double($0) * 0.0001, seq: 3 + count + 2 * $0),
             Self.release("c", ts: 1.00005 + Double($0) * 0.0001, seq: 4 + count + 2 * $0)]
        }
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.backgroundLaunch(cause: "location"))
            {"ts":0.25,"seq":2,"event":"location.update"}
            \(acquires.joined(separator: "\n"))
            \(churn.joined(separator: "\n"))
            {"ts":2,"seq":\(3 + 3 * count),"event":"snapshot"}
            {"ts":2.5,"seq":\(4 + 3 * count),"event":"terminate","reason":"resource"}
            """)
        #expect(findings.filter { $0.rule == "shared-resource-held-at-suspension" }.count == count)
        let explained = try #require(findings.last)
        #expect(explained.rule == "termination-explained")
        #expect(explained.message.contains("\"r0\"") && explained.message.contains("\"r4\""))
        #expect(!explained.message.contains("\"r5\""))
        #expect(explained.message.contains("and \(count - 5) more"))
    }

    /// Ids may be numbers; a kind the format does not list is kept and named; no id, no judgement.
    @Test func numericIdsOtherKindsAndMissingIds() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.inBackground)
            {"ts":60.4,"seq":6,"event":"resource.acquire","resource":42,"kind":"gpu"}
            {"ts":60.5,"seq":7,"event":"resource.acquire","kind":"database"}
            {"ts":60.6,"seq":8,"event":"resource.acquire","resource":"x"}
            {"ts":61,"seq":9,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["shared-resource-held-at-suspension", "shared-resource-held-at-suspension"])
        #expect(findings[0].message.contains("resource \"42\" (kind \"gpu\")"))
        #expect(findings[1].message.contains("resource \"x\" (kind not logged)"))
    }

    // MARK: Listeners

    @Test func aListenerOpenAtSuspensionIsAdvisoryAndNamed() throws {
        let findings = try Self.resourceFindings("""
            \(ExampleTraces.active)
            \(Self.acquire("tcp:0.0.0.0:8631", kind: "socket", ts: 5, seq: 2))
            {"ts":60,"seq":3,"event":"willResignActive"}
            {"ts":60.1,"seq":4,"event":"didEnterBackground","phase":"begin"}
            {"ts":60.2,"seq":5,"event":"didEnterBackground","phase":"end"}
            {"ts":60.3,"seq":6,"event":"snapshot"}
            {"ts":61,"seq":7,"event":"suspend"}
            {"ts":4000,"seq":8,"event":"terminate","reason":"memory"}
            """)
        // The listener explains no kill: the memory kill stays unexplained.
        #expect(findings.map(\.rule) == ["listener-open-at-suspension", "termination-unexplained"])
        let listener = try #require(findings.first)
        #expect(listener.category == .advisory && listener.severity == .warning)
        #expect(listener.message.contains("listening socket \"tcp:0.0.0.0:8631\""))
        #expect(listener.message.contains("Close the listening socket"))
        #expect(listener.measured == 56)
    }
}
