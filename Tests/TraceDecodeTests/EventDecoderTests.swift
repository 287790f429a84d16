import Testing
import TraceDecode
import TraceModel

struct EventDecoderTests {
    @Test func specExampleLinesDecodeToTheirEvents() {
        let lines = [
            #"{"ts":"2026-11-21T08:00:00.000Z","device":"D1","launch":"L7","seq":0,"event":"launch","reason":"system","cause":"bgtask","app":"com.example.news","os":"17.4"}"#,
            #"{"ts":"2026-11-21T08:00:00.002Z","device":"D1","launch":"L7","seq":1,"event":"config","permitted_identifiers":["com.example.news.refresh"],"background_modes":["fetch","processing"]}"#,
            #"{"ts":"2026-11-21T08:00:00.010Z","device":"D1","launch":"L7","seq":2,"event":"willFinishLaunching","phase":"begin"}"#,
            #"{"ts":"2026-11-21T08:00:00.020Z","device":"D1","launch":"L7","seq":3,"event":"willFinishLaunching","phase":"end"}"#,
            #"{"ts":"2026-11-21T08:00:00.021Z","device":"D1","launch":"L7","seq":4,"event":"didFinishLaunching","phase":"begin"}"#,
            #"{"ts":"2026-11-21T08:00:00.022Z","device":"D1","launch":"L7","seq":5,"event":"bgtask.register","identifier":"com.example.news.refresh"}"#,
            #"{"ts":"2026-11-21T08:00:00.090Z","device":"D1","launch":"L7","seq":6,"event":"didFinishLaunching","phase":"end"}"#,
            #"{"ts":"2026-11-21T08:00:00.091Z","device":"D1","launch":"L7","seq":7,"event":"didEnterBackground","phase":"begin"}"#,
            #"{"ts":"2026-11-21T08:00:00.095Z","device":"D1","launch":"L7","seq":8,"event":"didEnterBackground","phase":"end"}"#,
            #"{"ts":"2026-11-21T08:00:00.100Z","device":"D1","launch":"L7","seq":9,"event":"bgtask.launch","identifier":"com.example.news.refresh","task":1}"#,
            #"{"ts":"2026-11-21T08:00:12.400Z","device":"D1","launch":"L7","seq":10,"event":"bgtask.complete","task":1,"success":true}"#,
            #"{"ts":"2026-11-21T08:00:12.500Z","device":"D1","launch":"L7","seq":11,"event":"snapshot"}"#,
            #"{"ts":"2026-11-21T08:00:12.600Z","device":"D1","launch":"L7","seq":12,"event":"suspend"}"#,
        ]
        func expected(_ ms: Int64, _ seq: Int64, _ name: String) -> Event {
            Event(ts: exampleTime(milliseconds: ms), device: "D1", launch: "L7", name: name, seq: seq)
        }
        var launch = expected(0, 0, "launch")
        launch.reason = "system"
        launch.cause = "bgtask"
        launch.app = "com.example.news"
        launch.os = "17.4"
        var config = expected(2, 1, "config")
        config.attrs = #"{"permitted_identifiers":["com.example.news.refresh"],"background_modes":["fetch","processing"]}"#
        var register = expected(22, 5, "bgtask.register")
        register.identifier = "com.example.news.refresh"
        var taskLaunch = expected(100, 9, "bgtask.launch")
        taskLaunch.identifier = "com.example.news.refresh"
        taskLaunch.task = 1
        var complete = expected(12_400, 10, "bgtask.complete")
        complete.task = 1
        complete.success = true
        func phased(_ ms: Int64, _ seq: Int64, _ name: String, _ phase: String) -> Event {
            var event = expected(ms, seq, name)
            event.phase = phase
            return event
        }
        let events = [
            launch, config,
            phased(10, 2, "willFinishLaunching", "begin"), phased(20, 3, "willFinishLaunching", "end"),
            phased(21, 4, "didFinishLaunching", "begin"), register,
            phased(90, 6, "didFinishLaunching", "end"), phased(91, 7, "didEnterBackground", "begin"),
            phased(95, 8, "didEnterBackground", "end"), taskLaunch, complete,
            expected(12_500, 11, "snapshot"), expected(12_600, 12, "suspend"),
        ]

        // One decoder for the whole file, as the ingester uses it, so the caches are exercised.
        var decoder = EventDecoder()
        for (line, event) in zip(lines, events) {
            let result = Array(line.utf8).withUnsafeBytes { decoder.decode($0) }
            #expect(result == .event(event), "\(line)")
        }
    }

