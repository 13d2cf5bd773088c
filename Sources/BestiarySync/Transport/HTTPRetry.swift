import Foundation

/// Which HTTP answers are worth asking again, and how long a server asks to be left alone:
/// shared by sync's transports and BestiaryFetch's `RetryPolicy` (this package only, not the
/// library's API).
package enum HTTPRetry {
    /// True for statuses a later request may get past: 408, 429 and 5xx.
    package static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (500...599).contains(status)
    }

    /// `Retry-After` as a duration: delta-seconds, or an HTTP date (relative to `now`); capped
    /// at a year, so a server's absurd value (1e20) cannot overflow the conversion.
    /// The cap: a year.
    package static let longestWait: Duration = .seconds(Int64(year))
    private static let year = 365.0 * 86_400

    package static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let raw = value?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
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
/// (`Retry-After`) when that is longer. Only a ``PackTransportError`` that is ``PackTransportError/transient``
/// is asked again. A server asking for more than ``maxRetryAfter`` is not waited for: the
/// failure says so at once, and a later run tries again.
struct SyncRetry: Sendable {
    var retries: Int
    var delay: Duration
    /// The longest `Retry-After` waited for: a minute for sync, less for `pack verify`.
    var maxRetryAfter: Duration = .seconds(60)
    static let maxDelay: Duration = .seconds(8)

    /// After failure number `failures` (from 1) with `error`: waits and returns true when another
    /// attempt is due, returns false at once when not (too many failures, an error that will not
    /// pass, a server asking for too long a wait); throws when the task is cancelled.
    func waitBeforeRetry(after failures: Int, _ error: any Error) async throws -> Bool {
        guard failures <= retries, let problem = error as? PackTransportError, problem.transient else { return false }
        var wait = min(delay * (1 << min(failures - 1, 10)), Self.maxDelay)
        if let asked = problem.retryAfter {
            guard asked <= maxRetryAfter else { return false }
            wait = max(wait, asked)
        }
        if wait > .zero { try await Task.sleep(for: wait) }
        try Task.checkCancellation()
        return true
    }

    /// `attempt`, asked again after each failure ``waitBeforeRetry(after:_:)`` allows. A
    /// ``SyncError`` or a cancellation ends it as it is; any other failure not asked again ends
    /// it as a `.transport` error at `path`, with the number of attempts.
    func run<T>(path: String, _ attempt: () async throws -> T) async throws -> T {
        var failures = 0
        while true {
            do {
                return try await attempt()
            } catch let error as SyncError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures += 1
                guard try await waitBeforeRetry(after: failures, error) else {
                    var failure = SyncError(.transport, file: path, describe(error, attempts: failures))
                    failure.definitive = (error as? PackTransportError)?.transient == false
                    throw failure
                }
            }
        }
    }

    /// `error` in words: with the number of attempts when there were more than one, and why no
    /// more were made when the server asked for a longer wait than this makes.
    func describe(_ error: any Error, attempts: Int) -> String {
        var text = "\(error)"
        if let asked = (error as? PackTransportError)?.retryAfter, asked > maxRetryAfter {
            text += "; waits longer than \(Int(maxRetryAfter / .seconds(1))) s are not made, so try again later"
        }
        if attempts > 1 { text += ", after \(attempts) attempts" }
        return text
    }
}
