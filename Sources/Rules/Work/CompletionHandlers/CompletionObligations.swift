import Replay
import TraceModel

extension Obligation {
    /// `application(_:performFetchWithCompletionHandler:)`: its handler once, within the
    /// fetch-completion budget, before suspension.
    static let fetch = Obligation(
        opens: .fetchPerform, closes: .fetchComplete, key: .call, deadline: .budget(.fetchCompletion),
        missing: Report(.fetchCompletionMissing) { breach in
            "The completion handler of background fetch call \(breach.opening?.call ?? "?") was never called "
                + "\(WorkText.due(breach)); call it once with the fetch result on every path, including errors."
        },
        overrun: [
            .fetchCompletion: Report(.fetchOverrun) { breach in
                "The completion handler of background fetch call \(breach.opening?.call ?? "?") came "
                    + "\(WorkText.seconds(breach.seconds)) after delivery; the budget is "
                    + "\(WorkText.seconds(breach.budgetSeconds)). Call it as soon as the download ends."
            }
        ],
        repeated: Report(.fetchCompletionMultiple) { breach in
            "The completion handler of background fetch call \(breach.at.call ?? "?") was called again; call it "
                + "exactly once (return after calling it)."
        })

    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: its handler once,
    /// within the push-completion budget, before suspension.
    static let push = Obligation(
        opens: .pushReceive, closes: .pushComplete, key: .call, deadline: .budget(.pushCompletion),
        missing: Report(.pushCompletionMissing) { breach in
            "The fetchCompletionHandler of remote notification call \(breach.opening?.call ?? "?") was never "
                + "called \(WorkText.due(breach)); call it once the work is done, on every path."
        },
        overrun: [
            .pushCompletion: Report(.pushOverrun) { breach in
                "The fetchCompletionHandler of remote notification call \(breach.opening?.call ?? "?") came "
                    + "\(WorkText.seconds(breach.seconds)) after delivery; the budget is "
                    + "\(WorkText.seconds(breach.budgetSeconds)). Call it as soon as the work is done."
            }
        ],
        repeated: Report(.pushCompletionMultiple) { breach in
            "The fetchCompletionHandler of remote notification call \(breach.at.call ?? "?") was called again; "
                + "call it exactly once."
        })

    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the stored handler
    /// must be called (after `urlSessionDidFinishEvents`) before the app is suspended.
    static let urlSessionEvents = Obligation(
        opens: .urlsessionHandleEvents, closes: .urlsessionComplete, key: .call,
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
        dueBeforeSuspension: false, runsOnExtensions: true,
        missing: Report(.nseContentHandlerMissing) { breach in
            "The notification service extension never called the content handler of call "
                + "\(breach.opening?.call ?? "?") \(WorkText.due(breach)); call it on every path, and from "
                + "serviceExtensionTimeWillExpire() with the best content you have."
        },
        overrun: [
            .nseCompletion: Report(.nseOverrun) { breach in
                "The notification service extension called the content handler of call "
                    + "\(breach.opening?.call ?? "?") \(WorkText.seconds(breach.seconds)) after delivery; its "
                    + "time is \(WorkText.seconds(breach.budgetSeconds)). Deliver sooner, or from "
                    + "serviceExtensionTimeWillExpire()."
            }
        ])
}
