import Foundation

/// The programs the benchmark runs: `zstd` from PATH and the `lifeline` built beside it.
struct Tools {
    var zstd: String
    var lifeline: String

    static func locate() throws -> Tools {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let lifeline = here.deletingLastPathComponent().appendingPathComponent("lifeline").path
        guard FileManager.default.isExecutableFile(atPath: lifeline) else {
            throw BenchmarkError("\(lifeline) is missing: build it first (swift build -c release)")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let zstd = path.split(separator: ":").map({ "\($0)/zstd" })
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw BenchmarkError("zstd is not on PATH: apt-get install zstd")
        }
        return Tools(zstd: zstd, lifeline: lifeline)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
