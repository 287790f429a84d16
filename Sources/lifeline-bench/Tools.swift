import Foundation

/// The programs the benchmark runs: `zstd` from PATH and the `lifeline` built beside it.
struct Tools {
    var zstd: String
    var lifeline: String
    /// python3 with DuckDB, for the peer's row; nil where either is missing.
    var duckDBPython: String?
    /// `taskset` (util-linux), to run `check` on one core for the cores row; nil where missing.
    var taskset: String?

    static func locate() throws -> Tools {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let lifeline = here.deletingLastPathComponent().appendingPathComponent("lifeline").path
        guard FileManager.default.isExecutableFile(atPath: lifeline) else {
            throw BenchmarkError("\(lifeline) is missing: build it first (swift build -c release)")
        }
        guard let zstd = onPath("zstd") else {
            throw BenchmarkError("zstd is not on PATH: apt-get install zstd")
        }
        return Tools(
            zstd: zstd, lifeline: lifeline, duckDBPython: DuckDBLoad.available(python: onPath("python3")),
            taskset: onPath("taskset"))
    }

    private static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map({ "\($0)/\(name)" })
            .first(where: FileManager.default.isExecutableFile(atPath:))
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
