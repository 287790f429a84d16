import Foundation
import TraceStore

/// A fresh database file in its own temporary directory.
struct TemporaryDatabase {
    let directory: URL
    let store: Store

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifeline-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(path: directory.appendingPathComponent("test.db").path)
    }
}
