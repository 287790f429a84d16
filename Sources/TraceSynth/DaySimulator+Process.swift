/// The steps every episode is made of: launching, resuming, entering the background, being
/// suspended or killed, and the readings an app logs on the way.
extension DaySimulator {
    /// Launches the app: `launch`, `config`, the launch sequence with every task registered (and
    /// the background URL session recreated) inside `didFinishLaunching`.
    mutating func launchApp(cause: StaticString?, breach: BreachKind?) {
        app = newProcess(isExtension: false)
        appBegunTask = false
        scenes = []
        openListener = nil
        emit("launch") { line in
            if let cause {
                line.field("reason", "system")
                line.field("cause", cause)
            } else {
                line.field("reason", "user")
            }
        }
        let usesBGTasks = neverRunPlan?.usesBGTasks ?? true
        let debugging = features.contains(.debugging)
        emit("config", after: rng.int(1...4)) { line in
            if usesBGTasks {
                line.field("permitted_identifiers", raw: DaySimulator.permittedIdentifiers)
                line.field("background_modes", raw: DaySimulator.backgroundModes)
            } else {
                line.field("permitted_identifiers", raw: "[]")
                line.field("background_modes", raw: #"["fetch","remote-notification"]"#)
            }
            if debugging {
                let debug = breach == .simulatedLaunch
                line.field("build", debug ? "debug" : "release")
                line.field("debugger", debug)
            }
        }
        launchReadings()
        emit("willFinishLaunching", after: rng.int(20...180)) { $0.field("phase", "begin") }
        emit("willFinishLaunching", after: rng.int(2...40)) { $0.field("phase", "end") }
        if cause == nil, rng.chance(0.3) {
            emit("restoreState", after: rng.int(1...5)) { $0.field("phase", "begin") }
            emit("restoreState", after: rng.int(5...60)) { $0.field("phase", "end") }
        }
        emit("didFinishLaunching", after: rng.int(1...5)) { $0.field("phase", "begin") }
        if breach == .legacyFetch {
            record(.legacyFetch, launch: app!.launch)
            // The leftover call passes `backgroundFetchIntervalMinimum` (0), which
            // `fetch-never-ran` leaves alone: this breach is the call, not a fetch that never came.
            // (Where requests may wait, as v1 was written before that rule, it passes 3600.)
            let interval: Int64 = keepsRequestsFromWaiting ? 0 : 3600
            emit("fetch.setMinimumInterval", after: rng.int(1...10)) { $0.field("interval", interval) }
        }
        if usesBGTasks {
            emit("bgtask.register", after: rng.int(1...10)) {
                $0.field("identifier", string: DaySimulator.refreshIdentifier)
            }
            if breach != .registerLate {
                emit("bgtask.register", after: rng.int(1...3)) {
                    $0.field("identifier", string: DaySimulator.cleanupIdentifier)
                }
            }
        } else {
            setFetchInterval()
        }
        if breach != .urlsessionNotRecreated {
            emit("urlsession.create", after: rng.int(2...30)) {
                $0.field("identifier", string: DaySimulator.sessionIdentifier)
            }
        }
        emit("didFinishLaunching", after: rng.int(20...400)) { $0.field("phase", "end") }
    }

    /// Resumes the suspended app: into the background for `cause`, or on its way to the
    /// foreground when the user brings it back (`cause` nil).
    mutating func resumeApp(cause: StaticString?) {
        emit("resume") { line in
            if let cause {
                line.field("reason", "system")
                line.field("cause", cause)
            } else {
                line.field("reason", "user")
            }
        }
        // A listener left open at the last suspension (a breach) is closed as soon as the app runs.
        closeListener(leaveOpen: false)
    }

    /// `applicationDidEnterBackground(_:)` taking `duration` milliseconds, with `body` inside it.
    mutating func didEnterBackground(duration: Int64, _ body: (inout DaySimulator) -> Void = { _ in }) {
        emit("didEnterBackground", after: rng.int(1...30)) { $0.field("phase", "begin") }
        backgroundBegin = now
        body(&self)
        now = max(now, backgroundBegin + duration - 1)
        emit("didEnterBackground") { $0.field("phase", "end") }
    }

    /// The snapshot; `suspend` follows separately, as events may come between them.
    mutating func snapshot() { emit("snapshot", after: rng.int(15...150)) }

    /// The end of a background episode: the snapshot, then suspension — or, per `breach`, a
    /// scene released twice on the way or the kill for a held resource — and the record of a
    /// breach that suspension reveals.
    mutating func snapshotAndSuspend(breach: BreachKind?) {
        snapshot()
        if breach == .sharedResourceHeld { return terminateHoldingResource() }
        maybeDisconnectScene(twice: breach == .sceneIllegalTransition)
        suspend()
        if breach == .urlsessionDelayedRequestCompletionMissing { record(breach!, launch: app!.launch) }
    }

    mutating func suspend() {
        emit("suspend", after: rng.int(20...900))
    }

    /// The app process ends for `reason`.
    mutating func terminate(reason: StaticString) {
        emit("terminate") { $0.field("reason", reason) }
        app = nil
    }

    /// The local hour of the device's user, 0–23.
    var localHour: Int64 { ((now - dayStart) / 3_600_000 + profile.utcOffsetHours + 24) % 24 }

    /// A `power` reading: charging overnight, draining through the day.
    mutating func powerReading() {
        let hour = localHour
        let charging = hour < 7 && neverRunPlan?.cause != .noCharger
        let noise = rng.int(-4...4)
        let drained = max(6, 100 - (max(hour, 7) - 7) * 5 + noise)
        // v1 corpora keep their historical readings of up to 1.04 in the morning; v1.1 ones stay
        // within the spec's 0…1.
        let level = charging ? min(100, 35 + hour * 11 + noise) : features.isEmpty ? drained : min(100, drained)
        let lowPowerMode = neverRunPlan?.cause == .lowPowerMode || (!charging && level < 20)
        emit("power", after: rng.int(1...40)) { line in
            line.field("low_power_mode", lowPowerMode)
            line.field("battery", hundredths: level)
            line.field("charging", charging)
        }
    }

    mutating func networkReading() {
        let reachable = rng.chance(0.97)
        let wifi = reachable && (localHour < 8 || localHour >= 19 || rng.chance(0.35))
        emit("network", after: rng.int(1...40)) { line in
            line.field("reachable", reachable)
            line.field("wifi", wifi)
        }
    }

    /// A `backgroundTimeRemaining` reading: what is left of the 30 s since `didEnterBackground`
    /// began, minus the little the system keeps in hand.
    mutating func backgroundTimeRemaining() {
        let left = max(100, 3_000 - (now - backgroundBegin) / 10 - rng.int(3...30))
        emit("backgroundTimeRemaining", after: rng.int(1...20)) { $0.field("value", hundredths: left) }
    }
}
