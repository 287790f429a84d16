import Foundation
import TraceSynth

/// Helpers of the v1.1 tests: corpora with every v1.1 part, and their events by device.
enum V11 {
    static func spec(devices: Int, days: Int, seed: UInt64, breachRate: Double) -> CorpusSpec {
        var spec = CorpusSpec(devices: devices, days: days, seed: seed, breachRate: breachRate)
        spec.features = .v1_1
        return spec
    }

    /// Every event name trace-format.md (v1.1) defines.
    static let specEventNames: Set = [
        "launch", "willFinishLaunching", "restoreState", "didFinishLaunching", "didBecomeActive",
        "willResignActive", "didEnterBackground", "willEnterForeground", "willTerminate", "memoryWarning",
        "snapshot", "suspend", "resume", "terminate", "beginBackgroundTask", "endBackgroundTask",
        "backgroundTaskExpired", "backgroundTimeRemaining", "expiringActivity", "config", "bgtask.register",
        "bgtask.submit", "bgtask.cancel", "bgtask.launch", "bgtask.expire", "bgtask.complete",
        "fetch.setMinimumInterval", "fetch.perform", "fetch.complete", "push.receive", "push.complete",
        "urlsession.create", "urlsession.handleEvents", "urlsession.didFinishEvents", "urlsession.complete",
        "nse.receive", "nse.timeWillExpire", "nse.contentHandler", "location.update", "scene.willConnect",
        "scene.willEnterForeground", "scene.didBecomeActive", "scene.willResignActive",
        "scene.didEnterBackground", "scene.didDisconnect", "resource.acquire", "resource.release",
        "urlsession.task.create", "urlsession.willBeginDelayedRequest", "urlsession.delayedRequest.complete",
        "urlsession.task.complete", "power", "refreshStatus", "network",
    ]

    /// The events of one device over the whole corpus, in order, as parsed objects.
    static func events(_ generator: TraceGenerator, device: Int) -> [[String: Any]] {
        (0..<generator.spec.days).flatMap { generator.lines(device: device, day: $0).compactMap(object) }
    }
}

extension Dictionary where Key == String, Value == Any {
    var name: String { self["event"] as? String ?? "" }
    var launch: String { self["launch"] as? String ?? "" }
    var scene: String? { self["scene"] as? String }
    var phase: String? { self["phase"] as? String }
    /// The event's time in whole milliseconds since the epoch.
    var millis: Int64 { Int64(((self["ts"] as? String).flatMap(epochSeconds) ?? .nan) * 1000 + 0.5) }
}

extension V11 {
    /// An independent reading of rules.md's never-ran rules over one device's events: for each
    /// pending period of a BGTask identifier (from its first accepted submit until a launch or a
    /// cancel) or of an explicit fetch interval (until a `fetch.perform`), the time of the
    /// device's first event once the wait exceeded 24 h.
    static func neverRanWaits(_ events: [[String: Any]]) -> [Int64] {
        var waitingSince: [String: Int64] = [:]
        var found: [Int64] = []
        for event in events {
            for (key, start) in waitingSince where event.millis > start + 86_400_000 {
                found.append(event.millis)
                // One finding per pending period: it waits on, but is not reported again.
                waitingSince[key] = .max / 2
            }
            let identifier = event["identifier"] as? String ?? ""
            switch event.name {
            case "bgtask.submit" where event["error"] == nil && waitingSince[identifier] == nil:
                waitingSince[identifier] =
                    (event["earliest_begin"] as? String).flatMap(epochSeconds).map { Int64($0 * 1000 + 0.5) } ?? event.millis
            case "bgtask.launch": waitingSince[identifier] = nil
            case "bgtask.cancel": if event["identifier"] == nil { waitingSince = [:] } else { waitingSince[identifier] = nil }
            case "fetch.setMinimumInterval":
                let interval = event["interval"] as? Double ?? 0
                if interval > 0, interval < 1e9, waitingSince["fetch"] == nil { waitingSince["fetch"] = event.millis }
            case "fetch.perform": waitingSince["fetch"] = nil
            default: break
            }
        }
        return found
    }
}
