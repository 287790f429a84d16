import Replay

extension Rule {
    static let urlsessionCompletionMissing = Rule(
        id: "urlsession-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "The completion handler of handleEventsForBackgroundURLSession must be called once its events are delivered.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background URLSession (https://developer.apple.com/videos/play/wwdc2019/707/): the app stores the handler \
            ("backgroundCompletionHandler = completionHandler") and calls it from \
            urlSessionDidFinishEvents(forBackgroundURLSession:): "When all events have been delivered, the \
            system calls the URLSessionDelegate method … backgroundCompletionHandler()"; "Once your resumed app \
            calls the completion handler, the download task finishes its work".
            """,
        notes: """
            An `urlsession.handleEvents` whose `call` has no `urlsession.complete` by the first `suspend` (else \
            the launch's end). Judged whether or not `urlsession.didFinishEvents` was logged: the system \
            suspends the app only after the handler is called, so a missing handler at suspension is the \
            breach either way.
            """,
        passing: [
            Example(ExampleTraces.urlSessionEventsCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.urlSessionEventsDelivered)
                {"ts":3.2,"seq":13,"event":"snapshot"}
                ↓{"ts":3.5,"seq":14,"event":"suspend"}
                """),
        ])
}
