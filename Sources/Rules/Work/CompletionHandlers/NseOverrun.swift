import Replay

extension Rule {
    static let nseOverrun = Rule(
        id: "nse-overrun",
        category: .overrun, severity: .error,
        summary: "A Notification Service Extension must call the content handler within its time limit (30 s).",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Request Background Time and Notify the User' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "Your extension has a limited amount of \
            time to modify the content and execute the contentHandler block."
            """,
        notes: """
            From `nse.receive` to `nse.contentHandler` of the same `call`, against `nse-completion` (30 s, \
            strictly exceeded; `mono` when both carry it). Runs on extension processes.
            """,
        budget: .nseCompletion,
        passing: [
            Example("""
                \(ExampleTraces.notificationReceived)
                {"ts":30.2,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.notificationReceived)
                ↓{"ts":33.7,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ])
}
