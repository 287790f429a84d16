import Replay

extension Rule {
    static let fetchCompletionMultiple = Rule(
        id: "fetch-completion-multiple",
        category: .violation, severity: .warning,
        summary: "A background fetch's completion handler must be called exactly once.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background App Refresh (https://developer.apple.com/videos/play/wwdc2019/707/): the sample calls `completionHandler(.newData)` and then falls \
            through to `completionHandler(.noData)` — the handler runs twice.
            """,
        notes: """
            A second `fetch.complete` of one call. A warning: the system takes the first result, but the second \
            call reports a result that is not what happened and shows a missing `return`.
            """,
        passing: [
            Example(ExampleTraces.fetchCompleted),
        ],
        failing: [
            Example("""
                \(ExampleTraces.fetchDelivered)
                {"ts":5,"seq":12,"event":"fetch.complete","call":1,"result":"newData"}
                ↓{"ts":5.01,"seq":13,"event":"fetch.complete","call":1,"result":"noData"}
                {"ts":5.1,"seq":14,"event":"snapshot"}
                {"ts":5.5,"seq":15,"event":"suspend"}
                """),
        ])
}
