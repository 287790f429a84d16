@testable import Replay
import Testing
import TraceModel

/// A check may report only the rules its blueprint declares: a rule reported but listed nowhere
/// would be missing from the catalogue, its documentation and its example tests.
@Suite struct RuleWiringTests {
    static let declared = testRule("declared")
    static let undeclared = testRule("undeclared")

    /// Reports `rule` at every `snapshot`.
    final class Reporter: Check {
        let rule: Rule
        init(_ rule: Rule) { self.rule = rule }

        override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
            context.report(rule, at: event, events: [event], message: rule.id)
        }
    }

    static func book(reporting rule: Rule) -> RuleBook {
        RuleBook([CheckBlueprint(scope: .launch, interests: [.snapshot], rules: [declared]) { _ in Reporter(rule) }])
    }

    @Test func aDeclaredRuleIsReported() {
        let findings = Replayer.findings(in: [event(0, "snapshot")], book: Self.book(reporting: Self.declared))
        #expect(findings.map(\.rule) == ["declared"])
    }

    #if DEBUG
    @Test func reportingAnUndeclaredRuleStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            _ = Replayer.findings(in: [event(0, "snapshot")], book: RuleWiringTests.book(reporting: RuleWiringTests.undeclared))
        }
    }
    #endif
}
