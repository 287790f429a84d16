import CZstd

/// zstd through `ZSTD_decompressStream`, which returns 0 at the end of each frame (regular or
/// skippable) once it has checked the frame's content checksum, when the frame has one: that
/// return is what marks a frame as verified. A frame without a checksum is only as sure as
/// its decoding.
final class ZstdDecompressor: Decompressor {
    let unitName = "zstd frame"
    private(set) var frameOpen = false
    private(set) var frameStart = 0
    private let stream: OpaquePointer
    /// Room to ask of the hold per call: one full block, as libzstd recommends.
    private let outputStep = ZSTD_DStreamOutSize()
    /// The current frame's content size from its header, when recorded there and the header
    /// arrived in one piece; and how much of it has been committed to the hold.
    private var contentSize: Int?
    private var frameOutput = 0

    init() throws(ReadError) {
        guard let stream = ZSTD_createDStream() else {
            throw .readFailed(path: "zstd", reason: "out of memory creating a decompression stream")
        }
        ZSTD_initDStream(stream)
        self.stream = stream
    }

    deinit { ZSTD_freeDStream(stream) }

    func decompress(_ input: UnsafeRawBufferPointer, at offset: Int, into hold: FrameHold) throws(ReadError) -> DecodeStep {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        while true {
            if !frameOpen { startFrame(input, at: offset, position: source.pos) }
            let space = try hold.space(atLeast: outputStep)
            var sink = ZSTD_outBuffer(dst: space.baseAddress, size: space.count, pos: 0)
            let result = ZSTD_decompressStream(stream, &sink, &source)
            hold.commit(sink.pos)
            frameOutput += sink.pos
            if ZSTD_isError(result) != 0 {
                frameOpen = true
                var decodedToEnd = false
                // libzstd sets `sink.pos` only when a call returns without error, yet the content
                // checksum is checked after every byte of content was written to the output: the
                // rest of the frame is in `space`, and its header says how much there is.
                if ZSTD_getErrorCode(result) == ZSTD_error_checksum_wrong, let contentSize,
                   case let missing = contentSize - frameOutput, missing >= 0, missing <= space.count
                {
                    hold.commit(missing)
                    decodedToEnd = true
                }
                return .damaged(reason: String(cString: ZSTD_getErrorName(result)), decodedToEnd: decodedToEnd, contentVerified: false)
            }
            if result == 0 {
                frameOpen = false
                return .frameEnded(consumed: source.pos)
            }
            frameOpen = true
            // A full output buffer may hide more decoded data even when the input is used up.
            if source.pos == source.size, sink.pos < sink.size { return .needsInput }
        }
    }

    private func startFrame(_ input: UnsafeRawBufferPointer, at offset: Int, position: Int) {
        frameStart = offset + position
        frameOutput = 0
        let header = UnsafeRawBufferPointer(rebasing: input[position...])
        let size = ZSTD_getFrameContentSize(header.baseAddress, header.count)
        // Above Int.max are ZSTD_CONTENTSIZE_UNKNOWN and _ERROR (also a header cut by the chunk).
        contentSize = size <= UInt64(Int.max) ? Int(size) : nil
    }

    func reset() {
        ZSTD_DCtx_reset(stream, ZSTD_reset_session_only)
        frameOpen = false
    }

    static func startsFrame(_ bytes: UnsafeRawBufferPointer) -> Bool { FrameMagic.zstd(bytes) }
}
