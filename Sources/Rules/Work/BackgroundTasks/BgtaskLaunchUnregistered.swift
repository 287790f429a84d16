import Replay

extension Rule {
    static let bgtaskLaunchUnregistered = Rule(
        id: "bgtask-launch-unregistered",
        category: .violation, severity: .error,
        summary: "The system may only run a task whose launch handler this launch registered.",
        source: """
            Apple, 'Using background tasks to update your app' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/using_background_tasks_to_update_your_app): "An extension can schedule a task, but your \
            main app must register the task. The system launches the app to run the task." and "When the \
            system opens your app in the background, it calls the launch handler to run the task."
            """,
        notes: """
            A `bgtask.launch` whose identifier no `bgtask.register` of this launch named. Judged only for a \
            launch replayed from its `launch` event, so that no registration can have been missed.
            """,
        passing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":5,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                {"ts":5.1,"seq":13,"event":"snapshot"}
                {"ts":5.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            // com.example.digest is permitted but was never registered.
            Example("""
                \(ExampleTraces.systemLaunch("bgtask"))
                ↓{"ts":1,"seq":11,"event":"bgtask.launch","identifier":"com.example.digest","task":1}
                {"ts":5,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                {"ts":5.1,"seq":13,"event":"snapshot"}
                {"ts":5.5,"seq":14,"event":"suspend"}
                """),
        ])
}
