import Foundation
import GRDB
@testable import LifelineKit
import Reports
import Testing
import TraceModel
import TraceStore

/// `check` hands its report to the caller while it records the run, on a thread of its own, so
/// that a long report is written on one core while SQLite saves on the other: the caller must
/// see the very report `check` returns, once, and the run must be recorded whatever the caller
/// does with it.
@Suite struct WhileRecordingTests {
    /// A store of a field-like corpus: breaches of many rules, and derived tables to publish.
    static func store(in workspace: Workspace) throws -> Store {
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([try workspace.fieldCorpus(devices: 20, seed: 7)])
        return store
    }

    @Test func theReportWrittenWhileRecordingIsTheOneReturnedAndTheRunIsRecorded() throws {
        let workspace = try Workspace()
        let store = try Self.store(in: workspace)
        let written = Locked<[String]>([])
        let report = try Analyzer().check(store: store, options: CheckOptions(), version: "test", whileRecording: { report in
            try written.update { $0.append(try JSONReport.render(report)) }
        })
        #expect(written.value.count == 1)
        #expect(written.value.first == (try JSONReport.render(report)))
        #expect(report.findings.count > 0)
        let recorded = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM findings") }
        #expect(recorded == report.findings.count)
    }

    @Test func aFailureWhileRecordingIsThrownAfterTheRunIsRecorded() throws {
        struct Broken: Error {}
        let workspace = try Workspace()
        let store = try Self.store(in: workspace)
        #expect(throws: Broken.self) {
            try Analyzer().check(store: store, options: CheckOptions(), version: "test", whileRecording: { _ in throw Broken() })
        }
        let runs = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") }
        #expect(runs == 1)
        let findings = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM findings") }
        #expect((findings ?? 0) > 0)
    }

    @Test func withNothingToRecordTheReportIsHandedOverOnTheCallersThread() throws {
        let workspace = try Workspace()
        let store = try Self.store(in: workspace)
        var options = CheckOptions()
        options.record = false
        let caller = Thread.current
        var calls = 0
        var onCallersThread = false
        let report = try Analyzer().check(store: store, options: options, version: "test", whileRecording: { _ in
            calls += 1
            onCallersThread = Thread.current == caller
        })
        #expect(calls == 1)
        #expect(onCallersThread)
        #expect(report.findings.count > 0)
        let runs = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runs") }
        #expect(runs == 0)
    }
}

/// A value shared with the thread `check` writes its report on.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) throws -> Void) rethrows {
        try lock.withLock { try change(&stored) }
    }
}
