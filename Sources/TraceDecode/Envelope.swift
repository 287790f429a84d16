import TraceModel

/// The required fields of the line being decoded, kept as scanned values until the whole line has
/// been checked, so that a repeated key costs nothing and the last one wins.
struct Envelope {
    var ts: JSONValue?
    var device: JSONValue?
    var launch: JSONValue?
    var event: JSONValue?

    /// The reject for the required fields that are absent.
    var missingFieldIssue: LineIssue {
        let names = [("ts", ts), ("device", device), ("launch", launch), ("event", event)]
            .filter { $0.1 == nil }
            .map { "'\($0.0)'" }
        let noun = names.count == 1 ? "field" : "fields"
        return LineIssue(.missingField, "missing required \(noun) \(names.joined(separator: ", "))")
    }
}
