import BestiarySync
import Foundation

/// When to try a request again, and how long to wait first.
///
/// Retries happen on HTTP 429 and 5xx and on timeouts and broken connections, never on other
/// statuses (the decision is the status code's, never the error body's). The wait is the
/// server's `Retry-After` when it gives one, else exponential backoff with jitter; a server
/// asking for more than ``maxRetryAfter``, or waits adding up to more than ``maxTotalWait``,
/// end the attempts: the item is reported as failed and a later run tries again.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// Backoff before the second attempt; doubles each time.
    public var baseDelay: Duration
    /// Ceiling of one backoff wait.
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; a longer one ends the attempts.
    public var maxRetryAfter: Duration
    /// Ceiling of all waits for one request.
    public var maxTotalWait: Duration

    public init(
        maxAttempts: Int = 6, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        maxRetryAfter: Duration = .seconds(120), maxTotalWait: Duration = .seconds(300)
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.maxTotalWait = maxTotalWait
    }

    /// True for statuses worth retrying (``HTTPRetry/isRetryable(status:)``).
    public static func isRetryable(status: Int) -> Bool { HTTPRetry.isRetryable(status: status) }

    /// The backoff before attempt `attempt + 1` (attempt counts from 1): between half and all
    /// of `baseDelay · 2^(attempt-1)`, capped by ``maxDelay``. The jitter spreads retries of
    /// parallel workers so they do not hit the server in step.
    public func backoff(afterAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(baseDelay * (1 << exponent), maxDelay)
        return full * (0.5 + 0.5 * random)
    }

    /// `Retry-After` as a duration (``HTTPRetry/parseRetryAfter(_:now:)``).
    public static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        HTTPRetry.parseRetryAfter(value, now: now)
    }
}
