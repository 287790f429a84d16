#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import TraceModel

/// Reads a JSON Lines log, plain or zstd or gzip (told apart by magic bytes), and hands out
/// its lines one at a time from reused buffers. Memory stays bounded by a few chunk-sized
/// buffers and one frame's output (see ``FrameHold``) whatever the size of the file or of its
/// lines.
///
/// Field logs end badly: loggers are killed mid-frame and storage flips bits. Rather than
/// failing, the reader delivers every line it can trust and accounts for the others in
/// `damage`: a compressed frame is delivered only once it has decoded and verified whole; a
/// damaged one delivers nothing, its lines are counted as lost, and reading resumes at the
/// next frame found after it. Lines delivered + lines lost = every line of the input.
///
/// Each frame's format is told by its own magic number, so a stream may mix zstd frames and
/// gzip members (`cat *.zst *.gz | lifeline check --stdin`), and text after a frame is read as
/// plain lines to the end, as `zstd -dcf` does.
///
/// A class, not a struct, so that the line callback may read the progress counters while
/// `forEachLine` runs. Use it from one thread.
public final class LineReader {
    /// The format found in the first bytes of the input (a stream may switch formats between
    /// frames; see above).
    public let compression: Compression
    /// Compressed bytes read from the source so far, for progress in MB/s of the input.
    public var compressedBytesRead: Int { source.bytesRead }
    /// Decompressed bytes delivered so far (for plain input, the bytes read).
    public private(set) var decompressedBytes = 0
    /// Once `forEachLine` returns: every damaged stretch of the input, in order, with the
    /// lines it took. Empty for a healthy stream.
    public private(set) var damage: [StreamDamage] = []
    /// Lowercase hex SHA-256 of every byte of the source, when created with `hashing: true`
    /// and the source was read to its end. Meant for standard input and other sources that
    /// can be read only once, which cannot be hashed beforehand.
    public private(set) var sha256: String?

    /// The damage that ended the stream when it was cut short (input ended mid-frame).
    public var cut: StreamDamage? { damage.last.flatMap { $0.kind == .cut ? $0 : nil } }
    /// Lines of the input so far, delivered or lost: the number of the last one.
    public var lineCount: Int { splitter.lineNumber }
    /// Lines lost to damage and cuts.
    public var lostLines: Int { damage.reduce(0) { $0 + $1.lines } }

    private let source: ByteSource
    /// The decompressor of the frame being read; nil once the stream is plain text.
    private var decompressor: (any Decompressor)?
    /// One decompressor per format, made when a frame of that format first comes.
    private var zstd: ZstdDecompressor?
    private var gzip: GzipDecompressor?
    private let gzipOutputStep: Int
    /// The last bytes of a chunk that ended between frames, too few to tell the next frame's
    /// format by: read again in front of the next chunk.
    private var boundary: [UInt8] = []
    private let hold: FrameHold
    /// Finds the next frame of either format after damage.
    private var finder = FrameFinder { ZstdDecompressor.startsFrame($0) || GzipDecompressor.startsFrame($0) }
    /// In plain text, whether the next byte begins a line (and so may begin a frame).
    private var plainLineStart = false
    private let splitter: LineSplitter
    private var hasher: SHA256?
    private var started = false
    /// After damage, until the next frame is found.
    private var resyncing = false

    /// Opens a file, or standard input for "-", and reads far enough to detect its format.
    ///
    /// - Parameters:
    ///   - maxLineBytes: Longer lines are reported as `.tooLong` with a prefix instead of
    ///     being buffered whole, so one corrupt line without newlines cannot exhaust memory.
    ///   - hashing: Also compute `sha256` of the raw source bytes as they stream past.
    /// - Throws: `ReadError.cannotOpen` naming the path and the OS's reason.
    public convenience init(path: String, maxLineBytes: Int = 1 << 20, hashing: Bool = false) throws {
        try self.init(path: path, maxLineBytes: maxLineBytes, hashing: hashing, chunkSize: 1 << 20)
    }

