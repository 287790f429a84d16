import Foundation
import LifelineKit
import Testing

/// Golden test of the summary a person reads after an ingest.
@Suite struct IngestSummaryTextTests {
    @Test func theSummaryNamesTotalsAndTheFilesThatNeedAttention() {
        var good = FileReport(path: "traces/a.jsonl.zst", outcome: .ingested)
        good.events = 900
        good.bytes = 2_000_000
        var cut = FileReport(path: "traces/bad/b.jsonl.zst", outcome: .ingested)
        cut.events = 100
        cut.truncated = true
        cut.cut = "zstd frame starting at byte 10 cut short at byte 20: input ended mid-frame (after line 100)"
        var bad = FileReport(path: "traces/bad/c.jsonl", outcome: .ingested)
        bad.events = 8
        bad.duplicates = 2
        bad.rejects = ["invalid-json": 2, "bad-ts": 1]
        let skipped = FileReport(path: "traces/d.jsonl", outcome: .skipped)
        let summary = IngestSummary(database: "lifeline.db", files: [good, cut, bad, skipped], wallSeconds: 0.5)
        #expect(summary.text() == """
            Ingested into lifeline.db in 0.50 s
              files     3 ingested, 0 resumed, 1 skipped (already stored), 1 truncated, 0 damaged, 0 failed
              events    1008 stored, 2 duplicates ignored (2k lines/s, 4.0 MB/s)
              rejects   3 lines kept aside: invalid-json 2, bad-ts 1
              lost      0 lines in damaged or cut-short compressed input (where: below)

              traces/bad/b.jsonl.zst: cut short: zstd frame starting at byte 10 cut short at byte 20: input ended mid-frame (after line 100)
              traces/bad/c.jsonl: 3 rejected lines (bad-ts 1, invalid-json 2)

            Some input was bad; every good line was stored. See the bad lines with:
              sqlite3 lifeline.db "SELECT f.path, r.line, r.reason, r.message FROM rejects r JOIN files f ON f.id = r.file_id"
            """)
        #expect(summary.status == .badInput)
    }

    @Test func theJSONSummaryHasTheFieldsScriptsRead() throws {
        var file = FileReport(path: "a.jsonl", outcome: .ingested)
        file.events = 3
        let summary = IngestSummary(database: "x.db", files: [file], wallSeconds: 1)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? [String: Any]
        #expect(object?["status"] as? String == "clean")
        #expect(object?["events"] as? Int == 3)
        #expect(object?["filesIngested"] as? Int == 1)
        #expect((object?["files"] as? [Any])?.count == 1)
    }
}
