import CZlib

/// gzip through zlib's `inflate`. Window bits 15+32 accept a gzip (or zlib) header, and
/// `inflateReset` after each member continues with the next, because `cat a.gz b.gz` and
/// loggers that reopen their output both make multi-member files.
final class GzipDecompressor: Decompressor {
    /// Heap-pinned: zlib keeps a pointer back to its `z_stream` and rejects one that moved.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var memberOpen = false
    private var memberStart = 0

    init(outputSize: Int) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            fatalError("inflateInit2 failed: \(String(cString: zError(status)))")
        }
        output = .allocate(byteCount: outputSize, alignment: 16)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    func decompress(
        _ input: UnsafeRawBufferPointer, at offset: Int,
        emit: (UnsafeRawBufferPointer) throws -> Bool
    ) rethrows -> DecompressOutcome {
        guard let base = input.baseAddress, !input.isEmpty else { return .needsInput }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        let outputBase = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        while true {
            let hasInput = stream.pointee.avail_in > 0
            if hasInput, !memberOpen {
                memberOpen = true
                memberStart = offset + input.count - Int(stream.pointee.avail_in)
            }
            stream.pointee.next_out = outputBase
            stream.pointee.avail_out = uInt(output.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0, try !emit(UnsafeRawBufferPointer(start: output.baseAddress, count: produced)) {
                return .stopped
            }
            switch status {
            case Z_OK:
                break
            case Z_STREAM_END:
                inflateReset(stream)
                memberOpen = false
            case Z_BUF_ERROR:
                // No progress possible without more input: not an error for a stream.
                return .needsInput
            default:
                let at = offset + input.count - Int(stream.pointee.avail_in)
                let message = stream.pointee.msg.map { String(cString: $0) } ?? String(cString: zError(status))
                return .corrupt(offset: at, reason: "gzip: \(message) at byte \(at)")
            }
            // A full output buffer may hide more decoded data even when the input is used up.
            if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return .needsInput }
        }
    }

    func incompleteReason(endingAt offset: Int) -> String? {
        guard memberOpen else { return nil }
        return "gzip member starting at byte \(memberStart) cut short at byte \(offset): input ended mid-member"
    }
}
