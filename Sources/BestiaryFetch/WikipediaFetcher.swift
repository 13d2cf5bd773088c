import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// `bestiary fetch`: fills and revalidates the Wikipedia cache of a site root.
///
/// One request per distinct (language, title) (``FetchPlan``); each summary is decoded, its
/// lead image downloaded at the standard widths (``ThumbnailPlan``), checked by its bytes and
/// stored by SHA-256, its licence looked up on Commons, and only then is the entry written.
/// A run killed at any moment leaves complete entries only, and the next run skips what is
/// cached (`--refresh` asks the server instead, with `If-None-Match`).
public struct WikipediaFetcher: Sendable {
    public let cache: WikipediaCache
    public let options: FetchOptions
    private let transport: any HTTPTransport
    private let ownsTransport: Bool

    /// - Parameter transport: nil for the real HTTP client (libcurl, ``CurlTransport``).
    public init(cache: WikipediaCache, options: FetchOptions, transport: (any HTTPTransport)? = nil) {
        self.cache = cache
        self.options = options
        if let transport {
            self.transport = transport
            self.ownsTransport = false
        } else {
            self.transport = CurlTransport(userAgent: options.userAgent, readTimeout: options.timeout)
            self.ownsTransport = true
        }
    }

    static let summaryAccept = "application/json; charset=utf-8; profile=\"https://www.mediawiki.org/wiki/Specs/Summary/1.5.0\""
    static let imageAccept = "image/webp,image/png,image/jpeg,image/gif;q=0.9"

    /// The file `bestiary fetch` locks so that one fetch of a site runs at a time:
    /// `content/wikipedia/.pending/lock`, git-ignored with the rest of `.pending/` (which is made
    /// here when it is not there).
    public static func lockPath(for cache: WikipediaCache) -> String {
        let folder = (try? PendingFetch.prepareFolder(in: cache)) ?? "\(cache.directory)/\(PendingFetch.folder)"
        return folder + "/lock"
    }

