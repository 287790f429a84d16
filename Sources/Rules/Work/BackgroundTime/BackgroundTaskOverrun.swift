import Replay

extension Rule {
    static let backgroundTaskOverrun = Rule(
        id: "background-task-overrun",
        category: .overrun, severity: .error,
        summary: "A background task must end within the app's background time.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "(You can find out the maximum \
            background time available using the backgroundTimeRemaining property.) … If you don't end your \
            tasks in a timely manner, the system terminates your app."
            """,
        notes: """
            Background time is counted from the start of the current background period (`didEnterBackground` \
            begin, or the launch or resume into the background). Its limit is the `background-time` budget \
            (30 s), unless the period has a `backgroundTimeRemaining` reading: then the reading's time plus \
            its value. Judged at the `endBackgroundTask`, with `mono` when both events carry it; time in the \
            foreground does not count. A task never ended is reported by background-task-not-ended instead.
            """,
        budget: .backgroundTime, explainsTermination: true,
        passing: [
            // Exactly 30.0 s after didEnterBackground began: the budget is not strictly exceeded.
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":40.1,"seq":15,"event":"endBackgroundTask","task":1}
                {"ts":40.5,"seq":16,"event":"suspend"}
                """),
            // The reading grants more than the default: 1.9 s + 40 s.
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":12,"seq":15,"event":"backgroundTimeRemaining","value":40}
                {"ts":50,"seq":16,"event":"endBackgroundTask","task":1}
                {"ts":50.5,"seq":17,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.uploadInBackground)
                ↓{"ts":41.3,"seq":15,"event":"endBackgroundTask","task":1}
                {"ts":41.5,"seq":16,"event":"suspend"}
                """),
            // The reading says only 8 s are left: the limit is 1.9 s + 8 s after the period began.
            Example("""
                \(ExampleTraces.uploadInBackground)
                {"ts":12,"seq":15,"event":"backgroundTimeRemaining","value":8}
                ↓{"ts":25,"seq":16,"event":"endBackgroundTask","task":1}
                {"ts":25.5,"seq":17,"event":"suspend"}
                """),
        ])
}