    /// `chunkSize` sizes the read buffer and the first frame buffer, and `frameMemory` caps the
    /// memory one frame's output may take before it spills to disk; tests shrink both.
    convenience init(path: String, maxLineBytes: Int, hashing: Bool, chunkSize: Int, frameMemory: Int = 16 << 20) throws {
        try self.init(
            source: ByteSource(path: path, chunkSize: chunkSize),
            maxLineBytes: maxLineBytes, hashing: hashing, chunkSize: chunkSize, frameMemory: frameMemory)
    }

    init(source: ByteSource, maxLineBytes: Int, hashing: Bool, chunkSize: Int, frameMemory: Int = 16 << 20) throws {
        self.source = source
        compression = Compression.detect(try source.prefix(Compression.magicLength))
        gzipOutputStep = min(chunkSize, 128 << 10)
        hold = FrameHold(initialCapacity: compression == .none ? 1 : chunkSize, memoryCap: frameMemory)
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        hasher = hashing ? SHA256() : nil
        decompressor = try decompressor(for: compression)
    }

    /// The decompressor for frames of `format` (nil for plain text), made on first use.
    private func decompressor(for format: Compression) throws(ReadError) -> (any Decompressor)? {
        switch format {
        case .zstd:
            if zstd == nil { zstd = try ZstdDecompressor() }
            return zstd
        case .gzip:
            if gzip == nil { gzip = try GzipDecompressor(outputStep: gzipOutputStep) }
            return gzip
        case .none:
            return nil
        }
    }

    /// Calls `body` for each line, in order, with its 1-based number; returning false stops
    /// early. `line.bytes` excludes the line's `\n` and a `\r` before it, and is valid only
    /// during the call. Blank lines are delivered too; skipping them is the decoder's call.
    /// Lost lines take numbers too (see ``StreamDamage/afterLine``), so the numbers delivered
    /// have gaps where `damage` says.
    ///
    /// A last line without a newline is delivered if the stream ended cleanly, and counted
    /// as lost if it was cut short. The input is read once: calling this again delivers nothing.
    ///
    /// - Throws: `ReadError.readFailed` if the OS fails a read, or whatever `body` throws.
    public func forEachLine(_ body: (Line) throws -> Bool) throws {
        guard !started else { return }
        started = true
        while true {
            let chunk = try source.next()
            if chunk.isEmpty { break }
            hasher?.update(bufferPointer: chunk)
            guard try decode(chunk, at: source.bytesRead - chunk.count, body) else { return }
        }
        try finish(body)
        sha256 = hasher.map { hexString($0.finalize()) }
    }

