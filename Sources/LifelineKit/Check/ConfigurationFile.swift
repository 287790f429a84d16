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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case budgets, severities
    }

    /// Reads and checks the file: a key, budget or rule it does not know is an error naming it,
    /// never ignored (a misspelt key would otherwise silently keep the defaults).
    public static func load(path: String, knownRules: Set<String>) throws -> ReplayConfiguration {
        let file = try decode(try read(path), path: path)
        var configuration = ReplayConfiguration()
        for (name, seconds) in (file.budgets ?? [:]).sorted(by: { $0.key < $1.key }) {
            try configuration.setBudget(name, seconds, from: path)
        }
        for (rule, level) in (file.severities ?? [:]).sorted(by: { $0.key < $1.key }) {
            try configuration.setSeverity(rule, level, knownRules: knownRules, from: path)
        }
        return configuration
    }

    private static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError("cannot read \(path): no such file")
        }
        if isDirectory.boolValue { throw ConfigurationError("cannot read \(path): is a directory, not a configuration file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read \(path): permission denied or unreadable")
        }
        return data
    }

    private static func decode(_ data: Data, path: String) throws -> ConfigurationFile {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
                .map { ": " + ($0.hasSuffix(".") ? String($0.dropLast()) : $0) } ?? ""
            throw ConfigurationError("\(path) is not valid JSON\(reason); see the README for the configuration file's form")
        }
        guard let object = parsed as? [String: Any] else {
            throw ConfigurationError("\(path) is not a JSON object: see the README for the configuration file's form")
        }
        if let repeated = RepeatedJSONKey.first(in: Array(data)) {
            let place = repeated.object.isEmpty ? "" : " in \(repeated.object)"
            throw ConfigurationError("\(path): '\(repeated.key)' is given twice\(place): give each key once")
        }
        let known = CodingKeys.allCases.map(\.rawValue)
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError("\(path): unknown key '\(unknown)' (known: \(known.joined(separator: ", ")))")
        }
        do {
            return try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch {
            throw ConfigurationError(
                "\(path): budgets must map names to seconds and severities rule ids to info, warning or error")
        }
    }
}

extension ReplayConfiguration {
    /// Sets one budget by name, checking the name and the value.
    public mutating func setBudget(_ name: String, _ seconds: Double, from origin: String) throws {
        let budget = try Self.budget(named: name, from: origin)
        guard seconds > 0, seconds.isFinite else {
            throw ConfigurationError("\(origin): budget '\(name)' must be a positive number of seconds, not \(seconds)")
        }
        budgets[budget] = seconds
    }

    /// The budget called `name`; an unknown name is an error that lists the known ones.
    public static func budget(named name: String, from origin: String) throws -> BudgetName {
        guard let budget = BudgetName(rawValue: name) else {
            throw ConfigurationError(
                "\(origin): unknown budget '\(name)' (known: \(BudgetName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return budget
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
