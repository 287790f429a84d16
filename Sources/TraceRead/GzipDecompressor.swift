import CZlib

/// gzip through zlib's `inflate`. Window bits 15+32 accept a gzip (or zlib) header;
/// `Z_STREAM_END` comes only after zlib has checked the member's CRC32 and length, which is
/// what marks a member as verified, and `inflateReset` then continues with the next member,
/// because `cat a.gz b.gz` and loggers that reopen their output both make multi-member files.
final class GzipDecompressor: Decompressor {
    let unitName = "gzip member"
    private(set) var frameOpen = false
    private(set) var frameStart = 0
    /// Heap-pinned: zlib keeps a pointer back to its `z_stream` and rejects one that moved.
    private let stream: UnsafeMutablePointer<z_stream>
    private let outputStep: Int

    init(outputStep: Int) throws(ReadError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        self.outputStep = outputStep
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .readFailed(path: "gzip", reason: "inflateInit2 failed: \(String(cString: zError(status)))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    func decompress(_ input: UnsafeRawBufferPointer, at offset: Int, into hold: FrameHold) throws(ReadError) -> DecodeStep {
        guard let base = input.baseAddress, !input.isEmpty else { return .needsInput }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        // Chunks are far below 4 GiB; clamp anyway rather than trap.
        stream.pointee.avail_in = uInt(clamping: input.count)
        var consumed: Int { input.count - Int(stream.pointee.avail_in) }
        while true {
            if !frameOpen, stream.pointee.avail_in > 0 {
                frameOpen = true
                frameStart = offset + consumed
            }
            let space = try hold.space(atLeast: outputStep)
            stream.pointee.next_out = space.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(clamping: space.count)
            let status = inflate(stream, Z_NO_FLUSH)
            hold.commit(space.count - Int(stream.pointee.avail_out))
            switch status {
            case Z_STREAM_END:
                inflateReset(stream)
                frameOpen = false
                return .frameEnded(consumed: consumed)
            case Z_OK:
                // A full output buffer may hide more decoded data even when the input is used up.
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return .needsInput }
            case Z_BUF_ERROR:
                // No progress possible without more input: not an error for a stream.
                return .needsInput
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? String(cString: zError(status))
                // zlib's wording for the trailer checks, made after the member's last byte.
                let trailer = message == "incorrect data check" || message == "incorrect length check"
                // zlib checks the CRC-32 before the length: a wrong length means the content
                // matched its CRC.
                return .damaged(reason: message, decodedToEnd: trailer, contentVerified: message == "incorrect length check")
            }
        }
    }

    func reset() {
        inflateReset(stream)
        frameOpen = false
    }

    static func startsFrame(_ bytes: UnsafeRawBufferPointer) -> Bool { FrameMagic.gzip(bytes) }
}
