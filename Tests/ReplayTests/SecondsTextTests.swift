import Replay
import Testing
import TraceModel

@Suite struct SecondsTextTests {
    /// A measure just over its budget read the same as the budget ("30.0 s after delivery; its time
    /// is 30.0 s"): the pair gets the decimals that tell them apart.
    @Test func aMeasureAndItsBudgetReadDifferentlyWhenTheyDiffer() {
        #expect(SecondsText.seconds(30.001, against: 30) == ("30.001 s", "30.000 s"))
        #expect(SecondsText.seconds(33.7, against: 30) == ("33.7 s", "30.0 s"))
        #expect(SecondsText.seconds(30, against: 30) == ("30.0 s", "30.0 s"))
        #expect(SecondsText.seconds(30.0000001, against: 30) == ("30.000000 s", "30.000000 s"), "six decimals at most")
        #expect(SecondsText.seconds(nil, against: 30) == ("? s", "30.0 s"))
    }

    @Test func ordinaryDurationsReadAsBefore() {
        #expect(SecondsText.seconds(41.25) == "41.3 s")
        #expect(SecondsText.seconds(0) == "0.0 s")
        #expect(SecondsText.seconds(nil) == "? s")
        #expect(SecondsText.seconds(6.5, decimals: 3, trimmed: true) == "6.5 s")
        #expect(SecondsText.seconds(8, decimals: 3, trimmed: true) == "8 s")
        #expect(SecondsText.seconds(0.004, decimals: 3, trimmed: true) == "0.004 s")
        #expect(SecondsText.number(-0.04) == "0.0")
        #expect(SecondsText.number(-2.25, decimals: 2) == "-2.25")
        #expect(SecondsText.number(7202.9434, decimals: 3) == "7202.943")
    }

    /// A `mono` jump of 1e16 s, or a non-finite value, used to trap in the message formatters.
    @Test func everyDoubleGivesText() {
        #expect(SecondsText.seconds(1e16) == "1.0e16 s")
        #expect(SecondsText.seconds(-1.26e16) == "-1.3e16 s")
        #expect(SecondsText.seconds(.greatestFiniteMagnitude) == "1.8e308 s")
        #expect(SecondsText.seconds(.infinity) == "∞ s")
        #expect(SecondsText.seconds(-.infinity) == "-∞ s")
        #expect(SecondsText.seconds(.nan) == "? s")
        #expect(SecondsText.number(9.96e20, decimals: 0) == "1.0e21")
        for value in [Double.leastNonzeroMagnitude, 0x1p53, 0x1p63, -0x1p63, 1e300] {
            for decimals in 0 ... 6 { #expect(!SecondsText.number(value, decimals: decimals).isEmpty) }
        }
    }

    @Test func roundedForJSONStaysFinite() {
        #expect(SecondsText.rounded(41.23456) == 41.235)
        #expect(SecondsText.rounded(1e300) == 1e300)
        #expect(SecondsText.rounded(.greatestFiniteMagnitude).isFinite)
    }

    /// Times at the ends of `Timestamp`'s range: `Timestamp(seconds:)` saturates, and the seconds
    /// between them are computed without an integer overflow.
    @Test func extremeTimesSaturate() {
        #expect(Timestamp(seconds: 1e300).microseconds == .max)
        #expect(Timestamp(seconds: -.infinity).microseconds == .min)
        #expect(Timestamp(seconds: .nan).microseconds == 0)
        let first = Timestamp(microseconds: .min), last = Timestamp(microseconds: .max)
        #expect(last.seconds(since: first) > 1.8e13)
        #expect(first.seconds(since: last) < -1.8e13)
        #expect(!first.description.isEmpty && !last.description.isEmpty)
    }

    /// Durations between events at opposite ends of time, or with `mono` values whose difference
    /// overflows to infinity, are finite.
    @Test func replayDurationsAreFinite() {
        let book = RuleBook([Obligation(
            opens: .beginBackgroundTask, closes: .endBackgroundTask, key: .task, deadline: .budget(.didEnterBackground),
            overrun: [.didEnterBackground: .init(testRule("work-overrun", .overrun)) { SecondsText.seconds($0.seconds) }]
        ).blueprint])
        var begin = Event(ts: Timestamp(microseconds: .min), device: "D", launch: "L1", name: "beginBackgroundTask", task: 1)
        var end = Event(ts: Timestamp(microseconds: .max), device: "D", launch: "L1", name: "endBackgroundTask", task: 1)
        begin.mono = -.greatestFiniteMagnitude
        end.mono = .greatestFiniteMagnitude
        let found = Replayer.findings(in: [begin, end], book: book)
        #expect(found.map(\.rule) == ["work-overrun"])
        #expect(found.first?.measured?.isFinite == true)
        #expect(found.first?.message == "18446744073709.6 s")
    }
}
