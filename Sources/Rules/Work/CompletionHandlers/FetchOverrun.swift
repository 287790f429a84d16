import Replay

extension Rule {
    static let fetchOverrun = Rule(
        id: "fetch-overrun",
        category: .overrun, severity: .error,
        summary: "A background fetch must call its completion handler within 30 s of delivery.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background App Refresh (https://developer.apple.com/videos/play/wwdc2019/707/): "// Calling the completion handler in a timely manner"; the \
            `fetch-completion` budget (30 s from delivery) of rules.md.
            """,
        notes: "From `fetch.perform` to `fetch.complete`, against `fetch-completion` (strictly exceeded; `mono` when both carry it).",
        budget: .fetchCompletion,
        passing: [
            Example("""
                \(ExampleTraces.fetchDelivered)
                {"ts":31,"seq":12,"event":"fetch.complete","call":1,"result":"newData"}
                {"ts":31.1,"seq":13,"event":"snapshot"}
                {"ts":31.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.fetchDelivered)
                ↓{"ts":34.4,"seq":12,"event":"fetch.complete","call":1,"result":"newData"}
                {"ts":34.5,"seq":13,"event":"snapshot"}
                {"ts":34.9,"seq":14,"event":"suspend"}
                """),
        ])
}
