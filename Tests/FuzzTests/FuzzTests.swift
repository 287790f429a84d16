import Fuzzing
import Testing

@Suite struct FuzzTests {
    /// A bounded, seeded fuzz run: decoder, replay with every rule and every renderer. A trap
    /// fails the test process; broken invariants are listed with their seeds
    /// (`swift run -c release lifeline-fuzz --seed SEED --inputs 1` reproduces one).
    @Test func seededInputsBreakNoInvariant() {
        var harness = FuzzHarness()
        harness.run(base: 20_261_121, count: 6_000)
        let tally = harness.tally
        #expect(tally.inputs == 6_000)
        // The mix reaches both sides of the decoder and the rules.
        #expect(tally.events > 10_000)
        #expect(tally.rejects.values.reduce(0, +) > 1_000)
        #expect(tally.findings > 100)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(10))")
    }
}
