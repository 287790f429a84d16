import Foundation
import Testing
import TraceModel
@testable import TraceStore

/// What `--app` and `--app-version` select in a store: launches by their first event, devices by
/// those launches, and selections of more devices than one statement can bind.
@Suite struct AppLaunchesTests {
    /// 1,201 devices (more than two groups of names), each with a launch of com.example.news,
    /// the odd ones with a later launch of 2.0 whose first event says 2.0 and later ones 9.9, and
    /// devices with a NUL in their names.
    private static func store(devices: Int = 1_201) throws -> Store {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: "f", size: 1, sha256: "f", compression: "none")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        func add(_ device: String, _ launch: String, _ seq: Int64, _ version: String, at second: Int64) {
            batch.append(Event(ts: Timestamp(microseconds: second * 1_000_000), device: device, launch: launch, name: "snapshot",
                               seq: seq, app: "com.example.news", appVersion: version), line: batch.events.count + 1)
        }
        for number in 0..<devices {
            let device = number % 100 == 7 ? "D\u{0}\(number)" : "D\(number)"
            add(device, "A", 0, "1.0", at: 0)
            guard number % 2 == 1 else { continue }
            add(device, "B", 0, "2.0", at: 10)
            add(device, "B", 1, "9.9", at: 11)
        }
        batch.throughLine = batch.events.count
        try writer.write(batch)
        return db.store
    }

    @Test func aLaunchBelongsToTheVersionOfItsFirstEvent() throws {
        let store = try Self.store(devices: 4)
        #expect(try store.launches(app: nil, appVersion: "2.0").map(\.launch) == ["B", "B"])
        #expect(try store.launches(app: nil, appVersion: "9.9").isEmpty)
        #expect(try store.launches(app: "com.example.news", appVersion: nil).count == 6)
        #expect(try store.launches(app: "com.example.other", appVersion: nil).isEmpty)
        #expect(try store.holdsEvents(app: nil, appVersion: "9.9"), "an event of 9.9 is stored, though no launch began with it")
        #expect(try !store.holdsEvents(app: "com.example.other", appVersion: nil))
        #expect(try store.deviceCount() == 4)
    }

    @Test func groupsOfNamesComeInTheStoresOrder() throws {
        let names = (0..<1_201).map { $0 % 100 == 7 ? "D\u{0}\($0)" : "D\($0)" } + ["é", "e", "Z", "D1"]
        let groups = try #require(Store.DeviceSelection.only(names).nameGroups)
        #expect(groups.map(\.count) == [500, 500, 204], "without the repeated D1")
        let flat = groups.flatMap { $0 }
        #expect(flat == flat.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Store.DeviceSelection.all.nameGroups == nil)
        #expect(Store.DeviceSelection.only([]).nameGroups == [])
    }

    @Test func aSelectionOfMoreDevicesThanAStatementBindsIsReadWholeInOrder() throws {
        let store = try Self.store()
        let selected = try store.launches(app: nil, appVersion: "2.0").map(\.device)
        #expect(selected.count == 600)
        var read: [String] = []
        let count = try store.forEachRow(devices: .only(selected.reversed())) { row in
            if read.last != row.launch.device { read.append(row.launch.device) }
        }
        #expect(count == 600 * 3, "each selected device whole: its 1.0 launch and its 2.0 launch")
        #expect(read == selected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(read.contains("D\u{0}107"), "a NUL in a name is bound and read whole")
    }
}
