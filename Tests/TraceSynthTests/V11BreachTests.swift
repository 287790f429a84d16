import Foundation
import Testing
import TraceSynth

/// Each v1.1 breach is written where its record says, as rules.md defines the rule it breaks.
@Suite struct V11BreachTests {
    static let spec = V11.spec(devices: 40, days: 3, seed: 3, breachRate: 0.3)
    static let generator = TraceGenerator(spec: spec)

    /// Every device's events with the breaches recorded for it.
    /// Read-only once built: the tests share it instead of parsing the corpus each.
    nonisolated(unsafe) static let devices: [(events: [[String: Any]], breaches: [InjectedBreach])] =
        (0..<spec.devices).map { device in
            (V11.events(generator, device: device), (0..<spec.days).flatMap { generator.injectedBreaches(device: device, day: $0) })
        }

    @Test func everyV11KindTurnsUp() {
        let seen = Set(Self.devices.flatMap { $0.breaches.map(\.kind) })
        let v11 = Set(BreachKind.allCases.filter(\.isV1_1))
        #expect(v11.isSubset(of: seen), "missing: \(v11.subtracting(seen))")
    }

    @Test func aV1CorpusHoldsNoV11Kind() {
        let generator = TraceGenerator(spec: CorpusSpec(devices: 40, days: 3, seed: 3, breachRate: 0.3))
        for device in 0..<40 {
            for day in 0..<3 { #expect(!generator.injectedBreaches(device: device, day: day).contains { $0.kind.isV1_1 }) }
        }
    }

    @Test func eachBreachIsAtTheEventItsRecordNames() throws {
        for (events, breaches) in Self.devices {
            for breach in breaches where breach.kind.isV1_1 {
                let millis = breach.ts.microseconds / 1000
                let index = try #require(
                    events.firstIndex { $0.launch == breach.launch && $0.millis == millis }, "\(breach)")
                let earlier = events[..<index].filter { $0.launch == breach.launch }
                #expect(Self.shows(breach.kind, at: events[index], after: earlier, device: events), "\(breach)")
            }
        }
    }

    /// No collateral: the only scene problems and never-ran waits of the corpus are the injected ones.
    @Test func theOnlySceneProblemsAndLongWaitsAreTheInjectedOnes() {
        for (events, breaches) in Self.devices {
            var checker = SceneChecker()
            for event in events { checker.check(event) }
            #expect(checker.problems.count == breaches.filter { $0.kind == .sceneIllegalTransition }.count, "\(checker.problems)")
            let injected = breaches.filter { $0.kind == .bgtaskNeverRan || $0.kind == .fetchNeverRan }.map { $0.ts.microseconds / 1000 }
            #expect(V11.neverRanWaits(events) == injected)
        }
    }

    /// Whether `event`, with the events of its launch before it, is the breach of `kind`.
    static func shows(_ kind: BreachKind, at event: [String: Any], after earlier: [[String: Any]], device: [[String: Any]]) -> Bool {
        /// How many `open` events of the launch (those `include` takes) no `close` of the same
        /// `key` followed.
        func unmatched(
            _ open: String, _ close: String, key: String, in events: [[String: Any]] = earlier,
            where include: ([String: Any]) -> Bool = { _ in true }
        ) -> Int {
            var balance: [String: Int] = [:]
            for event in events {
                if event.name == open, include(event) { balance["\(event[key]!)", default: 0] += 1 }
                if event.name == close, let value = event[key], balance["\(value)", default: 0] > 0 {
                    balance["\(value)"]! -= 1
                }
            }
            return balance.values.reduce(0, +)
        }
        switch kind {
        case .sceneIllegalTransition:
            return event.name == "scene.didDisconnect" && earlier.last?.name == "scene.didDisconnect"
                && earlier.last?.scene == event.scene
        case .sharedResourceHeld:
            return event.name == "terminate" && event["reason"] as? String == "resource"
                && unmatched("resource.acquire", "resource.release", key: "resource") { $0["kind"] as? String == "database" } == 1
        case .listenerOpenAtSuspension:
            return event.name == "suspend"
                && unmatched("resource.acquire", "resource.release", key: "resource") { ["bonjour", "socket"].contains($0["kind"] as? String) } == 1
                && unmatched("resource.acquire", "resource.release", key: "resource") == 1
        case .urlsessionDelayedRequestCompletionMissing:
            // A call left open at an earlier suspension was that suspension's breach.
            let sinceSuspension = Array(earlier.reversed().prefix { $0.name != "suspend" }.reversed())
            return event.name == "suspend"
                && unmatched(
                    "urlsession.willBeginDelayedRequest", "urlsession.delayedRequest.complete", key: "call",
                    in: sinceSuspension) == 1
        case .urlsessionDelayedRequestCompletionMultiple:
            return event.name == "urlsession.delayedRequest.complete"
                && earlier.contains { $0.name == event.name && $0["call"] as? Int == event["call"] as? Int }
        case .urlsessionByteCountsMissing:
            return event.name == "urlsession.task.create" && event["earliest_begin"] != nil
                && event["expected_send"] == nil && event["expected_receive"] == nil
        case .urlsessionBackgroundEnqueueDiscretionary:
            return event.name == "urlsession.task.create" && event["discretionary"] as? Bool == false
                && earlier.contains { $0.name == "bgtask.launch" }
        case .simulatedLaunch:
            return event.name == "bgtask.launch" && event["simulated"] as? Bool == true
                && earlier.first { $0.name == "config" }?["debugger"] as? Bool == true
        case .bgtaskNeverRan, .fetchNeverRan:
            return neverRan(kind, at: event, device: device)
        default:
            return false
        }
    }

    /// The request (or fetch interval) began waiting more than 24 h before `event`, nothing of the
    /// device came between the budget and `event`, and the wait never ended.
    static func neverRan(_ kind: BreachKind, at event: [String: Any], device: [[String: Any]]) -> Bool {
        let ran = Set(device.filter { $0.name == "bgtask.launch" }.compactMap { $0["identifier"] as? String })
        let start: Int64?
        if kind == .fetchNeverRan {
            guard !device.contains(where: { $0.name == "fetch.perform" }) else { return false }
            start = device.first { $0.name == "fetch.setMinimumInterval" }?.millis
        } else {
            let submit = device.first { $0.name == "bgtask.submit" && !ran.contains($0["identifier"] as! String) }
            start = (submit?["earliest_begin"] as? String).flatMap(epochSeconds).map { Int64($0 * 1000 + 0.5) }
        }
        guard let start else { return false }
        let due = start + 86_400_000
        return event.millis > due && device.first { $0.millis > due }?.millis == event.millis
    }
}
