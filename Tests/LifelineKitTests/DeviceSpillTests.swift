import Foundation
@testable import LifelineKit
import Testing
import TraceModel
import TraceStore
import TraceSynth

/// The spill of `check --stdin`: events kept as bytes (``EventBytes``) come back exactly as they
/// were, and a spill of any number of runs gives them back device after device, each device's in
/// line order; bytes that are not an event read as none, never a trap.
@Suite struct DeviceSpillTests {
    /// Events with every value there is, none of them, and values at their edges.
    private static func events(_ random: inout SplitMix64, count: Int) -> [Event] {
        let texts = ["", "a", "日本語", "D\u{0}\u{1B}[31m", String(repeating: "x", count: 300), "com.example.app"]
        func text() -> String? { Bool.random(using: &random) ? texts.randomElement(using: &random) : nil }
        func number() -> Int64? { Bool.random(using: &random) ? [0, -1, .min, .max, 42].randomElement(using: &random) : nil }
        return (0 ..< count).map { index in
            let mono: Double? = [nil, 0, -0.0, 1.5e300, .infinity, Double(bitPattern: 0x7FF8_0000_0000_1234)]
                .randomElement(using: &random) ?? nil
            return Event(
                ts: Timestamp(microseconds: [0, -5, .max, 1_763_712_000_123_456].randomElement(using: &random) ?? 0),
                device: "device-\(index % 5)", launch: text() ?? "L", name: ["launch", "bgtask.complete", "custom.thing", ""]
                    .randomElement(using: &random) ?? "launch",
                seq: number(), mono: mono, app: text(), appVersion: text(), os: text(), model: text(), process: text(),
                phase: text(), reason: text(), cause: text(), task: number(), identifier: text(), call: text(),
                success: [nil, true, false].randomElement(using: &random) ?? nil, result: text(),
                attrs: Bool.random(using: &random) ? #"{"n":[1,{"deep":"\u0000"}]}"# : nil, rowID: number())
        }
    }

    /// Equal, with `mono` compared by its bits (NaN is not equal to itself).
    private static func same(_ a: Event, _ b: Event) -> Bool {
        var (a, b) = (a, b)
        guard a.mono?.bitPattern == b.mono?.bitPattern else { return false }
        (a.mono, b.mono) = (nil, nil)
        return a == b
    }

    private static func encoded(_ event: Event) -> [UInt8] {
        let buffer = ByteBuffer()
        EventBytes.append(event, to: buffer)
        return Array(buffer.bytes)
    }

    @Test func eventsComeBackAsTheyWere() throws {
        var random = SplitMix64(7)
        var reader = EventBytes.Reader()
        for event in Self.events(&random, count: 2000) {
            let bytes = Self.encoded(event)
            let read = bytes.withUnsafeBytes { reader.event($0) }
            let back = try #require(read)
            #expect(Self.same(back, event))
            #expect(bytes.withUnsafeBytes { EventBytes.device(in: $0).map { Array($0) } } == Array(event.device.utf8))
        }
    }

    /// Every prefix of an event's bytes, and the bytes with any one byte changed, read as no
    /// event or as some event — never a trap.
    @Test func bytesThatAreNotAnEventReadAsNone() throws {
        var random = SplitMix64(8)
        var reader = EventBytes.Reader()
        for event in Self.events(&random, count: 50) {
            let bytes = Self.encoded(event)
            for length in 0 ..< bytes.count {
                let read = bytes[..<length].withUnsafeBytes { reader.event($0) }
                #expect(read == nil, "\(length) of \(bytes.count) bytes")
            }
            for _ in 0 ..< 40 {
                var changed = bytes
                changed[Int.random(in: 0 ..< changed.count, using: &random)] = UInt8.random(in: 0 ... 255, using: &random)
                _ = changed.withUnsafeBytes { reader.event($0) }
            }
            let longer = (bytes + [0]).withUnsafeBytes { reader.event($0) }
            #expect(longer == nil, "a byte too many")
        }
    }

    /// Runs of one event, windows smaller than an event, runs merged two at a time into longer
    /// ones first: the merge still gives every event back, grouped by device in the byte order of
    /// their ids, each device's in line order.
    @Test(arguments: [(1, 16, 2), (1, 16, 64), (3000, 64, 3), (1 << 20, 1 << 16, 64)])
    func drainGivesEveryDeviceTogetherInLineOrder(runBytes: Int, windowBytes: Int, mostRunsMerged: Int) throws {
        var random = SplitMix64(9)
        let events = Self.events(&random, count: 700)
        let spill = DeviceSpill(runBytes: runBytes, windowBytes: windowBytes, mostRunsMerged: mostRunsMerged)
        for (line, event) in events.enumerated() { try spill.append(event, line: line + 1) }
        #expect(spill.count == events.count)
        var back: [Event] = []
        try spill.drain { back.append($0) }
        let expected = events.enumerated().sorted {
            ($0.element.device.utf8.lexicographicallyPrecedes($1.element.device.utf8))
                || ($0.element.device == $1.element.device && $0.offset < $1.offset)
        }.map(\.element)
        #expect(back.count == expected.count)
        #expect(zip(back, expected).allSatisfy(Self.same))
    }

    @Test func anEmptySpillGivesNothing() throws {
        var calls = 0
        try DeviceSpill().drain { _ in calls += 1 }
        #expect(calls == 0)
    }

    /// A taker that stops (its output failed) stops the thread reading the spill back, which
    /// had filled the hand-over and was waiting: its error comes out, and nothing hangs.
    @Test func aTakerThatStopsStopsTheReading() throws {
        struct Stop: Error {}
        let spill = DeviceSpill(runBytes: 1 << 16)
        var random = SplitMix64(10)
        for (line, event) in Self.events(&random, count: 20 * DeviceSpill.batchEvents).enumerated() {
            try spill.append(event, line: line)
        }
        var taken = 0
        #expect(throws: Stop.self) {
            try spill.drain { _ in
                taken += 1
                if taken == 10 { throw Stop() }
            }
        }
        #expect(taken == 10)
    }
}
