import Replay

extension Rule {
    static let pushOverrun = Rule(
        id: "push-overrun",
        category: .overrun, severity: .error,
        summary: "A remote notification's fetchCompletionHandler must be called within 30 s of delivery.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Wake Your App with a Background Push' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "your app has up to 30 seconds to complete its \
            work."
            """,
        notes: "From `push.receive` to `push.complete`, against `push-completion` (strictly exceeded; `mono` when both carry it).",
        budget: .pushCompletion,
        passing: [
            Example("""
                \(ExampleTraces.pushDelivered)
                {"ts":31,"seq":12,"event":"push.complete","call":1,"result":"newData"}
                {"ts":31.1,"seq":13,"event":"snapshot"}
                {"ts":31.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.pushDelivered)
                ↓{"ts":35.3,"seq":12,"event":"push.complete","call":1,"result":"newData"}
                {"ts":35.4,"seq":13,"event":"snapshot"}
                {"ts":35.8,"seq":14,"event":"suspend"}
                """),
        ])
}
