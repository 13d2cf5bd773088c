/// Spaces request starts evenly (at most `requestsPerSecond`) across all workers, and lets a
/// server's `Retry-After` hold every worker back, not just the one that was told.
public actor RateLimiter {
    private let interval: Duration?
    private var nextSlot: ContinuousClock.Instant
    private let clock = ContinuousClock()

    /// - Parameter requestsPerSecond: nil or 0 for no limit.
    public init(requestsPerSecond: Double?) {
        if let r = requestsPerSecond, r > 0 {
            interval = .nanoseconds(Int64(1e9 / r))
        } else {
            interval = nil
        }
        nextSlot = ContinuousClock().now
    }

    /// Waits for this caller's turn.
    public func acquire() async throws {
        let now = clock.now
        let slot = max(now, nextSlot)
        if let interval { nextSlot = slot + interval } else { nextSlot = max(nextSlot, now) }
        if slot > now { try await Task.sleep(until: slot, clock: clock) }
    }

    /// No request starts before `delay` from now.
    public func holdOff(for delay: Duration) {
        nextSlot = max(nextSlot, clock.now + delay)
    }
}
