import Replay

extension Rule {
    static let urlsessionDelayedRequestCompletionMultiple = Rule(
        id: "urlsession-delayed-request-completion-multiple",
        category: .violation, severity: .warning,
        summary: "The completion handler of willBeginDelayedRequest must be called exactly once.",
        source: """
            WWDC 2017 'Advances in Networking, Part 2' (https://developer.apple.com/videos/play/wwdc2017/709): the \
            delegate decides once what becomes of a delayed request — "completionHandler(.useNewRequest, \
            updatedRequest)" — or "you might make the decision this request is just useless at this point, cancel."
            """,
        notes: """
            A second `urlsession.delayedRequest.complete` of one `call`. A warning: the request has one fate, and \
            a second answer (often a cancel after a continue) shows two paths that both think they decide it.
            """,
        passing: [
            Example(ExampleTraces.delayedRequestCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.delayedRequestDelivered)
                {"ts":1.3,"seq":13,"event":"urlsession.delayedRequest.complete","call":2,"disposition":"continueLoading"}
                ↓{"ts":1.4,"seq":14,"event":"urlsession.delayedRequest.complete","call":2,"disposition":"cancel"}
                {"ts":3,"seq":15,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
                {"ts":3.05,"seq":16,"event":"urlsession.complete","call":1}
                {"ts":3.2,"seq":17,"event":"snapshot"}
                {"ts":3.5,"seq":18,"event":"suspend"}
                """),
        ])
}
