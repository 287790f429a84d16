import Replay
import TraceModel

extension Obligation {
    /// `urlSession(_:task:willBeginDelayedRequest:completionHandler:)`: its handler once, before the
    /// app is suspended (the delayed task waits for it).
    static let delayedRequest = Obligation(
        opens: .urlsessionWillBeginDelayedRequest, closes: .urlsessionDelayedRequestComplete, key: .call,
        work: { "delayed request of \(URLSessionText.task($0)) (call \($0.call ?? "?"))" }, record: .delayedRequest,
        missing: Report(.urlsessionDelayedRequestCompletionMissing) { breach in
            "The completion handler of willBeginDelayedRequest for \(breach.opening.map(URLSessionText.task) ?? "a task") "
                + "(call \(breach.opening?.call ?? "?"), delivered at \(breach.opening.map { "\($0.ts)" } ?? "?")) was never "
                + "called \(WorkText.due(breach)), \(SecondsText.seconds(breach.seconds)) later, so the task cannot start; "
                + "call it once on every path: with .continueLoading, with .useNewRequest and the updated request, or "
                + "with .cancel for a request gone stale."
        },
        repeated: Report(.urlsessionDelayedRequestCompletionMultiple) { breach in
            "The completion handler of willBeginDelayedRequest (call \(breach.at.call ?? "?")) was called again at "
                + "\(breach.at.ts); call it exactly once per delayed request, with the one disposition you decided on."
        })
}

/// Formatting shared by the messages of the URL session rules.
enum URLSessionText {
    /// `task 7 of background session com.example.download`.
    static func task(_ event: ResolvedEvent) -> String {
        "task \(event.task.map { "\($0)" } ?? "?") of background session \(event.identifier ?? "?")"
    }
}
