@testable import Replay
import Testing
import TraceModel

@Suite struct SequenceOrdererTests {
    private func order(_ events: [Event], window: Int = 256) -> [Int64?] {
        var orderer = SequenceOrderer(window: window)
        var out: [Event] = []
        for event in events { orderer.push(event) { out.append($0) } }
        orderer.flush { out.append($0) }
        return out.map(\.seq)
    }

    /// `seq` 2⁶³ − 1 is legal input; the next expected `seq` after it used to overflow and trap.
    @Test func theLargestSeqDoesNotOverflow() {
        let events = [Int64.max - 1, .max, 5].map { event(0, "snapshot", seq: $0) }
        #expect(order(events, window: 1) == [.max - 1, .max, 5])
    }

    @Test func eventsOutOfOrderComeOutInSeqOrder() {
        let events = [0, 2, 1, 4, 3, 5].map { event(Double($0), "snapshot", seq: Int64($0)) }
        #expect(order(events) == [0, 1, 2, 3, 4, 5])
    }

    @Test func aGapIsWaitedForOnlyAsLongAsTheWindow() {
        let events = [0, 2, 3, 4, 5].map { event(Double($0), "snapshot", seq: Int64($0)) }
        #expect(order(events, window: 2) == [0, 2, 3, 4, 5])
    }

    /// An extension's process runs beside the app's: its events pass while the app's wait.
    @Test func launchesAreOrderedIndependently() {
        let events = [
            event(0, "a", seq: 1, launch: "A"), event(0, "b", seq: 0, launch: "B", process: "extension:nse"),
            event(0, "a", seq: 0, launch: "A"),
        ]
        var orderer = SequenceOrderer()
        var out: [String] = []
        for e in events { orderer.push(e) { out.append("\($0.launch)\($0.seq!)") } }
        orderer.flush { out.append("\($0.launch)\($0.seq!)") }
        #expect(out == ["B0", "A0", "A1"])
    }

    /// The app's launch A waits for `seq` 2 (its line was rejected) when launch B of the app
    /// begins: A is over, so what it holds comes out before B's first event, in `seq` order,
    /// and a line of A that comes later still is kept, late.
    @Test func aNewLaunchOfTheSameProcessReleasesWhatTheOldOneHolds() {
        let events = [
            event(0, "a", seq: 0, launch: "A"), event(1, "a", seq: 1, launch: "A"), event(3, "a", seq: 4, launch: "A"),
            event(2, "a", seq: 3, launch: "A"), event(9, "b", seq: 0, launch: "B"), event(10, "b", seq: 1, launch: "B"),
            event(4, "a", seq: 5, launch: "A"),
        ]
        var orderer = SequenceOrderer()
        var out: [String] = []
        for e in events { orderer.push(e) { out.append("\($0.launch)\($0.seq!)") } }
        orderer.flush { out.append("\($0.launch)\($0.seq!)") }
        #expect(out == ["A0", "A1", "A3", "A4", "B0", "B1", "A5"])
    }

    /// The same launch id on two devices is two launches, and one device's new launch does not
    /// release another device's.
    @Test func aNewLaunchOnAnotherDeviceReleasesNothing() {
        let events = [
            event(0, "a", seq: 1, launch: "A", device: "D1"), event(0, "b", seq: 0, launch: "B", device: "D2"),
            event(0, "a", seq: 0, launch: "A", device: "D1"),
        ]
        var orderer = SequenceOrderer()
        var out: [String] = []
        for e in events { orderer.push(e) { out.append("\($0.device)\($0.launch)\($0.seq!)") } }
        orderer.flush { out.append("\($0.device)\($0.launch)\($0.seq!)") }
        #expect(out == ["D2B0", "D1A0", "D1A1"])
    }

    /// Events without `seq` pass straight through, in arrival order (see the type's note).
    @Test func eventsWithoutSeqPassStraightThrough() {
        #expect(order([event(0, "x"), event(1, "y", seq: 0), event(2, "z")]) == [nil, 0, nil])
    }

