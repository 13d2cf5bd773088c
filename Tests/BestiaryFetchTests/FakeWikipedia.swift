import BestiaryContent
import BestiaryDiagnostics
import BestiaryFetch
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// A Wikipedia on 127.0.0.1 for one test: the summary endpoint (real recorded bodies, image
/// URLs pointed at this server), an image server and Commons' imageinfo, each request counted.
/// Tests change what a path answers through `route`, which sees how often the path was asked.
final class FakeWikipedia: Sendable {
    typealias Route = @Sendable (_ request: LoopbackServer.Request, _ call: Int, _ base: String) -> LoopbackServer.Reply?

    let server: LoopbackServer
    let log: CallLog
    let dir = TemporaryDirectory("bestiary-fetch")
    var cache: WikipediaCache { WikipediaCache(root: dir.path) }
    var template: String { server.baseURL + "/{lang}/api/rest_v1" }

    /// `route` answers first; returning nil falls through to the standard answers.
    static func start(_ route: @escaping Route = { _, _, _ in nil }) async throws -> FakeWikipedia {
        let log = CallLog()
        let server = try await LoopbackServer.start { request in
            let call = log.record(request)
            let base = log.baseURL
            if let reply = route(request, call, base) { return reply }
            return standard(request, base: base)
        }
        log.baseURL = server.baseURL
        return FakeWikipedia(server: server, log: log)
    }

    private init(server: LoopbackServer, log: CallLog) {
        self.server = server
        self.log = log
    }

    func stop() async { await server.stop() }

    static let haushundPath = "/de/api/rest_v1/page/summary/Haushund"
    static let dogPath = "/en/api/rest_v1/page/summary/Dog"
    static let haushundETag = "\"266236844/089113e4-39cd-11f1-ae3e-3f75edb26921\""

    /// A recorded summary with its image URLs moved to this server.
    static func summary(_ file: String, base: String) -> String {
        let text = String(decoding: (try? Fixtures.data("wikipedia/" + file)) ?? Data(), as: UTF8.self)
        return text.replacingOccurrences(of: "https://upload.wikimedia.org", with: base + "/upload")
    }

    static func standard(_ request: LoopbackServer.Request, base: String) -> LoopbackServer.Reply {
        switch request.path {
        case haushundPath:
            if request.header("if-none-match") == haushundETag { return .status(304, headers: [("ETag", haushundETag)]) }
            var reply = LoopbackServer.Reply.json(summary("de__Haushund.json", base: base))
            reply.headers.append(("ETag", haushundETag))
            return reply
        case dogPath:
            return .json(summary("en__Dog.json", base: base))
        case "/en/api/rest_v1/page/summary/Test":
            return .json(summary("en__Test.json", base: base))
        case "/w/api.php":
            return .json(String(decoding: (try? Fixtures.data("wikipedia/generated__commons_extmetadata.json")) ?? Data(), as: UTF8.self))
        default:
            if request.path.hasPrefix("/upload/") {
                return .bytes([UInt8](TestImages.png(tag: request.path)), contentType: "image/png")
            }
            return .json("{\"status\":404,\"type\":\"Internal error\"}", status: 404)
        }
    }

    /// The request timeout tests use unless they test timeouts (and pass their own): long enough
    /// that a loopback reply held up by a busy machine (every test suite runs at once) is not
    /// retried, which would double the requests the server counts. 2 s was not: a fresh clone's
    /// CI once saw the first request time out and a second fetch the same article.
    static let timeout: Duration = .seconds(10)

    func options(refresh: Bool = false, timeout: Duration = FakeWikipedia.timeout, attempts: Int = 4) -> FetchOptions {
        FetchOptions(
            urlTemplate: template, commonsURL: server.baseURL + "/w/api.php", refresh: refresh, concurrency: 2,
            requestsPerSecond: nil, userAgent: FetchOptions.userAgent(version: "9.9.9", contact: "tests@example.invalid"),
            timeout: timeout,
            retry: RetryPolicy(
                maxAttempts: attempts, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40), maxRetryAfter: .seconds(5),
                maxTotalWait: .seconds(10)),
            clock: FixedTimeSource(Date(timeIntervalSince1970: 1_790_000_000)))
    }

    func fetch(_ animals: [Animal], refresh: Bool = false, timeout: Duration = FakeWikipedia.timeout, attempts: Int = 4) async -> FetchReport {
        let config = SiteConfig(title: LocalizedText(["de": "T"]), baseURL: "https://example.org/", languages: ["de", "en"])
        let catalog = Catalog(root: dir.path, config: config, animals: animals, pages: [], mediaFiles: [:])
        let jobs = FetchPlan.jobs(for: catalog).jobs
        return await WikipediaFetcher(cache: cache, options: options(refresh: refresh, timeout: timeout, attempts: attempts)).run(jobs)
    }

    static func animal(_ id: String, _ wikipedia: [String: String]) -> Animal {
        var locations: [String: BestiaryDiagnostics.SourceLocation] = [:]
        for (i, lang) in wikipedia.keys.sorted().enumerated() {
            locations["wikipedia.\(lang)"] = BestiaryDiagnostics.SourceLocation(path: "content/animals/\(id).md", line: 5 + i, column: 13)
        }
        return Animal(id: id, name: LocalizedText(["de": id]), wikipedia: wikipedia, sourcePath: "content/animals/\(id).md", fieldLocations: locations)
    }
}

/// Requests seen by the fake, by path, with when they arrived.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var byPath: [String: [ContinuousClock.Instant]] = [:]
    private var all: [LoopbackServer.Request] = []
    private var base = ""

    /// The server's `http://127.0.0.1:PORT`, known once it listens.
    var baseURL: String {
        get { lock.withLock { base } }
        set { lock.withLock { base = newValue } }
    }

    func record(_ request: LoopbackServer.Request) -> Int {
        lock.withLock {
            byPath[request.path, default: []].append(.now)
            all.append(request)
            return byPath[request.path]!.count
        }
    }

    func count(_ path: String) -> Int { lock.withLock { byPath[path]?.count ?? 0 } }
    func times(_ path: String) -> [ContinuousClock.Instant] { lock.withLock { byPath[path] ?? [] } }
    var requests: [LoopbackServer.Request] { lock.withLock { all } }
    var total: Int { lock.withLock { all.count } }
    func count(prefix: String) -> Int { lock.withLock { all.count { $0.path.hasPrefix(prefix) } } }
}

/// Small valid picture files, generated for tests.
enum TestImages {
    static func png(tag: String) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        d.append(contentsOf: [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0] + [0, 0, 0, 0])
        let text = Array("Comment\u{0}generated test image \(tag)".utf8)
        d.append(contentsOf: [0, 0, 0, UInt8(text.count)] + Array("tEXt".utf8) + text + [0, 0, 0, 0])
        d.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        return d
    }
}
