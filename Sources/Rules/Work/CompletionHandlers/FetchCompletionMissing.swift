import Replay

extension Rule {
    static let fetchCompletionMissing = Rule(
        id: "fetch-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "Every performFetchWithCompletionHandler delivery must call its completion handler before suspension.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background App Refresh (https://developer.apple.com/videos/play/wwdc2019/707/): the delegate method `application(_:performFetchWithCompletionHandler:)` \
            is handed a completion handler — "// Calling the completion handler in a timely manner".
            """,
        notes: "Due at the first `suspend` after `fetch.perform`, else at the launch's end.",
        passing: [
            Example(ExampleTraces.fetchCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.fetchDelivered)
                {"ts":20.1,"seq":12,"event":"snapshot"}
                ↓{"ts":20.5,"seq":13,"event":"suspend"}
                """),
        ])
}
