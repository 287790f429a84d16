#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw bytes of a file or standard input in fixed-size chunks through plain `read(2)`, the
/// cheapest path from the kernel, into one buffer reused for the whole stream.
final class ByteSource {
    let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes already read by `prefix(_:)` that `next()` has yet to hand out.
    private var pending = 0
    private(set) var bytesRead = 0

    /// Opens `path`, or standard input for "-".
    convenience init(path: String, chunkSize: Int) throws(ReadError) {
        if path == "-" {
            self.init(descriptor: 0, name: path, ownsDescriptor: false, chunkSize: chunkSize)
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: systemErrorText(errno))
        }
        // A directory opens fine and only fails at the first read; say so where it belongs.
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(path: path, reason: systemErrorText(EISDIR))
        }
        self.init(descriptor: descriptor, name: path, ownsDescriptor: true, chunkSize: chunkSize)
    }

    /// Reads an already open descriptor; `name` stands in for the path in errors.
    init(descriptor: Int32, name: String, ownsDescriptor: Bool, chunkSize: Int) {
        precondition(chunkSize >= Compression.magicLength, "chunks must hold a magic number")
        self.path = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.buffer = .allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// The first `count` bytes (fewer if the stream is shorter), read ahead without consuming
    /// them: pipes deliver in dribbles, so one `read` may not reach a whole magic number.
    func prefix(_ count: Int) throws(ReadError) -> UnsafeRawBufferPointer {
        while pending < count {
            let n = try readSome(into: pending)
            if n == 0 { break }
            pending += n
        }
        return UnsafeRawBufferPointer(rebasing: buffer[..<pending])
    }

    /// The next chunk, valid until the following call; empty at end of input.
    func next() throws(ReadError) -> UnsafeRawBufferPointer {
        if pending > 0 {
            defer { pending = 0 }
            return UnsafeRawBufferPointer(rebasing: buffer[..<pending])
        }
        let n = try readSome(into: 0)
        return UnsafeRawBufferPointer(rebasing: buffer[..<n])
    }

    private func readSome(into offset: Int) throws(ReadError) -> Int {
        while true {
            let n = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if n >= 0 {
                bytesRead += n
                return n
            }
            if errno != EINTR {
                throw .readFailed(path: path, reason: systemErrorText(errno))
            }
        }
    }
}
