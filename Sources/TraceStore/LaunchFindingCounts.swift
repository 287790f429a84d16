/// Counts a run's findings by launch as the replay hands them over, so that each launch's row is
/// written with its count (`launches.findings`) rather than rewritten once the run is saved:
/// counting them with one `UPDATE` after the findings were saved rewrote a sixth of the field-like
/// benchmark's launches, and copied the whole table into the WAL again (0.2 s of the 3.5 s
/// `check`, all of it after the replay, on one core).
///
/// The count is what `SELECT count(*) FROM findings GROUP BY device, launch` gives: every row of a
/// device's launch id gets every finding of that device and launch id. A finding that comes after
/// its launch's row was written (one judged at a later event or at the end of the log) gives a
/// correction of that row.
///
/// Only the device being replayed is held — the counts of its launch ids and the rows written for
/// each — since a check hands over each device's findings and records together, device after device.
struct LaunchFindingCounts {
    /// One launch id of `device`: its findings so far, and the numbers of the rows written for it.
    private struct Launch {
        var findings = 0
        var rows: [Int] = []
    }

    private var device: String?
    /// Each launch id of `device`, found with one lookup a call.
    private var launches: [String: Launch] = [:]

    /// A launch row numbered `number` is written: the count to write it with.
    mutating func writing(number: Int, device: String, launch: String) -> Int {
        enter(device)
        return Self.written(number, in: &launches[launch, default: Launch()])
    }

    /// A finding of `device`'s launch id `launch`: the rows already written that now count it,
    /// and their new count.
    mutating func found(device: String, launch: String) -> (rows: [Int], count: Int) {
        enter(device)
        return Self.found(in: &launches[launch, default: Launch()])
    }

    private static func written(_ number: Int, in launch: inout Launch) -> Int {
        launch.rows.append(number)
        return launch.findings
    }

    private static func found(in launch: inout Launch) -> (rows: [Int], count: Int) {
        launch.findings += 1
        return (launch.rows, launch.findings)
    }

    private mutating func enter(_ device: String) {
        guard device != self.device else { return }
        self.device = device
        // Not keeping its capacity: one device with a great many launches would hold it for the rest.
        launches.removeAll()
    }
}
