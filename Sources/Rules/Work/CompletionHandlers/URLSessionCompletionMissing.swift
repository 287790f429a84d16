import Replay

extension Rule {
    static let urlsessionCompletionMissing = Rule(
        id: "urlsession-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "The completion handler of handleEventsForBackgroundURLSession must be called once its events are delivered.",
        source: """
            Seed 003, 'Background URLSession': the app stores the handler \
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
            Example("""
                \(WorkTraces.systemLaunch("urlsession"))
                {"ts":1,"seq":11,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
                {"ts":3,"seq":12,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
                {"ts":3.05,"seq":13,"event":"urlsession.complete","call":1}
                {"ts":3.2,"seq":14,"event":"snapshot"}
                {"ts":3.5,"seq":15,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(WorkTraces.systemLaunch("urlsession"))
                {"ts":1,"seq":11,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
                {"ts":3,"seq":12,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
                {"ts":3.2,"seq":13,"event":"snapshot"}
                ↓{"ts":3.5,"seq":14,"event":"suspend"}
                """),
        ])
}
