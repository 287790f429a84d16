import Foundation
import Testing

/// Compares output with a file in `Golden/`; `LIFELINE_RECORD=1 swift test` rewrites the files.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LIFELINE_RECORD"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "output differs from Golden/\(name); LIFELINE_RECORD=1 swift test re-records it",
                sourceLocation: sourceLocation)
    }
}
