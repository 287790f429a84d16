import Replay

extension Rule {
    static let backgroundResumeSequence = Rule(
        id: "background-resume-sequence",
        category: .violation, severity: .error,
        summary: "An app resumed in the background for an event gets didEnterBackground, then the event, then its "
            + "snapshot, and only then may be suspended.",
        source: """
            Apple, 'About the background execution sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/about_the_background_execution_sequence): "If your app is in memory and suspended when an event \
            arrives, the system resumes the app in the background, following this sequence: The system resumes the \
            app. UIKit calls the app delegate's applicationDidEnterBackground(_:) method. UIKit delivers the event \
            that caused the launch. The app's snapshot is taken. The app may be suspended again."
            """,
        notes: """
            Applies to `resume` with a `cause`. A resume without a cause is the user bringing the app back: it goes \
            to the background and on with willEnterForeground → didBecomeActive, and no background sequence applies \
            (the state machine judges it). The cause → event map, the steps and what ends a sequence without a \
            finding are as for background-launch-sequence. A resume the lifecycle check reported (the app was not \
            suspended) starts no sequence, and neither does a resume it assumed (app code ran while suspended).
            """,
        passing: [
            Example("""
                \(ExampleTraces.backgroundResume(cause: "push"))
                {"ts":0.25,"seq":3,"event":"network","reachable":true,"wifi":true}
                {"ts":0.3,"seq":4,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":3,"seq":5,"event":"push.complete","call":1,"result":"newData"}
                {"ts":3.1,"seq":6,"event":"snapshot"}
                {"ts":3.5,"seq":7,"event":"suspend"}
                """),
            Example("""
                {"ts":0,"seq":0,"event":"resume","reason":"user"}
                {"ts":0.1,"seq":1,"event":"willEnterForeground"}
                {"ts":0.2,"seq":2,"event":"didBecomeActive"}
                """),
            Example("""
                \(ExampleTraces.backgroundResume(cause: "bgtask"))
                {"ts":0.3,"seq":3,"event":"bgtask.launch","identifier":"r","task":1}
                {"ts":9,"seq":4,"event":"terminate","reason":"watchdog"}
                """),
        ],
        failing: [
            Example("""
                {"ts":0,"seq":0,"event":"resume","reason":"system","cause":"push"}
                ↓{"ts":0.1,"seq":1,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":0.2,"seq":2,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.3,"seq":3,"event":"didEnterBackground","phase":"end"}
                {"ts":1,"seq":4,"event":"push.complete","call":1,"result":"newData"}
                {"ts":1.1,"seq":5,"event":"snapshot"}
                {"ts":1.5,"seq":6,"event":"suspend"}
                """),
            Example("""
                {"ts":0,"seq":0,"event":"resume","reason":"system","cause":"urlsession"}
                {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
                ↓{"ts":0.2,"seq":2,"event":"snapshot"}
                {"ts":0.3,"seq":3,"event":"didEnterBackground","phase":"end"}
                {"ts":0.4,"seq":4,"event":"urlsession.handleEvents","identifier":"s","call":1}
                """),
            Example("""
                \(ExampleTraces.backgroundResume(cause: "bgtask"))
                ↓{"ts":0.3,"seq":3,"event":"suspend"}
                """),
        ])
}
