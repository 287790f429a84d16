import Replay

extension Rule {
    static let eventWhileSuspended = Rule(
        id: "event-while-suspended",
        category: .data, severity: .warning,
        summary: "A suspended app runs no code until it is resumed: app code while suspended means a resume is missing from the log.",
        source: """
            Apple, 'About the background execution sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/about_the_background_execution_sequence): "If your app is in memory and suspended when an \
            event arrives, the system resumes the app in the background"; Apple, 'Managing your app's life \
            cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "If your app becomes suspended, it cannot respond to requests anyway."
            """,
        notes: """
            App code is a callback or delivery: the launch steps, willResignActive, didBecomeActive, \
            didEnterBackground, willEnterForeground, willTerminate, memoryWarning, the beginBackgroundTask family and \
            backgroundTimeRemaining, every bgtask.*, fetch.*, push.*, urlsession.* and nse.* event, location.update \
            and expiringActivity. Readings (power, network, refreshStatus), config, snapshot and unknown events are \
            not: the logger may record them without the app running. The `end` of a callback that began before the \
            suspension is not either (the return was logged late). After a finding the missing resume is assumed: \
            the app is back in the background (or in the state a life-cycle callback implies), so what follows is \
            judged normally and the same gap yields one finding. Applies to extension processes that log suspend.
            """,
        passing: [
            Example("""
                \(ExampleTraces.suspended)
                {"ts":200,"seq":7,"event":"power","low_power_mode":false,"battery":0.8,"charging":false}
                {"ts":300,"seq":8,"event":"resume","reason":"system","cause":"push"}
                {"ts":300.1,"seq":9,"event":"didEnterBackground","phase":"begin"}
                {"ts":300.2,"seq":10,"event":"didEnterBackground","phase":"end"}
                {"ts":300.3,"seq":11,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":302,"seq":12,"event":"push.complete","call":1,"result":"noData"}
                {"ts":302.1,"seq":13,"event":"snapshot"}
                {"ts":303,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.suspended)
                ↓{"ts":300,"seq":7,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":302,"seq":8,"event":"push.complete","call":1,"result":"noData"}
                {"ts":302.1,"seq":9,"event":"snapshot"}
                {"ts":303,"seq":10,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.suspended)
                ↓{"ts":400,"seq":7,"event":"willEnterForeground"}
                {"ts":400.1,"seq":8,"event":"didBecomeActive"}
                """),
        ])
}
