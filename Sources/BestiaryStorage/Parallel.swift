import Dispatch

/// Data parallelism for independent, CPU-bound work (parsing thousands of records, rendering
/// thousands of pages). Results keep the input order, so output never depends on scheduling.
public enum Parallel {
    /// Number of worker threads; `BESTIARY_JOBS=1` forces sequential work (for profiling and for
    /// proving parallel and sequential builds identical).
    public static let jobs: Int = {
        if let raw = getenv("BESTIARY_JOBS"), let n = Int(String(cString: raw)), n >= 1 { return n }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }()

    /// `items.map(transform)`, spread over `jobs` threads in contiguous chunks.
    public static func map<T, R>(_ items: [T], minimumChunk: Int = 16, _ transform: (T) throws -> R) rethrows -> [R] {
        let count = items.count
        if count == 0 { return [] }
        let workers = min(jobs, max(1, count / minimumChunk))
        if workers <= 1 { return try items.map(transform) }
        let results = ResultBuffer<R>(count: count)
        let errors = ResultBuffer<(any Error)?>(count: workers)
        let chunk = (count + workers - 1) / workers
        try withoutActuallyEscaping(transform) { transform in
            let box = UnsafeSendableBox(transform)
            let input = UnsafeSendableBox(items)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let start = worker * chunk
                let end = min(count, start + chunk)
                guard start < end else { return }
                do {
                    for i in start..<end { results.set(i, try box.value(input.value[i])) }
                } catch {
                    errors.set(worker, error)
                }
            }
            for i in 0..<workers { if case let e?? = errors.get(i) { throw e } }
        }
        return results.values()
    }
}

/// Write-once slots filled by disjoint workers; read only after all of them finished.
///
/// Raw memory, not an `Array`: `Array.withUnsafeMutableBufferPointer` moves the array's buffer
/// out for the duration of the call, so two threads writing through it at once would see a
/// non-unique buffer and copy it under each other (heap corruption).
private final class ResultBuffer<T>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func set(_ index: Int, _ value: T) {
        slots[index] = value
    }

    func get(_ index: Int) -> T? { slots[index] }

    func values() -> [T] { (0..<count).map { slots[$0]! } }
}

private struct UnsafeSendableBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
