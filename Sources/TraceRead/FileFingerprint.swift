import Crypto

/// Content identity of a log file, so the same upload ingested twice under different names
/// is recognised as the same.
public enum FileFingerprint {
    /// Lowercase hex SHA-256 of the file's bytes, streamed in 1 MiB chunks so the file's size
    /// does not matter. "-" hashes standard input.
    ///
    /// - Throws: `ReadError` naming the path.
    public static func sha256(path: String) throws -> String {
        let source = try ByteSource(path: path, chunkSize: 1 << 20)
        var hasher = SHA256()
        while true {
            let chunk = try source.next()
            if chunk.isEmpty { break }
            hasher.update(bufferPointer: chunk)
        }
        return hexString(hasher.finalize())
    }
}

func hexString(_ digest: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in digest {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
