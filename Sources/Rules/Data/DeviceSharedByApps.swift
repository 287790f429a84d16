import Replay
import TraceModel

extension Rule {
    static let deviceSharedByApps = Rule(
        id: "device-shared-by-apps",
        category: .data, severity: .warning,
        summary: "One device id logs launches of two apps: identifierForVendor is shared by a vendor's apps, "
            + "so the log of each app needs a device id of its own.",
        source: """
            Apple, 'identifierForVendor' (https://developer.apple.com/documentation/uikit/uidevice/identifierforvendor): \
            "The value of this property is the same for apps that come from the same vendor running on the same \
            device."
            """,
        notes: """
            A `device` is one app's installation: Lifeline replays its launches as one app's, one process \
            at a time, with one set of task requests and one push budget. Two apps logging under one id \
            (typically `identifierForVendor`, which a vendor's apps share) look like one app whose every \
            launch of the other cuts the running one short, and whose pushes add up: the device's other \
            findings may be wrong. Evidence is an app launch (not an extension's: an extension may log its \
            own bundle id) whose first line names another `app` than the device's first app launch did. One \
            finding per device, at the first launch of the second app. Give each app's log its own device \
            id, for instance the vendor id and the bundle id together.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user","app":"com.example.news"}
                {"ts":1,"seq":1,"event":"didBecomeActive"}
                {"launch":"X1","ts":2,"seq":0,"event":"nse.receive","call":1,"process":"extension:nse","app":"com.example.news.nse"}
                {"launch":"X1","ts":3,"seq":1,"event":"nse.contentHandler","call":1,"process":"extension:nse","app":"com.example.news.nse"}
                {"launch":"L2","ts":600,"seq":0,"event":"launch","reason":"user","app":"com.example.news"}
                {"launch":"L2","ts":601,"seq":1,"event":"didBecomeActive"}
                """),
        ],
        failing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user","app":"com.example.news"}
                {"ts":1,"seq":1,"event":"didBecomeActive"}
                ↓{"launch":"W1","ts":60,"seq":0,"event":"launch","reason":"user","app":"com.example.weather"}
                {"launch":"W1","ts":61,"seq":1,"event":"didBecomeActive"}
                {"launch":"L2","ts":600,"seq":0,"event":"launch","reason":"user","app":"com.example.news"}
                {"launch":"W2","ts":900,"seq":0,"event":"launch","reason":"user","app":"com.example.weather"}
                """),
        ])
}

/// Reports a device id whose app launches name two apps, once, at the second app's first launch
/// (heard when that launch ends: a device-scoped check sees each launch as it ends).
final class DeviceSharedByAppsCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device, interests: [], rules: [.deviceSharedByApps]
    ) { _ in DeviceSharedByAppsCheck() }

    /// The first app launch that named its app.
    private var first: (app: String, launch: String, event: ReplayEvent)?
    private var reported = false

    override func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        let launch = context.launch
        guard !reported, !launch.isExtension, let app = launch.app else { return }
        guard let first else {
            self.first = (app, launch.launch, launch.firstEvent)
            return
        }
        guard app != first.app else { return }
        reported = true
        // An extension's bundle id extends its app's: one logged without `process` looks like an app.
        let (outer, inner) = app.count < first.app.count ? (app, first.app) : (first.app, app)
        let extensionHint = inner.hasPrefix(outer + ".")
            ? " If \(inner) is an extension of \(outer), log `process` as extension:NAME on its launch's first line instead."
            : ""
        context.report(
            .deviceSharedByApps, at: launch.firstEvent, events: [first.event, launch.firstEvent],
            message: "Device \(context.device.device) logs launches of two apps: \(first.app) (launch \(first.launch)) "
                + "and \(app) (this launch). A device id is one app's installation, so this device's other findings "
                + "may be wrong: each app's launch seems to cut the other's short. Log a device id per app "
                + "(identifierForVendor is shared by a vendor's apps: add the bundle id to it)." + extensionHint)
    }
}
