/// The openings the work rules' examples share, so that each example shows only what matters
/// to its rule. Each is a complete, legal start of a launch of the app (device `D`, launch
/// `L1`): its `config` permits `com.example.refresh`, `com.example.digest` (refresh tasks) and
/// `com.example.cleanup` (processing), and `didFinishLaunching` registers `com.example.refresh`
/// and `com.example.cleanup` and recreates the URL session `com.example.download`.
/// With `legacy`, the app uses background fetch instead: no permitted identifiers, no
/// registration, `setMinimumBackgroundFetchInterval` at launch.
enum WorkTraces {
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
