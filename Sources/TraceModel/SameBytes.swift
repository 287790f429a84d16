#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether two runs of UTF-8 bytes are the same text: the lengths, then `memcmp`. The tables that
/// look short texts up by their bytes (event names, the replay's text numbers, the store reader's
/// string cache, the listed values of an open set) confirm every hit this way: the generic
/// `elementsEqual` walks both sides through iterators a byte at a time, and took a third of a
/// lookup.
public enum SameBytes {
    @inlinable
    public static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return left.isEmpty }
        return memcmp(leftStart, rightStart, left.count) == 0
    }

    @inlinable
    public static func equal(_ left: [UInt8], _ right: UnsafeRawBufferPointer) -> Bool {
        left.withUnsafeBytes { equal($0, right) }
    }
}
