import Rules
import Testing
import TraceSynth

@Suite struct InjectedBreachTests {
    /// The rule ids a breach may name: the catalogue's (which a RulesTests test holds to
    /// exactly the ids of `rules.md`).
    static let ruleIDs = Set(RuleCatalog.rules.map(\.id))
    /// The ids of the rules rules.md adds in v1.1, which the catalogue may not hold yet.
    static let v1_1RuleIDs: Set = [
        "scene-illegal-transition", "shared-resource-held-at-suspension", "listener-open-at-suspension",
        "urlsession-delayed-request-completion-missing", "urlsession-delayed-request-completion-multiple",
        "urlsession-byte-counts-missing", "urlsession-background-enqueue-discretionary", "bgtask-never-ran",
        "fetch-never-ran", "simulated-launch",
    ]
    static let v1Kinds = Set(BreachKind.allCases.filter { !$0.isV1_1 })

    @Test func everyKindNamesARuleOfTheCatalogue() {
        for kind in BreachKind.allCases {
            #expect((kind.isV1_1 ? Self.v1_1RuleIDs : Self.ruleIDs).contains(kind.rule), "\(kind)")
            #expect(kind.companions.allSatisfy(Self.ruleIDs.contains), "\(kind)")
        }
        #expect(Set(BreachKind.allCases.filter(\.isV1_1).map(\.rule)) == Self.v1_1RuleIDs)
    }

    @Test func breachesAreListedWithTheirLaunchAndTime() throws {
        let spec = CorpusSpec(devices: 6, days: 3, seed: 8, breachRate: 0.3)
        let generator = TraceGenerator(spec: spec)
        var count = 0
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                let lines = generator.lines(device: device, day: day)
                let breaches = generator.injectedBreaches(device: device, day: day)
                count += breaches.count
                for breach in breaches {
                    #expect(breach.device == generator.deviceID(device))
                    #expect(lines.contains { $0.contains("\"launch\":\"\(breach.launch)\"") })
                    let dayStart = (spec.startDay + Int64(day)) * 86_400_000_000
                    #expect(breach.ts.microseconds >= dayStart && breach.ts.microseconds < dayStart + 86_400_000_000)
                }
                #expect(breaches == generator.injectedBreaches(device: device, day: day))
            }
        }
        #expect(count > 10)
    }

    /// Every v1 kind; a v1 corpus holds no v1.1 kind (``V11BreachTests`` covers those).
    @Test func everyKindTurnsUpInALargerCorpus() {
        let spec = CorpusSpec(devices: 40, days: 4, seed: 3, breachRate: 0.3)
        let generator = TraceGenerator(spec: spec)
        var seen: Set<BreachKind> = []
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                seen.formUnion(generator.injectedBreaches(device: device, day: day).map(\.kind))
            }
        }
        #expect(seen == Self.v1Kinds, "missing: \(Self.v1Kinds.subtracting(seen))")
    }

    @Test func aRefreshOverrunRunsPastThirtySeconds() throws {
        let spec = CorpusSpec(devices: 30, days: 2, seed: 4, breachRate: 0.3)
        let generator = TraceGenerator(spec: spec)
        var checked = 0
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                for breach in generator.injectedBreaches(device: device, day: day) where breach.kind == .refreshOverrun {
                    let events = generator.lines(device: device, day: day).compactMap(object)
                        .filter { $0["launch"] as? String == breach.launch }
                    let launched = try #require(events.last { $0["event"] as? String == "bgtask.launch" && epochSeconds($0["ts"] as! String)! <= breach.ts.seconds + 0.001 })
                    let completed = try #require(events.first { $0["event"] as? String == "bgtask.complete" && $0["task"] as? Int == launched["task"] as? Int })
                    let duration = (completed["mono"] as! Double) - (launched["mono"] as! Double)
                    #expect(duration > 30 && duration < 60)
                    checked += 1
                }
            }
        }
        #expect(checked > 0)
    }
}
