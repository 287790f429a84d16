/// The device whose request never runs (``NeverRunPlan``): when the wait starts, and the breach
/// at the device's first event once it has lasted more than rules.md's `task-wait` (24 h).
extension DaySimulator {
    static let taskWait: Int64 = 86_400_000
    /// The longest a device that keeps its requests from waiting goes between refresh runs.
    static let refreshSpacing: Int64 = 12 * 3_600_000

    /// Takes over what the days before decided.
    mutating func continueNeverRun(from history: NeverRunHistory) {
        neverRun = history
        if let start = history.waitStart, !history.reported { neverRunDue = start + DaySimulator.taskWait }
    }

    /// The starving request was made (or the fetch interval set), its wait starting at `start`:
    /// only the first time counts, as later submits replace the request within one pending period.
    mutating func noteWaitStart(_ start: Int64) {
        guard neverRunPlan != nil, neverRun.waitStart == nil else { return }
        neverRun.waitStart = start
        neverRunDue = start + DaySimulator.taskWait
    }

    /// Called after every line of the device: the first one past the budget carries the breach.
    mutating func checkNeverRunDue(launch: String) {
        guard let due = neverRunDue, now > due else { return }
        neverRunDue = nil
        neverRun.reported = true
        guard let plan = neverRunPlan else { return }
        record(plan.kind, launch: launch, factors: plan.factors)
    }

    /// Whether the app is no longer opened: after the wait began on a device whose user left it.
    var appRetired: Bool { neverRunPlan?.retiresApp == true && neverRun.waitStart != nil }

    /// The user leaves the app for good: a swipe from the app switcher, or nothing at all; only
    /// the notification service extension runs from now on. The swipe comes within 14 minutes,
    /// before the wait of the refresh just submitted begins (15 minutes at the earliest), so that
    /// it holds the request back for all of its wait.
    mutating func retireApp() {
        if neverRunPlan?.cause == .swipedAway, app != nil {
            now += rng.millis(60, 840)
            terminate(reason: "user")
        }
        runExtensionOnly()
    }

    /// `fetch.setMinimumInterval` in `didFinishLaunching` of a legacy-fetch app.
    mutating func setFetchInterval() {
        emit("fetch.setMinimumInterval", after: rng.int(1...10)) { $0.field("interval", 3600) }
        noteWaitStart(now)
    }

    /// The readings a v1.1 app logs at launch (with the starving device's Low Power Mode or
    /// disabled refresh in them).
    mutating func launchReadings() {
        guard features.contains(.neverRun) else { return }
        powerReading()
        let status = refreshStatus
        emit("refreshStatus", after: rng.int(1...5)) { $0.field("status", status) }
    }

    /// A request that waits more than a day is a finding (`bgtask-never-ran`), so a device that
    /// keeps its requests from waiting (``keepsRequestsFromWaiting``: v1.1, and v1 unless
    /// ``CorpusSpec/requestsMayWait``) must visibly run them within the 24 h budget, across days
    /// too, unless it is the device whose request starves (``NeverRunPlan``): the refresh runs at
    /// the first chance of each day and whenever 12 h have passed since it last ran (its wait
    /// then stays under about 13 h; 12 rather than 6 so that a sparse day, 60 lines, is not
    /// mostly forced refreshes).
    var refreshOverdue: Bool {
        keepsRefreshFromWaiting && now - lastRefreshRun > DaySimulator.refreshSpacing
    }

    /// The same for the cleanup: it assumes a request pending from the day before (a day does
    /// not know the previous one), runs at the first chance of the day, then when 12 h have
    /// passed, as well as at night.
    var cleanupOverdue: Bool {
        keepsCleanupFromWaiting && now - lastCleanupRun > 12 * 3_600_000
    }

    /// Whether the refresh must not wait: it is not the request that starves on this device.
    private var keepsRefreshFromWaiting: Bool { keepsRequestsFromWaiting && neverRunPlan?.refreshRuns ?? true }
    private var keepsCleanupFromWaiting: Bool { keepsRequestsFromWaiting && neverRunPlan == nil }

    /// Where requests are kept from waiting (see ``refreshOverdue``), the latest time of the next
    /// episode, so that a sparse day still runs them; nil otherwise.
    var overdueEpisode: Int64? {
        let refresh = keepsRefreshFromWaiting ? max(lastRefreshRun + DaySimulator.refreshSpacing + 1, refreshEarliest) : nil
        let cleanup = keepsCleanupFromWaiting && cleanupPending ? lastCleanupRun + 12 * 3_600_000 + 1 : nil
        return [refresh, cleanup].compactMap { $0 }.min()
    }

    /// What `backgroundRefreshStatus` says.
    var refreshStatus: StaticString { neverRunPlan?.cause == .refreshDisabled ? "denied" : "available" }
}
