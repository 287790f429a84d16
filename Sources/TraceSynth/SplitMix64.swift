import Foundation

/// A small, fast, seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// Public for the fuzz harness, whose inputs are reproduced from one seed each.
/// The generator must never draw from the system's randomness: the same ``CorpusSpec`` has to
/// yield byte-identical files on every machine and in every order of generation.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator for one stream of a corpus, e.g. `(seed, device, day)`: the parts are mixed
    /// one by one so that neighbouring parts give unrelated streams.
    public init(_ parts: UInt64...) {
        var mixed: UInt64 = 0x5EED_1F5E_5EED_1F5E
        for part in parts { mixed = SplitMix64.mix(mixed &+ 0x9E37_79B9_7F4A_7C15 ^ part) }
        state = mixed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0 ..< 1`.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A uniform duration in milliseconds between two durations given in seconds.
    mutating func millis(_ low: Double, _ high: Double) -> Int64 {
        Int64((low + (high - low) * unit()) * 1000)
    }

    /// An exponentially distributed value with the given mean (waiting times between events).
    mutating func exponential(mean: Double) -> Double { -mean * log1p(-unit()) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
