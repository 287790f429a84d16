import Replay
import Testing
import TraceModel

@Suite struct LaunchHandoverTests {
    private func passed(_ events: [Event]) -> [String] {
        var handover = LaunchHandover()
        var out: [String] = []
        for event in events { handover.push(event) { out.append("\($0.device)\($0.launch).\($0.name)") } }
        handover.flush { out.append("\($0.device)\($0.launch).\($0.name)") }
        return out
    }

    /// The trace format's handover: launch B writes A's `terminate` just after its own `launch`
    /// line, and A's line comes out first.
    @Test func theOldLaunchsLineWrittenByTheNewOneComesFirst() {
        let events = [
            event(0, "launch", launch: "A"), event(1, "suspend", launch: "A"),
            event(9, "launch", launch: "B"), event(9.001, "terminate", launch: "A"), event(9.1, "didBecomeActive", launch: "B"),
        ]
        #expect(passed(events) == ["DA.launch", "DA.suspend", "DA.terminate", "DB.launch", "DB.didBecomeActive"])
    }

    /// Without a line of the old launch, the new one's first event waits only for the device's
    /// next event; another device's events pass meanwhile, and a lone last event comes out at the
    /// end.
    @Test func aNewLaunchWaitsOnlyForItsDevicesNextEvent() {
        let events = [
            event(0, "launch", launch: "A"), event(9, "launch", launch: "B"), event(9, "snapshot", launch: "X", device: "E"),
            event(9.1, "didBecomeActive", launch: "B"), event(10, "launch", launch: "C"),
        ]
        #expect(passed(events) == ["DA.launch", "EX.snapshot", "DB.launch", "DB.didBecomeActive", "DC.launch"])
    }

    /// An extension's launch is another process: it supersedes nothing of the app's, and its
    /// event lets the app's new launch go first (the old launch's line after it is late).
    @Test func anotherProcessIsNotALaterLaunch() {
        let events = [
            event(0, "launch", launch: "A"), event(1, "launch", launch: "N", process: "extension:nse"),
            event(9, "launch", launch: "B"), event(9, "nse.receive", launch: "N", process: "extension:nse"),
            event(9.1, "terminate", launch: "A"),
        ]
        #expect(passed(events) == ["DA.launch", "DN.launch", "DB.launch", "DN.nse.receive", "DA.terminate"])
    }

    /// A late line of the launch before is that launch's, not a new launch to hold.
    @Test func aLateLineOfThePreviousLaunchIsNotHeld() {
        let events = [
            event(0, "launch", launch: "A"), event(9, "launch", launch: "B"), event(9.1, "didBecomeActive", launch: "B"),
            event(9.2, "terminate", launch: "A"), event(9.3, "snapshot", launch: "B"),
        ]
        #expect(passed(events) == ["DA.launch", "DB.launch", "DB.didBecomeActive", "DA.terminate", "DB.snapshot"])
    }
}
