import Replay

extension Rule {
    static let bgtaskNotPermitted = Rule(
        id: "bgtask-not-permitted",
        category: .violation, severity: .error,
        summary: "Register and submit only task identifiers listed in BGTaskSchedulerPermittedIdentifiers.",
        source: """
            Apple, 'Using background tasks to update your app' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/using_background_tasks_to_update_your_app): "In iOS 13 and later, adding a \
            BGTaskSchedulerPermittedIdentifiers key to the Info.plist …"; BGTaskScheduler's submit(_:) throws \
            "notPermitted" for an identifier the Info.plist does not list.
            """,
        notes: """
            Judged against the `permitted_identifiers` of the launch's `config`. When the launch logged no \
            `config` there is nothing to judge by, and the rule stays silent (even on a submit that threw \
            notPermitted: that error has other causes too, such as a missing background mode). Extensions, \
            which have no `config`, are not judged.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":3,"seq":10,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh"}
                """),
            // No config in this launch: nothing to judge by.
            Example("""
                {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.31,"seq":4,"event":"bgtask.register","identifier":"com.example.sync"}
                {"ts":0.4,"seq":5,"event":"didFinishLaunching","phase":"end"}
                {"ts":1,"seq":6,"event":"didBecomeActive"}
                """),
        ],
        failing: [
            Example("""
                {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
                {"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["com.example.refresh"],"background_modes":["fetch","processing"]}
                {"ts":0.1,"seq":2,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":3,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.31,"seq":5,"event":"bgtask.register","identifier":"com.example.refresh"}
                ↓{"ts":0.32,"seq":6,"event":"bgtask.register","identifier":"com.example.sync"}
                {"ts":0.4,"seq":7,"event":"didFinishLaunching","phase":"end"}
                {"ts":1,"seq":8,"event":"didBecomeActive"}
                {"ts":10,"seq":9,"event":"willResignActive"}
                {"ts":10.1,"seq":10,"event":"didEnterBackground","phase":"begin"}
                {"ts":10.11,"seq":11,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                ↓{"ts":10.12,"seq":12,"event":"bgtask.submit","identifier":"com.example.sync","type":"processing","error":"notPermitted"}
                {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":14,"event":"snapshot"}
                {"ts":10.5,"seq":15,"event":"suspend"}
                """),
        ])
}
