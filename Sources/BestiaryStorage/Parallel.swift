import Dispatch
import Foundation

/// Data parallelism for independent, CPU-bound work (parsing thousands of records, rendering
/// thousands of pages). Results keep the input order, so output never depends on scheduling.
public enum Parallel {
    /// Number of worker threads; `BESTIARY_JOBS=1` forces sequential work (for profiling and for
    /// proving parallel and sequential builds identical).
    public static let jobs: Int = {
        if let raw = getenv("BESTIARY_JOBS"), let n = Int(String(cString: raw)), n >= 1 { return n }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }()

    /// `items.map(transform)`, spread over `jobs` threads. The items are handed out `chunk` at a
    /// time, each chunk to whichever thread is free next, so one slow stretch of items (cold
    /// files, big records) does not leave the other threads idle. Results keep the input order;
    /// if any item throws, the error thrown is the first in input order, as a sequential `map`
    /// would throw (every chunk before a failing one was taken before it, and is finished).
    ///
    /// Inlinable, so each caller gets it made for its own types: called through the generic
    /// entry point, every item and result was handed around by the type's witness functions,
    /// and each result copied out of its slot and released there again (a sixth of the CPU of a
    /// build with nothing to do on the bench corpus, making its 35,000 walk lines).
    @inlinable
    public static func map<T, R>(_ items: [T], chunk: Int = 16, _ transform: (T) throws -> R) rethrows -> [R] {
        let count = items.count
        if count == 0 { return [] }
        let size = max(1, chunk)
        let chunks = (count + size - 1) / size
        let workers = min(jobs, chunks)
        if workers <= 1 { return try items.map(transform) }
        let results = ResultBuffer<R>(count: count)
        let errors = ResultBuffer<(any Error)?>(count: chunks)
        let next = ChunkCounter()
        try withoutActuallyEscaping(transform) { transform in
            let box = UnsafeSendableBox(transform)
            let input = UnsafeSendableBox(items)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let c = next.take(below: chunks) {
                    let start = c * size
                    do {
                        for i in start..<min(count, start + size) { results.set(i, try box.value(input.value[i])) }
                    } catch {
                        errors.set(c, error)
                        next.stop()
                    }
                }
            }
            for c in 0..<chunks { if case let e?? = errors.get(c) { throw e } }
        }
        return results.take()
    }
}

extension Parallel {
    /// How ``forEach(_:groupedBy:_:)`` shares `items` out among at most `workers` threads: the
    /// indices of each thread's items, in input order. The items of one folder are all in one
    /// share; the folders go largest first (then by name), each to the share with the fewest
    /// items so far (the first of those). One share when there is one folder.
    public static func shares<T>(_ items: [T], groupedBy folder: (T) -> Substring, workers: Int) -> [[Int]] {
        var groups: [Substring: [Int]] = [:]
        for i in items.indices { groups[folder(items[i]), default: []].append(i) }
        let largestFirst = groups.sorted { a, b in a.value.count != b.value.count ? a.value.count > b.value.count : a.key < b.key }
        var shares = [[Int]](repeating: [], count: max(1, min(workers, groups.count)))
        for (_, members) in largestFirst {
            let lightest = shares.indices.min { shares[$0].count < shares[$1].count }!
            shares[lightest].append(contentsOf: members)
        }
        for w in shares.indices { shares[w].sort() }
        return shares
    }

