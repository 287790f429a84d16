import Foundation

/// Directories for tests' files, all under one directory per test process that is removed when
/// the process exits. Each test used to make its own directory in the system's temporary
/// directory and leave it there: stores, corpora and captured terminals, about 150 MB a run of
/// the suite. Nothing is removed before the process exits, so no test loses a file it still
/// reads (a directory removed when the value naming it is released could go while a path taken
/// from it is still in use).
public enum ScratchDirectory {
    /// `<temporary directory>/lifeline-tests-<pid>-<uuid>`, made on first use, with its removal
    /// registered to run at exit.
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifeline-tests-\(getpid())-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: ScratchDirectory.root) }
        return url
    }()

    /// A new, empty directory named `<prefix>-<uuid>` under the process's root.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
