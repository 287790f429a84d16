import Foundation
import Replay
import Reports
import TraceModel
import TraceStore

extension Analyzer {
    /// One device's events, each with the app's state after it and the findings that became
    /// evident at it: the postmortem view of what a device did and where it went wrong.
    ///
    /// Replays the whole device (findings depend on what came before) and hands entries in
    /// the window to `entry` as they come, so a long history is never held in memory.
    public func timeline(
        store: Store, device: String, options: CheckOptions, entry: (TimelineEntry) throws -> Void
    ) throws -> Int {
        let replayer = DeviceReplayer(device: device, book: book, configuration: options.configuration)
        var shown = 0
        var pending: TimelineEntry?
        // Each launch's first event in replay order, seen even when the window hides it.
        var launchStarts: [String: Timestamp] = [:]
        func flush() throws {
            if let ready = pending { try entry(ready); shown += 1 }
            pending = nil
        }
        try store.forEachEvent(devices: .only([device])) { event in
            try flush()
            let inWindow = options.since.map { event.ts >= $0 } ?? true && options.until.map { event.ts < $0 } ?? true
            var findings: [Finding] = []
            let launch = event.launch
            let launchStart = launchStarts[launch] ?? event.ts
            launchStarts[launch] = launchStart
            replayer.receive(event) { findings.append($0) }
            guard inWindow else { return }
            pending = TimelineEntry(
                event: event, state: replayer.state(ofLaunch: launch)?.rawValue ?? "unknown",
                findings: findings.filter(options.reports), launchStart: launchStart)
        } deviceEnded: { _ in
            var closing: [Finding] = []
            replayer.finish { closing.append($0) }
            // Findings of the log's end land on the last event shown.
            pending?.findings += closing.filter(options.reports)
            try flush()
        }
        return shown
    }
}
