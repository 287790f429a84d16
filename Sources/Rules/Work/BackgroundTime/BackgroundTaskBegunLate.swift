import Replay

extension Rule {
    static let backgroundTaskBegunLate = Rule(
        id: "background-task-begun-late",
        category: .advisory, severity: .warning,
        summary: "Begin a background task before the app moves to the background, not inside didEnterBackground.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "Don't wait until your app moves to \
            the background to call the beginBackgroundTask(withName:expirationHandler:) method. Call the method \
            before performing any long-running task."
            """,
        notes: """
            A `beginBackgroundTask` between `didEnterBackground` begin and end, when no task was begun earlier \
            in that launch (an app that already protects its work with tasks may add one there). A warning: \
            legal, but the work it protects may already be cut short by then.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"beginBackgroundTask","task":1,"name":"upload"}
                {"ts":10,"seq":11,"event":"willResignActive"}
                {"ts":10.1,"seq":12,"event":"didEnterBackground","phase":"begin"}
                {"ts":10.15,"seq":13,"event":"beginBackgroundTask","task":2,"name":"save-state"}
                {"ts":10.2,"seq":14,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":15,"event":"snapshot"}
                {"ts":11,"seq":16,"event":"endBackgroundTask","task":2}
                {"ts":12,"seq":17,"event":"endBackgroundTask","task":1}
                {"ts":12.5,"seq":18,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                ↓{"ts":10.15,"seq":12,"event":"beginBackgroundTask","task":1,"name":"save-state"}
                {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":14,"event":"snapshot"}
                {"ts":12,"seq":15,"event":"endBackgroundTask","task":1}
                {"ts":12.5,"seq":16,"event":"suspend"}
                """),
        ])
}
