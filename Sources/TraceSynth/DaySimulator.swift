import TraceModel

/// Simulates one device over one UTC day and writes what its logger would have written.
///
/// A day is a series of episodes — the user opens the app, the system runs a refresh task,
/// delivers a background push or URL session events, runs the nightly cleanup — separated by
/// idle gaps in which the system may reclaim the suspended app or a notification service
/// extension may run. Every day starts with no process running and ends with the app
/// terminated, so that each day can be generated on its own.
struct DaySimulator {
    /// The background modes and permitted identifiers of `com.example.news`, as `config` logs them.
    static let permittedIdentifiers: StaticString = #"["com.example.news.refresh","com.example.news.cleanup"]"#
    static let backgroundModes: StaticString = #"["fetch","processing","remote-notification"]"#
    static let refreshIdentifier = "com.example.news.refresh"
    static let cleanupIdentifier = "com.example.news.cleanup"
    static let sessionIdentifier = "com.example.news.background-download"

    /// Background pushes keep this far apart (and this far from midnight), so that no window of
    /// an hour, even one across two days, holds more than three.
    static let pushSpacing: Int64 = 1_500_000
    static let pushDayMargin: Int64 = 1_250_000
    /// Nothing runs in the last minutes of a day: an OS update reboots the device then.
    static let quietEnd: Int64 = 500_000

    let device: String
    let profile: DeviceProfile
    let features: TraceFeatures
    /// The device's scenes when its app is scene-based (``TraceFeatures/scenes``), else nil.
    let sceneLayout: SceneLayout?
    /// The request that never runs on this device (``TraceFeatures/neverRun``), else nil.
    let neverRunPlan: NeverRunPlan?
    /// Whether the device keeps its requests from waiting more than a day (see
    /// ``CorpusSpec/requestsMayWait``): all but the starving device's request then run in time.
    let keepsRequestsFromWaiting: Bool
    let breachRate: Double
    let targetLines: Int
    let dayStart: Int64
    let dayEnd: Int64
    let boot: Int64
    let envelope: String
    var rng: SplitMix64
    var out: LineBuilder
    var breaches: [InjectedBreach] = []

    /// The current time, in milliseconds since the epoch.
    var now: Int64
    /// The app process, while it runs or is suspended; between episodes it is always suspended.
    var app: ProcessLog?
    /// When the current (or last) `didEnterBackground` began: the background time counts from it.
    var backgroundBegin: Int64 = 0
    /// Whether the app began a `beginBackgroundTask` in this launch (it matters for one rule).
    var appBegunTask = false
    /// Episodes so far, to pace the rest of the day towards ``targetLines``.
    var episodes = 0
    /// The mean time the user spends in the app per visit: shorter when visits are frequent.
    let sessionMean: Double
    /// The log stopped for good (the device died): nothing more is written today.
    var stopped = false

    var refreshEarliest: Int64
    var cleanupPending: Bool
    var cleanupRan = false
    var downloadReadyAt: Int64?
    var nextPushAllowed: Int64
    /// Times of further pushes already decided (a rate-limit breach sends a burst).
    var forcedPushes: [Int64] = []

    // v1.1 state (see ``TraceFeatures``): untouched in a v1 corpus.
    /// The connected scenes of the running launch, in order of connection.
    var scenes: [LiveScene] = []
    /// Scene ids count up through the day, so an id never comes back in a launch.
    var lastSceneNumber = 0
    /// The nearby-sharing listener while it is open.
    var openListener: String?
    var lastURLSessionTask: Int64 = 0
    var downloadTask: DownloadTask?
    /// The never-run wait as it stands (see ``NeverRunPlan``).
    var neverRun = NeverRunHistory()
    /// When the wait passes the budget, until the breach is written.
    var neverRunDue: Int64?
    /// When the refresh and the cleanup last ran today (see ``refreshOverdue``).
    var lastRefreshRun: Int64 = .min / 2
    var lastCleanupRun: Int64 = .min / 2

    init(spec: CorpusSpec, device index: Int, day: Int, profile: DeviceProfile) {
        self.profile = profile
        device = profile.id
        features = spec.features
        sceneLayout = spec.features.contains(.scenes) ? SceneLayout(seed: spec.seed, device: index) : nil
        neverRunPlan = spec.features.contains(.neverRun)
            ? NeverRunPlan(seed: spec.seed, device: index, rate: spec.breachRate) : nil
        keepsRequestsFromWaiting = spec.features.contains(.neverRun) || !spec.requestsMayWait
        // A starving device carries that one breach and no other.
        breachRate = neverRunPlan == nil ? spec.breachRate : 0
        targetLines = max(1, Int(Double(spec.approxEventsPerDeviceDay) * profile.activity))
        dayStart = spec.dayStartMillis(day)
        dayEnd = dayStart + 86_400_000
        boot = profile.bootMillis(day: day, dayStart: spec.dayStartMillis)
        envelope = ",\"app\":\"com.example.news\",\"app_version\":\"\(profile.appVersion(day: day))\""
            + ",\"os\":\"\(profile.osVersion(day: day))\",\"model\":\"\(sceneLayout?.model ?? profile.model)\""
        rng = SplitMix64(spec.seed, UInt64(index), UInt64(bitPattern: Int64(day)))
        out = LineBuilder(capacity: targetLines + targetLines / 2)
        now = dayStart + rng.millis(1, 600)
        sessionMean = min(240_000, 86_400_000 / (Double(targetLines) / 17) / 4)
        refreshEarliest = dayStart
        // A device that keeps requests from waiting takes the cleanup as pending from the day
        // before, so that it runs early (``cleanupOverdue``); where it starves, the first visit of
        // the corpus submits it.
        cleanupPending = (rng.chance(0.7) || keepsRequestsFromWaiting) && neverRunPlan?.cause != .noCharger
        nextPushAllowed = dayStart + DaySimulator.pushDayMargin
    }

