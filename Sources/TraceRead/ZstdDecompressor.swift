import CZstd

/// zstd through `ZSTD_decompressStream`, which walks consecutive frames and skips skippable
/// ones on its own; what it cannot tell us is whether the input stopped mid-frame, so the
/// frame state is tracked here from its return values.
final class ZstdDecompressor: Decompressor {
    private let stream: OpaquePointer
    private let output: UnsafeMutableRawBufferPointer
    /// The last call left a frame unfinished (nonzero return: more input or flushing due).
    private var frameOpen = false
    private var frameStart = 0

    init(outputSize: Int) {
        guard let stream = ZSTD_createDStream() else {
            fatalError("out of memory creating a zstd decompression stream")
        }
        ZSTD_initDStream(stream)
        self.stream = stream
        self.output = .allocate(byteCount: outputSize, alignment: 16)
    }

    deinit {
        ZSTD_freeDStream(stream)
        output.deallocate()
    }

    func decompress(
        _ input: UnsafeRawBufferPointer, at offset: Int,
        emit: (UnsafeRawBufferPointer) throws -> Bool
    ) rethrows -> DecompressOutcome {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outputFull: Bool
        repeat {
            if !frameOpen { frameStart = offset + source.pos }
            var sink = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let result = ZSTD_decompressStream(stream, &sink, &source)
            if sink.pos > 0, try !emit(UnsafeRawBufferPointer(start: output.baseAddress, count: sink.pos)) {
                return .stopped
            }
            if ZSTD_isError(result) != 0 {
                // On error libzstd leaves `pos` where the failing call began, so the damage
                // lies somewhere at or after it.
                let at = offset + source.pos
                let name = String(cString: ZSTD_getErrorName(result))
                return .corrupt(offset: at, reason: "zstd: \(name) at or after byte \(at)")
            }
            frameOpen = result != 0
            // A full output buffer may hide more decoded data even when the input is used up.
            outputFull = sink.pos == sink.size
        } while source.pos < source.size || outputFull
        return .needsInput
    }

    func incompleteReason(endingAt offset: Int) -> String? {
        guard frameOpen else { return nil }
        return "zstd frame starting at byte \(frameStart) cut short at byte \(offset): input ended mid-frame"
    }
}
