import Foundation
import Testing

/// The HTML report is one self-contained page that a real browser renders without a console
/// error, with its charts drawn: checked in headless Chromium (Debian's `chromium`), skipped
/// with a message where it is not installed. `LIFELINE_SCREENSHOT=FILE` keeps the screenshot.
@Suite struct HTMLReportTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first(where: FileManager.default.isExecutableFile(atPath:))

    static func report() throws -> (html: String, file: URL) {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("report.html")
        let result = try CLI.run(["report", "--db", GoldenOutputTests.checkedOnce.database, "--format", "html", "--output", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return (try String(contentsOf: file, encoding: .utf8), file)
    }

    @Test func thePageLoadsNothingFromElsewhere() throws {
        let html = try Self.report().html
        for outside in ["<script", "<link", "<img", "src=", "url(", "@import", "@font-face"] {
            #expect(!html.contains(outside), "the report must be self-contained: found \(outside)")
        }
        #expect(html.contains("<svg"))
    }

    @Test(.enabled(if: chromium != nil, "Chromium is not installed (apt-get install chromium): the browser check is skipped"))
    func chromiumRendersItWithTheChartsDrawnAndNoConsoleError() throws {
        let chromium = try #require(Self.chromium)
        let file = try Self.report().file
        let screenshot = ProcessInfo.processInfo.environment["LIFELINE_SCREENSHOT"]
            ?? file.deletingLastPathComponent().appendingPathComponent("report.png").path
        let flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--window-size=1100,2400"]
        let dom = try Self.run(chromium, flags + ["--dump-dom", file.absoluteString])
        #expect(dom.status == 0, "\(dom.stderr)")
        // The DOM as Chromium built it: every chart is there with its shapes.
        #expect(dom.stdout.components(separatedBy: "<svg").count - 1 >= 3, "three charts at least")
        #expect(dom.stdout.components(separatedBy: "<rect").count - 1 >= 10)
        let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        #expect(console.isEmpty, "console messages: \(console)")
        let shot = try Self.run(chromium, flags + ["--screenshot=\(screenshot)", file.absoluteString])
        #expect(shot.status == 0, "\(shot.stderr)")
        let size = (try FileManager.default.attributesOfItem(atPath: screenshot)[.size] as? Int) ?? 0
        #expect(size > 10_000, "a screenshot with something drawn on it")
    }

    /// Runs a program with its two outputs going to files, read once it has exited (no pipe can
    /// fill up and stall it).
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try CLI.temporaryDirectory()
        let outFile = directory.appendingPathComponent("out")
        let errFile = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outFile.path, contents: nil)
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outFile, encoding: .utf8),
                String(decoding: try Data(contentsOf: errFile), as: UTF8.self))
    }
}
