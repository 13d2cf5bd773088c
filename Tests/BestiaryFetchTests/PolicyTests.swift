import BestiaryFetch
import Foundation
import Testing

struct RetryPolicyTests {
    @Test func retryAfterSecondsAndDates() {
        #expect(RetryPolicy.parseRetryAfter("10") == .seconds(10))
        #expect(RetryPolicy.parseRetryAfter(" 0 ") == .zero)
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
            == "Bestiary/0.1.0 (me@example.org) async-http-client")
        #expect(FetchOptions.userAgent(version: "0.1.0", contact: nil) == "Bestiary/0.1.0 async-http-client")
    }

    @Test func knowsWikimediaHosts() {
        #expect(FetchOptions.isWikimedia("https://{lang}.wikipedia.org/api/rest_v1"))
        #expect(!FetchOptions.isWikimedia("http://127.0.0.1:8765/{lang}/api/rest_v1"))
        let options = FetchOptions(userAgent: "x")
        #expect(options.wikiActionAPI(language: "de") == "https://de.wikipedia.org/w/api.php")
    }
}
