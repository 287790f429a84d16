import Foundation
import Testing

/// The database opens in Datasette (from PyPI), public view included. `.ci/run` installs
/// Datasette; where it is missing the test is skipped, and says so.
@Suite struct DatasetteTests {
    static let datasette: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/datasette" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: datasette != nil, "datasette is not installed (pip install datasette)"))
    func datasetteServesTheEventsViewAndTheFindings() throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory.appendingPathComponent("fleet.db").path
        _ = try CLI.run(["check", "--quiet", "--db", database, CLI.root.appendingPathComponent("traces").path])
        for (path, column) in [("/fleet/events.json?_size=1&_shape=array", "device"),
                               ("/fleet/findings.json?_size=1&_shape=array", "rule")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.datasette!)
            process.arguments = [database, "--get", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            #expect(rows?.first?[column] != nil, "\(path): \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
    }
}
