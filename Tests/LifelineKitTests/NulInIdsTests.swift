import Foundation
import GRDB
import LifelineKit
import Testing
import TraceStore

/// `"device":"a\u0000x"` and `"device":"a\u0000y"` are two devices, from the file to the replay.
@Suite struct NulInIdsTests {
    @Test func devicesAndLaunchesThatDifferAfterANulStayApart() throws {
        let workspace = try Workspace()
        let file = try workspace.write("nul.jsonl", lines: [
            #"{"ts":1,"device":"a\u0000x","launch":"l\u00001","seq":0,"event":"launch","app":"p\u0000q"}"#,
            #"{"ts":1,"device":"a\u0000y","launch":"l\u00001","seq":0,"event":"launch","app":"p\u0000r"}"#,
            #"{"ts":1,"device":"a\u0000y","launch":"l\u00002","seq":0,"event":"launch","app":"p\u0000r"}"#,
        ])
        let store = try workspace.store()
        let summary = Ingestor(store: store).ingest([file])
        #expect(summary.events == 3)
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT hex(device), hex(launch), hex(app) FROM events ORDER BY id") }
        #expect(rows.map { [$0[0], $0[1], $0[2]] as [String] } == [
            ["610078", "6C0031", "700071"], ["610079", "6C0031", "700072"], ["610079", "6C0032", "700072"],
        ])
        var devices: [String] = []
        try store.forEachEvent({ _ in }, deviceEnded: { devices.append($0) })
        #expect(devices == ["a\u{0}x", "a\u{0}y"])
    }
}
