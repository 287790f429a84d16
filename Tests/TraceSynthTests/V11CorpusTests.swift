import Foundation
import Testing
import TraceDecode
import TraceSynth

/// A clean corpus with every v1.1 part: it decodes, uses only the spec's events, and its scenes,
/// resources and URL session tasks follow rules.md.
@Suite struct V11CorpusTests {
    static let spec = V11.spec(devices: 16, days: 3, seed: 21, breachRate: 0)
    static let generator = TraceGenerator(spec: spec)

    @Test func everyLineDecodesWithNoReject() {
        var decoder = EventDecoder()
        var lines = 0
        for device in 0..<Self.spec.devices {
            for day in 0..<Self.spec.days {
                for line in Self.generator.lines(device: device, day: day) {
                    lines += 1
                    var text = line
                    let result = text.withUTF8 { decoder.decode(UnsafeRawBufferPointer($0)) }
                    guard case .event = result else {
                        Issue.record("not an event: \(result) \(line)")
                        return
                    }
                }
            }
        }
        #expect(lines > 10_000)
    }

    @Test func everyEventNameIsTheSpecsAndEveryV11PartShows() {
        var names: Set<String> = []
        for device in 0..<Self.spec.devices { names.formUnion(V11.events(Self.generator, device: device).map(\.name)) }
        #expect(names.isSubset(of: V11.specEventNames), "\(names.subtracting(V11.specEventNames))")
        let v11: Set = [
            "scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive", "scene.willResignActive",
            "scene.didEnterBackground", "scene.didDisconnect", "resource.acquire", "resource.release",
            "urlsession.task.create", "urlsession.willBeginDelayedRequest", "urlsession.delayedRequest.complete",
            "urlsession.task.complete", "power", "refreshStatus", "network",
        ]
        #expect(v11.isSubset(of: names), "never written: \(v11.subtracting(names))")
    }

    @Test func injectsNothing() {
        for device in 0..<Self.spec.devices {
            for day in 0..<Self.spec.days { #expect(Self.generator.injectedBreaches(device: device, day: day).isEmpty) }
        }
    }

    @Test(arguments: 0..<16)
    func scenesMoveLegallyAndTheAppFollowsThem(device: Int) {
        var checker = SceneChecker()
        for event in V11.events(Self.generator, device: device) { checker.check(event) }
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
    }

    /// No request of a clean device waits long enough for `bgtask-never-ran` or `fetch-never-ran`.
    @Test(arguments: 0..<16)
    func noRequestWaitsMoreThanADay(device: Int) {
        #expect(V11.neverRanWaits(V11.events(Self.generator, device: device)).isEmpty)
    }

    /// Scene-based and app-delegate devices, two windows, scenes connected in the background.
    @Test func theScenesTakeEveryShape() {
        var sceneDevices = 0
        var twoWindows = 0
        var connectedInBackground = 0
        for device in 0..<Self.spec.devices {
            let events = V11.events(Self.generator, device: device)
            if events.contains(where: { $0.name.hasPrefix("scene.") }) { sceneDevices += 1 }
            var foreground: [String: Set<String>] = [:]
            for (index, event) in events.enumerated() {
                if event.name == "scene.didBecomeActive" {
                    foreground[event.launch, default: []].insert(event.scene!)
                    if foreground[event.launch]!.count == 2 { twoWindows += 1 }
                } else if event.name == "scene.didDisconnect" || event.name == "scene.willResignActive" {
                    foreground[event.launch]?.remove(event.scene!)
                }
                if event.name == "scene.willConnect", index + 1 < events.count, events[index + 1].name == "scene.didEnterBackground" {
                    connectedInBackground += 1
                }
            }
        }
        #expect(sceneDevices > 4 && sceneDevices < Self.spec.devices)
        #expect(twoWindows > 0)
        #expect(connectedInBackground > 0)
    }

    /// Resources are released before suspension, delayed requests completed once, tasks with an
    /// earliest begin date state their byte counts, background tasks are discretionary, nothing
    /// is simulated and no debugger is attached.
    @Test(arguments: 0..<16)
    func resourcesAndURLSessionTasksAreClean(device: Int) {
        var held: [String: Set<String>] = [:]
        var delayed: [String: Set<Int>] = [:]
        var inBackground: [String: Bool] = [:]
        for event in V11.events(Self.generator, device: device) {
            let launch = event.launch
            switch event.name {
            case "resource.acquire": held[launch, default: []].insert(event["resource"] as! String)
            case "resource.release": #expect(held[launch]?.remove(event["resource"] as! String) != nil)
            case "suspend":
                #expect(held[launch, default: []].isEmpty, "held at suspend: \(held[launch]!)")
                #expect(delayed[launch, default: []].isEmpty)
            case "terminate": #expect(event["reason"] as? String != "resource")
            case "urlsession.willBeginDelayedRequest": delayed[launch, default: []].insert(event["call"] as! Int)
            case "urlsession.delayedRequest.complete": #expect(delayed[launch]?.remove(event["call"] as! Int) != nil)
            case "urlsession.task.create":
                if event["earliest_begin"] != nil { #expect(event["expected_receive"] != nil) }
                if inBackground[launch] == true { #expect(event["discretionary"] as? Bool == true) }
            case "didEnterBackground", "launch", "resume": inBackground[launch] = event.name != "launch" || event["reason"] as? String == "system"
            case "willEnterForeground": inBackground[launch] = false
            case "bgtask.launch", "bgtask.expire": #expect(event["simulated"] == nil)
            case "config":
                #expect(event["debugger"] as? Bool == false)
                #expect(event["build"] as? String == "release")
            default: break
            }
        }
    }
}
