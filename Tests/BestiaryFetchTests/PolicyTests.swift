import BestiaryFetch
import BestiaryTestSupport
import Foundation
import Testing

struct RetryPolicyTests {
    @Test func retryAfterSecondsAndDates() {
        #expect(RetryPolicy.parseRetryAfter("10") == .seconds(10))
        #expect(RetryPolicy.parseRetryAfter(" 0 ") == .zero)
        // An absurd value is a year, not a crash (it trapped converting to Int64).
        #expect(RetryPolicy.parseRetryAfter("99999999999999999999") == .seconds(365 * 86_400))
        #expect(RetryPolicy.parseRetryAfter("Fri, 31 Dec 9999 23:59:59 GMT") == .seconds(365 * 86_400))
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.parseRetryAfter("soon") == nil)
        #expect(RetryPolicy.parseRetryAfter(nil) == nil)
    }

    @Test func backoffGrowsWithJitterAndIsCapped() {
        let policy = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(4))
        #expect(policy.backoff(afterAttempt: 1, random: 1) == .milliseconds(500))
        #expect(policy.backoff(afterAttempt: 1, random: 0) == .milliseconds(250))
        #expect(policy.backoff(afterAttempt: 3, random: 1) == .seconds(2))
        #expect(policy.backoff(afterAttempt: 10, random: 1) == .seconds(4))
    }

    @Test func decidesOnStatusOnly() {
        for status in [429, 500, 502, 503, 504] { #expect(RetryPolicy.isRetryable(status: status)) }
        for status in [200, 304, 400, 403, 404, 410] { #expect(!RetryPolicy.isRetryable(status: status)) }
    }
}

struct PoliteClientTests {
    @Test func resolvesLocations() {
        let base = "https://de.wikipedia.org/api/rest_v1/page/summary/Hund"
        #expect(PoliteClient.resolve("//de.wikipedia.org/api/rest_v1/page/summary/Haushund", against: base)
            == "https://de.wikipedia.org/api/rest_v1/page/summary/Haushund")
        #expect(PoliteClient.resolve("Haushund", against: base) == "https://de.wikipedia.org/api/rest_v1/page/summary/Haushund")
        #expect(PoliteClient.resolve("http://127.0.0.1:9/x", against: base) == "http://127.0.0.1:9/x")
        #expect(PoliteClient.resolve("javascript:alert(1)", against: base) == nil)
    }

    @Test func rateLimiterSpacesRequests() async throws {
        let limiter = RateLimiter(requestsPerSecond: 20)
        let start = ContinuousClock.now
        for _ in 0..<5 { try await limiter.acquire() }
        #expect(ContinuousClock.now - start >= .milliseconds(190))
    }
}

struct FetchOptionsTests {
    @Test func userAgentFollowsWikimediaPolicy() {
        #expect(FetchOptions.userAgent(version: "0.1.0", contact: "me@example.org")
            == "Bestiary/0.1.0 (me@example.org) libcurl")
        #expect(FetchOptions.userAgent(version: "0.1.0", contact: nil) == "Bestiary/0.1.0 libcurl")
    }

    @Test func knowsWikimediaHosts() {
        #expect(FetchOptions.isWikimedia("https://{lang}.wikipedia.org/api/rest_v1"))
        #expect(!FetchOptions.isWikimedia("http://127.0.0.1:8765/{lang}/api/rest_v1"))
        let options = FetchOptions(userAgent: "x")
        #expect(options.wikiActionAPI(language: "de") == "https://de.wikipedia.org/w/api.php")
    }
}

