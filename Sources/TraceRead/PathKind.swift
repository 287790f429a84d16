#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names, from `stat(2)` (symbolic links followed), without opening it: opening
/// a FIFO blocks until a writer comes, and reading one, a socket or a device twice (once to
/// hash it, once to decode it) reads different bytes each time.
public enum PathKind: Sendable, Hashable {
    /// A regular file: it can be hashed before it is read, and read again.
    case regular
    case directory
    /// A FIFO (also what `<(command)` and `/dev/stdin` on a pipe name), socket or device,
    /// with its kind in words: it can be read once only.
    case other(String)

    /// The kind of `path`, or the OS's reason it cannot be looked at.
    public static func of(_ path: String) -> Result<PathKind, ReadError> {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return .failure(.cannotOpen(path: path, reason: systemErrorText(errno)))
        }
        return .success(kind(of: status.st_mode))
    }

    static func kind(of mode: mode_t) -> PathKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .other("a FIFO")
        case S_IFSOCK: .other("a socket")
        case S_IFCHR: .other("a character device")
        case S_IFBLK: .other("a block device")
        default: .other("not a file")
        }
    }
}
