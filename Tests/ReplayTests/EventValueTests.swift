import Testing
import TraceModel

/// An ``Event`` shares its fields between copies (copy on write): it must still behave as a value.
@Suite struct EventValueTests {
    private static func event() -> Event {
        Event(
            ts: Timestamp(seconds: 10), device: "D1", launch: "L1", name: "bgtask.launch", seq: 3, mono: 1.5,
            app: "com.example.app", appVersion: "1.0", os: "18.0", model: "iPhone14,5", process: "app",
            phase: "begin", reason: "system", cause: "bgtask", task: 7, identifier: "com.example.refresh",
            call: "4", success: true, result: "newData", attrs: #"{"priority":5}"#, rowID: 42)
    }

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = Self.event()
        var copy = original
        copy.ts = Timestamp(seconds: 11)
        copy.device = "D2"
        copy.launch = "L2"
        copy.name = "custom.thing"
        copy.seq = nil
        copy.mono = 2
        copy.app = nil
        copy.appVersion = "2.0"
        copy.os = nil
        copy.model = nil
        copy.process = "extension:nse"
        copy.phase = "end"
        copy.reason = nil
        copy.cause = nil
        copy.task = 8
        copy.identifier = nil
        copy.call = "5"
        copy.success = false
        copy.result = nil
        copy.attrs = nil
        copy.rowID = 43

        #expect(original == Self.event())
        #expect(original.ts == Timestamp(seconds: 10) && original.device == "D1" && original.launch == "L1")
        #expect(original.kind == .bgtaskLaunch && original.name == "bgtask.launch")
        #expect(original.seq == 3 && original.mono == 1.5 && original.task == 7 && original.rowID == 42)
        #expect(original.app == "com.example.app" && original.appVersion == "1.0" && original.os == "18.0")
        #expect(original.model == "iPhone14,5" && original.process == "app" && !original.isExtension)
        #expect(original.phase == "begin" && original.reason == "system" && original.cause == "bgtask")
        #expect(original.identifier == "com.example.refresh" && original.call == "4" && original.success == true)
        #expect(original.result == "newData" && original.attrs == #"{"priority":5}"#)

        #expect(copy.ts == Timestamp(seconds: 11) && copy.device == "D2" && copy.launch == "L2")
        #expect(copy.kind == .other && copy.name == "custom.thing")
        #expect(copy.seq == nil && copy.mono == 2 && copy.task == 8 && copy.rowID == 43)
        #expect(copy.app == nil && copy.appVersion == "2.0" && copy.os == nil && copy.model == nil)
        #expect(copy.process == "extension:nse" && copy.isExtension)
        #expect(copy.phase == "end" && copy.reason == nil && copy.cause == nil && copy.identifier == nil)
        #expect(copy.call == "5" && copy.success == false && copy.result == nil && copy.attrs == nil)
    }

    @Test func equalityAndHashingGoByContentNotByBox() {
        let one = Self.event()
        let other = Self.event()  // equal content, its own box
        #expect(one == other)
        #expect(Set([one, other]).count == 1)

        for change in [
            { (event: inout Event) in event.rowID = 41 }, { $0.attrs = nil }, { $0.name = "bgtask.complete" },
            { $0.seq = 4 }, { $0.call = "5" }, { $0.ts = Timestamp(seconds: 10.000001) },
        ] {
            var changed = one
            change(&changed)
            #expect(changed != one)
            #expect(Set([one, changed]).count == 2)
            change(&changed)  // the same change again: still unequal, and the original untouched
            #expect(one == other)
        }
    }
}
