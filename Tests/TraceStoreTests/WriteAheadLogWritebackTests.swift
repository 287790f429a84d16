import Foundation
import TestScratch
import Testing
@testable import TraceStore

/// The WAL written out during a `check` is the one SQLite writes: found through a symbolic link
/// to the store as SQLite finds it, and nothing (no file, no trap) where there is none.
@Suite struct WriteAheadLogWritebackTests {
    @Test func itFindsTheWALOfAStoreThroughALinkToIt() throws {
        let db = try TemporaryDatabase()
        try db.store.write { try $0.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        let path = db.directory.appendingPathComponent("test.db").path
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let link = db.directory.appendingPathComponent("link.db").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        for name in [path, link] {
            let writeback = WriteAheadLogWriteback(databasePath: name)
            #expect(writeback.foundLog, "\(name)")
            writeback.start()
        }
    }

    /// A FIFO or a directory where the WAL would be is not written out, and opening it does not
    /// wait for a writer.
    @Test func aWALThatIsNoFileIsLeftAlone() throws {
        let directory = try ScratchDirectory.make("wal")
        let fifo = directory.appendingPathComponent("fifo.db").path
        #expect(mkfifo(fifo + "-wal", 0o600) == 0)
        let folder = directory.appendingPathComponent("folder.db").path
        try FileManager.default.createDirectory(atPath: folder + "-wal", withIntermediateDirectories: true)
        for name in [fifo, folder] {
            let writeback = WriteAheadLogWriteback(databasePath: name)
            #expect(!writeback.foundLog, "\(name)")
            writeback.start()
        }
    }

    @Test func withoutAWALItDoesNothing() throws {
        let directory = try ScratchDirectory.make("wal")
        let writeback = WriteAheadLogWriteback(databasePath: directory.appendingPathComponent("none.db").path)
        #expect(!writeback.foundLog)
        writeback.start()
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none.db-wal").path))
    }
}
