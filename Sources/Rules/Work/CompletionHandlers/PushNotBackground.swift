import Replay

extension Rule {
    static let pushNotBackground = Rule(
        id: "push-not-background",
        category: .advisory, severity: .warning,
        summary: "Send background pushes with apns-priority 5 and apns-push-type background.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Wake Your App with a Background Push' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "When sending a background push, set \
            content-available: to 1 without alert, sound, or badge. The system decides when to launch the app \
            to download the content. To ensure your app launches, set apns-priority to 5, and apns-push-type to \
            background."
            """,
        notes: """
            A `push.receive` with `content_available` true whose `priority` is logged and not 5, or whose \
            `push_type` is logged and not `background`; an attribute that was not logged is not judged. A \
            warning: a server-side setting that makes the system less likely to launch the app for the push.
            """,
        passing: [
            Example(ExampleTraces.pushCompleted),
            // An alert push in the foreground is no background push.
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":5,"seq":10,"event":"push.receive","call":1,"content_available":false,"priority":10,"push_type":"alert"}
                {"ts":5.2,"seq":11,"event":"push.complete","call":1,"result":"noData"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.systemLaunch("push"))
                ↓{"ts":1,"seq":11,"event":"push.receive","call":1,"content_available":true,"priority":10,"push_type":"background"}
                {"ts":4,"seq":12,"event":"push.complete","call":1,"result":"newData"}
                {"ts":4.1,"seq":13,"event":"snapshot"}
                {"ts":4.5,"seq":14,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.systemLaunch("push"))
                ↓{"ts":1,"seq":11,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"alert"}
                {"ts":4,"seq":12,"event":"push.complete","call":1,"result":"newData"}
                {"ts":4.1,"seq":13,"event":"snapshot"}
                {"ts":4.5,"seq":14,"event":"suspend"}
                """),
        ])
}
