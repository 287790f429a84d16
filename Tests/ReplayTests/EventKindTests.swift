import Testing
import TraceModel

@Suite struct EventKindTests {
    @Test func ordinalIsThePositionInAllCases() {
        for (position, kind) in EventKind.allCases.enumerated() {
            #expect(kind.ordinal == position, "\(kind)")
        }
    }

    @Test func anEventKeepsItsNameExactly() {
        for kind in EventKind.allCases where kind != .other {
            let event = Event(ts: Timestamp(microseconds: 0), device: "D", launch: "L", name: kind.rawValue)
            #expect(event.kind == kind)
            #expect(event.name == kind.rawValue)
        }
        // Unknown names, names that differ from a known one only in case or by a byte, and the
        // raw value of `other` itself are all kept as they were written.
        for name in ["Launch", "launch ", "bgtask.completed", "other", "", "café", "bgtask.complete\u{0}"] {
            var event = Event(ts: Timestamp(microseconds: 0), device: "D", launch: "L", name: name)
            #expect(event.kind == .other, "\(name)")
            #expect(event.name == name)
            event.name = "suspend"
            #expect(event.kind == .suspend)
            #expect(event.name == "suspend")
            event.name = name
            #expect(event.kind == .other)
            #expect(event.name == name)
        }
    }

    @Test func eventsWithTheSameNameAreEqual() {
        let a = Event(ts: Timestamp(microseconds: 1), device: "D", launch: "L", name: "mystery")
        var b = Event(ts: Timestamp(microseconds: 1), device: "D", launch: "L", name: "suspend")
        #expect(a != b)
        b.name = "mystery"
        #expect(a == b)
    }
}
