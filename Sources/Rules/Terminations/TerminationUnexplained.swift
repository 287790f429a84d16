import Replay

extension Rule {
    static let terminationUnexplained = Rule(
        id: "termination-unexplained",
        category: .data, severity: .warning,
        summary: "A background kill with no finding that explains it: the log lacks the evidence of why.",
        source: """
            Apple, 'Managing your app's life cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "At its discretion, the system may quietly terminate a \
            suspended app, returning it to the not running state." Any other background termination has a cause \
            ('Extending your app's background execution time', https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time: "If you don't end your tasks in a timely manner, the system terminates your app").
            """,
        notes: """
            A terminate whose reason is neither user nor quiet, while the app was in the background or suspended, \
            with no explaining finding in the stretch it ended (see termination-explained). Not reported for a \
            terminate in the foreground (a crash on screen is not a background kill: the crash report explains it), \
            for a state only inferred from a log that began mid-launch, or for a launch that ended without a \
            terminate (no reason is known). A crash in the background is reported: the log does not say why. \
            A terminate with reason resource is reported unless the log shows a shared resource held \
            (shared-resource-held-at-suspension), whatever else was found.
            """,
        passing: [
            Example("""
                \(ExampleTraces.suspended)
                {"ts":4000,"seq":7,"event":"terminate","reason":"quiet"}
                """),
            Example("""
                \(ExampleTraces.active)
                {"ts":30,"seq":2,"event":"terminate","reason":"crash"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":68,"seq":4,"event":"terminate","reason":"watchdog"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.inBackground)
                ↓{"ts":60.9,"seq":6,"event":"terminate","reason":"memory"}
                """),
            // Killed for a shared resource, yet the log shows only a listener open (no shared resource).
            Example("""
                \(ExampleTraces.locationUpdateHolding("_share._tcp", kind: "bonjour"))
                ↓{"ts":2.5,"seq":6,"event":"terminate","reason":"resource"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":67,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":67.1,"seq":5,"event":"snapshot"}
                {"ts":68,"seq":6,"event":"suspend"}
                {"ts":300,"seq":7,"event":"resume","reason":"system","cause":"push"}
                {"ts":300.1,"seq":8,"event":"didEnterBackground","phase":"begin"}
                {"ts":300.2,"seq":9,"event":"didEnterBackground","phase":"end"}
                {"ts":300.3,"seq":10,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":301,"seq":11,"event":"push.complete","call":1,"result":"newData"}
                ↓{"ts":302,"seq":12,"event":"terminate","reason":"watchdog"}
                """),
        ])
}
