import Foundation

/// Runs the jobs of the tasks started with it as their executor preference on the thread that
/// waits for them (``runJobs(until:waitingAtMost:)``), never on Swift's shared pool.
///
/// A connection's thread uses it to wait for async work (the next live-reload event, a test's
/// async handler). On the shared pool that work would wait for a free thread, and a 2-core
/// machine's pool has two, which a build running meanwhile can hold for seconds: an event would
/// come late, a test server's answer after the client's timeout. Work that hops to an actor runs
/// on that actor's executor, as always, and comes back here.
public final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs queued jobs, waiting for more, until `done()` is true or `seconds` have passed.
    /// Returns `done()`.
    @discardableResult
    public func runJobs(until done: () -> Bool, waitingAtMost seconds: Double = .infinity) -> Bool {
        let deadline = seconds.isFinite ? Date().addingTimeInterval(seconds) : Date.distantFuture
        while !done() {
            condition.lock()
            while jobs.isEmpty {
                if !condition.wait(until: deadline) { break }
            }
            let next = jobs.isEmpty ? nil : jobs.removeFirst()
            condition.unlock()
            guard let next else { return done() }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
        return true
    }

    /// Runs `body` to its end with this thread doing its work, and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let executor = CallingThreadExecutor()
        let result = Outcome<T>()
        Task(executorPreference: executor) { result.value = await body() }
        executor.runJobs(until: { result.value != nil })
        return result.value!
    }
}

/// A value set by a job and read by the thread that runs the jobs: one thread, no lock.
final class Outcome<T>: @unchecked Sendable {
    var value: T?
}
