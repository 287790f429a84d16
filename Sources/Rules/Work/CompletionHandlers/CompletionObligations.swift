import Replay
import TraceModel

extension Obligation {
    /// `application(_:performFetchWithCompletionHandler:)`: its handler once, within the
    /// fetch-completion budget, before suspension.
    static let fetch = completionHandler(
        "completion handler of background fetch", opens: .fetchPerform, closes: .fetchComplete,
        budget: .fetchCompletion, record: .fetch,
        missing: (.fetchCompletionMissing, "call it once with the fetch result on every path, including errors."),
        overrun: (.fetchOverrun, "Call it as soon as the download ends."),
        repeated: (.fetchCompletionMultiple, "call it exactly once (return after calling it)."))

    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: its handler once,
    /// within the push-completion budget, before suspension.
    static let push = completionHandler(
        "fetchCompletionHandler of remote notification", opens: .pushReceive, closes: .pushComplete,
        budget: .pushCompletion, record: .push,
        missing: (.pushCompletionMissing, "call it once the work is done, on every path."),
        overrun: (.pushOverrun, "Call it as soon as the work is done."),
        repeated: (.pushCompletionMultiple, "call it exactly once."))

    /// A completion handler handed to the app with a delivery (`call`), which must be called
    /// once, within `budget`, before suspension: the one shape of the fetch and push rules,
    /// which differ only in their names and advice.
    private static func completionHandler(
        _ handler: String, opens: EventKind, closes: EventKind, budget: BudgetName, record: TaskRecord.Kind,
        missing: (rule: Rule, advice: String), overrun: (rule: Rule, advice: String),
        repeated: (rule: Rule, advice: String)
    ) -> Obligation {
        Obligation(
            opens: opens, closes: closes, key: .call, deadline: .budget(budget), record: record,
            missing: Report(missing.rule) { breach in
                "The \(handler) call \(breach.opening?.call ?? "?") was never called \(WorkText.due(breach)); "
                    + missing.advice
            },
            overrun: [
                budget: Report(overrun.rule) { breach in
                    "The \(handler) call \(breach.opening?.call ?? "?") came \(breach.secondsTexts.measured) "
                        + "after delivery; the budget is \(breach.secondsTexts.budget). " + overrun.advice
                }
            ],
            repeated: Report(repeated.rule) { breach in
                "The \(handler) call \(breach.at.call ?? "?") was called again; " + repeated.advice
            })
    }

    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the stored handler
    /// must be called (after `urlSessionDidFinishEvents`) before the app is suspended.
    static let urlSessionEvents = Obligation(
        opens: .urlsessionHandleEvents, closes: .urlsessionComplete, key: .call, record: .urlsessionEvents,
        missing: Report(.urlsessionCompletionMissing) { breach in
            "The completion handler of handleEventsForBackgroundURLSession (session "
                + "\(breach.opening?.identifier ?? "?"), call \(breach.opening?.call ?? "?")) was never called "
                + "\(WorkText.due(breach)); store it and call it on the main queue from "
                + "urlSessionDidFinishEvents(forBackgroundURLSession:)."
        })

    /// A Notification Service Extension's `didReceive(_:withContentHandler:)`: the content
    /// handler within the extension's time, and at all before the extension process ends.
    static let notificationService = Obligation(
        opens: .nseReceive, closes: .nseContentHandler, key: .call, deadline: .budget(.nseCompletion),
        dueBeforeSuspension: false, runsOnExtensions: true, record: .nse,
        missing: Report(.nseContentHandlerMissing) { breach in
            "The notification service extension never called the content handler of call "
                + "\(breach.opening?.call ?? "?") \(WorkText.due(breach)); call it on every path, and from "
                + "serviceExtensionTimeWillExpire() with the best content you have."
        },
        overrun: [
            .nseCompletion: Report(.nseOverrun) { breach in
                "The notification service extension called the content handler of call "
                    + "\(breach.opening?.call ?? "?") \(breach.secondsTexts.measured) after delivery; its "
                    + "time is \(breach.secondsTexts.budget). Deliver sooner, or from "
                    + "serviceExtensionTimeWillExpire()."
            }
        ])
}
