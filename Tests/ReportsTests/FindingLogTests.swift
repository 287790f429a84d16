import Foundation
import Reports
import Testing
import TraceModel

/// A replay's findings beyond the log's memory limit go to a temporary file: they must come
/// back whole, in order, and the reports made from them must be the same as from memory.
@Suite struct FindingLogTests {
    static func findings(_ count: Int) -> [Finding] {
        (0 ..< count).map { index in
            let ts = Timestamp(microseconds: 1_763_712_000_000_000 + Int64(index) * 1_000_000)
            let events = (0 ..< index % 4).map { EventRef(rowID: index % 2 == 0 ? Int64(index) : nil, seq: Int64(index), name: "e\u{0}\($0)", ts: ts) }
            return Finding(
                rule: ["illegal-transition", "bgtask-refresh-overrun", "termination-explained"][index % 3],
                category: [.violation, .overrun, .advisory][index % 3], severity: [.error, .warning, .info][index % 3],
                device: "D\(index % 7)", launch: "L\(index % 11) ünïcode \u{0} nul", ts: ts, events: events,
                budget: index % 3 == 1 ? "refresh-task" : nil, budgetSeconds: index % 3 == 1 ? 30 : nil,
                measured: index % 3 == 1 ? Double(index) + 0.25 : nil, unit: index % 5 == 0 ? "requests" : nil,
                message: "finding \(index) — \"quoted\"\n",
                explainedBy: index % 3 == 2 ? FindingRef(rule: "bgtask-refresh-overrun", ts: ts) : nil,
                factors: index % 4 == 3 ? factors(index, events: events) : [])
        }
    }

    /// Factors of every kind in turn, with shares that are no round binary fraction and evidence
    /// (sometimes none) that names NULs.
    static func factors(_ index: Int, events: [EventRef]) -> [Finding.Factor] {
        let kinds = Finding.FactorKind.allCases
        return (0 ..< 1 + index % 3).map { offset in
            Finding.Factor(
                kind: kinds[(index + offset) % kinds.count], share: 1 / Double(offset + 3),
                evidence: Array(events.prefix(offset)))
        }
    }

    static func contents(of log: FindingLog) throws -> [Finding] {
        var read: [Finding] = []
        try log.forEach { read.append($0) }
        return read
    }

    @Test func findingsBeyondTheMemoryLimitComeBackWholeAndInOrder() throws {
        let findings = Self.findings(1_000)
        let log = FindingLog(memoryLimit: 64)
        for finding in findings { try log.append(finding) }
        #expect(log.count == 1_000)
        #expect(try Self.contents(of: log) == findings)
        // Read again, then added to: the file is read from its start and written at its end.
        #expect(try Self.contents(of: log) == findings)
        let more = Self.findings(70)
        for finding in more { try log.append(finding) }
        #expect(try Self.contents(of: log) == findings + more)
    }

    /// A check saves its findings while it prints them: two threads read one spilled log at
    /// once, each from its own offsets, and each gets every finding in order.
    @Test func threadsReadingASpilledLogAtOnceEachGetEveryFinding() throws {
        let findings = Self.findings(3_000)
        let log = FindingLog(memoryLimit: 50)
        for finding in findings { try log.append(finding) }
        let readers = 4
        let lock = NSLock()
        nonisolated(unsafe) var read = Array(repeating: [Finding](), count: readers)
        DispatchQueue.concurrentPerform(iterations: readers) { reader in
            var mine: [Finding] = []
            // A throw leaves `mine` short, which the expectation below reports.
            try? log.forEach { mine.append($0) }
            lock.withLock { read[reader] = mine }
        }
        for reader in 0 ..< readers { #expect(read[reader] == findings) }
    }

    @Test func reportsFromASpilledLogAreTheSameAsFromMemory() throws {
        let findings = Self.findings(300)
        let spilled = FindingLog(memoryLimit: 16)
        for finding in findings { try spilled.append(finding) }
        let inMemory = CheckReport(source: "s.db", devices: 7, events: 9_000, seconds: 1.5, findings: findings)
        let fromFile = CheckReport(source: "s.db", devices: 7, events: 9_000, seconds: 1.5, findings: spilled)
        #expect(TextReport.render(fromFile) == TextReport.render(inMemory))
        #expect(try JSONReport.render(fromFile) == JSONReport.render(inMemory))
        #expect(fromFile.summaries == inMemory.summaries)
        #expect(fromFile.worstSeverity == .error)
    }

    @Test func factorsComeBackFromTheSpillFileAndShowInJSON() throws {
        let findings = Self.findings(200)
        #expect(findings.contains { $0.factors.count == 3 })
        let log = FindingLog(memoryLimit: 8)
        for finding in findings { try log.append(finding) }
        let read = try Self.contents(of: log)
        #expect(read.map(\.factors) == findings.map(\.factors))

        let withFactors = try #require(findings.first { $0.factors.count == 3 })
        let line = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.line(withFactors).utf8)) as? [String: Any])
        let factors = try #require(line["factors"] as? [[String: Any]])
        #expect(factors.map { $0["kind"] as? String } == withFactors.factors.map(\.kind.rawValue))
        #expect(factors.map { $0["share"] as? Double } == [0.333, 0.25, 0.2])
        let evidence = try #require(factors.last?["evidence"] as? [[String: Any]])
        #expect(evidence.map { $0["event"] as? String } == withFactors.factors.last?.evidence.map(\.name))
        #expect(evidence.first?["ts"] as? String == withFactors.factors.last?.evidence.first?.ts.description)
        // A finding with no factors has no `factors` member.
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.line(findings[0]).utf8)) as? [String: Any])
        #expect(plain["factors"] == nil)
    }

    /// The JSON document is written in pieces; it must be the text of encoding it whole.
    @Test func theJSONReportWrittenInPiecesIsOneDocumentWithEveryFinding() throws {
        let findings = Self.findings(40)
        let report = CheckReport(source: "s.db", devices: 7, events: 40, seconds: 0.5, findings: findings)
        let text = try JSONReport.render(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let listed = try #require(object["findings"] as? [[String: Any]])
        #expect(listed.map { $0["message"] as? String } == findings.map(\.message))
        #expect(object["summary"] is [[String: Any]])
        let wholly = try JSONEncoder().encode(findings.map(JSONReport.FindingJSON.init))
        let expected = try JSONSerialization.jsonObject(with: wholly) as? NSArray
        #expect((listed as NSArray) == expected)
    }
}