    /// Decodes `input`, which starts at byte `offset` of the stream, delivering each frame that
    /// verifies and resynchronising after one that does not; false if `body` asked to stop.
    /// `final` says the input ends with these bytes: the format of a frame is then told by as
    /// many of its first bytes as there are.
    private func decode(
        _ input: UnsafeRawBufferPointer, at offset: Int, final: Bool = false, _ body: (Line) throws -> Bool
    ) throws -> Bool {
        if !boundary.isEmpty {
            let joined = boundary + input
            let start = offset - boundary.count
            boundary = []
            return try joined.withUnsafeBytes { try decode($0, at: start, final: final, body) }
        }
        var position = 0
        while position < input.count {
            if resyncing, let decompressor {
                let found = finder.find(in: input, from: position)
                noteSkippedText(UnsafeRawBufferPointer(rebasing: input[position ..< (found?.index ?? input.count)]))
                guard let found else { return true }
                resyncing = false
                decompressor.reset()
                position = found.index
                if !found.carried.isEmpty {
                    // The magic began in the previous chunk: read on from it.
                    endDamage(at: offset - found.carried.count)
                    boundary = found.carried
                    return try decode(UnsafeRawBufferPointer(rebasing: input[position...]), at: offset + position, body)
                }
                endDamage(at: offset + position)
            }
            if decompressor?.frameOpen == false {
                // Between frames: the next one's magic number says its format.
                guard final || input.count - position >= FrameMagic.length else {
                    boundary = Array(input[position...])
                    return true
                }
                let head = position ..< min(position + FrameMagic.length, input.count)
                try switchFormat(at: UnsafeRawBufferPointer(rebasing: input[head]))
            }
            guard let decompressor else {
                // Plain text, up to a line that begins a frame (files concatenated).
                let rest = UnsafeRawBufferPointer(rebasing: input[position...])
                let (text, frameFollows) = Self.textBeforeFrame(in: rest, startsLine: plainLineStart, final: final)
                if text > 0 { plainLineStart = rest[text - 1] == 0x0A }
                decompressedBytes += text
                guard try splitter.feed(UnsafeRawBufferPointer(rebasing: rest[..<text]), body) else { return false }
                position += text
                if frameFollows {
                    try switchFormat(at: UnsafeRawBufferPointer(rebasing: input[position ..< position + FrameMagic.length]))
                } else if position < input.count {
                    // Fewer bytes after the last newline than a magic number: read them again
                    // in front of the next chunk.
                    boundary = Array(input[position...])
                    return true
                }
                continue
            }
            let rest = UnsafeRawBufferPointer(rebasing: input[position...])
            switch try decompressor.decompress(rest, at: offset + position, into: hold) {
            case .needsInput:
                return true
            case .frameEnded(let consumed):
                // A frame ends after at least its header; never loop in place whatever the library says.
                position += max(consumed, 1)
                guard try deliverHold(body) else { return false }
            case .damaged(let reason, let decodedToEnd, let contentVerified):
                recordDamage(decompressor, reason: reason, decodedToEnd: decodedToEnd, exact: decodedToEnd && contentVerified)
                // The next frame starts after this one's first byte; bytes of this input before
                // `position` were consumed as part of it or of frames already delivered.
                position = max(position, decompressor.frameStart + 1 - offset)
                resyncing = true
            }
        }
        return true
    }

    /// How many bytes of plain `text` come before a line that starts with a frame's magic number,
    /// and whether one does. A line of valid UTF-8 text cannot start with the zstd or gzip magic
    /// (their second byte is a UTF-8 continuation byte). When `text` ends fewer bytes after a
    /// newline than a magic number takes and they may begin one, they are left out (unless the
    /// input is `final`) to be judged with the next chunk. `startsLine`: `text` begins a line.
    static func textBeforeFrame(in text: UnsafeRawBufferPointer, startsLine: Bool, final: Bool) -> (Int, Bool) {
        guard let base = text.baseAddress else { return (0, false) }
        /// Where the line after the newline found at or after `from` starts.
        func lineAfterNewline(from: Int) -> Int? {
            memchr(base + from, 0x0A, text.count - from).map { base.distance(to: UnsafeRawPointer($0)) + 1 }
        }
        var lineStart = startsLine ? 0 : lineAfterNewline(from: 0)
        while let start = lineStart, start < text.count {
            let head = UnsafeRawBufferPointer(rebasing: text[start ..< min(start + FrameMagic.length, text.count)])
            if FrameMagic.zstd(head) || FrameMagic.gzip(head) {
                if head.count == FrameMagic.length { return (start, true) }
                if !final { return (start, false) }
            }
            lineStart = lineAfterNewline(from: start)
        }
        return (text.count, false)
    }

    /// Picks the decompressor for the frame whose first bytes are `head`: zstd or gzip by their
    /// magic numbers; plain text when it starts like a line of JSON (`{` or white space), as
    /// `zstd -dcf` passes text through. Anything else stays with the current decompressor,
    /// which reports it as damage.
    private func switchFormat(at head: UnsafeRawBufferPointer) throws(ReadError) {
        let format = Compression.detect(head)
        if format != .none {
            decompressor = try decompressor(for: format)
        } else if let first = head.first, first == UInt8(ascii: "{") || first == 0x20 || (0x09...0x0D).contains(first) {
            decompressor = nil
        }
    }

