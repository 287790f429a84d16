/// The pieces of trace that rule examples share, so that each example shows only what matters to
/// its rule. An example interpolates one as its first line and goes on from there:
///
///     Example("""
///         \(ExampleTraces.leavingForeground)
///         ↓{"ts":68,"seq":4,"event":"terminate","reason":"watchdog"}
///         """)
///
/// Each piece is a complete, legal start of launch `L1` on device `D`; its documentation gives the
/// `seq` and `ts` it ends at, so that the example's own lines carry on from there. `lifeline rules
/// RULE-ID` and `docs/rules.md` show the example with the piece spelled out.
enum ExampleTraces {
    // MARK: A bare app: the launch and UIKit's life-cycle callbacks only

    /// A user launch, active at `ts` 0.3 (`seq` 0–1).
    static let active = """
        {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0.3,"seq":1,"event":"didBecomeActive"}
        """

    /// A scene-based user launch (v1.1): scene S1 connects, enters the foreground and is active at
    /// `ts` 0.3, announced by no app-level notification (`seq` 0–3); the user leaves at `ts` 30
    /// (scene.willResignActive, `seq` 4).
    static let sceneResigning = """
        {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
        {"ts":0.2,"seq":2,"event":"scene.willEnterForeground","scene":"S1"}
        {"ts":0.3,"seq":3,"event":"scene.didBecomeActive","scene":"S1"}
        {"ts":30,"seq":4,"event":"scene.willResignActive","scene":"S1"}
        """

    /// ``active``, then the user leaves at `ts` 60: willResignActive, and didEnterBackground begun
    /// at 60.1 and not yet returned (`seq` 0–3).
    static let leavingForeground = """
        \(active)
        {"ts":60,"seq":2,"event":"willResignActive"}
        {"ts":60.1,"seq":3,"event":"didEnterBackground","phase":"begin"}
        """

    /// ``leavingForeground`` completed: didEnterBackground returned at `ts` 60.2 and the snapshot
    /// taken at 60.3 (`seq` 0–5).
    static let inBackground = """
        \(leavingForeground)
        {"ts":60.2,"seq":4,"event":"didEnterBackground","phase":"end"}
        {"ts":60.3,"seq":5,"event":"snapshot"}
        """

    /// ``inBackground``, then suspended at `ts` 61 (`seq` 0–6).
    static let suspended = """
        \(inBackground)
        {"ts":61,"seq":6,"event":"suspend"}
        """

    /// A launch into the background for `cause`, with didEnterBackground from `ts` 0.1 to 0.2
    /// (`seq` 0–2); the event it was launched for comes next.
    static func backgroundLaunch(cause: String) -> String {
        """
        {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"\(cause)"}
        {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
        {"ts":0.2,"seq":2,"event":"didEnterBackground","phase":"end"}
        """
    }

    /// A suspended app resumed in the background for `cause`, as the first events of the log, with
    /// didEnterBackground from `ts` 0.1 to 0.2 (`seq` 0–2); the event it was resumed for comes next.
    static func backgroundResume(cause: String) -> String {
        """
        {"ts":0,"seq":0,"event":"resume","reason":"system","cause":"\(cause)"}
        {"ts":0.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
        {"ts":0.2,"seq":2,"event":"didEnterBackground","phase":"end"}
        """
    }

    // MARK: An app that holds a shared resource or a listener

    /// ``active``, then at `ts` 5 the app takes `resource` of `kind` (`seq` 2), and the user leaves
    /// at 60: willResignActive, didEnterBackground from 60.1 to 60.2, the snapshot at 60.3 (`seq`
    /// 0–6). Nothing has released the resource; suspension may come next.
    static func leavingForegroundHolding(_ resource: String, kind: String) -> String {
        """
        \(active)
        {"ts":5,"seq":2,"event":"resource.acquire","resource":"\(resource)","kind":"\(kind)"}
        {"ts":60,"seq":3,"event":"willResignActive"}
        {"ts":60.1,"seq":4,"event":"didEnterBackground","phase":"begin"}
        {"ts":60.2,"seq":5,"event":"didEnterBackground","phase":"end"}
        {"ts":60.3,"seq":6,"event":"snapshot"}
        """
    }

    /// ``backgroundLaunch(cause:)`` for a location update (at `ts` 0.3), during which the app takes
    /// `resource` of `kind` (0.4) and keeps it through the snapshot at 2 (`seq` 0–5).
    static func locationUpdateHolding(_ resource: String, kind: String) -> String {
        """
        \(backgroundLaunch(cause: "location"))
        {"ts":0.3,"seq":3,"event":"location.update"}
        {"ts":0.4,"seq":4,"event":"resource.acquire","resource":"\(resource)","kind":"\(kind)"}
        {"ts":2,"seq":5,"event":"snapshot"}
        """
    }

