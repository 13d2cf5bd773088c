import Foundation

/// GET with the manners Wikimedia asks for: a rate limit shared by all workers, retries with
/// backoff on 429/5xx/timeouts honouring `Retry-After`, and redirects followed by hand
/// (protocol-relative `Location`s resolved, loops detected).
public struct PoliteClient: Sendable {
    public let transport: any HTTPTransport
    public let limiter: RateLimiter
    public let retry: RetryPolicy
    public let timeout: Duration
    /// Redirects followed before giving up.
    public var maxRedirects = 5
    /// Told about each wait, for verbose progress output.
    public var onRetry: (@Sendable (_ url: String, _ reason: String, _ wait: Duration) -> Void)?
    /// Hosts no connection could be made to, after a request's retries: every later request to
    /// one fails at once (offline, the fetch of 48 articles took half an hour to say so).
    /// Shared by the copies of this client.
    let unreachable = UnreachableHosts()
    /// Attempts for a request whose connections fail (refused, no such host, no route): fewer
    /// than for timeouts and busy servers, which waiting may cure. The transport itself keeps
    /// trying to connect until its connect timeout (10 s), so one is enough.
    public var maxConnectionAttempts = 1

    public init(transport: any HTTPTransport, limiter: RateLimiter, retry: RetryPolicy, timeout: Duration) {
        self.transport = transport
        self.limiter = limiter
        self.retry = retry
        self.timeout = timeout
    }

    /// A final response: the status a caller decides on, the URL that answered, and counts.
    public struct Response: Sendable {
        public var result: HTTPResult
        /// The URL after redirects.
        public var finalURL: String
        /// Requests made for this response, retries and redirects included.
        public var requests: Int
        public var status: Int { result.status }
    }

    /// Why there is no final response.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        /// The redirects led back to an address already asked: asking again gives the same.
        public var isRedirectLoop = false
        /// The server asked to be left alone for longer than ``RetryPolicy/maxRetryAfter``: the
        /// run stops asking it (every other worker went on at full rate).
        public var asksToWait: Duration?
        public var description: String { reason }
    }

    /// Follows redirects and retries; returns the first non-redirect, non-retryable answer
    /// (2xx, 304, 404, other 4xx) or throws ``Failure`` when retries run out.
    public func get(_ url: String, headers: [(String, String)], maxBytes: Int) async throws -> Response {
        var current = url
        var visited: [String] = [url]
        var requests = 0
        while true {
            let (result, count) = try await getWithRetries(current, headers: headers, maxBytes: maxBytes)
            requests += count
            guard [301, 302, 303, 307, 308].contains(result.status) else {
                return Response(result: result, finalURL: current, requests: requests)
            }
            guard let location = result.header("location"), !location.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Failure(reason: "HTTP \(result.status) redirect without a Location from \(current)")
            }
            guard let next = Self.resolve(location, against: current) else {
                throw Failure(reason: "HTTP \(result.status) redirect from \(current) to '\(Self.shown(location))', which is not a usable http(s) URL")
            }
            if visited.contains(next) {
                throw Failure(reason: "redirect loop: \(visited.map(Self.shortPath).joined(separator: " → ")) → \(Self.shortPath(next))", isRedirectLoop: true)
            }
            visited.append(next)
            if visited.count > maxRedirects + 1 {
                throw Failure(reason: "more than \(maxRedirects) redirects, starting at \(url)")
            }
            current = next
        }
    }

    private func getWithRetries(_ url: String, headers: [(String, String)], maxBytes: Int) async throws -> (HTTPResult, Int) {
        // By scheme, host and port: two local mirrors on one host are two servers.
        let parsed = URL(string: url)
        let host = parsed?.host ?? ""
        let server = "\(parsed?.scheme ?? "")://\(host)\(parsed?.port.map { ":\($0)" } ?? "")"
        // A server on this machine that refuses is not running; elsewhere, the network may be down.
        let ask = ["127.0.0.1", "localhost", "::1"].contains(host) ? "is the server running?" : "are you offline?"
        if let why = unreachable.reason(server) {
            throw Failure(reason: "\(server.split(separator: "/").last ?? Substring(host)) could not be reached earlier in this run (\(why)), so it is not asked again; \(ask)")
        }
        var waited: Duration = .zero
        var attempt = 0
        var onlyConnectionFailures = true
        while true {
            attempt += 1
            try await limiter.acquire()
            var reason = ""
            var delay: Duration = .zero
            var timedOut = false
            do {
                let result = try await transport.get(url, headers: headers, maxBytes: maxBytes, timeout: timeout)
                onlyConnectionFailures = false
                guard RetryPolicy.isRetryable(status: result.status) else { return (result, attempt) }
                reason = "HTTP \(result.status)"
                if let asked = RetryPolicy.parseRetryAfter(result.header("retry-after")) {
                    if asked > retry.maxRetryAfter {
                        throw Failure(reason: "HTTP \(result.status): the server asks to wait \(Self.seconds(asked)); try again later", asksToWait: asked)
                    }
                    delay = asked
                    await limiter.holdOff(for: asked)
                } else {
                    delay = retry.backoff(afterAttempt: attempt)
                }
            } catch let error as TransportError where error.isTransient {
                reason = error.description
                switch error {
                case .timeout, .stalled, .incomplete: timedOut = true
                default: timedOut = false
                }
                delay = retry.backoff(afterAttempt: attempt)
                if case .unreachable = error {} else { onlyConnectionFailures = false }
            } catch let error as TransportError {
                throw Failure(reason: error.description)
            }
            if onlyConnectionFailures, attempt >= maxConnectionAttempts {
                unreachable.mark(server, reason)
                throw Failure(reason: "\(reason)\(attempt > 1 ? " after \(attempt) attempts" : ""); \(ask)")
            }
            if attempt >= retry.maxAttempts {
                // A server slower than the time allowed: how to allow more (a curator's slow
                // server read "no answer in time after 6 attempts", with no word of --timeout).
                let more = timedOut ? " (each waited up to \(Self.seconds(timeout)); --timeout SECONDS allows more)" : ""
                throw Failure(reason: "\(reason) after \(attempt) attempts\(more)")
            }
            if waited + delay > retry.maxTotalWait {
                throw Failure(reason: "\(reason); gave up after waiting \(Self.seconds(waited)) in all")
            }
            onRetry?(url, reason, delay)
            try await Task.sleep(for: delay)
            waited += delay
        }
    }

    /// `Location` resolved against the request URL: absolute, protocol-relative (`//host/…`,
    /// as Wikipedia's summary endpoint sends), or relative.
    public static func resolve(_ location: String, against base: String) -> String? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard let baseURL = URL(string: base), let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL else { return nil }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url.absoluteString
    }

    /// A server's text as a message shows it: control characters escaped, at most 200 characters.
    package static func shown(_ text: String) -> String {
        let escaped = text.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
        return escaped.count > 200 ? String(escaped.prefix(200)) + "…" : escaped
    }

    static func seconds(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return s < 10 ? String(format: "%.1f s", s) : "\(Int(s.rounded())) s"
    }

    private static func shortPath(_ url: String) -> String {
        URL(string: url).map { $0.path.split(separator: "/").last.map(String.init) ?? $0.path } ?? url
    }
}

/// The hosts a ``PoliteClient`` could not connect to, with why.
final class UnreachableHosts: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [String: String] = [:]

    func reason(_ host: String) -> String? { lock.withLock { reasons[host] } }
    func mark(_ host: String, _ reason: String) { lock.withLock { reasons[host] = reason } }
}
