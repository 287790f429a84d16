/// Why an input line is not an event. The raw values are stable: they are stored in
/// `rejects.reason`, printed in summaries and matched by scripts.
public enum RejectReason: String, Sendable, CaseIterable, Codable {
    /// The line is not valid JSON.
    case invalidJSON = "invalid-json"
    /// The line is JSON but not an object.
    case notAnObject = "not-an-object"
    /// A required envelope field (`ts`, `device`, `launch`, `event`) is absent.
    case missingField = "missing-field"
    /// A required envelope field has the wrong type (e.g. `"device": true`).
    case badField = "bad-field"
    /// `ts` is neither an RFC 3339 string nor a number of epoch seconds.
    case badTimestamp = "bad-ts"
    /// The line's bytes are not valid UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// The line is longer than the reader's line cap; it was skipped to keep memory bounded.
    case lineTooLong = "line-too-long"
    /// The last line of a file that was cut short, as versions before damage accounting stored
    /// it; that line is now counted as lost (`files.lost_lines`). Kept so stored codes decode.
    case cutShort = "cut-short"
}

/// A line that is not an event: the reason and a message naming what exactly is wrong.
public struct LineIssue: Error, Sendable, Hashable {
    public var reason: RejectReason
    public var message: String

    public init(_ reason: RejectReason, _ message: String) {
        self.reason = reason
        self.message = message
    }
}
