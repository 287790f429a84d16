import Foundation

/// Runs a program as a child process and measures its wall time and peak resident memory
/// (from `wait4`'s resource usage of that child alone).
enum Measure {
    struct Outcome {
        var seconds: Double
        var peakMB: Double
        var output: String
        /// 0, or 1 (`lifeline` and `zstd` exit 1 when some input was bad, and the field corpus has some).
        var exitCode: Int32
    }

    /// Runs `program` with its standard output sent to `output`, or captured when nil.
    /// Runs `program`, its standard output to `output` (or captured), its standard error to
    /// `errors` (or the bench's own).
    static func run(_ program: String, _ arguments: [String], output: String? = nil, errors: String? = nil) throws -> Outcome {
        let capture = output ?? NSTemporaryDirectory() + "lifeline-bench-\(getpid()).out"
        defer { if output == nil { try? FileManager.default.removeItem(atPath: capture) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, capture, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let errors { posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Date().timeIntervalSince(start)
        let exitCode = (status >> 8) & 0xff
        // lifeline and zstd exit 1 when some input was bad (the field corpus has some): not a failure.
        guard status & 0x7f == 0, exitCode == 0 || exitCode == 1 else {
            throw BenchmarkError("\((program as NSString).lastPathComponent) \(arguments.prefix(2).joined(separator: " ")) … failed (status \(status))")
        }
        let text = output == nil ? (try? String(contentsOfFile: capture, encoding: .utf8)) ?? "" : ""
        return Outcome(seconds: seconds, peakMB: Double(usage.ru_maxrss) / 1024, output: text, exitCode: exitCode)
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