    /// Runs `jobs` with ``FetchOptions/concurrency`` workers; `onEvent` is called from any thread.
    public func run(_ jobs: [FetchJob], onEvent: @escaping @Sendable (FetchEvent) -> Void = { _ in }) async -> FetchReport {
        cache.removeStaleTemporaryFiles()
        let snapshot = cache.load()
        let tally = FetchTally()
        let session = CacheSession(cache: cache, snapshot: snapshot)
        var client = PoliteClient(
            transport: transport, limiter: RateLimiter(requestsPerSecond: options.requestsPerSecond), retry: options.retry,
            timeout: options.timeout)
        client.onRetry = { url, reason, wait in onEvent(.retrying(url: url, reason: reason, wait: wait)) }
        let queue = JobQueue(jobs)
        onEvent(.started(total: jobs.count))
        let politeClient = client
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(options.concurrency, max(jobs.count, 1)) {
                group.addTask {
                    while !Task.isCancelled, let job = await queue.next() {
                        let result = await process(job, session: session, client: politeClient)
                        if let reason = result.stopsRun { await queue.stop(reason) }
                        // Cut off by the cancellation (Ctrl-C): neither a failure nor done. What
                        // it stored so far is pending, for the next run to go on from.
                        if Task.isCancelled, case .failed = result.outcome { continue }
                        await tally.add(result.diagnostics)
                        let done = await tally.record(result.outcome, requests: result.requests, bodies: result.bodies)
                        onEvent(.finished(job: job, outcome: result.outcome, done: done, total: jobs.count))
                    }
                }
            }
        }
        if ownsTransport { await transport.shutdown() }
        var report = await tally.report
        // What was damaged when the run began; what it mended meanwhile is a note saying so (the
        // warnings, printed after "fetched 2" had repaired both, said it still had to be done).
        let damage = snapshot.diagnostics.map { d in
            var copy = (report.fetched > 0 ? cache.mendedNote(for: d) : nil) ?? d
            copy.stage = "fetch"
            return copy
        }
        report.diagnostics = damage + report.diagnostics
        if Task.isCancelled {
            report.interrupted = true
            report.notAsked = jobs.count - (report.fetched + report.unchanged + report.failed)
        } else if let reason = await queue.stopReason {
            report.stopped = reason
            report.notAsked = jobs.count - (report.fetched + report.unchanged + report.failed)
        }
        return report
    }

    // MARK: One job

    struct JobResult {
        var outcome: FetchOutcome = .unchanged
        var requests = 0
        var bodies = 0
        var diagnostics: [Diagnostic] = []
        /// Why no further job should be begun (the cache cannot be written, the server asked to
        /// be left alone): the rest would only fail, or ask a server that said not to.
        var stopsRun: String?
    }

    /// What to say of a 200 answer that is not the JSON asked for: an HTML page (a proxy's or a
    /// captive portal's) or an answer cut short, which a later fetch may not meet (found by a
    /// museum technician on a bad network: it read as if the article were broken).
    static func notJSONHint(_ body: Data) -> String {
        // JSON of another shape is said by the decoder's own message.
        if (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil { return "" }
        let start = String(decoding: body.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let html = start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<head") || start.hasPrefix("<body")
        return html
            ? "; it is an HTML page: a proxy or a network's login page may have answered instead of Wikipedia; run `bestiary fetch` again once the network lets it through"
            : "; the answer may have been cut short on the way; run `bestiary fetch` again (what was fetched is kept)"
    }

    struct JobFailure: Error {
        var reason: String
        /// Asking again will not mend it (no such article, a disambiguation page): kept for the
        /// build to say so (``WikipediaCache/refusal(language:title:)``).
        var permanent = false
    }

    /// An image URL answered 404 or 410: the file is gone, retrying will not help.
    struct ImageGone: Error {
        var status: Int
    }

    func process(_ job: FetchJob, session: CacheSession, client: PoliteClient) async -> JobResult {
        var r = JobResult()
        do {
            try await fetch(job, session: session, client: client, into: &r)
        } catch let failure as JobFailure {
            r.outcome = .failed(failure.reason)
            if failure.permanent { cache.recordRefusal(failure.reason, language: job.language, title: job.title) }
        } catch let failure as PoliteClient.Failure {
            r.outcome = .failed(failure.reason)
            if let wait = failure.asksToWait {
                r.stopsRun = "Wikipedia asked to be left alone for \(PoliteClient.seconds(wait)) (HTTP 429 or 503 with Retry-After), so nothing more was asked"
            }
            // A summary whose redirects go round: `check` says so instead of advising a fetch,
            // which would find the same (found by a museum's trial).
            if failure.isRedirectLoop {
                cache.recordRefusal(
                    "its redirects go round (\(failure.reason)); check the title, or the article's redirects on \(WikipediaTitle.wikiCode(job.language)).wikipedia",
                    language: job.language, title: job.title)
            }
        } catch is CancellationError {
            r.outcome = .failed("cancelled")
        } catch let error as FileSystemError {
            r.outcome = .failed("cannot write the cache: \(error)")
            // The disk full (787 more articles were downloaded to be thrown away, each said).
            if [ENOSPC, EDQUOT, EROFS].contains(error.code) {
                r.stopsRun = "the cache cannot be written (\(error.reason)), so nothing more was downloaded"
            }
        } catch {
            r.outcome = .failed("\(error)")
        }
        if case .failed = r.outcome {} else { cache.recordRefusal(nil, language: job.language, title: job.title) }
        if case .failed(let reason) = r.outcome {
            for requester in job.requesters {
                r.diagnostics.append(.error(
                    "wikipedia.\(job.language) '\(requester.title)': \(reason)", at: requester.location, stage: "fetch"))
            }
        }
        // A warning about the article (its picture has no licence, a width is gone) is each
        // naming record's, at its `wikipedia.LANG` (it named no file or article: found by a user).
        r.diagnostics = r.diagnostics.flatMap { d -> [Diagnostic] in
            guard d.location == nil, d.severity == .warning else { return [d] }
            return job.requesters.map { requester in
                var w = d
                w.location = requester.location
                w.message = "wikipedia.\(job.language) '\(requester.title)': \(d.message)"
                return w
            }
        }
        return r
    }

    private func fetch(_ job: FetchJob, session: CacheSession, client: PoliteClient, into r: inout JobResult) async throws {
        let cached = await session.entry(language: job.language, requested: job.title)
        if let cached, !options.refresh, imagesIntact(cached) {
            r.outcome = .unchanged
            return
        }
        if var pending = PendingFetch.load(from: cache, language: job.language, requested: job.title, now: options.clock.now()),
            let summary = try? WikipediaSummary.decode(Data(pending.summary.utf8)), summary.isStandard
        {
            // A run killed in the middle of this article: go on from where it was.
            try await store(summary, job: job, etag: pending.etag, cached: cached, pending: &pending, session: session, client: client, into: &r)
            return
        }
        var headers = [("Accept", Self.summaryAccept), ("Accept-Encoding", "gzip")]
        if let etag = cached?.etag { headers.append(("If-None-Match", etag)) }
        // A language read from its base language's wiki (`zh-Hant` from zh.wikipedia) asks for its
        // variant: wikis with variants (Chinese, Serbian) convert the text; the others ignore it.
        if WikipediaTitle.wikiCode(job.language) != job.language.lowercased() { headers.append(("Accept-Language", job.language)) }
        let url = WikipediaTitle.summaryURL(template: options.urlTemplate, language: job.language, title: job.title)
        let response = try await client.get(url, headers: headers, maxBytes: options.maxSummaryBytes)
        r.requests += response.requests
        if let deprecation = response.result.header("deprecation") {
            r.diagnostics.append(.note(
                "the summary endpoint announces its deprecation (Deprecation: \(deprecation)); see docs/wikipedia.md", stage: "fetch"))
        }
        switch response.status {
        case 304:
            guard let cached else { throw JobFailure(reason: "HTTP 304 Not Modified for an article that is not cached") }
            r.outcome = try await repairImages(of: cached, requested: job.title, session: session, client: client, into: &r) ? .fetched : .unchanged
        case 200...299:
            r.bodies += 1
            let summary: WikipediaSummary
            do {
                summary = try WikipediaSummary.decode(response.result.body)
            } catch {
                throw JobFailure(reason: "the answer is not a usable summary: \(error)\(Self.notJSONHint(response.result.body))")
            }
            guard summary.isStandard else { throw JobFailure(reason: Self.typeProblem(summary), permanent: true) }
            var pending = PendingFetch(
                language: job.language, requested: job.title, etag: response.result.header("etag"),
                summary: String(decoding: response.result.body, as: UTF8.self), savedAt: options.clock.now().timeIntervalSince1970)
            try await store(summary, job: job, etag: pending.etag, cached: cached, pending: &pending, session: session, client: client, into: &r)
        case 404:
            // Kept for the build only when the summary API said it (its JSON problem): a 404 of
            // another server (a wrong --wikipedia-url) says nothing of the title.
            let fromTheAPI = (try? JSONSerialization.jsonObject(with: response.result.body) as? [String: Any])?["type"] != nil
            let wiki = "\(WikipediaTitle.wikiCode(job.language)).wikipedia"
            // Reached by a redirect: the title is there, the page it leads to is not (it read as
            // a wrong title).
            // (Not a title the API only normalised, `haushund` to `Haushund`: that is no redirect.)
            if response.finalURL != url, let target = URL(string: response.finalURL)?.lastPathComponent, !target.isEmpty,
                WikipediaTitle.normalize(target) != WikipediaTitle.normalize(job.title)
            {
                throw JobFailure(
                    reason: "\(wiki) redirects '\(WikipediaTitle.readable(job.title))' to '\(WikipediaTitle.readable(target))', which has no article (HTTP 404); give the title of the article meant, or mend the redirect on \(wiki)",
                    permanent: fromTheAPI)
            }
            throw JobFailure(reason: "\(wiki) has no article '\(WikipediaTitle.readable(job.title))' (HTTP 404); check the title", permanent: fromTheAPI)
        default:
            throw JobFailure(reason: "HTTP \(response.status) from \(url)")
        }
    }

    static func typeProblem(_ summary: WikipediaSummary) -> String {
        let title = "'\(summary.normalizedTitle)'"
        switch summary.type {
        case "disambiguation":
            return "\(title) is a disambiguation page (it lists several meanings); name the animal's own article"
        case "no-extract":
            return "\(title) has no text to show (type no-extract); name an article"
        case "mainpage":
            return "\(title) is the wiki's main page; name the animal's article"
        default:
            return "\(title) is of type '\(summary.type)', not a standard article"
        }
    }

    private func store(
        _ summary: WikipediaSummary, job: FetchJob, etag: String?, cached: WikipediaEntry?, pending: inout PendingFetch,
        session: CacheSession, client: PoliteClient, into r: inout JobResult
    ) async throws {
        let existing = await session.entry(language: job.language, canonical: summary.canonicalTitle) ?? cached
        let plan = ThumbnailPlan.items(thumbnail: summary.thumbnail, original: summary.originalImage, widths: options.imageWidths)
        if let existing, existing.canonicalTitle == summary.canonicalTitle, existing.revision == summary.revision,
            plan.map(\.url) == (existing.image?.renditions.map(\.url) ?? []), imagesIntact(existing)
        {
            var same = existing
            if let etag { same.etag = etag }
            try await session.commit(same, requested: job.title)
            PendingFetch.remove(from: cache, language: job.language, requested: job.title)
            // The article is as stored, but a title that did not lead to it before (another title
            // of this run fetched it, as a redirect's target) does now: fetched for this title,
            // as a first fetch counts every title it stores (it said "unchanged" for the second).
            r.outcome = cached?.canonicalTitle == summary.canonicalTitle ? .unchanged : .fetched
            return
        }
        if !plan.isEmpty { try pending.save(to: cache) }
        let image = try await downloadImage(
            summary, plan: plan, language: job.language, previous: existing?.image, pending: &pending, client: client, into: &r)
        let pageURL = summary.pageURL ?? fallbackPageURL(language: job.language, title: summary.canonicalTitle)
        let entry = WikipediaEntry(
            language: job.language, requested: [job.title], canonicalTitle: summary.canonicalTitle, title: summary.normalizedTitle,
            pageID: summary.pageID, revision: summary.revision, lastEdited: summary.timestamp,
            fetchedAt: WikipediaCache.timestamp(options.clock.now()), etag: etag, url: pageURL, direction: summary.direction,
            description: summary.description, wikibaseItem: summary.wikibaseItem, extract: summary.extract,
            extractHTML: summary.extractHTML, license: .wikipediaText, image: image)
        // A server that answers with links no page may carry (`javascript:`): not stored, as the
        // build would refuse the entry (a `wikipedia.url` pointing at another server).
        // Optional links of another kind are left out (the rest of the article is kept).
        let stored = CacheEntryFile.droppingUnsafeOptionalLinks(entry)
        if let problem = CacheEntryFile.unsafeField(stored) {
            throw JobFailure(reason: "the answer is not a usable summary: \(problem)")
        }
        try await session.commit(stored, requested: job.title)
        PendingFetch.remove(from: cache, language: job.language, requested: job.title)
        r.outcome = .fetched
    }

    private func fallbackPageURL(language: String, title: String) -> String {
        let base = WikipediaTitle.restBase(template: options.urlTemplate, language: language)
        let site = base.hasSuffix("/api/rest_v1") ? String(base.dropLast("/api/rest_v1".count)) : base
        return site + "/wiki/" + WikipediaTitle.pathSegment(title)
    }

    // MARK: Images

    /// The jobs a run would ask the server about (each, with --refresh): those the cache does not
    /// answer with an entry whose pictures are intact. A fetch with none of them writes nothing,
    /// so a read-only cache is no reason to fail it (a museum's checkout mounted read-only).
    public func jobsAskingTheServer(_ jobs: [FetchJob]) -> [FetchJob] {
        if options.refresh { return jobs }
        let snapshot = cache.load()
        return jobs.filter { job in
            let key = WikipediaSnapshot.Key(language: job.language, title: WikipediaTitle.normalize(job.title))
            guard let entry = snapshot.index[key].flatMap({ snapshot.entries[$0] }) else { return true }
            return !imagesIntact(entry)
        }
    }

    private func imagesIntact(_ entry: WikipediaEntry) -> Bool {
        (entry.image?.renditions ?? []).allSatisfy { cache.imageIsIntact($0, verifyHash: true) }
    }

    private func downloadImage(
        _ summary: WikipediaSummary, plan: [ThumbnailPlan.Item], language: String, previous: CachedImage?,
        pending: inout PendingFetch, client: PoliteClient, into r: inout JobResult
    ) async throws -> CachedImage? {
        guard let first = plan.first else { return nil }
        var renditions: [ImageRendition] = []
        for item in plan {
            let known = (previous?.renditions ?? []) + pending.renditions
            if let reuse = known.first(where: { $0.url == item.url }), cache.imageIsIntact(reuse, verifyHash: true) {
                renditions.append(reuse)
                continue
            }
            let rendition: ImageRendition
            do {
                rendition = try await download(item.url, width: item.width, height: item.height, client: client, into: &r)
            } catch let gone as ImageGone {
                // A permanent answer about one width: keep the article (and any other width).
                r.diagnostics.append(.warning(
                    "lead image \(Self.fileName(item.url)) of '\(summary.normalizedTitle)' (\(language)): HTTP \(gone.status); that width is left out",
                    stage: "fetch"))
                continue
            }
            renditions.append(rendition)
            pending.renditions.append(rendition)
            try pending.save(to: cache)
        }
        if renditions.isEmpty { return nil }
        let sourceURL = summary.originalImage?.url ?? first.url
        let file = ThumbnailPlan.fileTitle(fromUploadURL: sourceURL) ?? "File:" + (sourceURL.split(separator: "/").last.map(String.init) ?? "image")
        var attribution: ImageAttribution?
        if let previous, previous.file == file, let known = previous.attribution {
            attribution = known
        } else if pending.attributionFile == file {
            attribution = pending.attribution
        } else {
            attribution = try await lookUpAttribution(file: file, uploadURL: sourceURL, language: language, client: client, into: &r)
            pending.attributionFile = file
            pending.attribution = attribution
            try pending.save(to: cache)
        }
        return CachedImage(file: file, original: summary.originalImage, renditions: renditions, attribution: attribution)
    }

    /// Downloads one picture, checks its bytes (a cut-short file is tried again, twice) and stores it.
    private func download(_ url: String, width: Int, height: Int, client: PoliteClient, into r: inout JobResult) async throws -> ImageRendition {
        var lastProblem = ""
        for _ in 1...3 {
            let response: PoliteClient.Response
            do {
                response = try await client.get(url, headers: [("Accept", Self.imageAccept)], maxBytes: options.maxImageBytes)
            } catch let failure as PoliteClient.Failure {
                // Named: the article came, its picture did not.
                throw JobFailure(reason: "lead image \(Self.fileName(url)): \(failure.reason)")
            }
            r.requests += response.requests
            if response.status == 404 || response.status == 410 { throw ImageGone(status: response.status) }
            guard response.status == 200 else {
                throw JobFailure(reason: "lead image \(Self.fileName(url)): HTTP \(response.status)")
            }
            r.bodies += 1
            let body = response.result.body
            if let problem = ImageBytes.problem(body) {
                lastProblem = problem
                continue
            }
            let format = ImageBytes.format(body)!.rawValue
            let (path, sha) = try cache.storeImage(body, format: format)
            return ImageRendition(width: width, height: height, url: url, path: path, sha256: sha, bytes: body.count, format: format)
        }
        throw JobFailure(reason: "lead image \(Self.fileName(url)): \(lastProblem)")
    }

    /// After a 304: downloads renditions whose files went missing or were damaged.
    private func repairImages(
        of entry: WikipediaEntry, requested: String, session: CacheSession, client: PoliteClient, into r: inout JobResult
    ) async throws -> Bool {
        guard var image = entry.image else {
            try await session.commit(entry, requested: requested)
            return false
        }
        var repaired = false
        for (i, rendition) in image.renditions.enumerated() where !cache.imageIsIntact(rendition, verifyHash: true) {
            image.renditions[i] = try await download(rendition.url, width: rendition.width, height: rendition.height, client: client, into: &r)
            repaired = true
        }
        var updated = entry
        updated.image = image
        try await session.commit(updated, requested: requested)
        return repaired
    }

    private func lookUpAttribution(
        file: String, uploadURL: String, language: String, client: PoliteClient, into r: inout JobResult
    ) async throws -> ImageAttribution? {
        let api = ThumbnailPlan.isCommonsUpload(uploadURL) ? options.commonsURL : (options.wikiActionAPI(language: language) ?? options.commonsURL)
        let response: PoliteClient.Response
        do {
            response = try await client.get(
                CommonsImageInfo.queryURL(api: api, file: file), headers: [("Accept", "application/json"), ("Accept-Encoding", "gzip")],
                maxBytes: 1 << 20)
        } catch let failure as PoliteClient.Failure {
            throw JobFailure(reason: "licence of \(file): \(failure.reason)")
        }
        r.requests += response.requests
        guard response.status == 200 else {
            throw JobFailure(reason: "licence of \(file): HTTP \(response.status) from \(api)")
        }
        r.bodies += 1
        do {
            switch try CommonsImageInfo.decode(response.result.body) {
            case .found(let attribution):
                return attribution
            case .missing:
                r.diagnostics.append(.warning(
                    "\(file) is not described at \(api); the image is kept without author and licence (pages link the article instead)",
                    stage: "fetch"))
                return nil
            }
        } catch {
            throw JobFailure(reason: "licence of \(file): \(error)\(Self.notJSONHint(response.result.body))")
        }
    }

    static func fileName(_ url: String) -> String {
        let last = url.split(separator: "?").first?.split(separator: "/").last.map(String.init) ?? url
        return last.removingPercentEncoding ?? last
    }
}

/// Hands out jobs to workers in order.
actor JobQueue {
    private var jobs: [FetchJob]
    private var position = 0

    /// Why no further job is handed out, once one said so.
    private(set) var stopReason: String?

    init(_ jobs: [FetchJob]) { self.jobs = jobs }

    func stop(_ reason: String) {
        if stopReason == nil { stopReason = reason }
    }

    func next() -> FetchJob? {
        guard stopReason == nil, position < jobs.count else { return nil }
        defer { position += 1 }
        return jobs[position]
    }
}
