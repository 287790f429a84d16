import Replay
import Testing
import TraceModel

/// The attributes of v1.1 events that ``ReplayEvent/Details`` types, and the event's size.
@Suite struct ReplayEventTests {
    static func replayEvent(_ name: String, attrs: String?, texts: TextTable = TextTable()) -> ReplayEvent {
        ReplayEvent(event(0, name, attrs: attrs), launch: 0, texts: texts)
    }

    /// Copied for every event a check keeps: adding a case to ``ReplayEvent/Details`` must not
    /// make it grow (168 bytes with the v1.1 cases, as before them).
    @Test func staysSmall() {
        #expect(MemoryLayout<ReplayEvent>.stride <= 168)
    }

    @Test func resourceEventsKeepTheirIdAndKind() {
        let texts = TextTable()
        let acquire = Self.replayEvent("resource.acquire", attrs: #"{"resource":"db","kind":"database"}"#, texts: texts)
        #expect(acquire.resource.map { texts[$0] } == "db")
        #expect(acquire.resourceKind == .database)
        #expect(acquire.resourceKind?.isListener == false)
        let release = Self.replayEvent("resource.release", attrs: #"{"resource":"db"}"#, texts: texts)
        #expect(release.resource == acquire.resource)
        #expect(release.resourceKind == nil)

        let listener = Self.replayEvent("resource.acquire", attrs: #"{"resource":7,"kind":"socket"}"#, texts: texts)
        #expect(listener.resource.map { texts[$0] } == "7")
        #expect(listener.resourceKind?.isListener == true)
        let other = Self.replayEvent("resource.acquire", attrs: #"{"resource":1.5,"kind":"gpu"}"#, texts: texts)
        #expect(other.resource == nil)
        #expect(other.resourceKind.flatMap(\.otherText).map { texts[$0] } == "gpu")
        #expect(Self.replayEvent("resource.acquire", attrs: nil).details == .resource(id: nil, kind: nil))
    }

    @Test func urlSessionTasksKeepTheirSchedulingAttributes() {
        let delayed = Self.replayEvent(
            "urlsession.task.create",
            attrs: #"{"identifier":"s","earliest_begin":"2026-11-21T08:00:00Z","discretionary":false,"expected_send":0,"expected_receive":-1}"#)
        #expect(delayed.details == .urlSessionTask(
            earliestBegin: Timestamp(seconds: 1_795_248_000), discretionary: false, statesSend: true, statesReceive: false))
        let plain = Self.replayEvent("urlsession.task.create", attrs: #"{"earliest_begin":12.5,"discretionary":"yes","expected_send":"1"}"#)
        #expect(plain.details == .urlSessionTask(
            earliestBegin: Timestamp(seconds: 12.5), discretionary: nil, statesSend: false, statesReceive: false))
        let hostile = Self.replayEvent("urlsession.task.create", attrs: #"{"earliest_begin":-1e300,"expected_receive":1e308}"#)
        #expect(hostile.details == .urlSessionTask(
            earliestBegin: Timestamp(microseconds: .min), discretionary: nil, statesSend: false, statesReceive: true))
    }

    /// Readings are read by a visitor over the flat text, falling back to the general parser: both
    /// ways give what ``AttributeReader`` reads, on odd and hostile attributes and on seeded ones.
    @Test func readingsReadAsTheGeneralParserReadsThem() {
        var texts: [String?] = [
            nil, "", "{}", "[1]", "null", #"{"reachable":tru}"#, #"{"reachable":true"#, #"{"reachable":true}x"#,
            #"{"reachable":true,"reachable":false}"#, #"{"reachable":false,"reachable":"yes"}"#,
            #"{"re\u0061chable":true}"#, #"{ "reachable" : true }"#, #"{"reachable":true,"x":{"y":[1,2]}}"#,
            #"{"low_power_mode":true,"battery":0.15,"charging":false}"#, #"{"battery":1e400,"charging":null}"#,
            #"{"battery":-0.0,"battery":"0.5"}"#, #"{"battery":01}"#, #"{"status":"denied"}"#,
            #"{"status":"den\u0069ed"}"#, #"{"status":"Denied"}"#, #"{"status":7}"#, "{\"status\":\"a\u{0}\"}",
            "{\"reachable\":true,\"\u{1F600}\":1}", #"{"reachable":true,}"#,
        ]
        // A linear congruential generator: the same 2,000 objects every run.
        var state: UInt64 = 7
        func pick<T>(_ choices: [T]) -> T {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return choices[Int(state >> 33) % choices.count]
        }
        let keys = ["reachable", "low_power_mode", "battery", "charging", "status", "wifi", "x"]
        let values = ["true", "false", "null", "0.2", "-1", "1e3", #""denied""#, #""available""#, #""restricted""#, "[1]", "{}"]
        for _ in 0 ..< 2_000 {
            let members = (0 ..< pick([0, 1, 2, 3, 4])).map { _ in "\"\(pick(keys))\":\(pick(values))" }
            texts.append("{" + members.joined(separator: ",") + "}")
        }
        let statuses: [String: ReplayEvent.RefreshStatus] = ["available": .available, "denied": .denied, "restricted": .restricted]
        for attrs in texts {
            let reader = AttributeReader(attrs)
            #expect(Self.replayEvent("power", attrs: attrs).details == .power(
                lowPowerMode: reader.bool("low_power_mode"), battery: reader.double("battery"),
                charging: reader.bool("charging")), "\(attrs ?? "nil")")
            #expect(Self.replayEvent("network", attrs: attrs).details == .network(reachable: reader.bool("reachable")))
            let status = reader.string("status").flatMap { statuses[$0] }
            #expect(Self.replayEvent("refreshStatus", attrs: attrs).details == .refreshStatus(status), "\(attrs ?? "nil")")
        }
    }

    @Test func terminateForAResourceIsAListedReason() {
        let kill = ReplayEvent(
            Event(ts: Timestamp(seconds: 0), device: "D", launch: "L1", name: "terminate", reason: "resource"),
            launch: 0, texts: TextTable())
        #expect(kill.reason == .resource)
    }
}
