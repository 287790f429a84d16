import Foundation
import Testing

@Suite struct TimelineCommandTests {
    static func database() throws -> String {
        let database = try CLI.temporaryDirectory().appendingPathComponent("t.db").path
        _ = try CLI.run(["check", "--quiet", "--db", database, CLI.root.appendingPathComponent("traces").path])
        return database
    }

    @Test func showsEveryEventOfTheDeviceWithItsStateAndTheFindingsOnIt() throws {
        let database = try Self.database()
        let device = try CLI.sqlite(database, "SELECT device FROM findings WHERE rule = 'background-task-expired' LIMIT 1")
        let result = try CLI.run(["timeline", "--db", database, device])
        #expect(result.status == 0)
        let events = Int(try CLI.sqlite(database, "SELECT count(*) FROM events WHERE device = '\(device)'"))!
        let eventLines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  20") }
        #expect(eventLines.count == events)
        #expect(result.stdout.contains("▲ background-task-expired"))
        #expect(result.stdout.contains("suspended    suspend"))
    }

    @Test func jsonLinesCarryStateAndFindingsAndAWindowNarrowsThem() throws {
        let database = try Self.database()
        let device = try CLI.sqlite(database, "SELECT device FROM findings WHERE rule = 'background-task-expired' LIMIT 1")
        let ts = try CLI.sqlite(database, "SELECT ts FROM findings WHERE rule = 'background-task-expired' AND device = '\(device)' LIMIT 1")
        let seconds = Double(ts)! / 1_000_000
        let result = try CLI.run([
            "timeline", "--db", database, device, "--format", "jsonl",
            "--since", String(seconds - 60), "--until", String(seconds + 1),
        ])
        #expect(result.status == 0)
        let entries = try result.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0["state"] is String && $0["event"] is String })
        let withFindings = entries.filter { !(($0["findings"] as? [Any]) ?? []).isEmpty }
        #expect(withFindings.contains { ($0["findings"] as? [[String: Any]])?.contains { $0["rule"] as? String == "background-task-expired" } == true })
    }

    /// `--launch` shows one launch, as `export --launch` does; an unknown one is exit 3 naming it.
    @Test func aLaunchAloneIsShownWithLaunch() throws {
        let database = try Self.database()
        let device = try CLI.sqlite(database, "SELECT device FROM findings WHERE rule = 'background-task-expired' LIMIT 1")
        let launch = try CLI.sqlite(database, "SELECT launch FROM findings WHERE rule = 'background-task-expired' AND device = '\(device)' LIMIT 1")
        let result = try CLI.run(["timeline", "--db", database, device, "--launch", launch, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try result.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        let events = try CLI.sqlite(database, "SELECT count(*) FROM events WHERE device = '\(device)' AND launch = '\(launch)'")
        #expect(String(entries.count) == events && entries.allSatisfy { $0["launch"] as? String == launch })
        let unknown = try CLI.run(["timeline", "--db", database, device, "--launch", "no-such-launch"])
        Mistake.expectOneLine(unknown, status: 3, containing: "no events of launch no-such-launch on device \(device)")
    }

    @Test func anUnknownDeviceSaysHowToListThem() throws {
        let database = try Self.database()
        let result = try CLI.run(["timeline", "--db", database, "no-such-device"])
        #expect(result.status == 3, "nothing to check, as for `check --device`")
        #expect(result.stderr.contains("no events for device no-such-device"))
    }
}