/// Offline, every article failed only after the transport's connection attempts and the
/// client's retries: a minute each. A host no connection could be made to is now given up
/// after one request, and every later request to it fails at once, saying why.
struct UnreachableHostTests {
    /// A port on 127.0.0.1 that nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let (fd, address) = try boundSocket()
        close(fd)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A TCP socket bound to a free port on 127.0.0.1 (listening, with a queue of `backlog`,
    /// when one is given), and its address.
    static func boundSocket(listening backlog: Int32? = nil) throws -> (fd: Int32, address: sockaddr_in) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, address)
    }

    /// A real transport behind a client without a rate limit, whose retries come at once.
    static func unretriedClient(connectTimeout: Duration, timeout: Duration) -> (CurlTransport, PoliteClient) {
        let transport = CurlTransport(userAgent: "bestiary-tests", connectTimeout: connectTimeout)
        let client = PoliteClient(
            transport: transport, limiter: RateLimiter(requestsPerSecond: nil), retry: RetryPolicy(baseDelay: .milliseconds(1)),
            timeout: timeout)
        return (transport, client)
    }

    /// How a GET of `url` failed, as said to the user; nil when it did not.
    static func failure(of client: PoliteClient, _ url: String) async -> String? {
        do {
            _ = try await client.get(url, headers: [], maxBytes: 1 << 20)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aHostThatRefusesIsGivenUpOnceAndSaysSo() async throws {
        let port = try Self.closedPort()
        let (transport, client) = Self.unretriedClient(connectTimeout: .seconds(1), timeout: .seconds(5))
        func failure(_ path: String) async -> String? { await Self.failure(of: client, "http://127.0.0.1:\(port)/\(path)") }
        #expect(await failure("a") == "no connection (127.0.0.1:\(port) refused the connection); is the server running?")
        let start = ContinuousClock.now
        #expect(await failure("b") == "127.0.0.1:\(port) could not be reached earlier in this run (no connection (127.0.0.1:\(port) refused the connection)), so it is not asked again; is the server running?")
        #expect(ContinuousClock.now - start < .milliseconds(500))
        // Another port of the same host is another server: asked.
        var other = try Self.closedPort()
        while other == port { other = try Self.closedPort() }
        do {
            _ = try await client.get("http://127.0.0.1:\(other)/c", headers: [], maxBytes: 1 << 20)
        } catch {
            #expect("\(error)".hasPrefix("no connection (127.0.0.1:\(other) refused the connection)"), "\(error)")
        }
        await transport.shutdown()
    }

    /// A redirect the client will not follow shows where it pointed (escaped); one without a
    /// Location, or with an empty one, says so.
    @Test func aRedirectThatCannotBeFollowedShowsItsLocation() async throws {
        let server = try await LoopbackServer.start { request in
            switch request.path {
            case "/file": .status(302, headers: [("Location", "file:///etc/passwd")])
            case "/empty": .status(307, headers: [("Location", " ")])
            default: .status(301)
            }
        }
        let (transport, client) = Self.unretriedClient(connectTimeout: .seconds(5), timeout: .seconds(20))
        #expect(await Self.failure(of: client, server.baseURL + "/file")
            == "HTTP 302 redirect from \(server.baseURL)/file to 'file:///etc/passwd', which is not a usable http(s) URL")
        #expect(await Self.failure(of: client, server.baseURL + "/none") == "HTTP 301 redirect without a Location from \(server.baseURL)/none")
        #expect(await Self.failure(of: client, server.baseURL + "/empty") == "HTTP 307 redirect without a Location from \(server.baseURL)/empty")
        #expect(PoliteClient.shown("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(PoliteClient.shown(String(repeating: "x", count: 300)) == String(repeating: "x", count: 200) + "…")
        await transport.shutdown()
        await server.stop()
    }

    /// A name no resolver knows (`.invalid` never resolves, RFC 6761) is said in a few words,
    /// with the likely cause, and not asked again.
    @Test func aNameThatCannotBeLookedUpIsSaidSo() async throws {
        let (transport, client) = Self.unretriedClient(connectTimeout: .seconds(5), timeout: .seconds(10))
        func failure(_ path: String) async -> String? { await Self.failure(of: client, "https://bestiary-tests.invalid/\(path)") }
        #expect(await failure("a") == "no connection (the name bestiary-tests.invalid could not be looked up); are you offline?")
        #expect(await failure("b")?.hasPrefix("bestiary-tests.invalid could not be reached earlier in this run") == true)
        await transport.shutdown()
    }
}
