/// Background URL session scheduling (v1.1): the download behind ``DaySimulator/downloadReadyAt``
/// logged as a task — created in the foreground or by background work, sometimes with an earliest
/// begin date (then with its expected byte counts), its delayed request handed back to the app,
/// and its completion among the session's events.
extension DaySimulator {
    /// The download's task on the background session, while its events have not come yet.
    struct DownloadTask {
        let id: Int64
        /// Whether it was created with `earliest_begin`: its start is then handed to the app.
        let delayed: Bool
    }

    /// Creates the download task that will be ready at ``downloadReadyAt``. In the background
    /// the app passes `discretionary: true` unless `breach` is
    /// ``BreachKind/urlsessionBackgroundEnqueueDiscretionary``; a task with an earliest begin date
    /// states its byte counts unless `breach` is ``BreachKind/urlsessionByteCountsMissing``.
    mutating func createDownloadTask(inBackground: Bool, breach: BreachKind?) {
        guard features.contains(.urlSessionScheduling), let ready = downloadReadyAt else { return }
        lastURLSessionTask += 1
        let task = lastURLSessionTask
        let delayed = breach == .urlsessionByteCountsMissing || rng.chance(0.6)
        let discretionary = breach == .urlsessionBackgroundEnqueueDiscretionary ? false : inBackground || rng.chance(0.5)
        let byteCounts = breach != .urlsessionByteCountsMissing
        let earliest = now + (ready - now) / 2
        let received = rng.int(40_000...6_000_000)
        emit("urlsession.task.create", after: rng.int(1...30)) { line in
            line.field("identifier", string: DaySimulator.sessionIdentifier)
            line.field("task", task)
            if delayed { line.field("earliest_begin", time: earliest) }
            line.field("discretionary", discretionary)
            if byteCounts {
                line.field("expected_send", 600)
                line.field("expected_receive", received)
            }
        }
        if let breach { record(breach, launch: app!.launch) }
        downloadTask = DownloadTask(id: task, delayed: delayed)
    }

    /// Inside the session's events: the delayed request's start is handed to the app (its
    /// handler called once, or per `breach` never or twice), then the task finishes.
    mutating func finishDownloadTask(breach: BreachKind?) {
        guard let task = downloadTask else { return }
        downloadTask = nil
        if task.delayed {
            let call = app!.newCall()
            emit("urlsession.willBeginDelayedRequest", after: rng.int(2...40)) { line in
                line.field("identifier", string: DaySimulator.sessionIdentifier)
                line.field("task", task.id)
                line.field("call", call)
            }
            if breach != .urlsessionDelayedRequestCompletionMissing { delayedRequestComplete(call) }
            if breach == .urlsessionDelayedRequestCompletionMultiple {
                delayedRequestComplete(call)
                record(.urlsessionDelayedRequestCompletionMultiple, launch: app!.launch)
            }
        }
        let failed = rng.chance(0.05)
        emit("urlsession.task.complete", after: rng.millis(0.2, 4)) { line in
            line.field("identifier", string: DaySimulator.sessionIdentifier)
            line.field("task", task.id)
            if failed { line.field("error", "NSURLErrorNetworkConnectionLost") }
        }
    }

    private mutating func delayedRequestComplete(_ call: Int64) {
        emit("urlsession.delayedRequest.complete", after: rng.int(1...60)) { line in
            line.field("call", call)
            line.field("disposition", "continueLoading")
        }
    }
}