    // MARK: A Notification Service Extension

    /// An extension process (`extension:nse`) launched for a notification, which it receives at
    /// `ts` 0.2 as call 1 (`seq` 0–1).
    static let notificationReceived = """
        {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
        {"ts":0.2,"seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
        """

    /// ``notificationReceived``, then the system warns at `ts` 29.7 that its time runs out (`seq` 0–2).
    static let notificationExpiring = """
        \(notificationReceived)
        {"ts":29.7,"seq":2,"event":"nse.timeWillExpire","call":1,"process":"extension:nse"}
        """

    // MARK: An app that does background work
    //
    // Its `config` permits `com.example.refresh`, `com.example.digest` (refresh tasks) and
    // `com.example.cleanup` (processing), and `didFinishLaunching` registers `com.example.refresh`
    // and `com.example.cleanup` and recreates the URL session `com.example.download`.
    // With `legacy`, the app uses background fetch instead: no permitted identifiers, no
    // registration, `setMinimumBackgroundFetchInterval` at launch.

    /// A user launch into the foreground: `seq` 0–9, `ts` 0–1, ending with `didBecomeActive`.
    static let userLaunch = """
        {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
        \(config)
        \(launchSequence)
        {"ts":1,"seq":9,"event":"didBecomeActive"}
        """

    /// ``userLaunch`` of an app that uses background fetch rather than BackgroundTasks.
    static let legacyUserLaunch = """
        {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
        \(legacyConfig)
        \(legacyLaunchSequence)
        {"ts":1,"seq":9,"event":"didBecomeActive"}
        """

    /// ``userLaunch`` (or ``legacyUserLaunch``), then the user leaves at `ts` 10: willResignActive,
    /// and didEnterBackground begun at 10.1 (`seq` 0–11).
    static func userLaunchLeavingForeground(legacy: Bool = false) -> String {
        """
        \(legacy ? legacyUserLaunch : userLaunch)
        {"ts":10,"seq":10,"event":"willResignActive"}
        {"ts":10.1,"seq":11,"event":"didEnterBackground","phase":"begin"}
        """
    }

    /// ``userLaunch`` that begins background task 1 ("upload") at `ts` 5, then moves to the
    /// background: didEnterBackground from 10.1 to 10.2, snapshot at 10.3 (`seq` 0–14). The task
    /// is still running.
    static let uploadInBackground = """
        \(userLaunch)
        {"ts":5,"seq":10,"event":"beginBackgroundTask","task":1,"name":"upload"}
        {"ts":10,"seq":11,"event":"willResignActive"}
        {"ts":10.1,"seq":12,"event":"didEnterBackground","phase":"begin"}
        {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
        {"ts":10.3,"seq":14,"event":"snapshot"}
        """

    /// A launch into the background for `cause`: `seq` 0–10, `ts` 0–0.6, ending with
    /// `didEnterBackground` (the event that caused the launch comes next).
    static func systemLaunch(_ cause: String, legacy: Bool = false) -> String {
        """
        {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"\(cause)"}
        \(legacy ? legacyConfig : config)
        \(legacy ? legacyLaunchSequence : launchSequence)
        {"ts":0.5,"seq":9,"event":"didEnterBackground","phase":"begin"}
        {"ts":0.6,"seq":10,"event":"didEnterBackground","phase":"end"}
        """
    }

    /// ``systemLaunch(_:legacy:)`` for a BGTask, whose launch handler runs task 1 of `identifier`
    /// at `ts` 1 (`seq` 0–11).
    static func bgtaskLaunched(_ identifier: String) -> String {
        """
        \(systemLaunch("bgtask"))
        {"ts":1,"seq":11,"event":"bgtask.launch","identifier":"\(identifier)","task":1}
        """
    }

    /// A legacy app's ``systemLaunch(_:legacy:)`` for a background fetch, delivered at `ts` 1 as
    /// call 1 (`seq` 0–11).
    static let fetchDelivered = """
        \(systemLaunch("fetch", legacy: true))
        {"ts":1,"seq":11,"event":"fetch.perform","call":1}
        """

    /// ``fetchDelivered``, completed at `ts` 5, then snapshot and suspend (`seq` 0–14).
    static let fetchCompleted = """
        \(fetchDelivered)
        {"ts":5,"seq":12,"event":"fetch.complete","call":1,"result":"newData"}
        {"ts":5.1,"seq":13,"event":"snapshot"}
        {"ts":5.5,"seq":14,"event":"suspend"}
        """

