import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes, read-only, alive as long as this object is: mapped from the page cache by
/// ``LocalFileSystem/readShared(_:)`` (no copy into fresh memory, which a rebuild paid for 150 MB
/// of kept state and previous output: zeroed pages, page faults, the kernel's copy), else held
/// in memory it owns.
public final class FileBytes: @unchecked Sendable {
    /// The bytes, valid while this object is alive. Read-only: a mapping is mapped so.
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
    private let mapped: Bool

    /// A copy of `bytes`, in memory this object owns.
    public init(copying bytes: some Collection<UInt8>) {
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = memory.initialize(fromContentsOf: bytes)
        buffer = UnsafeBufferPointer(rebasing: memory[0..<bytes.count])
        mapped = false
    }

    /// Takes over a read-only mapping of `count` bytes at `base` (unmapped when this goes).
    init(mapping base: UnsafeRawPointer, count: Int) {
        buffer = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        mapped = true
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }

    public var count: Int { buffer.count }

    /// `body` over the bytes, this object kept alive meanwhile (the pointer must not escape).
    @inlinable public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(buffer) }
    }

    /// A copy of the bytes.
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes at `range` as a `Data` that copies none of them and keeps this object alive.
    public func data(_ range: Range<Int>) -> Data {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "a range within the file's bytes")
        guard let base = buffer.baseAddress, !range.isEmpty else { return Data() }
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base + range.lowerBound), count: range.count, deallocator: .custom { _, _ in
            withExtendedLifetime(self) {}
        })
    }

    /// Gives a mapping's pages back to the page cache (they no longer count in the process's
    /// memory); the next read of them maps them again, from the same file even once it is
    /// replaced or removed. For bytes kept long after they were first read. (Memory this object
    /// owns is left as it is.)
    public func dropResidentPages() {
        #if os(Linux)
        guard mapped, let base = buffer.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), buffer.count, MADV_DONTNEED)
        #endif
    }
}
