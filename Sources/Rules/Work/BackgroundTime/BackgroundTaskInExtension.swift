import Replay

extension Rule {
    static let backgroundTaskInExtension = Rule(
        id: "background-task-in-extension",
        category: .violation, severity: .error,
        summary: "An app extension must not call beginBackgroundTask; it uses performExpiringActivity instead.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "The \
            beginBackgroundTask(withName:expirationHandler:) method can't be called from an app extension. To \
            request extra execution time from your app extension, call the \
            performExpiringActivity(withReason:using:) method of ProcessInfo instead."
            """,
        notes: "Any `beginBackgroundTask` logged by a process whose `process` is `extension:…`.",
        passing: [
            Example("""
                \(ExampleTraces.notificationReceived)
                {"ts":0.3,"seq":2,"event":"expiringActivity","phase":"begin","reason":"image","process":"extension:nse"}
                {"ts":2,"seq":3,"event":"expiringActivity","phase":"end","expired":false,"process":"extension:nse"}
                {"ts":2.1,"seq":4,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.notificationReceived)
                ↓{"ts":0.3,"seq":2,"event":"beginBackgroundTask","task":1,"name":"image","process":"extension:nse"}
                {"ts":2,"seq":3,"event":"endBackgroundTask","task":1,"process":"extension:nse"}
                {"ts":2.1,"seq":4,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ])
}
