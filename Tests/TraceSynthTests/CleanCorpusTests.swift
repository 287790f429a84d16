import Foundation
import Testing
import TraceSynth

/// The clean corpus must break none of the rules: these checks replay the rules that a
/// generator gets wrong most easily (budgets, completions, registration, suspension, push rate).
@Suite struct CleanCorpusTests {
    static let spec = CorpusSpec(devices: 12, days: 4, seed: 5, breachRate: 0)

    /// The events of one device over the whole corpus, as parsed objects.
    static func events(device: Int) -> [[String: Any]] {
        let generator = TraceGenerator(spec: spec)
        return (0..<spec.days).flatMap { generator.lines(device: device, day: $0).compactMap(object) }
    }

    @Test func injectsNothing() {
        let generator = TraceGenerator(spec: Self.spec)
        for device in 0..<Self.spec.devices {
            for day in 0..<Self.spec.days { #expect(generator.injectedBreaches(device: device, day: day).isEmpty) }
        }
    }

    @Test(arguments: 0..<12)
    func everyObligationIsMetWithinItsBudget(device: Int) throws {
        var open: [String: Double] = [:]
        var registering: Set<String> = []
        var suspended: Set<String> = []
        for event in Self.events(device: device) {
            let name = try #require(event["event"] as? String)
            let launch = try #require(event["launch"] as? String)
            let mono = try #require(event["mono"] as? Double)
            let key = { (field: String) in "\(launch)/\(event[field].map { "\($0)" } ?? "")" }
            if suspended.contains(launch) {
                #expect(name == "resume" || name == "terminate", "\(name) while suspended")
                suspended.remove(launch)
            }
            #expect(!name.hasPrefix("fetch."))
            switch name {
            case "didFinishLaunching":
                if event["phase"] as? String == "begin" { registering.insert(launch) } else { registering.remove(launch) }
            case "bgtask.register":
                #expect(registering.contains(launch), "register outside didFinishLaunching")
            case "didEnterBackground":
                if event["phase"] as? String == "begin" {
                    open["deb/" + launch] = mono
                } else {
                    #expect(mono - (open.removeValue(forKey: "deb/" + launch) ?? .infinity) <= 5)
                }
            case "bgtask.launch":
                let budget = (event["identifier"] as? String)?.hasSuffix("refresh") == true ? 30.0 : 600.0
                open["task/" + key("task")] = mono + budget
            case "bgtask.complete":
                #expect(mono <= (open.removeValue(forKey: "task/" + key("task")) ?? -1))
            case "push.receive", "nse.receive":
                #expect(event["priority"] as? Int ?? 5 == 5)
                open["call/" + key("call")] = mono + 30
            case "push.complete", "nse.contentHandler":
                #expect(mono <= (open.removeValue(forKey: "call/" + key("call")) ?? -1))
            case "urlsession.handleEvents":
                open["url/" + key("call")] = .infinity
            case "urlsession.complete":
                #expect(open.removeValue(forKey: "url/" + key("call")) != nil)
            case "beginBackgroundTask":
                #expect(open["deb/" + launch] == nil, "begun inside didEnterBackground")
                open["bg/" + key("task")] = .infinity
            case "endBackgroundTask":
                #expect(open.removeValue(forKey: "bg/" + key("task")) != nil)
            case "suspend":
                #expect(!open.keys.contains { $0.contains(launch) }, "open work at suspend: \(open)")
                suspended.insert(launch)
            case "terminate":
                #expect(["quiet", "user"].contains(event["reason"] as? String ?? ""))
                #expect(!open.keys.contains { $0.contains(launch) }, "open work at terminate: \(open)")
            default:
                break
            }
        }
        #expect(open.isEmpty, "never closed: \(open)")
    }

    @Test(arguments: 0..<12)
    func noHourHoldsMoreThanThreeBackgroundPushes(device: Int) {
        let pushes = Self.events(device: device)
            .filter { $0["event"] as? String == "push.receive" && $0["content_available"] as? Bool == true }
            .compactMap { ($0["ts"] as? String).flatMap(epochSeconds) }
        #expect(!pushes.isEmpty)
        for (index, time) in pushes.enumerated() where index >= 3 {
            #expect(time - pushes[index - 3] > 3_600)
        }
    }
}
