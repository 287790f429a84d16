/// The system launches or resumes the app in the background for an event: the launch (or
/// resume), `didEnterBackground`, the event and its completion, the snapshot, suspension.
extension DaySimulator {
    /// Launches or resumes the app for `cause` and runs `didEnterBackground`.
    private mutating func wake(cause: StaticString, breach: BreachKind?) {
        if app == nil {
            launchApp(cause: cause, breach: breach)
        } else {
            resumeApp(cause: cause)
        }
        didEnterBackground(duration: rng.millis(0.003, 0.08))
        maybeConnectSceneInBackground()
    }

    /// The v1.1 breaches any background episode can carry, on top of `kinds`: drawn only when
    /// the episode has no v1 breach.
    private mutating func drawV11Breach(_ kinds: [BreachKind], unless breach: BreachKind?) -> BreachKind? {
        guard breach == nil else { return nil }
        var kinds = kinds
        if hasBackgroundScene { kinds.append(.sceneIllegalTransition) }
        return drawV11Breach(kinds)
    }

    /// A `BGAppRefreshTask` run: fetch the headlines, schedule the next one, complete.
    mutating func refresh() {
        let breach = drawBreach([.refreshOverrun, .bgtaskNotCompleted, .bgtaskCompletedTwice, .logCutShort])
        var v11Kinds: [BreachKind] = []
        if features.contains(.sharedResources) { v11Kinds.append(.sharedResourceHeld) }
        if features.contains(.urlSessionScheduling), downloadReadyAt == nil {
            v11Kinds.append(.urlsessionBackgroundEnqueueDiscretionary)
        }
        if features.contains(.debugging), app == nil { v11Kinds.append(.simulatedLaunch) }
        let v11Breach = drawV11Breach(v11Kinds, unless: breach)
        let simulated = v11Breach == .simulatedLaunch
        wake(cause: "bgtask", breach: simulated ? v11Breach : nil)
        let task = app!.newTask()
        emit("bgtask.launch", after: rng.int(2...60)) { line in
            line.field("identifier", string: DaySimulator.refreshIdentifier)
            line.field("task", task)
            if simulated { line.field("simulated", true) }
        }
        if simulated { record(.simulatedLaunch, launch: app!.launch) }
        let launched = now
        lastRefreshRun = now
        if let breach { record(breach, launch: app!.launch) }
        networkReading()
        if rng.chance(0.3) { backgroundTimeRemaining() }
        writeArticleStore(held: v11Breach == .sharedResourceHeld)
        enqueueDownload(breach: v11Breach)
        if breach == .logCutShort {
            stopped = true
            return
        }
        submitRefresh()
        switch breach {
        case .bgtaskNotCompleted:
            let reason: StaticString = rng.chance(0.5) ? "watchdog" : "assertion-timeout"
            emit("terminate", after: launched + rng.millis(26, 29.9) - now) { $0.field("reason", reason) }
            app = nil
            return
        case .refreshOverrun:
            now = max(now, launched + rng.millis(40.5, 48) - 1)
        default:
            now = max(now, launched + rng.millis(0.4, rng.chance(0.8) ? 6 : 20) - 1)
        }
        let success = rng.chance(0.95)
        emit("bgtask.complete") { line in
            line.field("task", task)
            line.field("success", success)
        }
        if breach == .bgtaskCompletedTwice {
            emit("bgtask.complete", after: rng.int(100...2_000)) { line in
                line.field("task", task)
                line.field("success", false)
            }
        }
        snapshotAndSuspend(breach: v11Breach)
    }

    /// Background work sometimes enqueues a download (always, for the
    /// ``BreachKind/urlsessionBackgroundEnqueueDiscretionary`` breach).
    private mutating func enqueueDownload(breach: BreachKind?) {
        let forced = breach == .urlsessionBackgroundEnqueueDiscretionary
        guard features.contains(.urlSessionScheduling), downloadReadyAt == nil, forced || rng.chance(0.3) else { return }
        downloadReadyAt = now + rng.millis(600, 3_600)
        createDownloadTask(inBackground: true, breach: forced ? breach : nil)
    }

