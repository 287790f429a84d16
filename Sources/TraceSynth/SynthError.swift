/// Why a corpus or sample file could not be written, naming the file.
public enum SynthError: Error, Sendable, CustomStringConvertible {
    /// The file or directory could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// The compressor failed.
    case compression(path: String, message: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .compression(let path, let message): "cannot compress \(path): \(message)"
        }
    }
}
