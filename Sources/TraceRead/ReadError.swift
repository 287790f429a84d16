#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a log could not be read at all. Both cases carry the path so a batch run over many
/// uploads says which one failed, and the OS's own wording so the cause needs no guessing.
public enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "cannot open \(path): \(reason)"
        case let .readFailed(path, reason): "cannot read \(path): \(reason)"
        }
    }
}

/// The OS's message for an errno value, e.g. "No such file or directory".
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

extension ReadError {
    /// The OS's reason, without the path.
    public var reason: String {
        switch self {
        case let .cannotOpen(_, reason), let .readFailed(_, reason): reason
        }
    }
}
