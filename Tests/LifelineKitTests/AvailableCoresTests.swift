import Foundation
import Testing
@testable import LifelineKit

/// The decoders started are as many as the cores the process may use, not the machine's.
@Suite struct AvailableCoresTests {
    @Test(arguments: [
        ("0-1", 2), ("0", 1), ("0-3,8,10-11", 7), ("\t2-3 ", 2), ("5,7", 2),
    ])
    func countsTheKernelsList(_ list: String, _ cores: Int) {
        #expect(AvailableCores.count(list: Substring(list)) == cores)
    }

    @Test(arguments: ["", "a", "3-1", "0-1-2", "-1", "0-", ",", "0-99999999999999999999", "0-9223372036854775807"])
    func refusesWhatIsNotOne(_ list: String) {
        #expect(AvailableCores.count(list: Substring(list)) == nil)
    }

    /// The list the kernel writes for a process held to one core (`taskset -c 0`) counts one.
    @Test func aProcessHeldToOneCoreCountsOne() throws {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        #expect((1 ... machine).contains(AvailableCores.count))
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        try #require(FileManager.default.isExecutableFile(atPath: taskset.path), "util-linux's taskset is missing")
        let child = Process()
        child.executableURL = taskset
        child.arguments = ["-c", "0", "grep", "Cpus_allowed_list", "/proc/self/status"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        child.waitUntilExit()
        let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let list = line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        #expect(AvailableCores.count(list: Substring(list)) == 1)
    }
}
