import TraceDecode
import TraceModel

/// Decodes `line` with a fresh decoder.
func decode(_ line: String) -> DecodeResult {
    decode(bytes: Array(line.utf8))
}

/// Decodes raw bytes (which need not be UTF-8) with a fresh decoder.
func decode(bytes: [UInt8]) -> DecodeResult {
    var decoder = EventDecoder()
    return bytes.withUnsafeBytes { decoder.decode($0) }
}

/// The event of a line, or nil if it was rejected or blank.
func decodedEvent(_ line: String) -> Event? {
    guard case .event(let event) = decode(line) else { return nil }
    return event
}

/// The issue of a rejected line, or nil if it decoded or was blank.
func rejection(_ line: String) -> LineIssue? {
    rejection(bytes: Array(line.utf8))
}

func rejection(bytes: [UInt8]) -> LineIssue? {
    guard case .reject(let issue) = decode(bytes: bytes) else { return nil }
    return issue
}

/// Seconds since the epoch of 2026-11-21T08:00:00Z, the day of the spec's example.
let exampleDay: Int64 = 1_795_248_000

/// Microseconds of `exampleDay` plus `milliseconds`.
func exampleTime(milliseconds: Int64) -> Timestamp {
    Timestamp(microseconds: exampleDay * 1_000_000 + milliseconds * 1_000)
}

/// A line with the envelope and `members` (the text of more members, with a leading comma).
func line(_ members: String = "") -> String {
    #"{"ts":"2026-11-21T08:00:00Z","device":"D1","launch":"L7","event":"e""# + members + "}"
}
