import Replay

extension Rule {
    static let urlsessionBackgroundEnqueueDiscretionary = Rule(
        id: "urlsession-background-enqueue-discretionary",
        category: .advisory, severity: .warning,
        summary: "A transfer enqueued from the background is discretionary whatever the app asks: one that must "
            + "start soon is created in the foreground.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background URLSession \
            (https://developer.apple.com/videos/play/wwdc2019/707/): "The system will perform discretionary \
            transfers when conditions are optimal, perhaps when the phone is plugged in and on Wi-Fi. If you \
            enqueue a transfer while the app is in the background, the system will ignore the isDiscretionary \
            property and treat it as true. From the foreground, you can optionally request discretionary."
            """,
        notes: """
            An `urlsession.task.create` with `discretionary: false` while the app is in the background (launched or \
            resumed for an event, or after didEnterBackground; suspended counts too: code that runs then runs in \
            the background). A warning that explains a late transfer, not a breach. Not judged while the app's \
            state is only guessed (the log began mid-launch), nor in an app extension process: the sentence is \
            about the app in the background, and an extension has no UIKit life cycle to say where it is (Lifeline \
            judges extensions only by their own rules).
            """,
        passing: [
            // From the foreground the app may ask for a non-discretionary transfer.
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"discretionary":false}
                """),
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"discretionary":true}
                {"ts":3,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":3.1,"seq":14,"event":"snapshot"}
                {"ts":3.5,"seq":15,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                ↓{"ts":2,"seq":12,"event":"urlsession.task.create","identifier":"com.example.download","task":7,"discretionary":false}
                {"ts":3,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":3.1,"seq":14,"event":"snapshot"}
                {"ts":3.5,"seq":15,"event":"suspend"}
                """),
        ])
}
