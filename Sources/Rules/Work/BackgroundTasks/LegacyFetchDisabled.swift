import Replay

extension Rule {
    static let legacyFetchDisabled = Rule(
        id: "legacy-fetch-disabled",
        category: .violation, severity: .warning,
        summary: "An app that lists BGTaskSchedulerPermittedIdentifiers must not rely on legacy background fetch.",
        source: """
            Apple, 'Using background tasks to update your app' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/using_background_tasks_to_update_your_app): "In iOS 13 and later, adding a \
            BGTaskSchedulerPermittedIdentifiers key to the Info.plist disables the \
            application(_:performFetchWithCompletionHandler:) and setMinimumBackgroundFetchInterval(_:) methods."
            """,
        notes: """
            A `fetch.setMinimumInterval` or `fetch.perform` in a launch whose `config` has a non-empty \
            `permitted_identifiers`. A warning: nothing crashes, but the fetch the code expects never runs.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground(legacy: true))
                {"ts":10.2,"seq":12,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":13,"event":"snapshot"}
                {"ts":10.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
                {"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["com.example.refresh"],"background_modes":["fetch"]}
                {"ts":0.1,"seq":2,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":3,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.31,"seq":5,"event":"bgtask.register","identifier":"com.example.refresh"}
                ↓{"ts":0.32,"seq":6,"event":"fetch.setMinimumInterval","interval":3600}
                {"ts":0.4,"seq":7,"event":"didFinishLaunching","phase":"end"}
                {"ts":1,"seq":8,"event":"didBecomeActive"}
                """),
            Example("""
                \(ExampleTraces.systemLaunch("fetch"))
                ↓{"ts":1,"seq":11,"event":"fetch.perform","call":1}
                {"ts":4,"seq":12,"event":"fetch.complete","call":1,"result":"noData"}
                {"ts":4.1,"seq":13,"event":"snapshot"}
                {"ts":4.5,"seq":14,"event":"suspend"}
                """),
        ])
}
