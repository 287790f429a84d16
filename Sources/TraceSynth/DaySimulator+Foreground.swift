/// The user opens the app, reads for a while, and leaves it.
extension DaySimulator {
    /// An upload the app protects with `beginBackgroundTask` while it runs.
    private struct Upload {
        var task: Int64
        /// When it would finish on its own, in milliseconds since the epoch.
        var done: Int64
    }

    mutating func userSession() {
        let fresh = app == nil
        var kinds: [BreachKind] = [
            .submitNotPermitted, .backgroundTaskNotEnded, .backgroundTaskExpired,
            .didEnterBackgroundOverrun, .memoryTermination,
        ]
        if fresh { kinds += [.registerLate, .legacyFetch] }
        if !appBegunTask { kinds.append(.backgroundTaskBegunLate) }
        let breach = drawBreach(kinds)
        var v11Kinds: [BreachKind] = []
        if features.contains(.sharedResources) { v11Kinds.append(.listenerOpenAtSuspension) }
        if features.contains(.urlSessionScheduling), downloadReadyAt == nil { v11Kinds.append(.urlsessionByteCountsMissing) }
        let v11Breach = breach == nil ? drawV11Breach(v11Kinds) : nil

        if fresh {
            launchApp(cause: nil, breach: breach)
        } else {
            resumeApp(cause: nil)
        }
        comeToForeground(enterDelay: fresh ? nil : rng.int(2...40), activeDelay: rng.int(5...120))
        if breach == .registerLate {
            record(.registerLate, launch: app!.launch)
            emit("bgtask.register", after: rng.int(50...2_000)) {
                $0.field("identifier", string: DaySimulator.cleanupIdentifier)
            }
        }
        if fresh, rng.chance(0.5) {
            let status = refreshStatus
            emit("refreshStatus", after: rng.int(1...30)) { $0.field("status", status) }
        }
        networkReading()
        if rng.chance(0.6) { powerReading() }
        if v11Breach == .urlsessionByteCountsMissing { startDownload(breach: v11Breach) }
        maybeOpenListener(forced: v11Breach == .listenerOpenAtSuspension)

        let upload = foreground(breach: breach)
        leaveForeground(breach: breach ?? v11Breach, upload: upload)
    }

    /// Time in the foreground: reading, an interruption or two, maybe an upload. Returns the
    /// upload still running when the user leaves.
    private mutating func foreground(breach: BreachKind?) -> Upload? {
        let latest = dayEnd - 900_000 - now
        let length = min(latest, max(15_000, Int64(rng.exponential(mean: sessionMean))), 1_800_000)
        let leaveAt = now + length
        let holdsUpload = breach == .backgroundTaskNotEnded || breach == .backgroundTaskExpired
        var upload: Upload? = holdsUpload ? beginUpload() : nil
        var uploaded = upload != nil
        while true {
            let next = now + Int64(rng.exponential(mean: sessionMean / 4)) + 500
            if let running = upload, running.done < min(next, leaveAt), !holdsUpload {
                emit("endBackgroundTask", after: running.done - now) { $0.field("task", running.task) }
                upload = nil
            }
            guard next < leaveAt else { break }
            now = next - 1
            let roll = rng.unit()
            if roll < 0.25, !uploaded, breach == nil {
                upload = beginUpload()
                uploaded = true
            } else if roll < 0.40 {
                interruption()
            } else if roll < 0.47 {
                emit("memoryWarning")
            } else if roll < 0.60, downloadReadyAt == nil {
                startDownload(breach: nil)
            } else if sceneLayout?.multiwindow == true, rng.chance(0.3) {
                toggleSecondWindow()
            } else if features.contains(.sharedResources), rng.chance(0.2) {
                saveReadingList()
            } else {
                networkReading()
            }
        }
        now = max(now, leaveAt)
        return upload
    }

    /// Starts a background URL session transfer; its events come back later.
    private mutating func startDownload(breach: BreachKind?) {
        downloadReadyAt = now + rng.millis(120, 2_400)
        createDownloadTask(inBackground: false, breach: breach)
    }

    private mutating func beginUpload() -> Upload {
        let task = app!.newTask()
        appBegunTask = true
        emit("beginBackgroundTask", after: rng.int(1...400)) { line in
            line.field("task", task)
            line.field("name", "upload-reading-history")
        }
        return Upload(task: task, done: now + rng.millis(1, 25))
    }

