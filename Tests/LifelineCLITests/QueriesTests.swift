import Foundation
import Testing

/// Every file in queries/ runs in the stock sqlite3 CLI on a database made from traces/, has
/// exactly the columns its opening comment documents, and answers with at least one row.
@Suite(.serialized) struct QueriesTests {
    static let database: String = {
        let directory = try! CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("queries.db").path
        _ = try! CLI.run(["check", "--quiet", "--db", path, CLI.root.appendingPathComponent("traces").path])
        return path
    }()

    static let queries: [String] = (try? FileManager.default.contentsOfDirectory(
        atPath: CLI.root.appendingPathComponent("queries").path))?.filter { $0.hasSuffix(".sql") }.sorted() ?? []

    /// The column names listed under "Columns:" in a query's opening comment.
    static func documentedColumns(_ sql: String) -> [String] {
        var columns: [String] = []
        var inColumns = false
        for line in sql.split(separator: "\n") {
            guard line.hasPrefix("--") else { break }
            let text = line.dropFirst(2)
            if text.trimmingCharacters(in: .whitespaces) == "Columns:" {
                inColumns = true
            } else if inColumns, text.hasPrefix("   "), let name = text.split(separator: " ").first {
                columns.append(String(name))
            }
        }
        return columns
    }

    @Test func thereAreQueries() {
        #expect(Self.queries.count >= 5)
    }

    @Test(arguments: queries)
    func queryRunsWithItsDocumentedColumns(_ name: String) throws {
        let sql = try String(contentsOf: CLI.root.appendingPathComponent("queries/\(name)"), encoding: .utf8)
        #expect(sql.hasPrefix("-- "), "\(name) must open with a comment stating its question")
        let device = try CLI.sqlite(Self.database, "SELECT name FROM devices ORDER BY name LIMIT 1")
        let script = ".parameter set :device '\(device)'\n.headers on\n.mode csv\n" + sql
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [Self.database]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && problems.isEmpty, "\(name): \(problems)")
        // sqlite3's csv mode ends lines with CRLF, one Character in Swift.
        let lines = text.components(separatedBy: .newlines).filter { !$0.isEmpty }
        #expect(lines.first?.split(separator: ",").map(String.init) == Self.documentedColumns(sql), "\(name)")
        #expect(lines.count >= 2, "\(name) answered no rows on traces/")
    }
}
