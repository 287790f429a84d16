import Foundation
import Reports
import TraceModel
import TraceStore

/// Writes each launch a replay finishes as one JSON line: its row of `launches` as `check` over a
/// store derives it — for a stream (`check --stdin --launches FILE`), and so for the Spark job's
/// `OUTPUT/launches/`. The keys are the table's columns, in its order, but for the store's own
/// (`id`, `run_id`) and those it fills in from the findings (`findings`, `explained_by`,
/// `explained_by_rule`), which a join with the findings gives. Times are RFC 3339 text, as in
/// the findings' JSON.
///
/// Only the launches of the selected app and version (``AppSelection``) are written, as only
/// their findings are (devices that ran one are replayed whole; the replay leaves out the devices
/// not selected). The other derived records (callbacks, work, requests) are not written.
public final class LaunchLines: DerivedRecordSink {
    private let handle: FileHandle
    private let apps: AppSelection
    private var buffer: [UInt8] = []
    /// The first write that failed: the replay cannot be stopped from here, so it is thrown by
    /// ``finish()``.
    private var failure: (any Error)?

    static let flushBytes = 1 << 16

    /// Writes to `handle`, which the caller opened (and ``finish()`` closes).
    public init(handle: FileHandle, apps: AppSelection) {
        self.handle = handle
        self.apps = apps
    }

    public func record(_ record: consuming LaunchRecord) {
        guard failure == nil, apps.matches(app: record.app, version: record.appVersion) else { return }
        buffer.append(contentsOf: Self.line(record).utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushBytes { flush() }
    }

    /// Only launches: the replay makes no other record for this sink.
    public var takesWork: Bool { false }

    public func record(_ record: consuming IntervalRecord) {}
    public func record(_ record: consuming TaskRecord) {}
    public func record(_ record: consuming RequestRecord) {}

    /// Writes what is left and closes the file; throws the first write that failed.
    public func finish() throws {
        flush()
        try? handle.close()
        if let failure { throw failure }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            failure = error
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The JSON object of one launch, keys in the order of the table's columns.
    static func line(_ r: LaunchRecord) -> String {
        func text(_ value: String?) -> String { value.map(JSONText.quoted) ?? "null" }
        func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }
        let fields: [(String, String)] = [
            ("device", text(r.device)), ("launch", text(r.launch)), ("app", text(r.app)),
            ("app_version", text(r.appVersion)), ("os", text(r.os)), ("model", text(r.model)),
            ("process", text(r.process)), ("first_ts", text(r.firstTS.description)),
            ("last_ts", text(r.lastTS.description)), ("started", text(r.started)), ("cause", text(r.cause)),
            ("ended", text(r.ended.rawValue)), ("end_reason", text(r.endReason)), ("end_state", text(r.endState)),
            ("foreground_seconds", number(r.foregroundSeconds)), ("background_seconds", number(r.backgroundSeconds)),
            ("suspended_seconds", number(r.suspendedSeconds)),
            ("background_periods", text(PeriodsJSON.text(r.backgroundPeriods))),
            ("log_cut_short", r.logCutShort ? "true" : "false"),
        ]
        return "{" + fields.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
