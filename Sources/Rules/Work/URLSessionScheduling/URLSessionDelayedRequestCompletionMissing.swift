import Replay

extension Rule {
    static let urlsessionDelayedRequestCompletionMissing = Rule(
        id: "urlsession-delayed-request-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "The completion handler of willBeginDelayedRequest must be called before the app is suspended.",
        source: """
            WWDC 2017 'Advances in Networking, Part 2' (https://developer.apple.com/videos/play/wwdc2017/709): \
            urlSession(_:task:willBeginDelayedRequest:completionHandler:) "is called when a background session task \
            with a delayed start time (as set with the earliestBeginDate property) is ready to start"; the app \
            answers through the handler — "completionHandler(.useNewRequest, updatedRequest)" — to go on, replace \
            the request, or cancel it.
            """,
        notes: """
            An `urlsession.willBeginDelayedRequest` whose `call` has no `urlsession.delayedRequest.complete` by the \
            first `suspend`, else by the launch's `terminate`. A log that ends first (nothing more logged, or a new \
            launch with no terminate) is log-ended-with-open-work, not this rule: the end of a log is not evidence. \
            A completion for a call not delivered in this launch is not judged.
            """,
        passing: [
            Example(ExampleTraces.delayedRequestCompleted),
            // The log just ends: log-ended-with-open-work, not a missed completion.
            Example(ExampleTraces.delayedRequestDelivered),
        ],
        failing: [
            Example("""
                \(ExampleTraces.delayedRequestDelivered)
                {"ts":3,"seq":13,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
                {"ts":3.05,"seq":14,"event":"urlsession.complete","call":1}
                {"ts":3.2,"seq":15,"event":"snapshot"}
                ↓{"ts":3.5,"seq":16,"event":"suspend"}
                """),
        ])
}
