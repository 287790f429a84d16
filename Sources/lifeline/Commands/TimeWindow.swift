import ArgumentParser
import Foundation
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
            // --until is excluded: one time for both is an empty window, whose way out is not a swap.
            let fix = start == end ? "give --until a later time (it is excluded; a bare date is its midnight)" : "swap them"
            throw CommandFailure.usage(
                "--since \(since ?? "") is not before --until \(until ?? ""): no time can match; \(fix)")
        }
    }

    /// A time as logs write it, or a bare date (`2026-11-21`, midnight UTC), which is what people
    /// type for a window; a bare date is a flag's convenience, not part of the trace format.
    private static func parse(_ text: String, flag: String) throws -> Timestamp {
        let isDate = text.utf8.count == 10 && text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil
        guard let time = TimestampParser.parse(isDate ? text + "T00:00:00Z" : text) else {
            throw CommandFailure.usage(
                "\(flag): cannot read '\(text)' as a time (a date such as 2026-11-21, RFC 3339 such as 2026-11-21T08:00:00Z, or Unix seconds)")
        }
        return time
    }
}

/// `--since` and `--until`, shared by the commands that take a time window.
struct TimeWindowOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only what happened at or after this time (a date such as 2026-11-21, RFC 3339, or epoch seconds).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only what happened before this time.", valueName: "time"))
    var until: String?

    /// Whether a window was asked for at all.
    var isSet: Bool { since != nil || until != nil }

    func validate() throws {
        try CommandFailure.reporting { _ = try window() }
    }

    func window() throws -> TimeWindow { try TimeWindow(since: since, until: until) }
}
