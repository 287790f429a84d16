import Replay

extension Rule {
    static let backgroundTaskNotEnded = Rule(
        id: "background-task-not-ended",
        category: .missedCompletion, severity: .error,
        summary: "Every beginBackgroundTask must be ended with endBackgroundTask before the app is suspended or ends.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "When you finish your tasks, \
            call the endBackgroundTask(_:) method right away to let the system know that you're done. \
            If you don't end your tasks in a timely manner, the system terminates your app."
            """,
        notes: """
            Due at the first `suspend` after the begin, else at the launch's end (its `terminate`; a \
            log that ends first, with no terminate, is log-ended-with-open-work), whatever the reason of the termination. A task \
            whose expiration handler ran is reported as background-task-expired instead. An end that \
            comes after the finding (say after a resume) is not reported again as unknown.
            """,
        explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":18,"seq":15,"event":"endBackgroundTask","task":1}
                {"ts":18.5,"seq":16,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.uploadInBackground)
                ↓{"ts":18.5,"seq":15,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.uploadInBackground)
                ↓{"ts":39,"seq":15,"event":"terminate","reason":"assertion-timeout"}
                """),
        ])
}