    /// `items.forEach(body)` over `jobs` threads, no two of them working in one folder at a time:
    /// for making entries (files, links, folders), which takes the folder's lock in the kernel
    /// (`i_rwsem`). Two threads linking 20,000 files into one folder took as long as one, the
    /// second spinning on that lock (a third of the `link` time of the first rebuild after a full
    /// build); into two folders, 1.5–1.8 times less (2026-12-07). So the items are grouped by
    /// `folder` (of each item, the folder its entry goes into), and each group goes whole to one
    /// thread: the largest first, each to the thread with the fewest items so far. The items of
    /// one folder are done in turn on one thread, all of them when there is only one folder.
    /// Each thread takes its items in input order; once an item fails, no thread starts an item
    /// after it, and the error thrown is the first in input order, as a sequential loop would
    /// throw (every item before it was done, on whichever thread).
    @inlinable
    public static func forEach<T>(_ items: [T], groupedBy folder: (T) -> Substring, _ body: (T) throws -> Void) rethrows {
        guard jobs > 1, items.count > 1 else { return try items.forEach(body) }
        let shares = Self.shares(items, groupedBy: folder, workers: jobs)
        guard shares.count > 1 else { return try items.forEach(body) }
        let workers = shares.count
        let failures = ResultBuffer<(index: Int, error: any Error)>(count: workers)
        let first = FirstFailure()
        try withoutActuallyEscaping(body) { body in
            let box = UnsafeSendableBox(body), input = UnsafeSendableBox(items), work = UnsafeSendableBox(shares)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for i in work.value[w] {
                    // Nothing after a failure is started (every item before it still is done).
                    if i > first.index { return }
                    do { try box.value(input.value[i]) } catch {
                        failures.set(w, (i, error))
                        first.note(i)
                        return
                    }
                }
            }
            if let first = (0..<workers).compactMap({ failures.get($0) }).min(by: { $0.index < $1.index }) { throw first.error }
        }
    }
}

/// The index of the first item that failed so far, for ``Parallel/forEach(_:groupedBy:_:)``
/// (`Int.max`: none).
@usableFromInline
final class FirstFailure: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var first = Int.max

    @inlinable init() {}

    @inlinable var index: Int {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    @inlinable func note(_ index: Int) {
        lock.lock()
        first = min(first, index)
        lock.unlock()
    }
}

/// Work that runs on a thread of its own while the caller does something else (a build's pack
/// stage while it renders); ``value()`` waits for it. A thread, not a `DispatchQueue`: libdispatch
/// runs a `concurrentPerform` nested in another one with fewer threads, and the work inside uses
/// ``Parallel/map(_:chunk:_:)`` at full width. With `BESTIARY_JOBS=1` the work runs at once, on
/// the caller's thread, before `init` returns.
public final class Background<T, E: Error>: @unchecked Sendable {
    private var result: Result<T, E>?
    private let done = DispatchSemaphore(value: 0)

    public init(_ body: @escaping () throws(E) -> T) {
        guard Parallel.jobs > 1 else {
            result = Result(catching: body)
            done.signal()
            return
        }
        let work = UnsafeSendableBox(body)
        let thread = Thread { [self] in
            result = Result(catching: work.value)
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The work's result, once it is finished.
    public func value() throws(E) -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }

    /// The work's result, once it is finished, handed over: no longer held here, so that a
    /// value taken is the only holder of its storage (a dictionary taken and then changed is not
    /// copied again). Once only: ``value()`` or `take()` after it stops the process.
    public func take() throws(E) -> T {
        done.wait()
        done.signal()
        guard let taken = result else { preconditionFailure("Background.take() after its value was taken") }
        result = nil
        return try taken.get()
    }
}

/// The next chunk to take, shared by the workers of one ``Parallel/map(_:chunk:_:)``.
@usableFromInline
final class ChunkCounter: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var next = 0
    @usableFromInline var stopped = false

    @inlinable init() {}

    /// The next chunk's number, or nil when all are taken or a chunk failed.
    @inlinable
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, next < limit else { return nil }
        next += 1
        return next - 1
    }

    /// No more chunks are handed out (those taken are finished).
    @inlinable
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }
}

/// Write-once slots filled by disjoint workers; read only after all of them finished.
///
/// Raw memory, not an `Array`: `Array.withUnsafeMutableBufferPointer` moves the array's buffer
/// out for the duration of the call, so two threads writing through it at once would see a
/// non-unique buffer and copy it under each other (heap corruption).
@usableFromInline
final class ResultBuffer<T>: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<T?>
    @usableFromInline let count: Int

    @inlinable
    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    @inlinable
    func set(_ index: Int, _ value: T) {
        slots[index] = value
    }

    @inlinable
    func get(_ index: Int) -> T? { slots[index] }

    /// Every value, moved out of its slot (which is left empty), not copied: once all are set.
    @inlinable
    func take() -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { (buffer.baseAddress! + i).initialize(to: slots[i].take()!) }
            initialized = count
        }
    }
}

@usableFromInline
struct UnsafeSendableBox<T>: @unchecked Sendable {
    @usableFromInline let value: T
    @inlinable init(_ value: T) { self.value = value }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
