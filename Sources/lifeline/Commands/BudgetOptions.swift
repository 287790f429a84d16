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

    /// A flag naming an unknown budget or rule, or with a bad value, is a usage error (64).
    func validate() throws {
        try CommandFailure.reporting {
            var scratch = ReplayConfiguration()
            try applyFlags(to: &scratch)
        }
    }

    /// The configuration file (a problem with it is exit 2), then the flags over it.
    func configuration() throws -> ReplayConfiguration {
        var configuration: ReplayConfiguration
        do {
            configuration = try config.map { try ConfigurationFile.load(path: $0, knownRules: Self.knownRules) }
                ?? ReplayConfiguration()
        } catch let error as ConfigurationError {
            throw CommandFailure.unreadable(error.description)
        }
        try applyFlags(to: &configuration)
        return configuration
    }

    private static let knownRules = Set(RuleCatalog.rules.map(\.id))

    private func applyFlags(to configuration: inout ReplayConfiguration) throws {
        do {
            for pair in budget {
                let (name, value) = try split(pair, flag: "--budget")
                // The name first: `foo=bar` is an unknown budget before it is a bad number.
                _ = try ReplayConfiguration.budget(named: name, from: "--budget \(pair)")
                guard let seconds = Double(value) else {
                    throw ConfigurationError("--budget \(pair): '\(value)' is not a number of seconds")
                }
                try configuration.setBudget(name, seconds, from: "--budget \(pair)")
            }
            for pair in severity {
                let (rule, level) = try split(pair, flag: "--severity")
                try configuration.setSeverity(rule, level, knownRules: Self.knownRules, from: "--severity \(pair)")
            }
        } catch let error as ConfigurationError {
            throw CommandFailure.usage(error.description)
        }
    }

    private func split(_ pair: String, flag: String) throws -> (String, String) {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ConfigurationError("\(flag) \(pair): expected NAME=VALUE") }
        return (parts[0], parts[1])
    }
}