    /// The nightly `BGProcessingTask`: the device charges, the app prunes its article cache.
    mutating func cleanup() {
        let breach = drawBreach([.processingOverrun])
        let v11Breach = drawV11Breach(features.contains(.sharedResources) ? [.sharedResourceHeld] : [], unless: breach)
        wake(cause: "bgtask", breach: nil)
        let task = app!.newTask()
        emit("bgtask.launch", after: rng.int(2...60)) { line in
            line.field("identifier", string: DaySimulator.cleanupIdentifier)
            line.field("task", task)
        }
        let launched = now
        lastCleanupRun = now
        powerReading()
        writeArticleStore(held: v11Breach == .sharedResourceHeld)
        if let breach { record(breach, launch: app!.launch) }
        now = max(now, launched + (breach == .processingOverrun ? rng.millis(700, 900) : rng.millis(20, 420)) - 1)
        emit("bgtask.complete") { line in
            line.field("task", task)
            line.field("success", true)
        }
        cleanupPending = false
        cleanupRan = true
        snapshotAndSuspend(breach: v11Breach)
    }

    /// A background (content-available) push: the app fetches the story it announces.
    mutating func push() {
        var kinds: [BreachKind] = [.pushCompletionMissing, .pushCompletionMultiple, .pushOverrun, .pushNotBackground]
        let burstEnd = now + 3 * 600_000 + 120_000
        if forcedPushes.isEmpty, now >= nextPushAllowed + 2_200_000, burstEnd < dayEnd - 3_700_000 {
            kinds.append(.pushRateLimited)
        }
        let breach = drawBreach(kinds)
        let v11Breach = drawV11Breach([], unless: breach)
        wake(cause: "push", breach: nil)
        let call = app!.newCall()
        if let breach { record(breach, launch: app!.launch) }
        let priority: Int64 = breach == .pushNotBackground ? 10 : 5
        emit("push.receive", after: rng.int(2...60)) { line in
            line.field("call", call)
            line.field("content_available", true)
            line.field("priority", priority)
            line.field("push_type", "background")
        }
        let received = now
        if breach == .pushRateLimited {
            forcedPushes = (1...3).map { received + Int64($0) * 600_000 + rng.millis(-60, 60) }
        }
        nextPushAllowed = max(
            nextPushAllowed,
            received + DaySimulator.pushSpacing + (breach == .pushRateLimited ? 3 * 600_000 + 2_200_000 : 0))
        if rng.chance(0.4) { networkReading() }
        switch breach {
        case .pushCompletionMissing:
            now = max(now, received + rng.millis(30.2, 31))
        case .pushOverrun:
            now = max(now, received + rng.millis(33, 40))
            pushComplete(call)
        default:
            now = max(now, received + rng.millis(0.3, rng.chance(0.85) ? 5 : 15))
            pushComplete(call)
            if breach == .pushCompletionMultiple { pushComplete(call) }
        }
        snapshotAndSuspend(breach: v11Breach)
    }

    private mutating func pushComplete(_ call: Int64) {
        let result: StaticString = rng.chance(0.7) ? "newData" : rng.chance(0.7) ? "noData" : "failed"
        emit("push.complete", after: rng.int(1...300)) { line in
            line.field("call", call)
            line.field("result", result)
        }
    }

    /// The background download the user started has finished: its events come to the app.
    mutating func urlSessionEvents() {
        downloadReadyAt = nil
        var kinds: [BreachKind] = [.urlsessionCompletionMissing]
        if app == nil { kinds.append(.urlsessionNotRecreated) }
        let breach = drawBreach(kinds)
        let v11Breach = drawV11Breach(
            downloadTask?.delayed == true
                ? [.urlsessionDelayedRequestCompletionMissing, .urlsessionDelayedRequestCompletionMultiple] : [],
            unless: breach)
        wake(cause: "urlsession", breach: breach)
        if let breach { record(breach, launch: app!.launch) }
        let call = app!.newCall()
        emit("urlsession.handleEvents", after: rng.int(2...60)) { line in
            line.field("identifier", string: DaySimulator.sessionIdentifier)
            line.field("call", call)
        }
        if breach == .urlsessionNotRecreated {
            emit("urlsession.create", after: rng.int(1...20)) {
                $0.field("identifier", string: DaySimulator.sessionIdentifier)
            }
        }
        finishDownloadTask(breach: v11Breach)
        emit("urlsession.didFinishEvents", after: rng.millis(0.2, 6)) {
            $0.field("identifier", string: DaySimulator.sessionIdentifier)
        }
        if breach != .urlsessionCompletionMissing {
            emit("urlsession.complete", after: rng.int(2...80)) { $0.field("call", call) }
        }
        snapshotAndSuspend(breach: v11Breach)
    }
}
