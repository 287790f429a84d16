import Foundation
import Replay
import Rules
import Testing
import TraceModel

/// Runs every example of every rule in the catalog: a passing example must not make the rule
/// report; a failing one must make it report exactly at the lines marked `↓`.
@Suite struct RuleExamplesTests {
    static let rules = RuleCatalog.rules

    @Test(arguments: rules)
    func passingExamplesDoNotTrigger(_ rule: Rule) throws {
        #expect(!rule.passing.isEmpty, "\(rule.id) needs a passing example")
        for example in rule.passing {
            let trace = try ExampleTrace(example)
            let findings = Replayer.findings(in: trace.events, book: RuleCatalog.standard)
                .filter { $0.rule == rule.id }
            #expect(findings.isEmpty, "\(rule.id) fired on a passing example:\n\(example.trace)\n\(findings.map(\.message))")
        }
    }

    @Test(arguments: rules)
    func failingExamplesTriggerWhereMarked(_ rule: Rule) throws {
        #expect(!rule.failing.isEmpty, "\(rule.id) needs a failing example")
        for example in rule.failing {
            let trace = try ExampleTrace(example)
            #expect(!trace.marked.isEmpty, "\(rule.id): a failing example must mark a line with ↓")
            let findings = Replayer.findings(in: trace.events, book: RuleCatalog.standard)
                .filter { $0.rule == rule.id }
            let expected = trace.marked.map { trace.events[$0].ts }.sorted()
            #expect(findings.map(\.ts).sorted() == expected,
                    "\(rule.id) on:\n\(example.trace)\nfound: \(findings.map { "\($0.ts) \($0.message)" })")
            for finding in findings {
                #expect(finding.category == rule.category)
                #expect(!finding.message.isEmpty)
                #expect(!finding.events.isEmpty)
            }
        }
    }

    @Test func ruleIdsAreUniqueAndKebabCase() {
        let ids = Self.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)") }
    }

    /// The catalogue has exactly the ids of docs/rule-ids.txt: a rule declared but wired into no
    /// blueprint is missing from it, and a shipped id can never disappear.
    @Test func theCatalogHasExactlyTheShippedRuleIds() throws {
        #expect(Set(Self.rules.map(\.id)) == Set(try ShippedRuleIDs.all()))
    }
}

/// docs/rule-ids.txt, the checked-in list of every rule id that has shipped.
enum ShippedRuleIDs {
    static func all() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/rule-ids.txt").standardized
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    }
}

extension Rule: CustomTestStringConvertible {
    public var testDescription: String { id }
}
