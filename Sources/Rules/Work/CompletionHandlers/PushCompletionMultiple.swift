import Replay

extension Rule {
    static let pushCompletionMultiple = Rule(
        id: "push-completion-multiple",
        category: .violation, severity: .warning,
        summary: "A remote notification's fetchCompletionHandler must be called exactly once.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Wake Your App with a Background Push' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "call the passed completion handler as soon as \
            possible to conserve power."
            """,
        notes: "A second `push.complete` of one call. A warning: the system acts on the first call; the second shows two paths that each think they finish the work.",
        passing: [
            Example(ExampleTraces.pushCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.pushDelivered)
                {"ts":4,"seq":12,"event":"push.complete","call":1,"result":"newData"}
                ↓{"ts":4.05,"seq":13,"event":"push.complete","call":1,"result":"failed"}
                {"ts":4.1,"seq":14,"event":"snapshot"}
                {"ts":4.5,"seq":15,"event":"suspend"}
                """),
        ])
}
