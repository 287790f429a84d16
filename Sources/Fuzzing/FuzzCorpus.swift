import Replay
import Rules
import TraceModel
import TraceSynth

/// What the fuzzer starts from: real lines (a generated day of a few devices, every line of
/// every rule example) and the extreme values it splices into them.
public struct FuzzCorpus: Sendable {
    /// Device logs to mutate: each a run of consecutive lines of one device.
    public let logs: [[String]]

    /// The logs of a small generated corpus (seeded, so the same on every machine) and the rule
    /// examples, each example one log.
    public static let standard: FuzzCorpus = {
        let generator = TraceGenerator(spec: CorpusSpec(devices: 3, days: 1, seed: 11, breachRate: 0.3))
        var logs = (0 ..< 3).map { generator.lines(device: $0, day: 0) }
        for rule in RuleCatalog.rules {
            for example in rule.passing + rule.failing { logs.append(example.lines.map(\.json)) }
        }
        return FuzzCorpus(logs: logs)
    }()

    /// Values that have broken or could break arithmetic and formatting downstream: numbers at
    /// and beyond the ends of `Double` and `Int64`, times outside RFC 3339's years, giant and
    /// control-character strings, deep nesting, wrong types.
    public static let extremeValues: [String] = [
        "1e16", "-1e16", "1e308", "-1e308", "1.7976931348623157e308", "1e999", "-1e999", "5e-324", "-0", "0",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "1e19", "9223372036854.775807", "-9223372036854.775807", "-9223372036854.775808", "9223372036854.775808",
        "1e-7", "123456789012345678901234567890", "0.1e-999999999", "1E+400",
        "\"9999-12-31T23:59:59.999999Z\"", "\"0000-01-01T00:00:00Z\"", "\"0001-01-01T00:00:00-23:59\"",
        "\"9999-12-31T23:59:60+00:00\"", "\"2026-02-30T00:00:00Z\"", "\"2026-11-21T08:00:00.123456789123Z\"",
        "\"\"", "\"\\u0000\"", "\"a\\u0000b\"", "\"\\ud800\"", "\"\\n\\t\\r\\u001f\"", "\"\(String(repeating: "x", count: 70_000))\"",
        "null", "true", "false", "[]", "{}", "[1,\"a\",{}]", "{\"a\":{\"b\":[1e999]}}",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
    ]

    /// The keys whose values the fuzzer replaces: the envelope, the typed fields, and attributes
    /// the rules read.
    public static let keys: [String] = [
        "ts", "mono", "seq", "task", "call", "device", "launch", "event", "identifier", "process", "phase",
        "reason", "cause", "success", "result", "value", "priority", "content_available", "push_type",
        "permitted_identifiers", "background_modes", "name", "interval", "resource", "kind", "earliest_begin",
        "discretionary", "expected_send", "expected_receive", "type", "error", "requires_power", "requires_network",
        "low_power_mode", "battery", "charging", "status", "reachable", "wifi",
    ]

    /// Event names, to turn one event into another.
    public static let eventNames: [String] = EventKind.allCases.map(\.rawValue)
}
