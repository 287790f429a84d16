import Foundation
import Testing

/// Compares output with a checked-in file. `LIFELINE_RECORD=1 swift test` rewrites the files and
/// still fails each test it rewrote, so that a re-recorded run can never pass as a green one:
/// the new files must be read and committed, then the tests run again.
public struct Golden: Sendable {
    public let directory: URL

    /// The golden files in the folder `Golden` beside `file` (pass `#filePath`).
    public init(beside file: String) {
        directory = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    public func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LIFELINE_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("re-recorded Golden/\(name): read the change, commit it, and run the tests again", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "output differs from Golden/\(name); LIFELINE_RECORD=1 swift test re-records it",
                sourceLocation: sourceLocation)
    }
}
