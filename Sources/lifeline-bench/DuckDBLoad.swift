import Foundation

/// The peer Lifeline's loading is measured against: DuckDB's `read_json` of the same files into
/// a table of an on-disk database, in the same run — with no deduplication, no event identity,
/// no crash-safe resumption and no replay order, which Lifeline's ingest also does.
///
/// DuckDB comes from PyPI (`pip install duckdb`); where it is missing the row is skipped with a
/// note rather than failing the benchmark.
enum DuckDBLoad {
    /// The Python that loads the files listed in argv[2] into the database argv[1] and prints
    /// the rows it loaded. `ignore_errors` skips bad lines as Lifeline rejects them. The columns
    /// are DuckDB's own inference from a sample of the files (its default): `union_by_name`,
    /// which reads every file's schema first, ran out of memory (18.8 GiB) on 1,000 zstd files
    /// and more with DuckDB 2.0 here.
    static let script = """
        import sys, duckdb
        files = [line.rstrip("\\n") for line in open(sys.argv[2])]
        con = duckdb.connect(sys.argv[1])
        con.execute("SET threads TO 2")
        con.execute(
            "CREATE TABLE events AS SELECT * FROM read_json(?, format = 'newline_delimited', "
            "ignore_errors = true, maximum_object_size = 1048576)", [files])
        print(con.execute("SELECT count(*) FROM events").fetchone()[0])
        """

    /// Nil when python3 or its duckdb module is missing.
    static func available(python: String?) -> String? {
        guard let python else { return nil }
        let probe = try? Measure.run(python, ["-c", "import duckdb"], output: "/dev/null")
        return probe?.exitCode == 0 ? python : nil
    }

    static func measure(python: String, files: [String], scratch: String) throws -> (outcome: Measure.Outcome, rows: Int) {
        let scriptPath = (scratch as NSString).appendingPathComponent("duckdb-load.py")
        let listPath = (scratch as NSString).appendingPathComponent("duckdb-files.txt")
        let database = (scratch as NSString).appendingPathComponent("duckdb.db")
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        try files.joined(separator: "\n").write(toFile: listPath, atomically: true, encoding: .utf8)
        for suffix in ["", ".wal"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        defer { for suffix in ["", ".wal"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let outcome = try Measure.run(python, [scriptPath, database, listPath])
        guard let rows = Int(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkError("DuckDB printed no row count: \(outcome.output.prefix(200))")
        }
        return (outcome, rows)
    }
}