    /// A `seq` whose place has passed is a duplicate when it was replayed (dropped and counted,
    /// as the store's identity drops it), and kept, late, when it fills a gap released past.
    @Test func aSeqSeenBeforeIsADuplicateAndALateOneFillsItsGap() {
        let events = [0, 1, 2].map { event(Double($0), "s", seq: Int64($0)) } + [event(3, "again", seq: 1)]
        var orderer = SequenceOrderer()
        var out: [Int64?] = []
        for e in events { orderer.push(e) { out.append($0.seq) } }
        #expect(out == [0, 1, 2] && orderer.duplicates == 1)

        var gapped = SequenceOrderer(window: 2)
        var seqs: [Int64?] = []
        for seq: Int64 in [0, 3, 4, 5, 2, 1, 4, 2] { gapped.push(event(Double(seq), "s", seq: seq)) { seqs.append($0.seq) } }
        gapped.flush { seqs.append($0.seq) }
        #expect(seqs == [0, 3, 4, 5, 2, 1], "1 and 2 fill the gap late; the second 4 and 2 are repeats")
        #expect(gapped.duplicates == 2)
    }
}

@Suite struct SequenceOrdererMemoryTests {
    /// A launch that held a window's worth of events (waiting for a rejected line) and then ended
    /// stays known, for its duplicates, but gives its buffer back: 4,096 finished launches keeping
    /// theirs cost `check --stdin` 25 MB on a field-like stream.
    @Test func aFinishedLaunchKeepsNoBuffer() {
        var orderer = SequenceOrderer(window: 300)
        var released = 0
        for seq in 1 ... 300 { orderer.push(event(Double(seq), "a", seq: Int64(seq), launch: "A")) { _ in released += 1 } }
        #expect(released == 0 && orderer.eventCapacityKept >= 300)
        orderer.push(event(400, "b", seq: 0, launch: "B")) { _ in released += 1 }
        #expect(released == 301)
        #expect(orderer.eventCapacityKept == 0)
        orderer.push(event(5, "a", seq: 5, launch: "A")) { _ in released += 1 }
        #expect(orderer.duplicates == 1, "launch A is still known")
    }

    /// Thousands of launches pass through in order, with few held: each still comes out at once,
    /// in order, although most launches have been forgotten by the end.
    @Test func quietLaunchesAreForgottenWithoutDelayingActiveOnes() {
        var orderer = SequenceOrderer(window: 256, launchesKept: 64)
        var out: [String] = []
        for launch in 0..<1000 {
            for seq in 0..<3 {
                orderer.push(event(Double(launch), "s", seq: Int64(seq), launch: "L\(launch)")) {
                    out.append("\($0.launch)#\($0.seq!)")
                }
            }
            // One long-lived launch keeps logging between the others.
            orderer.push(event(Double(launch), "s", seq: Int64(launch), launch: "long")) {
                out.append("\($0.launch)#\($0.seq!)")
            }
        }
        #expect(out.count == 4000, "every event came out without waiting for the flush")
        #expect(out.suffix(4) == ["L999#0", "L999#1", "L999#2", "long#999"])
    }

    /// Launches whose first line was lost (a gap at seq 0) hold their events; once more launches
    /// than are kept have been seen, the quietest are forgotten anyway, their events released in
    /// order, so memory stays bounded and no sweep runs on every event.
    @Test func launchesHoldingEventsAreForgottenInTurnAndReleaseThem() {
        var orderer = SequenceOrderer(window: 256, launchesKept: 8)
        var emitted: [Event] = []
        for launch in 0..<100 {
            for seq in 1...3 { orderer.push(event(Double(launch), "snapshot", seq: Int64(seq), launch: "L\(launch)")) { emitted.append($0) } }
        }
        // At most 8 launches (24 events) are still held; everything else came out, in seq order per launch.
        #expect(emitted.count >= 300 - 8 * 3)
        orderer.flush { emitted.append($0) }
        #expect(emitted.count == 300)
        for launch in 0..<100 {
            #expect(emitted.filter { $0.launch == "L\(launch)" }.compactMap(\.seq) == [1, 2, 3])
        }
    }
}
