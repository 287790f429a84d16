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

    /// Every rule id of shared/spec/rules.md is in the catalog, and no other.
    @Test func theCatalogHasExactlyTheRulesOfTheSpec() {
        let spec: Set<String> = [
            "illegal-transition", "event-after-terminate", "event-while-suspended", "launch-sequence",
            "background-launch-sequence", "background-resume-sequence", "foreground-to-background-sequence",
            "did-enter-background-overrun", "background-task-not-ended", "background-task-expired",
            "background-task-overrun", "background-task-end-unknown", "background-task-begun-late",
            "background-task-in-extension", "bgtask-register-late", "bgtask-not-permitted",
            "bgtask-launch-unregistered", "bgtask-too-many-pending", "bgtask-not-completed", "bgtask-expired",
            "bgtask-refresh-overrun", "bgtask-processing-overrun", "bgtask-complete-twice",
            "legacy-fetch-disabled", "fetch-completion-missing", "fetch-completion-multiple", "fetch-overrun",
            "push-completion-missing", "push-completion-multiple", "push-overrun", "push-rate-limited",
            "push-not-background", "urlsession-completion-missing", "urlsession-not-recreated",
            "nse-content-handler-missing", "nse-overrun", "termination-explained", "termination-unexplained",
            "log-ended-with-open-work",
        ]
        #expect(Set(Self.rules.map(\.id)) == spec)
    }
}

extension Rule: CustomTestStringConvertible {
    public var testDescription: String { id }
}