    /// Writes the whole day.
    mutating func run() {
        let activityEnd = dayEnd - 1_800_000
        while !stopped {
            let start: Int64
            let forced = !forcedPushes.isEmpty
            if forced {
                start = forcedPushes.removeFirst()
            } else {
                let linesLeft = targetLines - out.lineCount
                let overdue = overdueEpisode
                guard linesLeft > 0 || (overdue ?? .max) < activityEnd, now < activityEnd else { break }
                let linesPerEpisode = episodes >= 4 ? Double(out.lineCount) / Double(episodes) : 17
                let episodesLeft = max(1, Double(linesLeft) / linesPerEpisode)
                let meanGap = Double(activityEnd - now) / episodesLeft
                let drawn = now + max(20_000, Int64(rng.exponential(mean: meanGap)))
                start = overdue.map { max(now + 20_000, min(drawn, $0)) } ?? drawn
                guard start < activityEnd else { break }
            }
            idle(until: start)
            now = max(now, start)
            episode(forcedPush: forced)
            episodes += 1
            if appRetired {
                retireApp()
                break
            }
        }
        if !stopped, app != nil {
            let latest = dayEnd - DaySimulator.quietEnd
            now = latest > now + 1_000 ? now + 1_000 + Int64(rng.unit() * Double(latest - now - 1_000)) : now + 1_000
            terminate(reason: "quiet")
        }
    }

    /// Runs one episode of the kind that fits the time of day and what is pending.
    private mutating func episode(forcedPush: Bool) {
        if forcedPush || (now >= nextPushAllowed && pushFits && rng.chance(0.15)) { return push() }
        if let ready = downloadReadyAt, now >= ready { return urlSessionEvents() }
        let hour = localHour
        let night = hour < 7
        if cleanupPending, neverRunPlan == nil, now + 1_000_000 < dayEnd - 900_000,
            cleanupOverdue || (night && hour >= 1 && !cleanupRan)
        {
            return cleanup()
        }
        if neverRunPlan?.refreshRuns ?? true, now >= refreshEarliest, refreshOverdue || rng.chance(night ? 0.7 : 0.25) {
            return refresh()
        }
        // At night the user mostly sleeps: the slot passes with nothing to log.
        if night, rng.chance(0.8) { return }
        userSession()
    }

    /// Whether a background push may arrive now without crowding the next day's pushes.
    private var pushFits: Bool { now < dayEnd - DaySimulator.pushDayMargin - 60_000 }

    /// A quiet stretch: the system may reclaim the suspended app, an extension may run.
    private mutating func idle(until end: Int64) {
        if end - now > 240_000, rng.chance(0.15) {
            now += rng.millis(10, Double(end - now - 240_000) / 1000)
            notificationService()
        }
        if app != nil, end - now > 1_200_000, rng.chance(min(0.5, Double(end - now) / 14_400_000)) {
            now += rng.millis(600, Double(end - now - 10_000) / 1000)
            terminate(reason: "quiet")
        }
    }

    // MARK: Writing lines

    /// Writes one line of the app process, `after` milliseconds from the previous one.
    mutating func emit(
        _ event: StaticString, after delay: Int64 = 1, _ attributes: (inout LineBuilder) -> Void = { _ in }
    ) {
        now += max(1, delay)
        DaySimulator.write(event, at: now, boot: boot, process: &app!, into: &out, attributes)
        if neverRunDue != nil { checkNeverRunDue(launch: app!.launch) }
    }

    /// Writes one line of an extension process.
    mutating func emit(
        _ event: StaticString, of process: inout ProcessLog, after delay: Int64 = 1,
        _ attributes: (inout LineBuilder) -> Void = { _ in }
    ) {
        now += max(1, delay)
        DaySimulator.write(event, at: now, boot: boot, process: &process, into: &out, attributes)
        if neverRunDue != nil { checkNeverRunDue(launch: process.launch) }
    }

    private static func write(
        _ event: StaticString, at time: Int64, boot: Int64, process: inout ProcessLog,
        into out: inout LineBuilder, _ attributes: (inout LineBuilder) -> Void
    ) {
        out.begin(ts: time, process: process, seq: process.seq, monoMillis: time - boot, event: event)
        attributes(&out)
        out.end(process: process)
        process.seq += 1
    }

    /// A new process log with a fresh `launch` id.
    mutating func newProcess(isExtension: Bool) -> ProcessLog {
        ProcessLog(
            device: device, launch: DeviceProfile.uuid(&rng, uppercase: false), envelope: envelope,
            isExtension: isExtension)
    }

    /// Draws whether this launch or resume carries a breach, and which of `kinds`.
    mutating func drawBreach(_ kinds: [BreachKind]) -> BreachKind? {
        guard breachRate > 0, !kinds.isEmpty, rng.chance(breachRate) else { return nil }
        return rng.pick(kinds)
    }

    /// Draws whether this launch or resume carries a v1.1 breach, and which of `kinds`. Called
    /// only in a v1.1 corpus, and only when no v1 breach was drawn, so that each injection is
    /// the one breach of its lines.
    mutating func drawV11Breach(_ kinds: [BreachKind]) -> BreachKind? {
        guard !features.isEmpty else { return nil }
        return drawBreach(kinds)
    }

    mutating func record(_ kind: BreachKind, launch: String, factors: [Finding.FactorKind] = []) {
        breaches.append(
            InjectedBreach(
                kind: kind, device: device, launch: launch,
                ts: Timestamp(microseconds: now * 1000), factors: factors))
    }
}
