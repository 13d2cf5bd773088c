import BestiaryContent
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// How `bestiary fetch` talks to Wikipedia. The defaults are polite enough for the real
/// wikipedia.org (Wikimedia's API etiquette: low concurrency, a rate limit, an identifying
/// User-Agent); a local stand-in can be asked harder with `--concurrency` and `--rate`.
public struct FetchOptions: Sendable {
    /// The REST base, `{lang}` replaced per language (site.yml `wikipedia.url`).
    public var urlTemplate: String
    /// The Action API that knows image licences (site.yml `wikipedia.commons_url`).
    public var commonsURL: String
    /// Ask again about cached entries (`If-None-Match`), instead of trusting the cache.
    public var refresh: Bool
    /// Requests in flight at once.
    public var concurrency: Int
    /// Request starts per second over all workers; nil for no limit.
    public var requestsPerSecond: Double?
    /// Sent with every request; see ``FetchOptions/userAgent(version:contact:)``.
    public var userAgent: String
    /// Time one request may take.
    public var timeout: Duration
    public var retry: RetryPolicy
    /// Image widths to store (standard thumbnail steps only).
    public var imageWidths: [Int]
    public var maxImageBytes: Int
    public var maxSummaryBytes: Int
    /// Stamps ``WikipediaEntry/fetchedAt``.
    public var clock: any TimeSource

    public static let defaultConcurrency = 2
    public static let defaultRequestsPerSecond = 5.0

    public init(
        urlTemplate: String = WikipediaSettings.defaultURL, commonsURL: String = WikipediaSettings.defaultCommonsURL,
        refresh: Bool = false, concurrency: Int = FetchOptions.defaultConcurrency,
        requestsPerSecond: Double? = FetchOptions.defaultRequestsPerSecond, userAgent: String,
        timeout: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(), imageWidths: [Int] = ThumbnailPlan.defaultWidths,
        maxImageBytes: Int = WikipediaCache.maxImageBytes, maxSummaryBytes: Int = 1 << 20, clock: any TimeSource = SystemTimeSource()
    ) {
        self.urlTemplate = urlTemplate
        self.commonsURL = commonsURL
        self.refresh = refresh
        self.concurrency = max(1, concurrency)
        self.requestsPerSecond = requestsPerSecond
        self.userAgent = userAgent
        self.timeout = timeout
        self.retry = retry
        self.imageWidths = imageWidths
        self.maxImageBytes = maxImageBytes
        self.maxSummaryBytes = maxSummaryBytes
        self.clock = clock
    }

    /// `Bestiary/0.1.0 (maintainer@example.org) libcurl`, the form of Wikimedia's
    /// User-Agent policy: tool/version (contact) library. The contact is the site's own
    /// (site.yml `wikipedia.contact`): the people running the fetch are the ones to reach.
    public static func userAgent(version: String, contact: String?) -> String {
        let contactPart = contact.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        return "Bestiary/\(version)" + (contactPart.map { " (\($0))" } ?? "") + " libcurl"
    }

    /// True when `template` points at Wikimedia's servers (where the etiquette matters).
    public static func isWikimedia(_ template: String) -> Bool {
        let host = URL(string: template.replacingOccurrences(of: "{lang}", with: "en"))?.host?.lowercased() ?? ""
        return host.hasSuffix("wikipedia.org") || host.hasSuffix("wikimedia.org")
    }

    /// The Action API (`…/w/api.php`) of the wiki behind a REST template, for files that live on
    /// one wiki rather than on Commons; nil when the template does not end in `/api/rest_v1`.
    public func wikiActionAPI(language: String) -> String? {
        let base = WikipediaTitle.restBase(template: urlTemplate, language: language)
        guard base.hasSuffix("/api/rest_v1") else { return nil }
        return String(base.dropLast("/api/rest_v1".count)) + "/w/api.php"
    }
}
