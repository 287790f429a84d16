/// Finds where the next frame (or member) starts after damage, by its magic number, also when
/// the magic straddles two chunks. A false match (the magic's bytes inside compressed data)
/// is harmless: decoding it fails, and the search goes on after it.
struct FrameFinder {
    let startsFrame: (UnsafeRawBufferPointer) -> Bool
    /// The last bytes of the previous chunk, when they could be the start of a magic.
    private var carried: [UInt8] = []

    init(startsFrame: @escaping (UnsafeRawBufferPointer) -> Bool) {
        self.startsFrame = startsFrame
    }

    /// Where a frame starts at or after `from` in `chunk`: at `index` in the chunk, or, when
    /// `carried` is not empty, with those bytes just before the chunk (then `index` is 0).
    /// Nil when the chunk holds none; its last bytes are kept if they may begin one.
    mutating func find(in chunk: UnsafeRawBufferPointer, from: Int) -> (index: Int, carried: [UInt8])? {
        if !carried.isEmpty {
            let previous = carried
            carried = []
            let joined = previous + chunk.prefix(FrameMagic.length - previous.count)
            if joined.count == FrameMagic.length, joined.withUnsafeBytes(startsFrame) { return (0, previous) }
        }
        var index = max(from, 0)
        while index < chunk.count {
            let window = UnsafeRawBufferPointer(rebasing: chunk[index..<min(index + FrameMagic.length, chunk.count)])
            if startsFrame(window) {
                if window.count == FrameMagic.length { return (index, []) }
                carried = Array(window)
                return nil
            }
            index += 1
        }
        return nil
    }
}
