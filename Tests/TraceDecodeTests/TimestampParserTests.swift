import Testing
import TraceDecode
@testable import TraceModel
import TraceSynth

struct TimestampParserTests {
    private func micros(_ text: String) -> Int64? {
        TimestampParser.parse(text)?.microseconds
    }

    private let day = exampleDay * 1_000_000

    @Test func utcWithAndWithoutFraction() {
        #expect(micros("2026-11-21T08:00:00Z") == day)
        #expect(micros("2026-11-21T08:00:00.100Z") == day + 100_000)
        #expect(micros("2026-11-21t08:00:00z") == day)
        #expect(micros("2026-11-21 08:00:00Z") == day)
        #expect(micros("1970-01-01T00:00:00Z") == 0)
    }

    @Test(arguments: [
        ("2026-11-21T08:00:00.1Z", 100_000),
        ("2026-11-21T08:00:00.123Z", 123_000),
        ("2026-11-21T08:00:00.123456Z", 123_456),
        ("2026-11-21T08:00:00.123456789Z", 123_456),
        ("2026-11-21T08:00:00.000001Z", 1),
        ("2026-11-21T08:00:00.9999999999999999Z", 999_999),
    ] as [(String, Int64)])
    func fractionsKeepMicrosecondsAndTruncateTheRest(text: String, fraction: Int64) {
        #expect(micros(text) == day + fraction)
    }

    @Test func offsetsConvertToUTC() {
        // 10:00 at +02:00 and 02:30 at -05:30 are both 08:00 UTC.
        #expect(micros("2026-11-21T10:00:00+02:00") == day)
        #expect(micros("2026-11-21T02:30:00-05:30") == day)
        #expect(micros("2026-11-21T02:30:00.5-05:30") == day + 500_000)
        #expect(micros("2026-11-21T08:00:00+00:00") == day)
        #expect(micros("2026-11-21T08:00:00-00:00") == day)
        // Across midnight: 23:30 the day before at -08:30 is 08:00 UTC.
        #expect(micros("2026-11-20T23:30:00-08:30") == day)
    }

    @Test func leapYearsHaveFebruary29() {
        #expect(micros("2024-02-29T12:00:00Z") == 1_709_208_000_000_000)
        #expect(micros("2000-02-29T00:00:00Z") == 951_782_400_000_000)
        #expect(micros("2023-02-29T00:00:00Z") == nil)
        #expect(micros("1900-02-29T00:00:00Z") == nil)
        #expect(micros("2100-02-29T00:00:00Z") == nil)
    }

    @Test(arguments: [
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-02-30T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-11-00T00:00:00Z", "2026-11-21T24:00:00Z",
        "2026-11-21T08:60:00Z", "2026-11-21T08:00:61Z", "2026-11-21T08:00:00+24:00",
        "2026-11-21T08:00:00+02:60", "2026-11-21T08:00:00", "2026-11-21T08:00:00.Z",
        "2026-11-21T08:00:00+0200", "2026-11-21X08:00:00Z", "2026-11-21T08:00:00Zjunk",
        "26-11-21T08:00:00Z", "2026-1-21T08:00:00Z", "2026-11-21", "", "yesterday",
        "2026-11-21T08:00:00.1 Z",
    ])
    func invalidTextDoesNotParse(text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func aLeapSecondCountsAsTheNextMinute() {
        #expect(micros("2026-12-31T23:59:60Z") == micros("2027-01-01T00:00:00Z"))
    }

    @Test func epochSecondsAreParsedExactly() {
        #expect(micros("1763712000.25") == 1_763_712_000_250_000)
        #expect(micros("1763712000") == 1_763_712_000_000_000)
        #expect(micros("1763712000.1234567") == 1_763_712_000_123_456)
        // 0.1 + 0.2 is not 0.3 in binary; digit by digit it is exact.
        #expect(micros("1795248000.3") == day + 300_000)
        #expect(micros("0") == 0)
        #expect(micros("0.000001") == 1)
        #expect(micros("-1.5") == -1_500_000)
        // Dropped digits move a negative time to the earlier microsecond.
        #expect(micros("-0.0000015") == -2)
    }

    @Test func epochSecondsMayHaveAnExponent() {
        #expect(micros("1.76371200025e9") == 1_763_712_000_250_000)
        #expect(micros("1763712000250E-3") == 1_763_712_000_250_000)
        #expect(micros("17637120002.5e-1") == 1_763_712_000_250_000)
        #expect(micros("1e-7") == 0)
        #expect(micros("0e999999") == 0)
    }

    @Test(arguments: ["1e20", "-1e20", "9223372036855", "01", "1.", ".5", "+1", "1e", "--1", "1 ", "0x10"])
    func epochTextOutsideTheGrammarOrRangeDoesNotParse(text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func bytesEntryPointsAcceptOnlyTheirOwnForm() {
        let rfc = Array("2026-11-21T08:00:00Z".utf8)
        let epoch = Array("1795248000".utf8)
        #expect(rfc.withUnsafeBytes { TimestampParser.parse(rfc3339: $0) }?.microseconds == day)
        #expect(rfc.withUnsafeBytes { TimestampParser.parse(epochSeconds: $0) } == nil)
        #expect(epoch.withUnsafeBytes { TimestampParser.parse(epochSeconds: $0) }?.microseconds == day)
        #expect(epoch.withUnsafeBytes { TimestampParser.parse(rfc3339: $0) } == nil)
    }

    @Test func decodedEventsUseBothForms() {
        #expect(decodedEvent(#"{"ts":1763712000.25,"device":"D","launch":"L","event":"e"}"#)?.ts
            == Timestamp(microseconds: 1_763_712_000_250_000))
        #expect(decodedEvent(#"{"ts":"2026-11-21T10:00:00.5+02:00","device":"D","launch":"L","event":"e"}"#)?.ts
            == Timestamp(microseconds: day + 500_000))
    }

    @Test func descriptionRoundTrips() {
        let timestamp = Timestamp(microseconds: day + 123_456)
        #expect(TimestampParser.parse(timestamp.description) == timestamp)
    }

    /// The description written byte by byte says what the padded one says, across the years it
    /// writes and at their edges; beyond them the padded one answers.
    @Test func descriptionMatchesThePaddedOne() {
        var rng = SplitMix64(7)
        let yearZero: Int64 = -62_167_219_200_000_000, yearTenThousand: Int64 = 253_402_300_800_000_000
        var times: [Int64] = [0, -1, 1, yearZero, yearZero - 1, yearTenThousand - 1, yearTenThousand, .max, .min]
        times += (0 ..< 20_000).map { _ in Int64.random(in: yearZero - 86_400_000_000 ... yearTenThousand + 86_400_000_000, using: &rng) }
        times += (0 ..< 1_000).map { _ in Int64.random(in: .min ... .max, using: &rng) }
        for microseconds in times {
            let time = Timestamp(microseconds: microseconds)
            #expect(time.description == time.paddedDescription, "\(microseconds)")
        }
        #expect(Timestamp(microseconds: yearTenThousand - 1).description == "9999-12-31T23:59:59.999999Z")
        #expect(Timestamp(microseconds: yearZero).description == "0000-01-01T00:00:00.000000Z")
    }
}
