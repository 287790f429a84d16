import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// `\u0000` is legal in JSON strings: ids and envelope fields holding a NUL are stored, looked
/// up and read back whole, so texts that differ after a NUL stay different.
@Suite struct ExactTextTests {
    private func store(_ events: [Event]) throws -> Store {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: "f", size: 1, sha256: "f", compression: "none")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        for event in events { batch.append(event, line: batch.events.count + 1) }
        batch.throughLine = events.count
        let outcome = try writer.write(batch)
        #expect(outcome.inserted == events.count)
        return db.store
    }

    private let events = [
        Event(ts: Timestamp(microseconds: 1), device: "a\u{0}x", launch: "l\u{0}1", name: "launch", seq: 0,
              app: "app\u{0}1", identifier: "id\u{0}1"),
        Event(ts: Timestamp(microseconds: 1), device: "a\u{0}y", launch: "l\u{0}1", name: "launch", seq: 0,
              app: "app\u{0}2", identifier: "id\u{0}2"),
        Event(ts: Timestamp(microseconds: 1), device: "a\u{0}y", launch: "l\u{0}2", name: "launch", seq: 0,
              app: "app\u{0}2", appVersion: "1\u{0}a", os: "18\u{0}b", model: "m\u{0}c", process: "p\u{0}d",
              identifier: "id\u{0}3"),
    ]

    @Test func theEventsViewHoldsTheDecodedTextByteForByte() throws {
        let store = try store(events)
        let rows = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT hex(device), hex(launch), hex(app), hex(app_version), hex(os), hex(model), hex(process),
                       hex(identifier)
                FROM events ORDER BY id
                """)
        }
        let hex = { (text: String?) in text.map { $0.utf8.map { String(format: "%02X", $0) }.joined() } }
        #expect(rows.count == 3)
        for (row, event) in zip(rows, events) {
            let stored = (0..<8).map { row[$0] as String? }
            let decoded = [event.device, event.launch, event.app, event.appVersion, event.os, event.model,
                           event.process, event.identifier].map { hex($0) ?? "" }
            #expect(stored.map { $0 ?? "" } == decoded)
        }
        let devices = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM devices") }
        #expect(devices == 2)
    }

    @Test func replayFromTheStoreSeesTheSameTexts() throws {
        let store = try store(events)
        var read: [Event] = []
        var ended: [String] = []
        try store.forEachEvent({ read.append($0) }, deviceEnded: { ended.append($0) })
        #expect(ended == ["a\u{0}x", "a\u{0}y"])
        let key = { (e: Event) in [e.device, e.launch, e.app, e.appVersion, e.os, e.model, e.process, e.identifier] }
        #expect(read.map(key).sorted { "\($0)" < "\($1)" } == events.map(key).sorted { "\($0)" < "\($1)" })
        var selected: [String] = []
        try store.forEachEvent(devices: .only(["a\u{0}y"]), { selected.append($0.launch) }, deviceEnded: { _ in })
        #expect(selected.sorted() == ["l\u{0}1", "l\u{0}2"])
    }

    @Test func findingsKeepTheirDeviceAndLaunchWhole() throws {
        let store = try store(events)
        let finding = Finding(
            rule: "r", category: .data, severity: .warning, device: "a\u{0}y", launch: "l\u{0}2",
            ts: Timestamp(microseconds: 1), events: [], message: "m\u{0}z")
        let run = RunInfo(startedAt: Date(), finishedAt: Date(), version: "t", budgets: "{}", scope: nil, devices: 1, events: 1)
        try store.saveRun(run, devices: .all, findings: [finding])
        try store.saveRun(run, devices: .only(["a\u{0}x"]), findings: [])
        let row = try store.read { try Row.fetchOne($0, sql: "SELECT hex(device), hex(launch), hex(message) FROM findings") }
        #expect(row?[0] == "6100" + "79")
        #expect(row?[1] == "6C00" + "32")
        #expect(row?[2] == "6D00" + "7A")
    }
}
