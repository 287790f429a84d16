import Replay

extension Rule {
    static let backgroundLaunchSequence = Rule(
        id: "background-launch-sequence",
        category: .violation, severity: .error,
        summary: "An app launched into the background gets didEnterBackground, then the event it was launched for, "
            + "then its snapshot, and only then may be suspended.",
        source: """
            Apple, 'About the background execution sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/about_the_background_execution_sequence): "If your app isn't running when an event arrives, \
            the system launches the app and moves it directly to the background, following this sequence: The system \
            launches the app and follows the initialization sequence described in About the app launch sequence. \
            UIKit calls the app delegate's applicationDidEnterBackground(_:) method. UIKit delivers the event that \
            caused the launch. The app's snapshot is taken. The app may be suspended again."
            """,
        notes: """
            Applies to `launch` with reason `system` (or no reason and a cause). The event is the cause's: bgtask → \
            bgtask.launch, push → push.receive, fetch → fetch.perform, urlsession → urlsession.handleEvents, \
            location → location.update; for nse, audio, other and unknown causes no event is required (their \
            delivery is no single event of the trace format), so the sequence is didEnterBackground → snapshot. \
            The order of the launch steps themselves is launch-sequence's. Only life-cycle events and the cause \
            event are steps: readings, submits, completions and other deliveries between them are passed over. \
            The cause event may come once didEnterBackground began (a BGTask launch handler runs on its own queue); \
            the snapshot must come after didEnterBackground returned and after the cause event; a suspend before \
            the snapshot breaks the sequence. The sequence ends without a finding at the snapshot, at terminate \
            (cut short; the kill is reported by the rule that explains it) and at willEnterForeground (the user \
            opened the app). One finding per sequence, at the first out-of-order event.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"bgtask"}
                {"ts":0.002,"seq":1,"event":"config","permitted_identifiers":["com.example.news.refresh"],"background_modes":["fetch","processing"]}
                {"ts":0.01,"seq":2,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.02,"seq":3,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.021,"seq":4,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.022,"seq":5,"event":"bgtask.register","identifier":"com.example.news.refresh"}
                {"ts":0.09,"seq":6,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.091,"seq":7,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.095,"seq":8,"event":"didEnterBackground","phase":"end"}
                {"ts":0.1,"seq":9,"event":"bgtask.launch","identifier":"com.example.news.refresh","task":1}
                {"ts":12.4,"seq":10,"event":"bgtask.complete","task":1,"success":true}
                {"ts":12.5,"seq":11,"event":"snapshot"}
                {"ts":12.6,"seq":12,"event":"suspend"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"audio"}
                {"ts":0.09,"seq":1,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.1,"seq":2,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.2,"seq":3,"event":"didEnterBackground","phase":"end"}
                {"ts":0.3,"seq":4,"event":"snapshot"}
                """),
            Example("""
                \(ExampleTraces.backgroundLaunch(cause: "push"))
                {"ts":0.3,"seq":3,"event":"willEnterForeground"}
                {"ts":0.4,"seq":4,"event":"didBecomeActive"}
                """),
        ],
        failing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"bgtask"}
                {"ts":0.021,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.022,"seq":2,"event":"bgtask.register","identifier":"r"}
                {"ts":0.09,"seq":3,"event":"didFinishLaunching","phase":"end"}
                ↓{"ts":0.1,"seq":4,"event":"bgtask.launch","identifier":"r","task":1}
                {"ts":0.2,"seq":5,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.3,"seq":6,"event":"didEnterBackground","phase":"end"}
                {"ts":5,"seq":7,"event":"bgtask.complete","task":1,"success":true}
                {"ts":5.1,"seq":8,"event":"snapshot"}
                {"ts":5.2,"seq":9,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.backgroundLaunch(cause: "push"))
                ↓{"ts":0.3,"seq":3,"event":"snapshot"}
                {"ts":0.4,"seq":4,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":1,"seq":5,"event":"push.complete","call":1,"result":"noData"}
                {"ts":1.1,"seq":6,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.backgroundLaunch(cause: "fetch"))
                {"ts":0.3,"seq":3,"event":"fetch.perform","call":1}
                {"ts":2,"seq":4,"event":"fetch.complete","call":1,"result":"newData"}
                ↓{"ts":2.1,"seq":5,"event":"suspend"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"location"}
                {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.15,"seq":2,"event":"location.update"}
                ↓{"ts":0.2,"seq":3,"event":"snapshot"}
                {"ts":0.3,"seq":4,"event":"didEnterBackground","phase":"end"}
                """),
        ])
}
