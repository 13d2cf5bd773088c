import Foundation

/// Which HTTP answers are worth asking again, and how long a server asks to be left alone:
/// shared by sync's transports and BestiaryFetch's `RetryPolicy`.
public enum HTTPRetry {
    /// True for statuses a later request may get past: 408, 429 and 5xx.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (500...599).contains(status)
    }

    /// `Retry-After` as a duration: delta-seconds, or an HTTP date (relative to `now`); capped
    /// at a year, so a server's absurd value (1e20) cannot overflow the conversion.
    public static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let raw = value?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        let year = 365.0 * 86_400
        if let seconds = Double(raw), seconds >= 0, seconds.isFinite { return .milliseconds(Int64(min(seconds, year) * 1000)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: raw) {
                let delta = date.timeIntervalSince(now)
                return .milliseconds(Int64(min(max(0, delta), year) * 1000))
            }
        }
        return nil
    }
}

/// How sync asks again after a transfer failed: up to `retries` more times, waiting `delay`
/// before the first, doubled for each next one (at most 8 s), or as long as the server asked
/// (`Retry-After`) when that is longer. A server asking for more than ``maxRetryAfter`` is not
/// waited for: the sync fails at once and says so, and a later sync tries again.
struct SyncRetry: Sendable {
    var retries: Int
    var delay: Duration
    static let maxDelay: Duration = .seconds(8)
    static let maxRetryAfter: Duration = .seconds(60)

    /// After failure number `failures` (from 1) with `error`: waits and returns true when another
    /// attempt is due, returns false at once when not (too many failures, an answer that will
    /// not change, a server asking for too long a wait).
    func waitBeforeRetry(after failures: Int, _ error: any Error) async throws -> Bool {
        guard failures <= retries else { return false }
        let problem = error as? PackTransportError
        if let problem, !problem.transient { return false }
        var wait = min(delay * (1 << min(failures - 1, 10)), Self.maxDelay)
        if let asked = problem?.retryAfter {
            guard asked <= Self.maxRetryAfter else { return false }
            wait = max(wait, asked)
        }
        if wait > .zero { try await Task.sleep(for: wait) }
        return true
    }

    /// `error` in words, with the number of attempts when there were more than one.
    static func describe(_ error: any Error, attempts: Int) -> String {
        attempts > 1 ? "\(error), after \(attempts) attempts" : "\(error)"
    }
}