    @Test func typedFieldsOfEveryKindAreFilled() throws {
        let event = try #require(decodedEvent(line(
            #","seq":3,"mono":1234.5,"app":"a","app_version":"4.2.0","os":"17.4","model":"iPhone15,2","#
                + #""process":"extension:nse","phase":"begin","reason":"system","cause":"push","#
                + #""task":-7,"identifier":"id","call":"c-1","success":false,"result":"newData""#)))
        #expect(event.seq == 3)
        #expect(event.mono == 1234.5)
        #expect(event.app == "a")
        #expect(event.appVersion == "4.2.0")
        #expect(event.os == "17.4")
        #expect(event.model == "iPhone15,2")
        #expect(event.process == "extension:nse")
        #expect(event.isExtension)
        #expect(event.phase == "begin")
        #expect(event.reason == "system")
        #expect(event.cause == "push")
        #expect(event.task == -7)
        #expect(event.identifier == "id")
        #expect(event.call == "c-1")
        #expect(event.success == false)
        #expect(event.result == "newData")
        #expect(event.attrs == nil)
    }

    @Test func integerIdsAreKeptAsTheirDecimalText() throws {
        let event = try #require(decodedEvent(
            #"{"ts":0,"device":42,"launch":-3,"event":"fetch.perform","call":9007199254740993}"#))
        #expect(event.device == "42")
        #expect(event.launch == "-3")
        #expect(event.call == "9007199254740993")
        #expect(event.ts == Timestamp(microseconds: 0))
    }

    @Test func monoKeepsDoublePrecision() throws {
        #expect(decodedEvent(line(#","mono":0.1"#))?.mono == 0.1)
        #expect(decodedEvent(line(#","mono":86400.123456"#))?.mono == 86400.123456)
        #expect(decodedEvent(line(#","mono":12"#))?.mono == 12)
        #expect(decodedEvent(line(#","mono":-2.5e-3"#))?.mono == -0.0025)
        #expect(decodedEvent(line(#","mono":1.7976931348623157e308"#))?.mono == .greatestFiniteMagnitude)
        #expect(decodedEvent(line(#","mono":3.14159265358979323846"#))?.mono == 3.141592653589793)
    }

    @Test func seqAndTaskCoverTheRangeOfInt64() {
        #expect(decodedEvent(line(#","seq":9223372036854775807"#))?.seq == .max)
        #expect(decodedEvent(line(#","task":-9223372036854775808"#))?.task == .min)
        #expect(decodedEvent(line(#","seq":0"#))?.seq == 0)
    }

    @Test func theLastOfRepeatedKeysWins() throws {
        let event = try #require(decodedEvent(
            #"{"ts":0,"device":"old","launch":"L","event":"e","device":"new","seq":1,"seq":2,"app":"x","app":true}"#))
        #expect(event.device == "new")
        #expect(event.seq == 2)
        #expect(event.app == nil)
        #expect(event.attrs == #"{"app":true}"#)
    }

    @Test func whitespaceBetweenTokensIsAllowed() throws {
        let event = try #require(decodedEvent(
            " \t{ \"ts\" : 0 ,\r\"device\":\"D\", \"launch\" :\"L\",\"event\":\"e\" , \"seq\" : 5 }\r "))
        #expect(event.seq == 5)
        #expect(event.device == "D")
    }

    @Test func blankLinesAreBlank() {
        #expect(decode("") == .blank)
        #expect(decode("   \t\r") == .blank)
        #expect(decode(bytes: [0xEF, 0xBB, 0xBF]) == .blank)
        #expect(decode(bytes: [0xEF, 0xBB, 0xBF, 0x20]) == .blank)
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(line().utf8)
        #expect(decode(bytes: bytes)
            == .event(Event(ts: exampleTime(milliseconds: 0), device: "D1", launch: "L7", name: "e")))
    }

    @Test func cachedStringsFollowChangingValues() {
        var decoder = EventDecoder()
        var devices: [String] = []
        for device in ["A", "A", "B", "", "B", "Ab"] {
            let text = #"{"ts":0,"device":"\#(device)","launch":"L","event":"e"}"#
            if case .event(let event) = Array(text.utf8).withUnsafeBytes({ decoder.decode($0) }) {
                devices.append(event.device)
            }
        }
        #expect(devices == ["A", "A", "B", "", "B", "Ab"])
    }
}

