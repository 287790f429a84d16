import Replay

extension Rule {
    static let logEndedWithOpenWork = Rule(
        id: "log-ended-with-open-work",
        category: .data, severity: .info,
        summary: "A launch's log ended while work was still open: the log cannot say whether that work finished.",
        source: """
            Apple, 'Managing your app's life cycle' \
            (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "At its \
            discretion, the system may quietly terminate a suspended app, returning it to the not running state." \
            A log that stops — the upload ended, or the process died mid-write — says nothing more than that.
            """,
        notes: """
            When a launch's log ends with no terminate — the device logs nothing more, or a new launch of the same \
            process begins — every task, BGTask run, completion handler and NSE call still open is named in one \
            finding per launch, with when it opened and how long it had been open, and whether the file holding \
            the launch's last event was cut short. No missed-completion or overrun finding is reported for that \
            work: the end of a log is not evidence. Its time is the launch's last event.
            """,
        passing: [
            Example("""
                \(ExampleTraces.inBackground)
                {"ts":61,"seq":6,"event":"beginBackgroundTask","task":1}
                {"ts":62,"seq":7,"event":"endBackgroundTask","task":1}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.systemLaunch("urlsession"))
                ↓{"ts":1,"seq":11,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
                """),
            Example("""
                \(ExampleTraces.inBackground)
                {"ts":61,"seq":6,"event":"beginBackgroundTask","task":1}
                ↓{"ts":62,"seq":7,"event":"backgroundTimeRemaining","value":25}
                {"launch":"L2","ts":900,"seq":0,"event":"launch","reason":"user"}
                """),
        ])
}
