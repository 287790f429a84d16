import Testing
@testable import TraceRead

/// Seeded random streams of zstd frames, gzip members and plain text, some with one byte of a
/// compressed piece flipped, read in random chunk sizes: reading never traps, an intact stream
/// gives exactly its lines, and a damaged one gives only lines of the stream, in order, every
/// line before the damaged piece, and a line count that accounts for what it delivered. (After
/// damage, plain text up to the next frame is skipped with it, and a line the damaged piece may
/// have left unfinished is counted as lost rather than trusted: see `LineReader`.)
@Suite struct MixedStreamFuzzTests {
    /// A deterministic generator (SplitMix64), so that a failing seed can be replayed.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    struct Piece {
        let bytes: [UInt8]
        let lines: [String]
        let compressed: Bool
    }

    /// Twelve pieces, each with its own lines: four of each format.
    static func pool(_ scratch: Scratch) throws -> [Piece] {
        try (0 ..< 12).map { index in
            let lines = (0 ..< 1 + index % 5).map { "{\"piece\":\(index),\"line\":\($0)}" }
            let text = lines.joined(separator: "\n") + "\n"
            switch index % 3 {
            case 0: return Piece(bytes: try scratch.compress(text, with: "zstd", name: "p\(index)"), lines: lines, compressed: true)
            case 1: return Piece(bytes: try scratch.compress(text, with: "gzip", name: "p\(index)"), lines: lines, compressed: true)
            default: return Piece(bytes: Array(text.utf8), lines: lines, compressed: false)
            }
        }
    }

    @Test func randomMixedStreamsReadWholeOrLoseOnlyWhatFollowsTheDamage() throws {
        let scratch = try Scratch()
        let pool = try Self.pool(scratch)
        var random = Seeded(state: 20_261_123)
        for round in 0 ..< 300 {
            let pieces = (0 ..< 1 + random.next(6)).map { _ in pool[random.next(pool.count)] }
            var bytes = pieces.flatMap(\.bytes)
            // Flip one byte after the magic number of one compressed piece, in half the rounds.
            var damaged: Int?
            if random.next(2) == 0, let victim = pieces.indices.filter({ pieces[$0].compressed }).randomElement(using: &random) {
                let start = pieces[..<victim].reduce(0) { $0 + $1.bytes.count }
                let offset = 4 + random.next(pieces[victim].bytes.count - 4)
                bytes[start + offset] ^= UInt8(1 + random.next(255))
                damaged = victim
            }
            let path = try scratch.write("round\(round)", bytes)
            let chunk = [5, 7, 13, 64, 1 << 20][random.next(5)]
            let (got, reader) = try readAll(path, chunkSize: chunk)
            let read = got.map(\.text).filter { !$0.isEmpty }
            let expected = pieces.flatMap(\.lines)
            guard let damaged else {
                #expect(read == expected, "round \(round), chunks of \(chunk)")
                #expect(reader.damage.isEmpty, "round \(round)")
                continue
            }
            #expect(Self.isSubsequence(read, of: expected), "round \(round): a line that is not the stream's")
            let before = pieces[..<damaged].flatMap(\.lines)
            #expect(Array(read.prefix(before.count)) == before, "round \(round): a line before the damage was lost")
            #expect(reader.lineCount >= got.count, "round \(round)")
            // A flip the format does not protect (a gzip header's time stamp) changes no line.
            if reader.damage.isEmpty { #expect(read == expected, "round \(round): unreported damage changed lines") }
        }
    }

    static func isSubsequence(_ small: [String], of large: [String]) -> Bool {
        var rest = large[...]
        for item in small {
            guard let found = rest.firstIndex(of: item) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }
}

extension MixedStreamFuzzTests.Seeded: RandomNumberGenerator {
    mutating func next() -> UInt64 { UInt64(next(Int.max)) }
}
