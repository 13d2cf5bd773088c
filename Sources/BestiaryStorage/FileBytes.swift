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
}
