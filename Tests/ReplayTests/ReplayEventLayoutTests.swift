import Replay
import Testing

/// A replay copies its events into launch states, obligations and findings' lists: their size
/// is the replay's memory traffic. New ``ReplayEvent/Details`` cases must keep payloads small.
@Suite struct ReplayEventLayoutTests {
    @Test func aReplayEventStaysSmall() {
        let stride = MemoryLayout<ReplayEvent>.stride
        print("MemoryLayout<ReplayEvent>.stride = \(stride), Details = \(MemoryLayout<ReplayEvent.Details>.size)")
        #expect(stride <= 176)
    }
}
