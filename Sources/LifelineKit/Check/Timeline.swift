import Foundation
import Replay
import Reports
import TraceModel
import TraceStore

extension Analyzer {
    /// What a timeline showed, and of what.
    public struct TimelineCount: Sendable {
        /// Events shown.
        public var shown = 0
        /// Events of the device replayed (shown or not).
        public var events = 0
        /// With `options.apps` set: the device's launches of the app or version.
        public var appLaunches = 0
    }

    /// One device's events, each with the app's state after it and the findings that became
    /// evident at it: the postmortem view of what a device did and where it went wrong.
    ///
    /// Replays the whole device (findings depend on what came before) and hands entries in
    /// the window to `entry` as they come, so a long history is never held in memory.
    ///
    /// With `options.apps` set, only the events of the app's (or version's) launches are shown,
    /// and only their findings; one of their findings that became evident at an event not shown
    /// (a launch of another version that showed the earlier one was reclaimed) lands on the last
    /// event shown, as the findings of the log's end do.
    @discardableResult
    public func timeline(
        store: Store, device: String, options: CheckOptions, entry: (TimelineEntry) throws -> Void
    ) throws -> TimelineCount {
        let replayer = DeviceReplayer(device: device, book: book, configuration: options.configuration)
        var count = TimelineCount()
        var pending: TimelineEntry?
        var launchApps = options.apps.isSet ? LaunchApps(options.apps) : nil
        func reported(_ findings: [Finding]) -> [Finding] {
            findings.filter { options.reports($0) && launchApps?.takes($0) ?? true }
        }
        // Each launch's first event in replay order, seen even when the window hides it.
        var launchStarts: [String: Timestamp] = [:]
        func flush() throws {
            if let ready = pending { try entry(ready); count.shown += 1 }
            pending = nil
        }
        count.events = try store.forEachEvent(devices: .only([device])) { event in
            let inWindow = options.since.map { event.ts >= $0 } ?? true && options.until.map { event.ts < $0 } ?? true
            var findings: [Finding] = []
            let launch = event.launch
            let launchStart = launchStarts[launch] ?? event.ts
            launchStarts[launch] = launchStart
            launchApps?.see(event)
            replayer.receive(event) { findings.append($0) }
            if let launchApps, !launchApps.takes(device: event.device, launch: launch) {
                if inWindow { pending?.findings += reported(findings) }
                return
            }
            try flush()
            guard inWindow else { return }
            pending = TimelineEntry(
                event: event, state: replayer.state(ofLaunch: launch)?.rawValue ?? "unknown",
                findings: reported(findings), launchStart: launchStart)
        } deviceEnded: { _ in
            var closing: [Finding] = []
            replayer.finish { closing.append($0) }
            // Findings of the log's end land on the last event shown.
            pending?.findings += reported(closing)
            try flush()
        }
        count.appLaunches = launchApps?.selected ?? 0
        return count
    }
}
