import Foundation
import Testing

/// Diff tests for `queries/`, as Perfetto's trace processor has them: for each query, a small
/// trace written for it (`queries/tests/NAME.jsonl`), the query, and the CSV it must answer
/// (`queries/tests/NAME.csv`), with its parameters in `queries/tests/NAME.params` (NAME=VALUE
/// lines) when it takes any. A query may have more cases, each its own three files
/// `NAME.CASE.jsonl`, `NAME.CASE.params` and `NAME.CASE.csv` (such as a filter: `--app` and
/// `--app-version` bind the parameters `app` and `app_version`). The trace is ingested and
/// checked into a fresh database, the query runs through `lifeline query NAME --format csv`,
/// and any difference fails. Adding a query is adding these files; `LIFELINE_RECORD=1 swift test`
/// writes a missing or changed CSV and fails.
@Suite struct QueryDiffTests {
    static let tests = CLI.root.appendingPathComponent("queries/tests")
    static let queries: [String] = ((try? FileManager.default.contentsOfDirectory(
        atPath: CLI.root.appendingPathComponent("queries").path)) ?? [])
        .filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()

    /// Every case: each query's own (`NAME`), and each `NAME.CASE` that has a `.params` file.
    static let cases: [String] = queries + ((try? FileManager.default.contentsOfDirectory(atPath: tests.path)) ?? [])
        .filter { $0.hasSuffix(".params") }.map { String($0.dropLast(7)) }
        .filter { $0.contains(".") && queries.contains(String($0.prefix { $0 != "." })) }.sorted()

    @Test func everyCaseNamesAQuery() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.tests.path)
        for file in files {
            let query = String(file.prefix { $0 != "." })
            #expect(Self.queries.contains(query), "queries/tests/\(file) names no query in queries/")
        }
        #expect(Self.cases.count > Self.queries.count, "at least one query has a second case")
    }

    @Test(arguments: cases)
    func answersItsTraceExactly(_ name: String) throws {
        let query = String(name.prefix { $0 != "." })
        let trace = Self.tests.appendingPathComponent("\(name).jsonl")
        try #require(FileManager.default.fileExists(atPath: trace.path), "queries/\(query).sql needs its trace queries/tests/\(name).jsonl")
        // Ingested from a directory of its own under a plain name, so paths in the answer are stable.
        let work = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: trace, to: work.appendingPathComponent("\(query).jsonl"))
        _ = try CLI.run(["check", "--quiet", "--db", "test.db", "\(query).jsonl"], in: work)
        let parameters = (try? String(contentsOf: Self.tests.appendingPathComponent("\(name).params"), encoding: .utf8))?
            .split(separator: "\n").flatMap { ["--param", String($0)] } ?? []
        let result = try CLI.run(["query", "--db", "test.db", "--queries", CLI.root.appendingPathComponent("queries").path,
                                  query, "--format", "csv"] + parameters, in: work)
        #expect(result.status == 0, "\(result.stderr)")
        let expectedFile = Self.tests.appendingPathComponent("\(name).csv")
        if ProcessInfo.processInfo.environment["LIFELINE_RECORD"] == "1" {
            try result.stdout.write(to: expectedFile, atomically: true, encoding: .utf8)
            Issue.record("re-recorded queries/tests/\(name).csv: read it, commit it, run the tests again")
            return
        }
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(result.stdout == expected, "queries/tests/\(name).csv differs:\n\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count >= 2, "the trace must give the query at least one row")
    }
}
