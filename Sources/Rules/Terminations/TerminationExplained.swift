import Replay

extension Rule {
    static let terminationExplained = Rule(
        id: "termination-explained",
        category: .advisory, severity: .warning,
        summary: "A background kill is matched to the finding that caused it: work held too long, a task never "
            + "ended or completed, a didEnterBackground that did not return, a shared resource held at suspension.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "If you don't end your tasks in a timely \
            manner, the system terminates your app." Apple, 'Choosing Background Strategies for Your App' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "Complete your work within this time period and call \
            setTaskCompleted(success:), or the system terminates your app." Apple, 'Managing your app's life cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "At the time when an app would \
            be suspended, if the app is holding any shared resources, the system terminates it instead."
            """,
        notes: """
            Explanations are findings of rules marked explainsTermination (background-task-not-ended, \
            background-task-expired, bgtask-not-completed, bgtask-expired, the overruns, \
            shared-resource-held-at-suspension) of the same launch, in the stretch the kill ended: the current \
            background period for a kill in the background, the time since the suspension for a kill while \
            suspended; an app that survived a finding to a later period was not killed for it (a resource still \
            held since an earlier suspension is still the cause). The latest such finding is named (explainedBy). \
            A terminate with reason resource (the kill of an app that held a shared resource when it would have \
            been suspended) is explained only by shared-resource-held-at-suspension, and the sentence names the \
            resources held (up to five, then how many more), their kinds and since when; with no resource held \
            in the log it is termination-unexplained. A terminate with reason user (swiped away) or \
            quiet (a suspended app reclaimed) needs no explanation and is not reported, nor is a terminate in the \
            foreground (a crash on screen is no background kill), nor one whose state is only inferred (the log \
            began mid-launch). A launch that ends without a terminate because a new launch of the app began is \
            reported, at the new launch's first event, only if it was running in the background and such a finding \
            exists (work it still held is not such a finding: see log-ended-with-open-work). A launch at the end of \
            the log is never reported: the log just stopped.
            """,
        passing: [
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":67,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":67.1,"seq":5,"event":"snapshot"}
                {"ts":68,"seq":6,"event":"suspend"}
                {"ts":4000,"seq":7,"event":"terminate","reason":"quiet"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":67,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":67.1,"seq":5,"event":"snapshot"}
                {"ts":70,"seq":6,"event":"willEnterForeground"}
                {"ts":70.1,"seq":7,"event":"didBecomeActive"}
                {"ts":90,"seq":8,"event":"willResignActive"}
                {"ts":90.1,"seq":9,"event":"willTerminate"}
                {"ts":90.2,"seq":10,"event":"terminate","reason":"user"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.leavingForeground)
                ↓{"ts":68,"seq":4,"event":"terminate","reason":"watchdog"}
                """),
            Example("""
                \(ExampleTraces.locationUpdateHolding("group.com.example/tracks.sqlite", kind: "database"))
                ↓{"ts":2.5,"seq":6,"event":"terminate","reason":"resource"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
                {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
                {"ts":6.2,"seq":2,"event":"didEnterBackground","phase":"end"}
                {"ts":6.3,"seq":3,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":7,"seq":4,"event":"push.complete","call":1,"result":"newData"}
                ↓{"ts":40,"launch":"L2","seq":0,"event":"launch","reason":"user"}
                {"ts":40.3,"launch":"L2","seq":1,"event":"didBecomeActive"}
                """),
        ])
}
