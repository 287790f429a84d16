import Foundation
import GRDB
import LifelineKit
import Testing
import TraceStore
import TraceSynth

/// The ingest's writer keeps only the latest few thousand launches' running totals in memory
/// (`LaunchDirectory.cacheLimit`) and reads a launch back when its events come after it was
/// forgotten. Forgetting must lose nothing: each launch's row says what its events say.
@Suite struct LaunchCacheTests {
    @Test func launchTotalsSurviveTheCacheBeingForgotten() throws {
        let workspace = try Workspace()
        // About 5,000 launches, so the cache is forgotten at least once. Each device-day is
        // uploaded in two parts, and every first part comes before every second: the launches a
        // second part continues were begun thousands of launches before.
        let spec = CorpusSpec(devices: 400, days: 7, seed: 23, approxEventsPerDeviceDay: 40)
        let generator = TraceGenerator(spec: spec)
        var firstParts: [String] = []
        var secondParts: [String] = []
        var total = 0
        for device in 0 ..< spec.devices {
            for day in 0 ..< spec.days {
                var lines = generator.lines(device: device, day: day)
                // A fifth of the devices log no seq: their events are identified by content.
                if device % 5 == 0 {
                    lines = lines.map { $0.replacingOccurrences(of: #","seq":[0-9]+"#, with: "", options: .regularExpression) }
                }
                total += lines.count
                let name = "\(device)-\(day)"
                firstParts.append(try workspace.write("corpus/\(name)-a.jsonl", lines: Array(lines.prefix(lines.count / 2))))
                secondParts.append(try workspace.write("corpus/\(name)-b.jsonl", lines: Array(lines.dropFirst(lines.count / 2))))
            }
        }
        let files = firstParts + secondParts
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest(files)
        let queue = try DatabaseQueue(path: workspace.databasePath)
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM event_rows") == total)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM event_rows WHERE seq IS NULL") ?? 0 > total / 10)
            let launches = try Int.fetchOne(db, sql: "SELECT count(*) FROM launch_rows") ?? 0
            #expect(launches > 5000, "\(launches) launches: too few to forget the cache")
            let wrong = try Row.fetchAll(db, sql: """
                SELECT l.id, l.first_ts, l.last_ts, l.events, agg.first, agg.last, agg.n
                FROM launch_rows l LEFT JOIN (
                    SELECT id >> 32 AS launch, min(ts) AS first, max(ts) AS last, count(*) AS n
                    FROM event_rows GROUP BY id >> 32) agg ON agg.launch = l.id
                WHERE l.first_ts IS NOT agg.first OR l.last_ts IS NOT agg.last OR l.events IS NOT agg.n
                """)
            #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        }
    }
}
