import Foundation
import Testing

/// Values that once made every later `check` of a database, and every `timeline` of its device,
/// die with a runtime trap: a `mono` that jumps by 10¹⁶ s or is written as `1e999` (infinite).
/// Stored, checked, shown and streamed, they now print as numbers a person can read.
@Suite struct HostileValuesTests {
    static let lines = [
        #"{"ts":"2026-11-21T08:00:00Z","device":"H","launch":"L","seq":0,"mono":100,"event":"launch","reason":"system","cause":"bgtask"}"#,
        #"{"ts":"2026-11-21T08:00:01Z","device":"H","launch":"L","seq":1,"mono":101,"event":"didEnterBackground","phase":"begin"}"#,
        #"{"ts":"2026-11-21T08:00:02Z","device":"H","launch":"L","seq":2,"mono":1e16,"event":"didEnterBackground","phase":"end"}"#,
        #"{"ts":"2026-11-21T08:00:03Z","device":"H","launch":"L","seq":3,"mono":1e999,"event":"snapshot"}"#,
        #"{"ts":"2026-11-21T08:00:04Z","device":"H","launch":"L","seq":4,"mono":-1e999,"event":"suspend"}"#,
    ].joined(separator: "\n") + "\n"

    @Test func aDatabaseHoldingThemChecksAndShowsWithoutATrap() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("hostile.jsonl")
        try Self.lines.write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("h.db").path
        #expect(try CLI.run(["ingest", "--quiet", "--db", database, file.path]).status == 0)
        for _ in 0..<2 {  // the database stays usable run after run
            let check = try CLI.run(["check", "--db", database, "--format", "json"])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("did-enter-background-overrun"))
            #expect(check.stdout.contains("1.0e16 s"), "the overrun reads as a number: \(check.stdout)")
        }
        let timeline = try CLI.run(["timeline", "H", "--db", database])
        #expect(timeline.status == 0, "\(timeline.stderr)")
        #expect(timeline.stdout.contains("didEnterBackground"))
    }

    @Test func aStreamHoldingThemChecksWithoutATrap() throws {
        let result = try CLI.run(["check", "--stdin"], stdin: Self.lines)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("did-enter-background-overrun"))
    }
}
