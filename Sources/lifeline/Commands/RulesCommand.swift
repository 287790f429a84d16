import ArgumentParser
import Replay
import Reports
import Rules

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules Lifeline checks, with the documentation each rests on.",
        discussion: "Prints the same declarations the engine runs; the README's rule table is made with --format markdown.")

    @Argument(help: ArgumentHelp("Show everything about this rule.", valueName: "rule-id"))
    var id: String?

    @Option(help: "Output format: text, json or markdown.")
    var format: RuleDocs.Format = .text

    @Flag(help: "With --format markdown: one section per rule with its examples (docs/rules.md).")
    var sections = false

    @Flag(help: "List the budgets and their default values instead.")
    var budgets = false

    /// Flags that would be ignored are mistakes: each names what it is for.
    func validate() throws {
        try CommandFailure.reporting {
            if budgets, let id { throw CommandFailure.usage("--budgets lists every budget: drop the rule id \(id), or --budgets") }
            if sections, budgets || id != nil {
                throw CommandFailure.usage("--sections is for the list of rules: drop it with \(budgets ? "--budgets" : "a rule id")")
            }
            if sections, format != .markdown { throw CommandFailure.usage("--sections needs --format markdown") }
        }
    }

    func run() throws {
        try CommandFailure.reporting { try show() }
    }

    private func show() throws {
        let defaults = Budgets()
        if budgets {
            print(try RuleDocs.budgets(defaults, format: format))
            return
        }
        if let id {
            guard let rule = RuleCatalog.rule(id: id) else {
                throw CommandFailure.usage("unknown rule '\(id)'; `lifeline rules` lists them")
            }
            switch format {
            case .text: print(RuleDocs.detail(rule, budgets: defaults))
            case .json: print(try RuleDocs.json(rule, budgets: defaults))
            case .markdown: print(RuleDocs.markdown([rule], budgets: defaults, sections: true))
            }
            return
        }
        switch format {
        case .text: print(RuleDocs.text(RuleCatalog.rules, budgets: defaults))
        case .json: print(try RuleDocs.json(RuleCatalog.rules, budgets: defaults))
        case .markdown: print(RuleDocs.markdown(RuleCatalog.rules, budgets: defaults, sections: sections))
        }
    }
}

extension RuleDocs.Format: ExpressibleByArgument {}
