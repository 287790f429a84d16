import Crypto
import TraceModel

/// Reads a JSON Lines log, plain or zstd or gzip (told apart by magic bytes), and hands out
/// its lines one at a time from reused buffers. Memory stays bounded by a few chunk-sized
/// buffers whatever the size of the file or of its lines.
///
/// Field logs end badly: loggers are killed mid-frame and storage flips bits. Rather than
/// failing, the reader delivers every line it could decode and records the damage in `cut`.
///
/// A class, not a struct, so that the line callback may read the progress counters while
/// `forEachLine` runs. Use it from one thread.
public final class LineReader {
    /// The format found in the first bytes of the input.
    public let compression: Compression
    /// Compressed bytes read from the source so far, for progress in MB/s of the input.
    public var compressedBytesRead: Int { source.bytesRead }
    /// Decompressed bytes produced so far (for plain input, the bytes read).
    public private(set) var decompressedBytes = 0
    /// Set once `forEachLine` returns if the stream was truncated or corrupt: where, and why.
    public private(set) var cut: StreamCut?
    /// Lowercase hex SHA-256 of every byte of the source, when created with `hashing: true`
    /// and the source was read to its end. Meant for standard input, which cannot be hashed
    /// beforehand; when decoding stops at corruption the rest is still read for the hash.
    public private(set) var sha256: String?

    private let source: ByteSource
    private let decompressor: (any Decompressor)?
    private let splitter: LineSplitter
    private var hasher: SHA256?
    private var started = false

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

    /// `chunkSize` sizes both the read and the decompression buffers; tests shrink it to put
    /// lines across chunk boundaries.
    convenience init(path: String, maxLineBytes: Int, hashing: Bool, chunkSize: Int) throws {
        try self.init(
            source: ByteSource(path: path, chunkSize: chunkSize),
            maxLineBytes: maxLineBytes, hashing: hashing, chunkSize: chunkSize)
    }

    init(source: ByteSource, maxLineBytes: Int, hashing: Bool, chunkSize: Int) throws {
        self.source = source
        compression = Compression.detect(try source.prefix(Compression.magicLength))
        decompressor =
            switch compression {
            case .zstd: ZstdDecompressor(outputSize: chunkSize)
            case .gzip: GzipDecompressor(outputSize: chunkSize)
            case .none: nil
            }
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        hasher = hashing ? SHA256() : nil
    }

    /// Calls `body` for each line, in order, with its 1-based number; returning false stops
    /// early. `line.bytes` excludes the line's `\n` and a `\r` before it, and is valid only
    /// during the call. Blank lines are delivered too; skipping them is the decoder's call.
    ///
    /// A last line without a newline is `.complete` if the stream ended cleanly and
    /// `.cutShort` if it was truncated or corrupt, in which case `cut` says where and why.
    /// The input is read once: calling this again delivers nothing.
    ///
    /// - Throws: `ReadError.readFailed` if the OS fails a read, or whatever `body` throws.
    public func forEachLine(_ body: (Line) throws -> Bool) throws {
        guard !started else { return }
        started = true
        let splitter = splitter
        while true {
            let chunk = try source.next()
            if chunk.isEmpty { break }
            hasher?.update(bufferPointer: chunk)
            guard let decompressor else {
                decompressedBytes += chunk.count
                guard try splitter.feed(chunk, body) else { return }
                continue
            }
            let outcome = try decompressor.decompress(chunk, at: source.bytesRead - chunk.count) { output in
                decompressedBytes += output.count
                return try splitter.feed(output, body)
            }
            switch outcome {
            case .needsInput:
                continue
            case .stopped:
                return
            case let .corrupt(offset, reason):
                cut = StreamCut(compressedOffset: offset, afterLine: splitter.lineNumber, reason: reason)
                try splitter.finish(cut: true, body)
                try hashRemainder()
                return
            }
        }
        if let reason = decompressor?.incompleteReason(endingAt: source.bytesRead) {
            cut = StreamCut(compressedOffset: source.bytesRead, afterLine: splitter.lineNumber, reason: reason)
        }
        try splitter.finish(cut: cut != nil, body)
        sha256 = hasher.map { hexString($0.finalize()) }
    }

    private func hashRemainder() throws {
        guard var hasher else { return }
        while true {
            let chunk = try source.next()
            if chunk.isEmpty { break }
            hasher.update(bufferPointer: chunk)
        }
        sha256 = hexString(hasher.finalize())
    }
}
