import Replay

extension Rule {
    static let fetchCompletionMissing = Rule(
        id: "fetch-completion-missing",
        category: .missedCompletion, severity: .error,
        summary: "Every performFetchWithCompletionHandler delivery must call its completion handler before suspension.",
        source: """
            Seed 003, 'Background App Refresh': the delegate method `application(_:performFetchWithCompletionHandler:)` \
            is handed a completion handler — "// Calling the completion handler in a timely manner".
            """,
        notes: "Due at the first `suspend` after `fetch.perform`, else at the launch's end.",
        passing: [
            Example("""
                \(WorkTraces.systemLaunch("fetch", legacy: true))
                {"ts":1,"seq":11,"event":"fetch.perform","call":1}
                {"ts":5,"seq":12,"event":"fetch.complete","call":1,"result":"newData"}
                {"ts":5.1,"seq":13,"event":"snapshot"}
                {"ts":5.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(WorkTraces.systemLaunch("fetch", legacy: true))
                {"ts":1,"seq":11,"event":"fetch.perform","call":1}
                {"ts":20.1,"seq":12,"event":"snapshot"}
                ↓{"ts":20.5,"seq":13,"event":"suspend"}
                """),
        ])
}
