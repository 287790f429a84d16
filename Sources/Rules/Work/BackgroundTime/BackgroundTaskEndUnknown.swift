import Replay

extension Rule {
    static let backgroundTaskEndUnknown = Rule(
        id: "background-task-end-unknown",
        category: .violation, severity: .warning,
        summary: "endBackgroundTask must be called once, with an identifier beginBackgroundTask returned in this launch.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "The \
            beginBackgroundTask(withName:expirationHandler:) method returns an identifier that you must save \
            and pass to the endBackgroundTask(_:) method."
            """,
        notes: """
            Both shapes — a task never begun in this launch, and a second end of one task — are this rule. \
            A warning, not an error: the system ignores the call and kills nothing for it, but it shows that \
            the app lost track of its identifiers, which is how tasks end up never ended. An end that comes \
            after background-task-not-ended was reported for its task is not reported again.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"beginBackgroundTask","task":1,"name":"save"}
                {"ts":6,"seq":11,"event":"endBackgroundTask","task":1}
                {"ts":7,"seq":12,"event":"beginBackgroundTask","task":2,"name":"save"}
                {"ts":8,"seq":13,"event":"endBackgroundTask","task":2}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"beginBackgroundTask","task":1,"name":"save"}
                {"ts":6,"seq":11,"event":"endBackgroundTask","task":1}
                ↓{"ts":7,"seq":12,"event":"endBackgroundTask","task":1}
                ↓{"ts":8,"seq":13,"event":"endBackgroundTask","task":9}
                """),
        ])
}
