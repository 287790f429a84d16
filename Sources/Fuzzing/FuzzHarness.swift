import Replay
import Reports
import Rules
import TraceDecode
import TraceModel

/// Runs fuzz inputs through everything input reaches — the decoder, the replay with the full
/// rule catalogue, every report renderer — and checks what must hold for any input. A trap in
/// any of them ends the process, which is the failure the harness exists to find.
public struct FuzzHarness {
    /// How the lines of the inputs run so far came out, and the invariants broken.
    public struct Tally: Sendable {
        public var inputs = 0
        public var lines = 0
        public var events = 0
        public var blanks = 0
        public var rejects: [RejectReason: Int] = [:]
        public var findings = 0
        /// One line per broken invariant, naming the input's seed.
        public var failures: [String] = []
    }

    public private(set) var tally = Tally()
    private let corpus: FuzzCorpus
    private let ruleIDs: Set<String>
    private var decoder = EventDecoder()
    private var checker = EventDecoder()

    public init(corpus: FuzzCorpus = .standard) {
        self.corpus = corpus
        ruleIDs = Set(RuleCatalog.rules.map(\.id))
    }

    /// Runs the inputs of seeds `base`, `base + 1`, … (`count` of them).
    public mutating func run(base: UInt64, count: Int) {
        for offset in 0 ..< UInt64(max(0, count)) { run(FuzzInput(seed: base &+ offset, corpus: corpus)) }
    }

    /// Runs one input: decodes each line, replays the events as one device log, renders.
    public mutating func run(_ input: FuzzInput) {
        tally.inputs += 1
        var events: [Event] = []
        for line in input.lines {
            tally.lines += 1
            var bytes = line
            let result = bytes.withUnsafeMutableBytes { decoder.decode(UnsafeRawBufferPointer($0)) }
            switch result {
            case .blank: tally.blanks += 1
            case .reject(let issue):
                tally.rejects[issue.reason, default: 0] += 1
                if issue.message.isEmpty { fail(input, "a reject (\(issue.reason)) without a message") }
            case .event(let event):
                tally.events += 1
                checkRoundTrip(event, input)
                events.append(event)
            }
        }
        // Replayed as `check --stdin` does: put back in `seq` order within a window (a small one,
        // so that short inputs reach its releases), then replayed.
        var ordered: [Event] = []
        var orderer = SequenceOrderer(window: 4)
        for event in events { orderer.push(event) { ordered.append($0) } }
        orderer.flush { ordered.append($0) }
        let findings = Replayer.findings(in: ordered, book: RuleCatalog.standard)
        tally.findings += findings.count
        check(findings, events: events, input)
        render(findings, events: events, input)
    }

    /// The decoder yields an event whose fields round-trip: written back as a line, it decodes
    /// to the same event.
    private mutating func checkRoundTrip(_ event: Event, _ input: FuzzInput) {
        var bytes = Array(EventLine.json(event).utf8)
        let again = bytes.withUnsafeMutableBytes { checker.decode(UnsafeRawBufferPointer($0)) }
        guard case .event(let decoded) = again else {
            return fail(input, "an event written back does not decode: \(again)")
        }
        let same = decoded.mono.map { $0.bitPattern } == event.mono.map { $0.bitPattern }
        var comparable = decoded
        comparable.mono = event.mono
        if !same || comparable != event { fail(input, "an event does not round-trip: \(event) became \(decoded)") }
    }

    /// Every finding names a rule of the catalogue, a launch of the input, a message, finite
    /// numbers, and events of the input; its factors have shares from 0 to 1, most first, and
    /// evidence from the input.
    private mutating func check(_ findings: [Finding], events: [Event], _ input: FuzzInput) {
        let launches = Set(events.map(\.launch))
        let inputRefs = Set(events.map(EventRef.init))
        for finding in findings {
            if !ruleIDs.contains(finding.rule) { fail(input, "a finding of an unknown rule \(finding.rule)") }
            if finding.message.isEmpty { fail(input, "\(finding.rule) with an empty message") }
            if !launches.contains(finding.launch) { fail(input, "\(finding.rule) names launch \(finding.launch), not in the input") }
            if finding.measured.map({ !$0.isFinite }) == true || finding.budgetSeconds.map({ !$0.isFinite }) == true {
                fail(input, "\(finding.rule) carries a number that is not finite")
            }
            if finding.events.isEmpty { fail(input, "\(finding.rule) rests on no event") }
            if !finding.events.allSatisfy(inputRefs.contains) { fail(input, "\(finding.rule) names an event not in the input") }
            for factor in finding.factors {
                if !(0...1).contains(factor.share) { fail(input, "\(finding.rule) has a \(factor.kind.rawValue) share of \(factor.share)") }
                if !factor.evidence.allSatisfy(inputRefs.contains) {
                    fail(input, "\(finding.rule) gives \(factor.kind.rawValue) evidence not in the input")
                }
            }
            if zip(finding.factors, finding.factors.dropFirst()).contains(where: { $0.share < $1.share }) {
                fail(input, "\(finding.rule) lists its factors out of order")
            }
        }
    }

    /// Renders the findings with every renderer: text and JSON reports, JSON lines, and the
    /// timeline (text and JSON lines) of the events with the findings that landed on them.
    private mutating func render(_ findings: [Finding], events: [Event], _ input: FuzzInput) {
        let report = CheckReport(source: "fuzz", devices: 1, events: events.count, seconds: 0, findings: findings)
        if TextReport.render(report).isEmpty { fail(input, "an empty text report") }
        do {
            _ = try JSONReport.render(report)
            for finding in findings { _ = JSONReport.line(finding) }
            var timeline = TimelineText()
            var launchStarts: [String: Timestamp] = [:]
            for event in events {
                let landed = findings.filter { $0.launch == event.launch && $0.ts == event.ts }
                // Offsets from the launch's first event, so that extreme clocks reach the formatter.
                let launchStart = launchStarts[event.launch, default: event.ts]
                launchStarts[event.launch] = launchStart
                let entry = TimelineEntry(event: event, state: "background", findings: landed, launchStart: launchStart)
                if timeline.render(entry).isEmpty { fail(input, "an empty timeline line") }
                _ = try JSONReport.line(entry)
            }
        } catch {
            fail(input, "a report could not be rendered: \(error)")
        }
    }

    private mutating func fail(_ input: FuzzInput, _ what: String) {
        tally.failures.append("seed \(input.seed): \(String(what.prefix(300)))")
    }
}
