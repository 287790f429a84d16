import Reports
import TraceModel

/// Writes an ``Event`` back as one trace line, for the decoder's round-trip invariant: decoding
/// the line must give the same event.
///
/// `attrs` members come first, so that a typed field the decoder kept (the last occurrence of
/// its key) still comes last; `ts` is written as exact epoch seconds, which covers the whole
/// range of ``Timestamp`` (RFC 3339 stops at year 9999).
enum EventLine {
    static func json(_ event: Event) -> String {
        var members: [String] = []
        if let attrs = event.attrs, attrs.count > 2 { members.append(String(attrs.dropFirst().dropLast())) }
        members.append("\"ts\":" + epochSeconds(event.ts))
        members.append("\"device\":" + JSONText.quoted(event.device))
        members.append("\"launch\":" + JSONText.quoted(event.launch))
        members.append("\"event\":" + JSONText.quoted(event.name))
        if let seq = event.seq { members.append("\"seq\":\(seq)") }
        if let mono = event.mono { members.append("\"mono\":\(mono)") }
        if let task = event.task { members.append("\"task\":\(task)") }
        if let success = event.success { members.append("\"success\":\(success)") }
        let texts: [(String, String?)] = [
            ("app", event.app), ("app_version", event.appVersion), ("os", event.os), ("model", event.model),
            ("process", event.process), ("phase", event.phase), ("reason", event.reason), ("cause", event.cause),
            ("identifier", event.identifier), ("call", event.call), ("result", event.result),
        ]
        for (key, value) in texts { if let value { members.append("\"\(key)\":" + JSONText.quoted(value)) } }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `-12.000345`: whole seconds and six decimals, from the magnitude so `Int64.min` fits.
    private static func epochSeconds(_ ts: Timestamp) -> String {
        let magnitude = ts.microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (ts.microseconds < 0 ? "-" : "") + "\(magnitude / 1_000_000)."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

}
