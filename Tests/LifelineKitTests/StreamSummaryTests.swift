@testable import LifelineKit
import Testing
import TraceModel

/// The line `check --stdin` ends with must stay one readable line however much damage the
/// stream had: each stretch was reported on its own line before it.
@Suite struct StreamSummaryTests {
    private static func damage(_ from: Int, lines: Int, exact: Bool) -> StreamDamage {
        StreamDamage(kind: .corrupt, from: from, to: from + 100, lines: lines, exact: exact, afterLine: 0, reason: "bad")
    }

    private static func line(_ damage: [StreamDamage]) -> String {
        var totals = Analyzer.StreamTotals()
        totals.events = 10
        totals.devices = 1
        totals.damage = damage
        return StreamSummary.line(totals)
    }

    @Test func anIntactStreamSaysNoLineWasLost() {
        #expect(Self.line([]) == "replayed 10 events of 1 device: 0 findings, 0 rejected lines, 0 lost lines")
    }

    @Test func oneStretchSaysWhere() {
        #expect(Self.line([Self.damage(0, lines: 3, exact: true)]).hasSuffix(", 3 lost lines (bytes 0-100)"))
        #expect(Self.line([Self.damage(0, lines: 2, exact: false)]).hasSuffix(", at least 2 lost lines (bytes 0-100)"))
    }

    @Test func manyStretchesAreCountedNotListed() {
        let stretches = (0 ..< 400).map { Self.damage($0 * 1000, lines: 0, exact: false) }
        #expect(Self.line(stretches).hasSuffix(
            ", an unknown number of lost lines (in 400 stretches of damage, each reported above)"))
    }
}
