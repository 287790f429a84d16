import Foundation
import Replay
import Rules
import Testing
import TraceDecode
import TraceModel
import TraceSynth

/// The whole rule catalogue against the generator's realistic logs: a clean corpus must yield
/// no finding at all, and in a corpus with injected breaches every breach must be found, in
/// its launch, and nothing else may be reported.
@Suite struct GeneratedCorpusTests {
    static func replay(_ spec: CorpusSpec) throws -> (findings: [Finding], breaches: [InjectedBreach], events: Int) {
        let generator = TraceGenerator(spec: spec)
        var decoder = EventDecoder()
        var events: [Event] = []
        var breaches: [InjectedBreach] = []
        for device in 0..<spec.devices {
            for day in 0..<spec.days {
                breaches += generator.injectedBreaches(device: device, day: day)
                for line in generator.lines(device: device, day: day) {
                    var bytes = Array(line.utf8)
                    let result = bytes.withUnsafeMutableBytes { decoder.decode(UnsafeRawBufferPointer($0)) }
                    guard case .event(let event) = result else {
                        Issue.record("generated line does not decode: \(line)")
                        continue
                    }
                    events.append(event)
                }
            }
        }
        return (Replayer.findings(in: events, book: RuleCatalog.standard), breaches, events.count)
    }

    @Test func aCleanCorpusHasNoFindings() throws {
        let (findings, breaches, events) = try Self.replay(CorpusSpec(devices: 12, days: 3, seed: 99))
        #expect(events > 5_000)
        #expect(breaches.isEmpty)
        #expect(findings.isEmpty, "\(findings.prefix(5).map { "\($0.rule): \($0.message)" })")
    }

    @Test func everyInjectedBreachIsFoundAndNothingElse() throws {
        let (findings, breaches, _) = try Self.replay(CorpusSpec(devices: 12, days: 3, seed: 7, breachRate: 0.2))
        #expect(breaches.count >= 10)
        for breach in breaches {
            let found = findings.contains { $0.device == breach.device && $0.launch == breach.launch && $0.rule == breach.rule }
            #expect(found, "injected \(breach.rule) in launch \(breach.launch) was not found")
        }
        // Every finding is an injected breach's rule or one of the findings it brings along.
        let expected = Set(breaches.flatMap { [$0.rule] + $0.companions })
        let unexpected = findings.filter { !expected.contains($0.rule) }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(5).map { "\($0.rule): \($0.message)" })")
    }

    // MARK: Trace format v1.1

    static func v1_1(devices: Int, days: Int, seed: UInt64, breachRate: Double) -> CorpusSpec {
        var spec = CorpusSpec(devices: devices, days: days, seed: seed, breachRate: breachRate)
        spec.features = .v1_1
        return spec
    }

    /// The v1.1 breaches whose rules the catalogue checks (scenes, shared resources, listeners,
    /// URL session scheduling, never-run requests), each of which the v1.1 test below must find.
    static let checkedV11Kinds: Set<BreachKind> = [
        .sceneIllegalTransition, .sharedResourceHeld, .listenerOpenAtSuspension, .urlsessionDelayedRequestCompletionMissing,
        .urlsessionDelayedRequestCompletionMultiple, .urlsessionByteCountsMissing,
        .urlsessionBackgroundEnqueueDiscretionary, .bgtaskNeverRan, .fetchNeverRan,
    ]

    @Test func aCleanV11CorpusHasNoFindings() throws {
        let (findings, breaches, events) = try Self.replay(Self.v1_1(devices: 12, days: 3, seed: 99, breachRate: 0))
        #expect(events > 5_000)
        #expect(breaches.isEmpty)
        #expect(findings.isEmpty, "\(findings.prefix(5).map { "\($0.rule): \($0.message)" })")
    }

    /// Every injected breach whose rule the catalogue has is found in its launch (for the kinds
    /// above, at the time its record names); nothing is reported but the breaches' rules and companions.
    /// (Breaches of v1.1 rules not in the catalogue yet are left out of the first part.)
    @Test func everyInjectedV11BreachIsFoundAndNothingElse() throws {
        let (findings, breaches, _) = try Self.replay(Self.v1_1(devices: 24, days: 3, seed: 7, breachRate: 0.3))
        let kinds = Set(breaches.map(\.kind))
        #expect(Self.checkedV11Kinds.isSubset(of: kinds), "never injected: \(Self.checkedV11Kinds.subtracting(kinds))")
        let checked = Set(RuleCatalog.rules.map(\.id))
        for breach in breaches where checked.contains(breach.rule) {
            let found = findings.contains {
                $0.device == breach.device && $0.launch == breach.launch && $0.rule == breach.rule
                    && (!Self.checkedV11Kinds.contains(breach.kind) || $0.ts == breach.ts)
            }
            #expect(found, "injected \(breach.rule) in launch \(breach.launch) at \(breach.ts) was not found")
        }
        // A resource kill is explained by the resource held.
        for breach in breaches where breach.kind == .sharedResourceHeld {
            let explained = findings.first { $0.launch == breach.launch && $0.rule == "termination-explained" }
            #expect(explained?.explainedBy?.rule == "shared-resource-held-at-suspension", "\(breach)")
        }
        let expected = Set(breaches.flatMap { [$0.rule] + $0.companions })
        let unexpected = findings.filter { !expected.contains($0.rule) }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(5).map { "\($0.rule): \($0.message)" })")
        // One breach, one finding: no more findings of these rules than breaches of them.
        for kind in Self.checkedV11Kinds {
            let injected = breaches.filter { $0.kind == kind }.count
            #expect(findings.filter { $0.rule == kind.rule }.count == injected, "\(kind.rule)")
        }
    }

    /// Each device whose request never runs is found where the generator says its wait passed
    /// the budget, with the factors it was starved by: those cover all of the wait, and no other
    /// factor does (others the user's habits leave in the log cover part of it). No other
    /// request of the corpus waits that long.
    @Test func everyNeverRunBreachIsFoundWithItsFactorsAndNoOtherWait() throws {
        let (findings, breaches, _) = try Self.replay(Self.v1_1(devices: 80, days: 3, seed: 7, breachRate: 0.25))
        let rules: Set = ["bgtask-never-ran", "fetch-never-ran"]
        let starved = breaches.filter { rules.contains($0.rule) }
        #expect(starved.count >= 10)
        #expect(Set(starved.map(\.rule)) == rules)
        #expect(Set(starved.flatMap(\.factors)) == [.lowPowerMode, .refreshDisabled, .swipedAway, .appUnused, .powerRequired])
        let waits = findings.filter { rules.contains($0.rule) }
        for breach in starved {
            let found = waits.filter { $0.device == breach.device && $0.rule == breach.rule }
            #expect(found.map(\.ts) == [breach.ts], "\(breach.rule) of \(breach.device)")
            #expect(found.map(\.launch) == [breach.launch])
            let whole = Set(found.first?.factors.filter { $0.share == 1 }.map(\.kind) ?? [])
            #expect(whole == Set(breach.factors), "\(breach.device): \(found.first?.message ?? "not found")")
        }
        #expect(waits.count == starved.count, "\(waits.filter { finding in !starved.contains { $0.device == finding.device } }.map(\.message))")
    }
}
