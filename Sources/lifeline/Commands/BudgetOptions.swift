import ArgumentParser
import LifelineKit
import Replay
import Rules

/// Budgets and severities, from a configuration file and from flags (flags win).
struct BudgetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A JSON configuration file of budgets and severities (see README).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp(
        "Override one budget, e.g. processing-task=900 (repeatable); `lifeline rules --budgets` lists them.",
        valueName: "name=seconds"))
    var budget: [String] = []

    @Option(help: ArgumentHelp("Override one rule's severity, e.g. push-rate-limited=info (repeatable).", valueName: "rule=severity"))
    var severity: [String] = []

    func configuration() throws -> ReplayConfiguration {
        let known = Set(RuleCatalog.rules.map(\.id))
        do {
            var configuration = try config.map { try ConfigurationFile.load(path: $0, knownRules: known) } ?? ReplayConfiguration()
            for pair in budget {
                let (name, value) = try split(pair, flag: "--budget")
                guard let seconds = Double(value) else {
                    throw ConfigurationError("--budget \(pair): '\(value)' is not a number of seconds")
                }
                try configuration.setBudget(name, seconds, from: "--budget")
            }
            for pair in severity {
                let (rule, level) = try split(pair, flag: "--severity")
                try configuration.setSeverity(rule, level, knownRules: known, from: "--severity")
            }
            return configuration
        } catch let error as ConfigurationError {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    private func split(_ pair: String, flag: String) throws -> (String, String) {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ConfigurationError("\(flag) \(pair): expected NAME=VALUE") }
        return (parts[0], parts[1])
    }
}