/// The decoder's number policy: a number beyond `Double` (`1e999`) in `mono` is ill-typed, like a
/// string there: the event is kept, without `mono` (durations fall back to `ts`), and the member
/// is kept verbatim in `attrs`. In `ts` it is a bad time, and the line is rejected.
@Suite struct NumberPolicyTests {
    @Test func aMonoBeyondDoubleIsKeptInAttrsNotTyped() throws {
        let event = try #require(decodedEvent(line(#","mono":1e999,"seq":3"#)))
        #expect(event.mono == nil)
        #expect(event.attrs == #"{"mono":1e999}"#)
        #expect(event.seq == 3)
        #expect(decodedEvent(line(#","mono":-1e999"#))?.mono == nil)
        #expect(decodedEvent(line(#","mono":1e16"#))?.mono == 1e16)
    }

    @Test func aTimeBeyondTheRangeIsABadTs() {
        for ts in ["1e999", "9223372036854.775808", "-9223372036854.775809", "1e19", "9223372036854.775807", "-62167219200.000001"] {
            let issue = rejection(#"{"ts":"# + ts + #","device":"D","launch":"L","event":"e"}"#)
            #expect(issue?.reason == .badTimestamp, "\(ts)")
            #expect(issue?.message.contains("ts \(ts) is ") == true, "\(ts)")
        }
    }

    /// A count of milliseconds since the epoch, logged where seconds belong, read as the year
    /// 58858 and made every duration a thousand times too long (false overruns of every budget):
    /// it is refused, and the reason says what to log instead.
    @Test func millisecondsSinceTheEpochAreABadTsThatSaysSo() throws {
        let issue = try #require(rejection(#"{"ts":1795224138702,"device":"D","launch":"L","event":"e"}"#))
        #expect(issue.reason == .badTimestamp)
        #expect(issue.message == "ts 1795224138702 is after the year 9999 as Unix epoch seconds, which ts is: "
            + "log seconds (milliseconds since the epoch would be divided by 1,000)")
        #expect(decodedEvent(#"{"ts":1795224138.702,"device":"D","launch":"L","event":"e"}"#)?.ts.description
            == "2026-11-21T01:22:18.702000Z")
    }

    /// The numbers of epoch seconds accepted are the times the text form can write.
    @Test func theYearsZeroToNineThousandNineHundredNinetyNineAreAccepted() throws {
        let earliest = try #require(decodedEvent(#"{"ts":-62167219200,"device":"D","launch":"L","event":"e"}"#))
        #expect(earliest.ts.description == "0000-01-01T00:00:00.000000Z")
        let latest = try #require(decodedEvent(#"{"ts":253402300799.999999,"device":"D","launch":"L","event":"e"}"#))
        #expect(latest.ts.description == "9999-12-31T23:59:59.999999Z")
        #expect(latest.ts == TimestampParser.writableRange.upperBound && earliest.ts == TimestampParser.writableRange.lowerBound)
    }

    @Test func integersBeyondInt64AreIllTyped() throws {
        let event = try #require(decodedEvent(line(#","seq":9223372036854775808,"task":-9223372036854775809"#)))
        #expect(event.seq == nil && event.task == nil)
        #expect(decodedEvent(line(#","seq":9223372036854775807"#))?.seq == .max)
    }
}

extension NumberPolicyTests {
    /// The earliest time a `Timestamp` holds (the decoder's earliest, before numbers were held to
    /// the years 0000–9999) used to trap when written as RFC 3339.
    @Test func theEarliestTimeIsWritten() throws {
        let earliest = Timestamp(microseconds: -9_223_372_036_854_775_807)
        #expect(earliest.description.hasSuffix(":05.224193Z"))
    }
}
