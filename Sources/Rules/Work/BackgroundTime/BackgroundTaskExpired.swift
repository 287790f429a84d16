import Replay

extension Rule {
    static let backgroundTaskExpired = Rule(
        id: "background-task-expired",
        category: .missedCompletion, severity: .error,
        summary: "When a background task's expiration handler runs, the task must be ended within the expiration grace.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): the sample's expiration handler \
            ("// End the task if time expires.") calls "UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)"; \
            "If you don't end your tasks in a timely manner, the system terminates your app."
            """,
        notes: """
            The grace is the `expiration-grace` budget (5 s, strictly exceeded), counted from \
            `backgroundTaskExpired`. Reported at the late `endBackgroundTask`, or — when none came — at the \
            `suspend` or the launch's end (then instead of background-task-not-ended). An end within the \
            grace is fine for this rule; background-task-overrun still judges the total time.
            """,
        budget: .expirationGrace, explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":38,"seq":15,"event":"backgroundTaskExpired","task":1}
                {"ts":39,"seq":16,"event":"endBackgroundTask","task":1}
                {"ts":39.5,"seq":17,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":38,"seq":15,"event":"backgroundTaskExpired","task":1}
                ↓{"ts":44,"seq":16,"event":"endBackgroundTask","task":1}
                {"ts":44.5,"seq":17,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":38,"seq":15,"event":"backgroundTaskExpired","task":1}
                ↓{"ts":45,"seq":16,"event":"terminate","reason":"assertion-timeout"}
                """),
        ])
}
