import CBestiarySystem
import Foundation

/// The process's memory as the allocator holds it.
public enum ProcessMemory {
    /// Gives memory freed since to the system. glibc keeps freed memory for reuse, so a stage's
    /// temporary data (decoded cache entries, parsed YAML) would otherwise count in the process's
    /// peak memory until it ends. Takes a few milliseconds; a no-op where not glibc.
    public static func releaseFreed() {
        cbestiary_release_free_memory()
    }

    /// Lets large blocks (a list page of 10,000 cards, a pack manifest: megabytes each) go back
    /// to the system as soon as they are freed. glibc otherwise raises its mapping threshold each
    /// time such a block is freed, after which they come from the heap and stay in the process
    /// (fragmented between small live objects) until it ends. Call once, at start.
    public static func returnLargeBlocksPromptly(threshold: Int = 256 << 10) {
        cbestiary_map_large_blocks(threshold)
    }

    /// The opposite of ``returnLargeBlocksPromptly(threshold:)`` for a process whose peak does
    /// not matter and that ends soon: blocks up to `threshold` (32 MiB, glibc's largest) come
    /// from the heap and freed ones are reused, instead of each being mapped, faulted in page by
    /// page and unmapped again (a rebuild's multi-MB pages, catalogue, manifest and kept files).
    public static func keepFreedMemory(threshold: Int = 32 << 20) {
        cbestiary_keep_freed_memory(threshold)
    }

    /// Holds `values` until the process ends, so that their memory is never freed piece by piece:
    /// a one-shot command about to exit would otherwise spend half a second releasing a 10,000-animal
    /// build's values one by one (compilers skip freeing at exit for the same reason). Only for a
    /// process that ends soon after; a long-running one would keep them for nothing.
    public static func leaveToExit(_ values: [Any]) {
        leftLock.lock()
        left.append(values)
        leftLock.unlock()
    }

    private static let leftLock = NSLock()
    nonisolated(unsafe) private static var left: [[Any]] = []

    /// True where the calls above do something (glibc). They were once silently no-ops.
    public static var isControllable: Bool {
        cbestiary_memory_control_available() == 1
    }
}
