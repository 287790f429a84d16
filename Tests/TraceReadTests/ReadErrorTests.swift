import Foundation
import Testing
@testable import TraceRead

@Suite struct ReadErrorTests {
    @Test func missingFileNamesPathAndReason() throws {
        let path = "/nonexistent/traceread/missing.jsonl.zst"
        #expect(throws: ReadError.cannotOpen(path: path, reason: "No such file or directory")) {
            try LineReader(path: path)
        }
        #expect(throws: ReadError.cannotOpen(path: path, reason: "No such file or directory")) {
            try FileFingerprint.sha256(path: path)
        }
        #expect(
            ReadError.cannotOpen(path: path, reason: "No such file or directory").description
                == "cannot open /nonexistent/traceread/missing.jsonl.zst: No such file or directory")
    }

    @Test func directoryIsRefusedAtOpen() throws {
        let scratch = try Scratch()
        #expect(throws: ReadError.cannotOpen(path: scratch.url.path, reason: "Is a directory")) {
            try LineReader(path: scratch.url.path)
        }
    }
}
