import Foundation
import TestScratch
import TraceStore

/// A fresh database file in its own temporary directory, removed when the test process exits.
struct TemporaryDatabase {
    let directory: URL
    let store: Store

    init() throws {
        directory = try ScratchDirectory.make("store")
        store = try Store(path: directory.appendingPathComponent("test.db").path)
    }
}
