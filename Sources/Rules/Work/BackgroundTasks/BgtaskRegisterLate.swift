import Replay

extension Rule {
    static let bgtaskRegisterLate = Rule(
        id: "bgtask-register-late",
        category: .violation, severity: .error,
        summary: "Register every BGTask launch handler before didFinishLaunching returns.",
        source: """
            Apple, 'Using background tasks to update your app' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/using_background_tasks_to_update_your_app): "Register all of the tasks before the end \
            of the app launch sequence"
            """,
        notes: """
            A `bgtask.register` after `didFinishLaunching` end. An error: a launch for the task that comes \
            before the registration finds no launch handler.
            """,
        passing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":3,"seq":10,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunch)
                ↓{"ts":3,"seq":10,"event":"bgtask.register","identifier":"com.example.digest"}
                {"ts":3.1,"seq":11,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh"}
                """),
        ])
}
