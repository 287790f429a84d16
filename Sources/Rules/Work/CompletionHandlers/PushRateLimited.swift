import Replay

extension Rule {
    static let pushRateLimited = Rule(
        id: "push-rate-limited",
        category: .advisory, severity: .warning,
        summary: "Send a device no more than three background pushes an hour.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Wake Your App with a Background Push' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "If you send background pushes more frequently \
            than three times per hour, the system imposes rate limitations."
            """,
        notes: """
            A sliding window of 3600 s over the content-available (`content_available` true, or 1 as the APNs payload writes it) `push.receive` \
            of one device, across launches: one finding for each push that has three others less than 3600 s \
            before it (a push exactly an hour after the third before it is not limited). Time is `mono` \
            within a launch, else `ts`. A warning: the server, not the app, sends too many, and the system \
            delays or drops the excess.
            """,
        passing: [
            // The fourth comes exactly an hour after the first; the alert push does not count.
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":60,"seq":10,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":62,"seq":11,"event":"push.complete","call":1,"result":"newData"}
                {"ts":1260,"seq":12,"event":"push.receive","call":2,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":1262,"seq":13,"event":"push.complete","call":2,"result":"newData"}
                {"ts":2460,"seq":14,"event":"push.receive","call":3,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":2462,"seq":15,"event":"push.complete","call":3,"result":"noData"}
                {"ts":3000,"seq":16,"event":"push.receive","call":4,"content_available":0,"priority":10,"push_type":"alert"}
                {"ts":3001,"seq":17,"event":"push.complete","call":4,"result":"noData"}
                {"ts":3660,"seq":18,"event":"push.receive","call":5,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":3662,"seq":19,"event":"push.complete","call":5,"result":"newData"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":60,"seq":10,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":62,"seq":11,"event":"push.complete","call":1,"result":"newData"}
                {"ts":660,"seq":12,"event":"push.receive","call":2,"content_available":1,"priority":5,"push_type":"background"}
                {"ts":662,"seq":13,"event":"push.complete","call":2,"result":"newData"}
                {"ts":1260,"seq":14,"event":"push.receive","call":3,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":1262,"seq":15,"event":"push.complete","call":3,"result":"noData"}
                ↓{"ts":1860,"seq":16,"event":"push.receive","call":4,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":1862,"seq":17,"event":"push.complete","call":4,"result":"newData"}
                ↓{"ts":2460,"seq":18,"event":"push.receive","call":5,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":2462,"seq":19,"event":"push.complete","call":5,"result":"newData"}
                """),
        ])
}
