import Replay

extension Rule {
    static let nseContentHandlerMissing = Rule(
        id: "nse-content-handler-missing",
        category: .missedCompletion, severity: .error,
        summary: "A Notification Service Extension must call the content handler of every notification it receives.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Request Background Time and Notify the User' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "When your extension completes its work, \
            it must call the content handler with the content you want to deliver to the user. Your extension \
            has a limited amount of time to modify the content and execute the contentHandler block."
            """,
        notes: """
            Runs on extension processes, which are not suspended the way apps are: an `nse.receive` with no \
            `nse.contentHandler` of its `call` by the end of the extension process (its `terminate`; a \
            log that ends first, with no terminate, is log-ended-with-open-work). `nse.timeWillExpire` does not discharge it: the \
            handler must still be called after it.
            """,
        passing: [
            Example("""
                \(ExampleTraces.notificationExpiring)
                {"ts":29.8,"seq":3,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.notificationExpiring)
                ↓{"ts":31,"seq":3,"event":"terminate","reason":"other","process":"extension:nse"}
                """),
        ])
}
