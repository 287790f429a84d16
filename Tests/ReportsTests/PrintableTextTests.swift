import Foundation
import Reports
import Testing
import TraceModel

/// Text from a log cannot reach the terminal of whoever reads a report: escapes, carriage
/// returns, NULs and right-to-left overrides are written out as `\u{…}`, in every format a person
/// reads; what is printable stays as it is.
@Suite struct PrintableTextTests {
    /// In Markdown, a log's `<` and `&` are shown rather than read as HTML, and a table's cell
    /// keeps its `|`.
    @Test func markdownShowsTheTextAsItIs() {
        #expect(PrintableText.markdown("a|<b>&lt;") == "a|&lt;b>&amp;lt;")
        #expect(PrintableText.markdown("a|b\u{1B}", inTable: true) == "a\\|b\\u{1B}")
    }

    @Test func controlAndFormatCharactersAreWrittenOut() {
        #expect(PrintableText.escaped("plain id-42 ünïcode ✓") == "plain id-42 ünïcode ✓")
        #expect(PrintableText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(PrintableText.escaped("\r\u{0}\u{7F}\u{9B}\u{202E}\u{2028}") == "\\u{D}\\u{0}\\u{7F}\\u{9B}\\u{202E}\\u{2028}")
        #expect(PrintableText.escaped("") == "")
    }

    @Test func theTextReportPrintsNoControlCharacterFromALog() throws {
        let hostile = "D\u{1B}]0;owned\u{7}\r"
        let finding = Finding(
            rule: "nse-overrun", category: .overrun, severity: .error, device: hostile, launch: "L\u{1B}[1m",
            ts: Timestamp(microseconds: 1_763_712_000_000_000), events: [], message: "took \u{1B}[31mlong\u{0}")
        let report = CheckReport(source: "s.db", devices: 1, events: 1, seconds: 0.1, findings: [finding])
        let text = TextReport.render(report)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains("device D\\u{1B}]0;owned\\u{7}\\u{D} launch L\\u{1B}[1m"))
        #expect(text.contains("took \\u{1B}[31mlong\\u{0}"))
    }
}
