import Foundation

/// The cores this process may run on: on Linux, those its CPU affinity allows (`taskset`, a
/// container's cpuset), which `ProcessInfo.activeProcessorCount` ignores — a `check --stdin` held
/// to one core started a decoder per core of the machine, all then sharing the one.
enum AvailableCores {
    static var count: Int {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
              let allowed = count(list: line.dropFirst("Cpus_allowed_list:".count))
        else { return machine }
        return min(max(1, allowed), machine)
    }

    /// The number of cores in a list as the kernel writes it (`0-3,8,10-11`); nil when it is not one.
    static func count(list: Substring) -> Int? {
        var total = 0
        for part in list.split(separator: ",") {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
            guard let first = bounds.first.flatMap({ Int($0) }), bounds.count <= 2 else { return nil }
            let last = bounds.count == 2 ? Int(bounds[1]) : first
            guard let last, last >= first, last - first < 1 << 16 else { return nil }
            total += last - first + 1
        }
        return total > 0 ? total : nil
    }
}
