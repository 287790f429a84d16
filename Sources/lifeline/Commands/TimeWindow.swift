import TraceDecode
import TraceModel

/// The `--since`/`--until` pair of `check` and `timeline`, read and checked together.
struct TimeWindow {
    var since: Timestamp?
    var until: Timestamp?

    /// A time that does not parse, or a window that ends before it begins (which nothing could
    /// match), is a usage error.
    init(since: String?, until: String?) throws {
        self.since = try since.map { try Self.parse($0, flag: "--since") }
        self.until = try until.map { try Self.parse($0, flag: "--until") }
        if let start = self.since, let end = self.until, start >= end {
            throw CommandFailure.usage(
                "--since \(since ?? "") is not before --until \(until ?? ""): no time can match; swap them")
        }
    }

    private static func parse(_ text: String, flag: String) throws -> Timestamp {
        guard let time = TimestampParser.parse(text) else {
            throw CommandFailure.usage("\(flag): cannot read '\(text)' as a time (RFC 3339, e.g. 2026-11-21T08:00:00Z, or Unix seconds)")
        }
        return time
    }
}
