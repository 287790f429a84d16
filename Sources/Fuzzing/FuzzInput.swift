import TraceSynth

/// One fuzz input: a device log (a few lines) made from the corpus by one seeded generator, so
/// that its seed alone reproduces it.
public struct FuzzInput: Sendable {
    public let seed: UInt64
    public let lines: [[UInt8]]

    /// The input of `seed`: a window of one corpus log, a few of its lines mutated.
    public init(seed: UInt64, corpus: FuzzCorpus) {
        self.seed = seed
        var rng = SplitMix64(seed)
        let log = rng.pick(corpus.logs)
        let length = Int(rng.int(1 ... 40))
        let start = log.count > length ? Int(rng.int(0 ... Int64(log.count - length))) : 0
        var lines = log[start ..< min(log.count, start + length)].map { Array($0.utf8) }
        let mutations = Int(rng.int(0 ... 4))
        for _ in 0 ..< mutations where !lines.isEmpty {
            let index = Int(rng.int(0 ... Int64(lines.count - 1)))
            Self.mutate(&lines[index], other: rng.pick(lines), rng: &rng)
        }
        self.lines = lines
    }

    /// One mutation of `line`: a byte flipped, inserted or deleted, a splice with another line,
    /// a cut, or a field's value (or the event name) replaced by an extreme value.
    private static func mutate(_ line: inout [UInt8], other: [UInt8], rng: inout SplitMix64) {
        let position = line.isEmpty ? 0 : Int(rng.int(0 ... Int64(line.count - 1)))
        switch rng.int(0 ... 7) {
        case 0 where !line.isEmpty: line[position] ^= UInt8(truncatingIfNeeded: 1 << rng.int(0 ... 7))
        case 1: line.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
        case 2 where !line.isEmpty: line.remove(at: position)
        case 3: line = Array(line[..<position]) + Array(other[min(position, other.count)...])
        case 4: line.removeSubrange(position...)
        case 5: replaceValue(in: &line, key: rng.pick(FuzzCorpus.keys), with: rng.pick(FuzzCorpus.extremeValues))
        case 6: replaceValue(in: &line, key: "event", with: "\"\(rng.pick(FuzzCorpus.eventNames))\"")
        default:
            // A member added at the front: a duplicate key, an extreme value.
            guard line.first == UInt8(ascii: "{") else { return }
            let member = "\"\(rng.pick(FuzzCorpus.keys))\":\(rng.pick(FuzzCorpus.extremeValues)),"
            line.insert(contentsOf: member.utf8, at: 1)
        }
    }

    /// Replaces the value of `"key":` (up to the next `,` or `}` outside a string), or adds the
    /// member if the line has no such key.
    private static func replaceValue(in line: inout [UInt8], key: String, with value: String) {
        let pattern = Array("\"\(key)\":".utf8)
        guard line.count >= pattern.count,
              let start = (0 ... line.count - pattern.count).first(where: { line[$0 ..< $0 + pattern.count].elementsEqual(pattern) })
        else {
            if line.first == UInt8(ascii: "{") { line.insert(contentsOf: Array("\"\(key)\":\(value),".utf8), at: 1) }
            return
        }
        var end = start + pattern.count
        var inString = false
        while end < line.count {
            let byte = line[end]
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            if byte == UInt8(ascii: "\\"), inString { end += 2; continue }
            if !inString, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") { break }
            end += 1
        }
        line.replaceSubrange(start + pattern.count ..< min(end, line.count), with: Array(value.utf8))
    }
}
