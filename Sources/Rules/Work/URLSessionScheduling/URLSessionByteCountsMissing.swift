import Replay

extension Rule {
    static let urlsessionByteCountsMissing = Rule(
        id: "urlsession-byte-counts-missing",
        category: .advisory, severity: .warning,
        summary: "A background URLSession task with an earliest begin date should state how many bytes it expects "
            + "to send and to receive.",
        source: """
            WWDC 2017 'Advances in Networking, Part 2' (https://developer.apple.com/videos/play/wwdc2017/709): \
            "countOfBytesClientExpectsToSend, countOfBytesClientExpectsToReceive are used by the system to optimize \
            the background task scheduling. Developers are strongly encouraged to provide an approximate upper \
            bound, or an exact byte count, if possible, rather than accept the default."
            """,
        notes: """
            An `urlsession.task.create` with an `earliest_begin` (a time) that lacks either byte count: the \
            sentence asks for both, and each one left out is a default accepted, so a task that states only one \
            is reported too, naming the one missing. A count is stated when it is a number ≥ 0 (0 is an exact \
            count, such as no body to send); a negative one is NSURLSessionTransferSizeUnknown, the default. A \
            task without an earliest begin date is not judged: the scheduling the counts serve is the delayed \
            start's. One finding per task created.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"earliest_begin":"1970-01-01T01:00:00Z","discretionary":true,"expected_send":600,"expected_receive":2000000}
                """),
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"discretionary":true}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunch)
                ↓{"ts":5,"seq":10,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"earliest_begin":"1970-01-01T01:00:00Z","discretionary":true}
                """),
            Example("""
                \(ExampleTraces.userLaunch)
                ↓{"ts":5,"seq":10,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"earliest_begin":"1970-01-01T01:00:00Z","discretionary":true,"expected_send":0}
                """),
        ])
}