    /// ``systemLaunch(_:legacy:)`` for a background push (priority 5, push type background),
    /// delivered at `ts` 1 as call 1 (`seq` 0–11).
    static let pushDelivered = """
        \(systemLaunch("push"))
        {"ts":1,"seq":11,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
        """

    /// ``pushDelivered``, completed at `ts` 4, then snapshot and suspend (`seq` 0–14).
    static let pushCompleted = """
        \(pushDelivered)
        {"ts":4,"seq":12,"event":"push.complete","call":1,"result":"newData"}
        {"ts":4.1,"seq":13,"event":"snapshot"}
        {"ts":4.5,"seq":14,"event":"suspend"}
        """

    /// ``systemLaunch(_:legacy:)`` for URL session events of `com.example.download`: handed to the
    /// app at `ts` 1 as call 1, all delivered at 3 (`seq` 0–12).
    static let urlSessionEventsDelivered = """
        \(systemLaunch("urlsession"))
        {"ts":1,"seq":11,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
        {"ts":3,"seq":12,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
        """

    /// ``urlSessionEventsDelivered``, its completion handler called at `ts` 3.05, then snapshot and
    /// suspend (`seq` 0–15).
    static let urlSessionEventsCompleted = """
        \(urlSessionEventsDelivered)
        {"ts":3.05,"seq":13,"event":"urlsession.complete","call":1}
        {"ts":3.2,"seq":14,"event":"snapshot"}
        {"ts":3.5,"seq":15,"event":"suspend"}
        """

    /// ``systemLaunch(_:legacy:)`` for URL session events of `com.example.download` (call 1, at `ts`
    /// 1), among them the start of task 7, created earlier with an earliest begin date: the system
    /// hands its delayed request to the app at 1.1 as call 2 (`seq` 0–12).
    static let delayedRequestDelivered = """
        \(systemLaunch("urlsession"))
        {"ts":1,"seq":11,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
        {"ts":1.1,"seq":12,"event":"urlsession.willBeginDelayedRequest","identifier":"com.example.download","task":7,"call":2}
        """

    /// ``delayedRequestDelivered``, answered at `ts` 1.3 (continue loading); the task finishes at 2.5,
    /// the session's events end at 3 and their handler is called, then snapshot and suspend
    /// (`seq` 0–18).
    static let delayedRequestCompleted = """
        \(delayedRequestDelivered)
        {"ts":1.3,"seq":13,"event":"urlsession.delayedRequest.complete","call":2,"disposition":"continueLoading"}
        {"ts":2.5,"seq":14,"event":"urlsession.task.complete","identifier":"com.example.download","task":7}
        {"ts":3,"seq":15,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
        {"ts":3.05,"seq":16,"event":"urlsession.complete","call":1}
        {"ts":3.2,"seq":17,"event":"snapshot"}
        {"ts":3.5,"seq":18,"event":"suspend"}
        """

    private static let config = """
        {"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["com.example.refresh","com.example.digest","com.example.cleanup"],"background_modes":["fetch","processing","remote-notification"]}
        """

    private static let launchSequence = """
        {"ts":0.1,"seq":2,"event":"willFinishLaunching","phase":"begin"}
        {"ts":0.2,"seq":3,"event":"willFinishLaunching","phase":"end"}
        {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.31,"seq":5,"event":"bgtask.register","identifier":"com.example.refresh"}
        {"ts":0.32,"seq":6,"event":"bgtask.register","identifier":"com.example.cleanup"}
        {"ts":0.33,"seq":7,"event":"urlsession.create","identifier":"com.example.download"}
        {"ts":0.4,"seq":8,"event":"didFinishLaunching","phase":"end"}
        """

    private static let legacyConfig = """
        {"ts":0.01,"seq":1,"event":"config","background_modes":["fetch","remote-notification"]}
        """

    private static let legacyLaunchSequence = """
        {"ts":0.1,"seq":2,"event":"willFinishLaunching","phase":"begin"}
        {"ts":0.2,"seq":3,"event":"willFinishLaunching","phase":"end"}
        {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"begin"}
        {"ts":0.31,"seq":5,"event":"fetch.setMinimumInterval","interval":3600}
        {"ts":0.32,"seq":6,"event":"refreshStatus","status":"available"}
        {"ts":0.33,"seq":7,"event":"urlsession.create","identifier":"com.example.download"}
        {"ts":0.4,"seq":8,"event":"didFinishLaunching","phase":"end"}
        """
}
