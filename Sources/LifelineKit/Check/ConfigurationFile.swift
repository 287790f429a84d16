import Foundation
import Replay
import TraceModel

/// The check's configuration file (`--config FILE`), JSON:
///
///     {
///       "budgets": { "processing-task": 900, "background-time": 25 },
///       "severities": { "push-rate-limited": "info" }
///     }
///
/// Budgets are seconds, by the names `lifeline rules` shows; severities are `info`, `warning`
/// or `error`, by rule id. Anything not given keeps its documented default.
public struct ConfigurationFile: Codable, Sendable {
    public var budgets: [String: Double]?
    public var severities: [String: String]?

    public static func load(path: String, knownRules: Set<String>) throws -> ReplayConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError("cannot read the configuration file \(path): \(error.localizedDescription)")
        }
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch {
            throw ConfigurationError("\(path) is not a valid configuration file: \(error)")
        }
        var configuration = ReplayConfiguration()
        for (name, seconds) in file.budgets ?? [:] {
            try configuration.setBudget(name, seconds, from: path)
        }
        for (rule, level) in file.severities ?? [:] {
            try configuration.setSeverity(rule, level, knownRules: knownRules, from: path)
        }
        return configuration
    }
}

extension ReplayConfiguration {
    /// Sets one budget by name, checking the name and the value.
    public mutating func setBudget(_ name: String, _ seconds: Double, from origin: String) throws {
        guard let budget = BudgetName(rawValue: name) else {
            throw ConfigurationError(
                "\(origin): unknown budget '\(name)'; budgets are \(BudgetName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard seconds > 0, seconds.isFinite else {
            throw ConfigurationError("\(origin): budget '\(name)' must be a positive number of seconds")
        }
        budgets[budget] = seconds
    }

    /// Sets one rule's severity, checking the rule id and the level.
    public mutating func setSeverity(_ rule: String, _ level: String, knownRules: Set<String>, from origin: String) throws {
        guard knownRules.contains(rule) else {
            throw ConfigurationError("\(origin): unknown rule '\(rule)'; `lifeline rules` lists them")
        }
        guard let severity = Severity(rawValue: level) else {
            throw ConfigurationError("\(origin): severity of '\(rule)' must be info, warning or error, not '\(level)'")
        }
        severities[rule] = severity
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
