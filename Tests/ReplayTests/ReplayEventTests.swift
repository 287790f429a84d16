@testable import Replay
import Testing
import TraceModel

/// The attributes of v1.1 events that ``ReplayEvent/Details`` types, and the event's size.
@Suite struct ReplayEventTests {
    static func replayEvent(_ name: String, attrs: String?, texts: TextTable = TextTable()) -> ReplayEvent {
        ReplayEvent(event(0, name, attrs: attrs), launch: 0, texts: texts)
    }

    /// Copied for every event a check keeps: up to 128 bytes the compiler copies it in a few
    /// moves, above it calls `memcpy` (120 bytes now; 168 before its optionals were packed).
    @Test func staysSmall() {
        #expect(MemoryLayout<ReplayEvent>.stride <= 128)
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

    /// The attributes of every kind that has some are read by a visitor over the flat text,
    /// falling back to the general parser: both ways give what ``AttributeReader`` reads, on odd
    /// and hostile attributes and on seeded ones, from an event and from a row of the store.
    @Test func attributesReadAsTheGeneralParserReadsThem() {
        var texts: [String?] = [
            nil, "", "{}", "[1]", "null", #"{"reachable":tru}"#, #"{"reachable":true"#, #"{"reachable":true}x"#,
            #"{"reachable":true,"reachable":false}"#, #"{"reachable":false,"reachable":"yes"}"#,
            #"{"re\u0061chable":true}"#, #"{ "reachable" : true }"#, #"{"reachable":true,"x":{"y":[1,2]}}"#,
            #"{"low_power_mode":true,"battery":0.15,"charging":false}"#, #"{"battery":1e400,"charging":null}"#,
            #"{"battery":-0.0,"battery":"0.5"}"#, #"{"battery":01}"#, #"{"status":"denied"}"#,
            #"{"status":"den\u0069ed"}"#, #"{"status":"Denied"}"#, #"{"status":7}"#, "{\"status\":\"a\u{0}\"}",
            "{\"reachable\":true,\"\u{1F600}\":1}", #"{"reachable":true,}"#,
            #"{"type":"processing","error":"tooManyPendingTaskRequests","earliest_begin":"2026-11-21T08:00:00.5+01:00"}"#,
            #"{"earliest_begin":1.8e9,"earliest_begin":"soon","requires_power":true,"requires_network":"no"}"#,
            #"{"priority":5.0,"priority":1e16,"content_available":true,"push_type":"background"}"#,
            #"{"priority":-3,"push_type":"b\u0061ckground","value":29.5,"name":"sync","interval":900}"#,
            #"{"resource":7,"kind":"socket"}"#, #"{"resource":1.5,"kind":"gpu"}"#, #"{"resource":"db","resource":-2}"#,
            #"{"simulated":true}"#, #"{"simulated":"true"}"#, #"{"simulated":true,"simulated":null}"#,
            #"{"earliest_begin":-1e300,"expected_send":0,"expected_receive":-1,"discretionary":false}"#,
        ]
        // A linear congruential generator: the same 3,000 objects every run.
        var state: UInt64 = 7
        func pick<T>(_ choices: [T]) -> T {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return choices[Int(state >> 33) % choices.count]
        }
        let keys = [
            "reachable", "low_power_mode", "battery", "charging", "status", "wifi", "x", "content_available", "priority",
            "push_type", "type", "error", "earliest_begin", "requires_power", "requires_network", "value", "name",
            "simulated", "resource", "kind", "discretionary", "expected_send", "expected_receive", "interval",
        ]
        let values = [
            "true", "false", "null", "0.2", "-1", "1e3", "5", #""denied""#, #""available""#, #""restricted""#, "[1]", "{}",
            #""2026-11-21T08:00:00Z""#, "1795248000.25", #""database""#, #""a\"b""#, "-0", "1e400",
        ]
        for _ in 0 ..< 3_000 {
            let members = (0 ..< pick([0, 1, 2, 3, 4, 5])).map { _ in "\"\(pick(keys))\":\(pick(values))" }
            texts.append("{" + members.joined(separator: ",") + "}")
        }
        for attrs in texts {
            // Each event is made with a table of its own, so that its texts are numbered as the
            // expected ones are: from 1, in the order read.
            for (name, expected) in Self.expectedDetails(AttributeReader(attrs)) {
                #expect(Self.replayEvent(name, attrs: attrs).details == expected, "\(name) \(attrs ?? "nil")")
                #expect(Self.storedEvent(name, attrs: attrs).details == expected, "\(name) \(attrs ?? "nil")")
            }
        }
    }

    /// What each kind that has attributes keeps, read with ``AttributeReader``.
    /// Each kind's texts are numbered in a table of their own.
    static func expectedDetails(_ reader: AttributeReader) -> [(String, ReplayEvent.Details)] {
        let statuses: [String: ReplayEvent.RefreshStatus] = ["available": .available, "denied": .denied, "restricted": .restricted]
        var numbering: any TextNumbering = TextTable()
        func id(_ name: String) -> TextID? { reader.string(name).map { numbering.id($0) } }
        /// Details whose texts are numbered from the start of a new table.
        func fresh(_ make: () -> ReplayEvent.Details) -> ReplayEvent.Details {
            numbering = TextTable()
            return make()
        }
        return [
            ("power", .power(
                lowPowerMode: reader.bool("low_power_mode"), battery: reader.double("battery"), charging: reader.bool("charging"))),
            ("network", .network(reachable: reader.bool("reachable"))),
            ("refreshStatus", .refreshStatus(reader.string("status").flatMap { statuses[$0] })),
            ("push.receive", fresh { .push(
                contentAvailable: reader.bool("content_available")
                    ?? reader.int("content_available").flatMap { $0 == 1 ? true : $0 == 0 ? false : nil }, priority: reader.int("priority"), pushType: id("push_type")) }),
            ("bgtask.submit", fresh { .submit(
                type: id("type"), error: id("error"), earliestBegin: reader.time("earliest_begin"),
                requiresPower: reader.bool("requires_power"), requiresNetwork: reader.bool("requires_network")) }),
            ("backgroundTimeRemaining", .timeRemaining(reader.double("value"))),
            ("beginBackgroundTask", fresh { .backgroundTask(name: id("name")) }),
            ("bgtask.launch", reader.bool("simulated") == true ? .simulated : .none),
            ("bgtask.expire", reader.bool("simulated") == true ? .simulated : .none),
            ("resource.acquire", fresh { .resource(
                id: reader.identifier("resource").map { numbering.id($0) },
                kind: reader.string("kind").map { ResourceKind($0, texts: &numbering) }) }),
            ("resource.release", fresh { .resource(id: reader.identifier("resource").map { numbering.id($0) }, kind: nil) }),
            ("urlsession.task.create", .urlSessionTask(
                earliestBegin: reader.time("earliest_begin"), discretionary: reader.bool("discretionary"),
                statesSend: reader.double("expected_send").map { $0 >= 0 } ?? false,
                statesReceive: reader.double("expected_receive").map { $0 >= 0 } ?? false)),
            ("fetch.setMinimumInterval", .fetchInterval(reader.double("interval"))),
        ]
    }

    /// The event as `check` over the store makes it: from a row's UTF-8 bytes.
    static func storedEvent(_ name: String, attrs: String?) -> ReplayEvent {
        var feed = TextTableFeed()
        var name = name
        return name.withUTF8 { nameBytes in
            func make(_ attrsBytes: UnsafeRawBufferPointer?) -> ReplayEvent {
                let raw = RawEventFields(
                    ts: Timestamp(seconds: 0), mono: nil, seq: nil, task: nil, rowID: nil, success: nil,
                    name: UnsafeRawBufferPointer(nameBytes), phase: nil, reason: nil, cause: nil, identifier: nil,
                    call: nil, result: nil, attrs: attrsBytes)
                return ReplayEvent(raw, launch: 0, texts: &feed)
            }
            guard var attrs else { return make(nil) }
            return attrs.withUTF8 { make(UnsafeRawBufferPointer($0)) }
        }
    }

    /// The optional numbers and texts, stored as plain values beside what says which are there,
    /// read back as they came at their extremes — zero, negative, the largest and smallest,
    /// not finite — and absent stays absent, next to a present zero or an empty text.
    @Test func optionalFieldsKeepTheirValuesAndTheirAbsence() {
        let texts = TextTable()
        let extremes: [(seq: Int64?, task: Int64?, rowID: Int64?, mono: Double?, text: String?)] = [
            (nil, nil, nil, nil, nil), (0, 0, 0, 0, ""), (.min, .max, -1, -0.0, "\u{0}"),
            (.max, .min, .max, .infinity, "a\u{0}b"), (-1, -1, 1, -.greatestFiniteMagnitude, String(repeating: "x", count: 10_000)),
            (nil, 5, nil, .nan, "é"),
        ]
        for (seq, task, rowID, mono, text) in extremes {
            var decoded = Event(
                ts: Timestamp(microseconds: .min), device: "D", launch: "L", name: "endBackgroundTask", seq: seq,
                mono: mono, task: task, identifier: text, call: text, result: text)
            decoded.rowID = rowID
            let compact = ReplayEvent(decoded, launch: .max, texts: texts)
            #expect(compact.seq == seq && compact.task == task && compact.rowID == rowID)
            #expect(compact.mono?.bitPattern == mono?.bitPattern)
            #expect([compact.identifier, compact.call, compact.result].map { $0.map { texts[$0] } } == [text, text, text])
            #expect(compact.otherName == nil && compact.ts == Timestamp(microseconds: .min) && compact.launch == .max)
        }
    }

    @Test func terminateForAResourceIsAListedReason() {
        let kill = ReplayEvent(
            Event(ts: Timestamp(seconds: 0), device: "D", launch: "L1", name: "terminate", reason: "resource"),
            launch: 0, texts: TextTable())
        #expect(kill.reason == .resource)
    }
}
