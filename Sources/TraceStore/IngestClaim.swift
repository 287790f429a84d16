import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process reading a file, as recorded in its `files` row (`claim_pid`, `claim_start`),
/// so that another ingest can tell "being read right now" from "left by an ingest that died".
///
/// A pid alone is not enough: after a `kill -9` the pid may be reused by an unrelated process,
/// which would keep the file "claimed" forever. So a claim is the pid together with the
/// process's start time, and the owner is alive exactly when a process with that pid exists
/// now *and* started at that time:
/// - Linux: `starttime` from `/proc/PID/stat` (clock ticks since boot, fixed for a process's
///   life) with the boot id, so that a pid and start time repeated after a reboot do not match.
///   A zombie (killed, not yet reaped) is dead: it will never write again.
/// - macOS: `p_starttime` from `sysctl(KERN_PROC_PID)`, a wall-clock time, unique with the pid.
/// - elsewhere no start time is known (`start` is nil) and a process with the pid is taken to
///   be the owner: a reused pid may then delay a takeover, never cause a double read.
///
/// Liveness is judged in the pid namespace of the process asking: ingests sharing a database
/// from different containers cannot see each other's processes, and are not supported.
public struct IngestClaim: Sendable, Hashable {
    public var pid: Int32
    public var start: String?
    /// Which ingest of its process: one process may run several (a library user, the tests),
    /// and a run that ended holds nothing even while its process lives on.
    public var run: Int64

    public init(pid: Int32, start: String?, run: Int64) {
        self.pid = pid
        self.start = start
        self.run = run
    }

    /// A claim for one ingest of this process, held until ``end()``.
    public static func begin() -> IngestClaim {
        let run = activeRuns.withLock { runs in
            runs.next += 1
            runs.active.insert(runs.next)
            return runs.next
        }
        return IngestClaim(pid: thisProcess.pid, start: thisProcess.start, run: run)
    }

    /// A claim no ingest holds: what a writer used outside ``begin()``/``end()`` registers may be
    /// taken over by any ingest at once (as after a kill).
    public static var unheld: IngestClaim {
        IngestClaim(pid: thisProcess.pid, start: thisProcess.start, run: 0)
    }

    /// Releases the claim: files it still holds become resumable by the next ingest.
    public func end() {
        _ = Self.activeRuns.withLock { $0.active.remove(run) }
    }

    /// Whether the ingest that made this claim is still running.
    public var ownerIsAlive: Bool {
        if pid == Self.thisProcess.pid, start == Self.thisProcess.start {
            return Self.activeRuns.withLock { $0.active.contains(run) }
        }
        guard let start else { return kill(pid, 0) == 0 || errno == EPERM }
        return Self.startToken(of: pid) == start
    }

    private static let thisProcess = (pid: getpid(), start: startToken(of: getpid()))
    private static let activeRuns = ActiveRuns()

    /// The start time of a live process, as stored; nil if there is no such process (or it
    /// is a zombie) or the platform cannot tell.
    static func startToken(of pid: Int32) -> String? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let bootID = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
              let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // The fields after the command name (which may hold spaces and parentheses): state is
        // the 3rd field of the line, starttime the 22nd.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
        return "\(bootID.trimmingCharacters(in: .whitespacesAndNewlines))/\(fields[19])"
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0, Int32(info.kp_proc.p_stat) != SZOMB else { return nil }
        let started = info.kp_proc.p_un.__p_starttime
        return "\(started.tv_sec).\(started.tv_usec)"
        #else
        return nil
        #endif
    }
}

/// The ingests of this process that are running (`Synchronization.Mutex` needs macOS 15).
private final class ActiveRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: (next: Int64, active: Set<Int64>) = (0, [])

    func withLock<T>(_ body: (inout (next: Int64, active: Set<Int64>)) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&runs)
    }
}
