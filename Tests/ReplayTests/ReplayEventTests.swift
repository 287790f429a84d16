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

    @Test func terminateForAResourceIsAListedReason() {
        let kill = ReplayEvent(
            Event(ts: Timestamp(seconds: 0), device: "D", launch: "L1", name: "terminate", reason: "resource"),
            launch: 0, texts: TextTable())
        #expect(kill.reason == .resource)
    }
}
