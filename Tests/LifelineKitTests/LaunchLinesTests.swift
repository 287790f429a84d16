import Foundation
import Testing
import TraceModel
@testable import LifelineKit

/// A launch's JSON line (`check --stdin --launches`) holds whatever the logs named, and clocks
/// that jumped: it must stay one line of valid JSON that gives the values back.
@Suite struct LaunchLinesTests {
    static func record(device: String, launch: String, seconds: Double, periods: [BackgroundPeriod]) -> LaunchRecord {
        LaunchRecord(
            number: 0, device: device, launch: launch, app: "a\"b\\c", appVersion: nil, os: "\u{0}", model: "📱",
            process: "extension:\u{202E}x", firstTS: Timestamp(microseconds: .min), lastTS: Timestamp(microseconds: .max),
            started: "user\nline", cause: nil, ended: .logEnded, endReason: nil, endState: "suspended",
            foregroundSeconds: seconds, backgroundSeconds: -0.0, suspendedSeconds: 1e300, backgroundPeriods: periods,
            logCutShort: true)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e-300, 0])
    func hostileValuesMakeOneLineOfValidJSON(_ seconds: Double) throws {
        let device = "D\u{0}\u{1B}[2J\"\n" + String(repeating: "é", count: 10_000)
        let periods = [BackgroundPeriod(seconds: .nan, ended: .suspended), BackgroundPeriod(seconds: 1e300, ended: .terminated),
                       BackgroundPeriod(seconds: -5, ended: .logEnded)]
        let line = LaunchLines.line(Self.record(device: device, launch: "L\u{7F}", seconds: seconds, periods: periods))
        #expect(!line.contains("\n"), "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["device"] as? String == device)
        #expect(object["launch"] as? String == "L\u{7F}")
        #expect(object["app"] as? String == "a\"b\\c")
        #expect(object["os"] as? String == "\u{0}")
        #expect(object["process"] as? String == "extension:\u{202E}x")
        #expect(object["started"] as? String == "user\nline")
        #expect(object["app_version"] is NSNull)
        if seconds.isFinite {
            #expect(object["foreground_seconds"] as? Double == seconds)
        } else {
            #expect(object["foreground_seconds"] is NSNull, "JSON has no NaN or infinity")
        }
        #expect(object["log_cut_short"] as? Bool == true)
        // The periods are the store's JSON text: a clock that does not fit is null, a negative one 0.
        let periodsText = try #require(object["background_periods"] as? String)
        #expect(periodsText == #"[[0.0,"suspended"],[null,"terminated"],[0.0,"log-ended"]]"#)
        #expect(try JSONSerialization.jsonObject(with: Data(periodsText.utf8)) is [Any])
    }

    /// Only the launches of the selected app are written, whole lines, and a write that fails is
    /// thrown by `finish()`, not lost.
    @Test func writesTheSelectedLaunchesAndReportsAFailedWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launch-lines-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("launches.jsonl")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let lines = LaunchLines(handle: try FileHandle(forWritingTo: file), apps: AppSelection(app: "a\"b\\c"))
        lines.record(Self.record(device: "D1", launch: "L1", seconds: 1, periods: []))
        var other = Self.record(device: "D1", launch: "L2", seconds: 1, periods: [])
        other.app = "com.other"
        lines.record(other)
        try lines.finish()
        let written = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(written.count == 1 && written[0].contains(#""launch":"L1""#))

        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let failing = LaunchLines(handle: full, apps: AppSelection())
        failing.record(Self.record(device: "D", launch: "L", seconds: 1, periods: []))
        #expect(throws: (any Error).self) { try failing.finish() }
    }
}
