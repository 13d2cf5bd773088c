import CBestiarySystem
import Foundation

/// The process's memory as the allocator holds it.
public enum ProcessMemory {
    /// Gives memory freed since to the system. glibc keeps freed memory for reuse, so a stage's
    /// temporary data (decoded cache entries, parsed YAML) would otherwise count in the process's
    /// peak memory until it ends. Takes a few milliseconds on a build's heap, longer on a heap of
    /// hundreds of MB; a no-op where not glibc.
    public static func releaseFreed() {
        cbestiary_release_free_memory()
    }

    /// Lets large blocks (a list page of 10,000 cards, a pack manifest: megabytes each) go back
    /// to the system as soon as they are freed. glibc otherwise raises its mapping threshold each
    /// time such a block is freed, after which they come from the heap and stay in the process
    /// (fragmented between small live objects) until it ends. Called at start, and by
    /// ``WarmMemory`` to undo ``keepFreedMemory(threshold:pad:)``.
    public static func returnLargeBlocksPromptly(threshold: Int = 256 << 10) {
        cbestiary_map_large_blocks(threshold)
    }

    /// The opposite of ``returnLargeBlocksPromptly(threshold:)`` for a process whose peak does
    /// not matter and that ends soon: blocks up to `threshold` (32 MiB, glibc's largest) come
    /// from the heap and freed ones are reused, instead of each being mapped, faulted in page by
    /// page and unmapped again (a rebuild's multi-MB pages, catalogue, manifest and kept files).
    /// The heap grows by `pad` beyond each need (glibc's default is 128 KiB: a rebuild of the
    /// bench corpus grew it thousands of times, each a system call that changes the process's
    /// mappings while the other threads fault pages in). Reserved, not touched: a full build keeps
    /// the default, as it would also keep as much freed at each arena's top through its peak.
    public static func keepFreedMemory(threshold: Int = 32 << 20, pad: Int = 64 << 20) {
        cbestiary_keep_freed_memory(threshold, pad)
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

/// A long-running process's memory between pieces of work that come in bursts (the preview's
/// rebuilds while someone edits): what one piece frees is kept for the next
/// (``ProcessMemory/keepFreedMemory(threshold:pad:)``), and given back to the system
/// (``ProcessMemory/releaseFreed()``, large blocks mapped on their own again) once no work came
/// for `idle` seconds.
///
/// Giving a rebuild's memory back at its end (a trim of the whole heap) made the next rebuild
/// fault it all in again, page by page: on the 10,000-animal bench corpus the median rebuild
/// took 2.35 s so and 2.15 s with the memory kept (measured on 2026-12-05). Why it cost that
/// much is not fully known: a new page's fault alone measured 2.2 µs on that machine.
/// Kept, the preview holds about 250 MB more on that corpus while edits come.
public final class WarmMemory: @unchecked Sendable {
    /// Runs the closure after that many seconds (``DispatchQueue/asyncAfter(deadline:execute:)``
    /// by default; a test runs it when it likes).
    public typealias Schedule = @Sendable (Double, @escaping @Sendable () -> Void) -> Void

    private let idle: Double
    private let schedule: Schedule
    private let keep: @Sendable () -> Void
    private let release: @Sendable () -> Void
    private let lock = NSLock()
    /// Counts pieces of work begun: a release scheduled before the latest one began does nothing.
    private var generation = 0
    private var working = 0
    private var kept = false

    public init(
        idle: Double = 30,
        schedule: @escaping Schedule = { delay, work in DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay, execute: work) },
        keep: @escaping @Sendable () -> Void = { ProcessMemory.keepFreedMemory() },
        release: @escaping @Sendable () -> Void = {
            ProcessMemory.returnLargeBlocksPromptly()
            ProcessMemory.releaseFreed()
        }
    ) {
        self.idle = idle
        self.schedule = schedule
        self.keep = keep
        self.release = release
    }

    /// Before a piece of work: what it frees is kept for the next one.
    public func begin() {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        working += 1
        if !kept {
            kept = true
            keep()
        }
    }

    /// After it (failed or not): the memory goes back once `idle` seconds pass without another.
    public func end() {
        lock.lock()
        working -= 1
        let scheduled = generation
        lock.unlock()
        schedule(idle) { [weak self] in self?.giveBack(ifBegunLastAt: scheduled) }
    }

    /// Gives the kept memory back now, unless a piece of work is under way (before a piece of
    /// work whose peak counts).
    public func giveBack() {
        giveBack(ifBegunLastAt: nil)
    }

    /// Freed while keeping (a test's rebuilder): the process does not stay on the keeping
    /// settings, since no timer of this one will run.
    deinit {
        if kept { release() }
    }

    /// Gives the kept memory back when no work is under way and, for a timer, none began since
    /// it was set (`generation`: the count of pieces begun then).
    private func giveBack(ifBegunLastAt generation: Int?) {
        lock.lock()
        defer { lock.unlock() }
        guard kept, working == 0, generation.map({ $0 == self.generation }) ?? true else { return }
        kept = false
        release()
    }
}