    private func deliverHold(_ body: (Line) throws -> Bool) throws -> Bool {
        try hold.drain { output in
            decompressedBytes += output.count
            return try splitter.feed(output, body)
        }
    }

    /// Counts the lines of a damaged frame as lost: those its decoded part ends, plus the line
    /// it stops inside (which began in an earlier frame or in this one), if any.
    private func recordDamage(_ decompressor: any Decompressor, reason: String, decodedToEnd: Bool, exact: Bool) {
        let (newlines, endsMidLine) = hold.tally()
        // The line in progress was counted as lost with the damage just before this frame.
        let alreadyCounted = splitter.droppingTail
        let partial = splitter.forgetPartialLine() || alreadyCounted
        let dangling = newlines == 0 ? partial || !hold.isEmpty : endsMidLine
        var lost = newlines + (dangling ? 1 : 0)
        if alreadyCounted, lost > 0 { lost -= 1 }
        hold.discard()
        let afterLine = splitter.lineNumber
        // Only when the frame was decoded to its end is it known that the next frame goes on
        // with the same line; otherwise its first piece is delivered and judged as a line.
        splitter.skip(lines: lost, tailFollows: dangling && decodedToEnd)
        let from = decompressor.frameStart
        if let last = damage.indices.last, damage[last].kind == .corrupt, damage[last].to == from {
            // The frame found by resynchronising failed too: one stretch of damage.
            damage[last].lines += lost
            damage[last].exact = damage[last].exact && exact
            return
        }
        damage.append(StreamDamage(
            kind: .corrupt, from: from, to: from, lines: lost, exact: exact, afterLine: afterLine,
            reason: "\(decompressor.unitName) starting at byte \(from) is damaged: \(reason)"))
    }

    private func endDamage(at offset: Int) {
        if let last = damage.indices.last { damage[last].to = offset }
    }

    /// Bytes skipped while looking for the next frame that hold the start of a JSON line
    /// (`\n{`): plain text may have followed the damaged frame (files concatenated), and its
    /// lines went with the damage, so the count of lost lines is only a lower bound. (Inside
    /// compressed bytes the pair is rare, and taking one for text only understates certainty.)
    private func noteSkippedText(_ bytes: UnsafeRawBufferPointer) {
        guard let last = damage.indices.last, damage[last].exact, let base = bytes.baseAddress, bytes.count > 1 else { return }
        var from = 0
        while let newline = memchr(base + from, 0x0A, bytes.count - from - 1) {
            let index = base.distance(to: UnsafeRawPointer(newline))
            if bytes[index + 1] == UInt8(ascii: "{") {
                damage[last].exact = false
                return
            }
            from = index + 1
        }
    }

    /// At the end of the input: closes damage still being skipped, or delivers the complete
    /// lines of a frame cut short and counts its unterminated last line as lost.
    private func finish(_ body: (Line) throws -> Bool) throws {
        let end = source.bytesRead
        if !boundary.isEmpty {
            let tail = boundary
            boundary = []
            guard try tail.withUnsafeBytes({ try decode($0, at: end - tail.count, final: true, body) }) else { return }
        }
        if resyncing {
            endDamage(at: end)
            return
        }
        guard let decompressor, decompressor.frameOpen else {
            try splitter.finish(body)
            return
        }
        guard try deliverHold(body) else { return }
        let afterLine = splitter.lineNumber
        let lost = splitter.forgetPartialLine() ? 1 : 0
        splitter.skip(lines: lost, tailFollows: false)
        let unit = decompressor.unitName
        let start = decompressor.frameStart
        damage.append(StreamDamage(
            kind: .cut, from: start, to: end, lines: lost, exact: false, afterLine: afterLine,
            reason: "\(unit) starting at byte \(start) cut short at byte \(end): input ended mid-\(unit.split(separator: " ").last ?? "")"))
    }
}
