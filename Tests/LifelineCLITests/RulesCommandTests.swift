import Foundation
import Testing

@Suite struct RulesCommandTests {
    @Test func listsEveryRuleAsTextAndJSON() throws {
        let text = try CLI.run(["rules"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("bgtask-refresh-overrun"))
        let json = try CLI.run(["rules", "--format", "json"])
        let rules = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let shipped = try String(contentsOf: CLI.root.appendingPathComponent("docs/rule-ids.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(Set(rules.compactMap { $0["id"] as? String }) == Set(shipped.map(String.init)))
        #expect(rules.count == shipped.count)
        #expect(rules.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
    }

    @Test func oneRuleShowsItsSourceAndAnExample() throws {
        let result = try CLI.run(["rules", "bgtask-refresh-overrun"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("30 seconds"))
        #expect(result.stdout.contains("The finding lands on line"))
        #expect(result.stdout.contains("https://developer.apple.com/"))
        #expect(try CLI.run(["rules", "nope"]).status == 64)
    }

    /// `--format` holds for one rule and for the budgets too: a script asking for JSON gets JSON.
    @Test func oneRuleAndTheBudgetsComeInEveryFormat() throws {
        let rule = try CLI.run(["rules", "bgtask-refresh-overrun", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rule.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "bgtask-refresh-overrun")
        #expect(object["budgetSeconds"] as? Double == 30)
        let section = try CLI.run(["rules", "bgtask-refresh-overrun", "--format", "markdown"]).stdout
        #expect(section.contains("## bgtask-refresh-overrun"))
        let budgets = try CLI.run(["rules", "--budgets", "--format", "json"])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(budgets.stdout.utf8)) as? [String: Double])
        #expect(values["refresh-task"] == 30)
        let text = try CLI.run(["rules", "--budgets"]).stdout.split(separator: "\n")
        #expect(text.count == values.count)
        #expect(try CLI.run(["rules", "--budgets", "--format", "markdown"]).stdout.contains("| `refresh-task` | 30.0 |"))
    }

    /// The README's rule table and docs/rules.md are generated from the catalogue; this fails
    /// when they drift (regenerate as the README's "Development" section says).
    @Test func theDocumentationMatchesTheCatalogue() throws {
        let table = try CLI.run(["rules", "--format", "markdown"]).stdout
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- rules:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- rules:end -->"))
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == table)
        let sections = try CLI.run(["rules", "--format", "markdown", "--sections"]).stdout
        let docs = try String(contentsOf: CLI.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(docs.hasSuffix(sections), "docs/rules.md is out of date")
    }
}
