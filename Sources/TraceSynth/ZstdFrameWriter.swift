import CZstd
import Foundation

/// Writes lines to a `.jsonl.zst` file as a field logger does: one complete zstd frame per
/// `linesPerFrame` lines, the frames concatenated, so that a file cut short loses one frame only.
public struct ZstdFrameWriter {
    /// The file and compression context; a class so that both are released exactly once.
    private final class Output {
        let file: UnsafeMutablePointer<FILE>
        let context: OpaquePointer
        let path: String
        var closed = false

        init(path: String) throws {
            guard let file = fopen(path, "wb") else { throw SynthError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            guard let context = ZSTD_createCCtx() else {
                fclose(file)
                throw SynthError.compression(path: path, message: "ZSTD_createCCtx failed")
            }
            self.file = file
            self.context = context
            self.path = path
        }

        deinit {
            if !closed { fclose(file) }
            ZSTD_freeCCtx(context)
        }
    }

    private let output: Output
    private let level: Int32
    private let linesPerFrame: Int
    private var pending: [UInt8] = []
    private var pendingLines = 0
    private var compressed: [UInt8] = []
    /// Compressed bytes written so far.
    public private(set) var bytesWritten = 0
    /// The file offset just past each frame written so far.
    private(set) var frameEnds: [Int] = []

    /// Creates (or truncates) the file at `path`.
    public init(path: String, level: Int = 3, linesPerFrame: Int = 500) throws {
        output = try Output(path: path)
        self.level = Int32(level)
        self.linesPerFrame = max(1, linesPerFrame)
    }

    /// Appends one line; a newline is added after it.
    public mutating func write(line: String) throws {
        var line = line
        line.withUTF8 { pending.append(contentsOf: $0) }
        pending.append(UInt8(ascii: "\n"))
        try lineAdded()
    }

    /// Appends lines given as UTF-8, each already ending in `\n` at the offsets `lineEnds`.
    public mutating func write(lineBytes bytes: [UInt8], lineEnds: [Int]) throws {
        var start = 0
        for end in lineEnds {
            pending.append(contentsOf: bytes[start..<end])
            start = end
            try lineAdded()
        }
    }

    /// Flushes the last frame and closes the file.
    public mutating func close() throws {
        if pendingLines > 0 { try flushFrame() }
        guard !output.closed else { return }
        output.closed = true
        guard fclose(output.file) == 0 else { throw SynthError.cannotWrite(path: output.path, reason: String(cString: strerror(errno))) }
    }

    private mutating func lineAdded() throws {
        pendingLines += 1
        if pendingLines >= linesPerFrame { try flushFrame() }
    }

    private mutating func flushFrame() throws {
        let bound = ZSTD_compressBound(pending.count)
        if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
        let size = pending.withUnsafeBytes { source in
            compressed.withUnsafeMutableBytes { target in
                ZSTD_compressCCtx(
                    output.context, target.baseAddress, target.count, source.baseAddress, source.count, level)
            }
        }
        if ZSTD_isError(size) != 0 {
            throw SynthError.compression(path: output.path, message: String(cString: ZSTD_getErrorName(size)))
        }
        let written = compressed.withUnsafeBytes { fwrite($0.baseAddress, 1, size, output.file) }
        guard written == size else { throw SynthError.cannotWrite(path: output.path, reason: String(cString: strerror(errno))) }
        bytesWritten += size
        frameEnds.append(bytesWritten)
        pending.removeAll(keepingCapacity: true)
        pendingLines = 0
    }
}
