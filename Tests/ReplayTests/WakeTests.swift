import Replay
import Testing
import TraceModel

/// A device check that asks to be woken (``ReplayContext/wake(after:)``) is woken once, at the
/// device's first event past the time it gave, whatever that event's kind, and in its place
/// among the device checks — as if it had heard every event.
@Suite struct WakeTests {
    /// What the checks saw, in order, across the replay.
    final class Journal: @unchecked Sendable {
        var lines: [String] = []
    }

    /// Asks to be woken 10 s after each `bgtask.submit`; on waking, asks for nothing more.
    final class Sleeper: Check {
        let journal: Journal
        init(_ journal: Journal) { self.journal = journal }

        override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
            journal.lines.append("sleeper hears \(kind.rawValue) at \(event.ts.microseconds / 1_000_000)")
            context.wake(after: Timestamp(microseconds: event.ts.microseconds + 10_000_000))
        }

        override func wake(at event: ReplayEvent, context: ReplayContext) {
            journal.lines.append("sleeper wakes at \(event.ts.microseconds / 1_000_000)")
        }
    }

    /// Hears every event, after the sleeper (its blueprint comes later).
    final class Listener: Check {
        let journal: Journal
        init(_ journal: Journal) { self.journal = journal }

        override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
            journal.lines.append("listener hears \(kind.rawValue) at \(event.ts.microseconds / 1_000_000)")
        }
    }

    private func replay(_ events: [Event]) -> [String] {
        let journal = Journal()
        let rule = testRule("wake-test")
        let book = RuleBook([
            CheckBlueprint(scope: .device, interests: [.bgtaskSubmit], rules: [rule]) { _ in Sleeper(journal) },
            CheckBlueprint(scope: .device, interests: nil, rules: [rule]) { _ in Listener(journal) },
        ])
        let replayer = Replayer(book: book)
        for event in events { replayer.receive(event) { _ in } }
        replayer.finishAll { _ in }
        return journal.lines
    }

    @Test func aCheckIsWokenOnceAtTheFirstEventPastItsTimeBeforeLaterChecksHearIt() {
        let lines = replay([
            event(100, "launch"), event(105, "bgtask.submit"), event(110, "power"),
            event(115, "power"), event(116, "network"), event(200, "suspend"),
        ])
        #expect(lines == [
            "listener hears launch at 100",
            "sleeper hears bgtask.submit at 105", "listener hears bgtask.submit at 105",
            "listener hears power at 110",
            // 115 is not later than 105 + 10: the first event past it is at 116.
            "listener hears power at 115",
            "sleeper wakes at 116", "listener hears network at 116",
            "listener hears suspend at 200",
        ])
    }

    @Test func aNewRequestReplacesTheOldOneAndAnEventItHearsComesAfterTheWaking() {
        let lines = replay([
            event(100, "bgtask.submit"), event(105, "bgtask.submit"), event(112, "power"),
            event(120, "bgtask.submit"), event(140, "launch"),
        ])
        #expect(lines == [
            "sleeper hears bgtask.submit at 100", "listener hears bgtask.submit at 100",
            "sleeper hears bgtask.submit at 105", "listener hears bgtask.submit at 105",
            // The request for 110 was replaced by the one for 115.
            "listener hears power at 112",
            "sleeper wakes at 120", "sleeper hears bgtask.submit at 120", "listener hears bgtask.submit at 120",
            "sleeper wakes at 140", "listener hears launch at 140",
        ])
    }

    @Test func devicesAreWokenApart() {
        let lines = replay([
            event(100, "bgtask.submit", device: "A"), event(150, "power", device: "B"), event(151, "power", device: "A"),
        ])
        #expect(lines == [
            "sleeper hears bgtask.submit at 100", "listener hears bgtask.submit at 100",
            "listener hears power at 150",
            "sleeper wakes at 151", "listener hears power at 151",
        ])
    }
}
