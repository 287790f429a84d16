import Replay

extension Rule {
    static let pushCompletionMissing = Rule(
        id: "push-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "Every remote notification delivered with a fetchCompletionHandler must call it before suspension.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Wake Your App with a Background Push' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "Once the system delivers the remote notification \
            with application(_:didReceiveRemoteNotification:fetchCompletionHandler:), your app has up to 30 \
            seconds to complete its work. One your app performs the work, call the passed completion handler as \
            soon as possible to conserve power."
            """,
        notes: "Every `push.receive`, background or not (the handler is passed either way). Due at the first `suspend`, else at the launch's end.",
        passing: [
            Example(ExampleTraces.pushCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.pushDelivered)
                {"ts":31.2,"seq":12,"event":"snapshot"}
                ↓{"ts":31.5,"seq":13,"event":"suspend"}
                """),
        ])
}