    /// The user leaves: resign active, enter the background (scheduling the next refresh), the
    /// snapshot, and suspension once the upload ends — or, now and then, the user kills the app
    /// from the app switcher, or comes straight back (a bounce).
    private mutating func leaveForeground(breach: BreachKind?, upload: Upload?) {
        var upload = upload
        closeListener(leaveOpen: breach == .listenerOpenAtSuspension)
        if breach == nil, upload == nil, rng.chance(0.05) {
            resignActive()
            emit("willTerminate", after: rng.millis(1, 8))
            return terminate(reason: "user")
        }
        while true {
            resignActive()
            scenesEnterBackground()
            let lateTask = breach == .backgroundTaskBegunLate ? app!.newTask() : nil
            let duration = breach == .didEnterBackgroundOverrun ? rng.millis(6.2, 7.5) : rng.millis(0.005, 0.4)
            if breach == .didEnterBackgroundOverrun { record(.didEnterBackgroundOverrun, launch: app!.launch) }
            didEnterBackground(duration: duration) { sim in sim.scheduleWork(breach: breach, lateTask: lateTask) }
            snapshots()
            if let running = upload {
                backgroundTimeRemaining()
                switch breach {
                case .backgroundTaskNotEnded:
                    record(.backgroundTaskNotEnded, launch: app!.launch)
                    now = max(now, backgroundBegin + rng.millis(6, 20))
                case .backgroundTaskExpired:
                    record(.backgroundTaskExpired, launch: app!.launch)
                    emit("backgroundTaskExpired", after: backgroundBegin + rng.millis(26, 29) - now) {
                        $0.field("task", running.task)
                    }
                    emit("terminate", after: rng.millis(5.5, 8)) { $0.field("reason", "assertion-timeout") }
                    app = nil
                    return
                default:
                    let end = max(now + 1, min(running.done, backgroundBegin + rng.millis(3, 20)))
                    emit("endBackgroundTask", after: end - now) { $0.field("task", running.task) }
                }
                upload = nil
            }
            if let lateTask {
                emit("endBackgroundTask", after: rng.millis(0.5, 3)) { $0.field("task", lateTask) }
            }
            if breach == .memoryTermination {
                record(.memoryTermination, launch: app!.launch)
                emit("terminate", after: rng.millis(0.3, 3)) { $0.field("reason", "memory") }
                app = nil
                return
            }
            guard breach == nil, rng.chance(0.04) else { break }
            comeToForeground(enterDelay: rng.millis(0.5, 3), activeDelay: rng.int(5...80))
            now += rng.millis(5, 60)
        }
        suspend()
        if breach == .listenerOpenAtSuspension { record(.listenerOpenAtSuspension, launch: app!.launch) }
    }

    /// Inside `didEnterBackground`: submit the next refresh and, once in a while, the cleanup.
    private mutating func scheduleWork(breach: BreachKind?, lateTask: Int64?) {
        if let lateTask {
            record(.backgroundTaskBegunLate, launch: app!.launch)
            appBegunTask = true
            emit("beginBackgroundTask", after: rng.int(1...5)) { line in
                line.field("task", lateTask)
                line.field("name", "save-state")
            }
        }
        // An overdue refresh is left pending: replacing it would push its earliest begin forward.
        if neverRunPlan?.usesBGTasks ?? true, !refreshOverdue { submitRefresh() }
        if neverRunPlan?.submitsCleanup ?? true, !cleanupPending || rng.chance(0.1) {
            let earliest = now + rng.millis(3_600, 8 * 3_600)
            if neverRunPlan?.cause == .noCharger { noteWaitStart(earliest) }
            let network = rng.chance(0.3)
            emit("bgtask.submit", after: rng.int(1...8)) { line in
                line.field("identifier", string: DaySimulator.cleanupIdentifier)
                line.field("type", "processing")
                line.field("earliest_begin", time: earliest)
                line.field("requires_power", true)
                line.field("requires_network", network)
            }
            cleanupPending = true
        }
        if breach == .submitNotPermitted {
            record(.submitNotPermitted, launch: app!.launch)
            emit("bgtask.submit", after: rng.int(1...8)) { line in
                line.field("identifier", "com.example.news.sync")
                line.field("type", "processing")
                line.field("requires_power", false)
                line.field("requires_network", true)
                line.field("error", "notPermitted")
            }
        }
    }

    /// Submits (or replaces) the one refresh request, to run no earlier than 15 min to 2 h from now.
    mutating func submitRefresh() {
        let earliest = now + rng.millis(900, 7_200)
        emit("bgtask.submit", after: rng.int(1...8)) { line in
            line.field("identifier", string: DaySimulator.refreshIdentifier)
            line.field("type", "refresh")
            line.field("earliest_begin", time: earliest)
        }
        refreshEarliest = earliest
        if neverRunPlan?.refreshRuns == false { noteWaitStart(earliest) }
    }
}
