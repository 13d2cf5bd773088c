import BestiaryContent
import BestiaryDiagnostics
import BestiaryFetch
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// `bestiary fetch` end to end against a real HTTP server on 127.0.0.1.
@Suite(.serialized)
struct FetchTests {
    typealias Reply = LoopbackServer.Reply
    let hund = FakeWikipedia.animal("hund", ["de": "Haushund"])

    @Test func fetchesSummaryImagesAndLicence() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund, FakeWikipedia.animal("dog", ["en": "Dog"])])
        #expect(report.summaryLine == "fetched 2, unchanged 0, failed 0")
        #expect(report.diagnostics.isEmpty)

        let snapshot = wiki.cache.load()
        let entry = try #require(snapshot.entry(language: "de", title: "Haushund"))
        #expect(entry.revision == "266236844")
        #expect(entry.etag == FakeWikipedia.haushundETag)
        #expect(entry.fetchedAt == "2026-09-21T14:13:20Z")
        #expect(entry.url == "https://de.wikipedia.org/wiki/Haushund")
        #expect(entry.license.name == "CC BY-SA 4.0")
        let image = try #require(entry.image)
        #expect(image.file == "File:Harzer_Fuchs_Hündin_2.jpg")
        // 330 px thumbnail plus the 864 px original (960 would be an upscale).
        #expect(image.renditions.map(\.width) == [330, 864])
        for r in image.renditions {
            let data = try Data(contentsOf: URL(fileURLWithPath: wiki.cache.imageFile(r.path)))
            #expect(Hashing.sha256Hex(data) == r.sha256)
            #expect(r.path == "wikipedia/images/\(r.sha256).png")  // the bytes are PNG, whatever the URL says
        }
        #expect(image.attribution?.artist == "Jörg Müller & Co")
        #expect(image.attribution?.license?.name == "CC BY-SA 3.0")
        // The 2020 Dog summary's 320 px is not a standard width any more: never asked for.
        #expect(wiki.log.requests.allSatisfy { !$0.path.contains("/320px-") })
        #expect(wiki.log.count(prefix: "/upload/wikipedia/commons/thumb/d/d9/Collage_of_Nine_Dogs.jpg/330px-") == 1)
        #expect(wiki.log.count(prefix: "/upload/wikipedia/commons/thumb/d/d9/Collage_of_Nine_Dogs.jpg/960px-") == 1)
    }

    @Test func identifiesItselfAsWikimediaAsks() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        _ = await wiki.fetch([hund])
        let agents = Set(wiki.log.requests.compactMap { $0.header("user-agent") })
        #expect(agents == ["Bestiary/9.9.9 (tests@example.invalid) libcurl"])
        #expect(wiki.log.requests.first { $0.path == FakeWikipedia.haushundPath }?.header("accept")?.contains("Summary/1.5.0") == true)
    }

    @Test func secondRunAsksNothingAndRefreshDownloadsNoBody() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        _ = await wiki.fetch([hund])
        let path = wiki.cache.entryPath(language: "de", canonicalTitle: "Haushund")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let requestsAfterFirst = wiki.log.total

        let again = await wiki.fetch([hund])
        #expect(again.summaryLine == "fetched 0, unchanged 1, failed 0")
        #expect(wiki.log.total == requestsAfterFirst)  // nothing asked

        let refresh = await wiki.fetch([hund], refresh: true)
        #expect(refresh.summaryLine == "fetched 0, unchanged 1, failed 0")
        #expect(refresh.bodies == 0)
        #expect(wiki.log.total == requestsAfterFirst + 1)
        #expect(wiki.log.requests.last?.header("if-none-match") == FakeWikipedia.haushundETag)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)  // 304 leaves the file alone
    }

    @Test func sameArticleNamedTwiceIsFetchedOnce() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([
            FakeWikipedia.animal("a", ["de": "Haushund"]), FakeWikipedia.animal("b", ["de": "haushund"]),
            FakeWikipedia.animal("c", ["de": "Haushund "]),
        ])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 1)
    }

    @Test func retriesAfter429HonouringRetryAfter() async throws {
        let wiki = try await FakeWikipedia.start { request, call, _ in
            request.path == FakeWikipedia.haushundPath && call == 1
                ? Reply(status: 429, headers: [("Retry-After", "1")], body: Array("Too many requests".utf8)) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        let times = wiki.log.times(FakeWikipedia.haushundPath)
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= .milliseconds(950))
    }

    @Test func retryAfterLongerThanTheCapFailsInsteadOfHanging() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath ? Reply(status: 429, headers: [("Retry-After", "3600")]) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.failed == 1)
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 1)
        #expect(report.diagnostics.first?.message.contains("asks to wait 3600 s") == true)
    }

    /// A server that asks to be left alone for longer than the cap: the run stops asking it (each
    /// other worker went on at full rate, 55 requests in 11 s each told to wait 200 s).
    @Test func aLongRetryAfterStopsTheRun() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path.contains("/page/summary/") ? Reply(status: 429, headers: [("Retry-After", "200")]) : nil
        }
        defer { Task { await wiki.stop() } }
        let animals = (1...12).map { FakeWikipedia.animal("a\($0)", ["en": "Animal \($0)"]) }
        let report = await wiki.fetch(animals)
        let asked = wiki.log.total
        #expect(asked <= 2, "no more than the two workers' first requests (\(asked))")
        #expect(report.failed == asked && report.notAsked == 12 - asked)
        #expect(report.summaryLine.hasPrefix("stopped, Wikipedia asked to be left alone for 200 s (HTTP 429 or 503 with Retry-After), so nothing more was asked: fetched 0, unchanged 0, failed \(asked), not done \(12 - asked)"), "\(report.summaryLine)")
    }

    /// A full disk: the first article that cannot be written stops the run (every other one was
    /// downloaded to be thrown away, each said in an error of its own).
    @Test func aFullDiskStopsTheRun() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let animals = (1...12).map { FakeWikipedia.animal("t\($0)", ["en": "Test"]) } + [hund, FakeWikipedia.animal("dog", ["en": "Dog"])]
        let cache = WikipediaCache(root: wiki.dir.path, fileSystem: FailingFileSystem(failAfter: 0))
        let config = SiteConfig(title: LocalizedText(["de": "T"]), baseURL: "https://example.org/", languages: ["de", "en"])
        let jobs = FetchPlan.jobs(for: Catalog(root: wiki.dir.path, config: config, animals: animals, pages: [], mediaFiles: [:])).jobs
        var options = wiki.options()
        options.concurrency = 1
        let report = await WikipediaFetcher(cache: cache, options: options).run(jobs)
        #expect(report.failed == 1 && report.notAsked == jobs.count - 1, "\(report.summaryLine)")
        #expect(report.stopped?.hasPrefix("the cache cannot be written (No space left on device)") == true, "\(report.summaryLine)")
    }

    /// A redirect to a page that does not exist is said as such, not as a wrong title.
    @Test func aRedirectToAMissingPageIsSaidAsOne() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            switch request.path {
            case "/fr/api/rest_v1/page/summary/Chouette_202":
                return Reply(status: 302, headers: [("Location", "Chouette_202_absent")])
            case "/fr/api/rest_v1/page/summary/Chouette_202_absent":
                return .json("{\"type\":\"https://mediawiki.org/wiki/HyperSwitch/errors/not_found\",\"title\":\"Not found.\"}", status: 404)
            default: return nil
            }
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("chouette", ["fr": "Chouette 202"])])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message == "wikipedia.fr 'Chouette 202': fr.wikipedia redirects 'Chouette 202' to 'Chouette 202 absent', which has no article (HTTP 404); give the title of the article meant, or mend the redirect on fr.wikipedia", "\(report.diagnostics)")
    }

    @Test func retriesServerErrorsThenSucceeds() async throws {
        let wiki = try await FakeWikipedia.start { request, call, _ in
            request.path == FakeWikipedia.haushundPath && call <= 2 ? .text("oops", status: call == 1 ? 500 : 503) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 3)
    }

    /// A server that keeps failing: the record is named with its file:line, nothing is written.
    @Test func persistentServerErrorsFailAtTheRecord() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath ? .text("down", status: 500) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund], attempts: 3)
        #expect(report.summaryLine == "fetched 0, unchanged 0, failed 1")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 3)
        #expect(report.diagnostics == [
            .error("wikipedia.de 'Haushund': HTTP 500 after 3 attempts",
                   at: BestiaryDiagnostics.SourceLocation(path: "content/animals/hund.md", line: 5, column: 13), stage: "fetch")
        ])
        #expect(wiki.cache.load().entries.isEmpty)
    }

    @Test func timeoutIsRetried() async throws {
        let wiki = try await FakeWikipedia.start { request, call, base in
            guard request.path == FakeWikipedia.haushundPath, call == 1 else { return nil }
            var slow = FakeWikipedia.standard(request, base: base)
            slow.delay = .seconds(6)
            return slow
        }
        defer { Task { await wiki.stop() } }
        // 3 s: the retry's quick answer must come in time on a machine busy with other tests
        // (0.5 s was once too short under `swift test --parallel` on two cores, and a loopback
        // server's head has come more than 1 s late there).
        let report = await wiki.fetch([hund], timeout: .seconds(3))
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 2)
    }

    @Test func serverThatNeverAnswersInTimeFails() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath ? Reply(status: 200, body: Array("{}".utf8), delay: .seconds(3)) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund], timeout: .milliseconds(300), attempts: 2)
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message.contains("no answer in time after 2 attempts") == true)
    }

    /// Slow but within the time allowed: one request, no retry.
    @Test func slowServerIsWaitedFor() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            var reply = FakeWikipedia.standard(request, base: base)
            reply.delay = .milliseconds(300)
            return reply
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund], timeout: .seconds(5))
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 1)
    }

    @Test func malformedJSONIsReportedAndNothingStored() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath ? .json("{\"type\":\"standard\",\"titles\":") : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message == "wikipedia.de 'Haushund': the answer is not a usable summary: the body is not valid JSON (28 bytes); the answer may have been cut short on the way; run `bestiary fetch` again (what was fetched is kept)")
        #expect(wiki.cache.load().entries.isEmpty)
    }

    /// A network's login page answering 200 in Wikipedia's place read as if the article were
    /// broken (found by a museum technician on a bad network): said to be an HTML page.
    @Test func anHTMLPageInPlaceOfASummaryIsSaidToBeOne() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath ? .text("<!DOCTYPE html><html><body>Log in to the Wi-Fi</body></html>") : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message.hasSuffix(
            "; it is an HTML page: a proxy or a network's login page may have answered instead of Wikipedia; run `bestiary fetch` again once the network lets it through") == true,
            "\(report.diagnostics)")
    }

    @Test func truncatedImageIsRetriedAndStoredWhole() async throws {
        let wiki = try await FakeWikipedia.start { request, call, base in
            guard request.path.contains("/330px-"), call == 1 else { return nil }
            var cut = FakeWikipedia.standard(request, base: base)
            cut.truncateAfter = 40
            return cut
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        let rendition = try #require(wiki.cache.load().entry(language: "de", title: "Haushund")?.image?.renditions.first)
        #expect(wiki.cache.imageIsIntact(rendition, verifyHash: true))
        #expect(wiki.log.count(prefix: "/upload/wikipedia/commons/thumb/") == 2)
    }

    /// Cut short without a Content-Length to notice it by: the PNG's end marker is missing.
    @Test func imageCutShortWithoutLengthIsRefused() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path.contains("/330px-") ? .bytes([UInt8](TestImages.png(tag: "x").dropLast(6)), contentType: "image/png") : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message.contains("png file is cut short") == true)
        #expect(wiki.cache.load().entries.isEmpty)
    }

    /// A picture, or its licence lookup, whose server does not answer: the failure names the
    /// picture, not only the article (which did come). Only that request is held up (the
    /// summary's answer must not miss the timeout on a busy machine).
    @Test(arguments: [
        ("/330px-", "lead image 330px-Harzer_Fuchs_Hündin_2.jpg"),
        ("/w/api.php", "licence of File:Harzer_Fuchs_Hündin_2.jpg"),
    ])
    func aPictureThatDoesNotComeIsNamed(held: String, named: String) async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            guard request.path.contains(held) else { return nil }
            var reply = FakeWikipedia.standard(request, base: base)
            reply.delay = .seconds(30)
            return reply
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([hund], timeout: .seconds(5), attempts: 2)
        #expect(report.failed == 1)
        // docs/wikipedia.md quotes these messages (with the default 6 attempts).
        #expect(report.diagnostics.first?.message == "wikipedia.de 'Haushund': \(named): no answer in time after 2 attempts (each waited up to 5.0 s; --timeout SECONDS allows more)")
    }

    /// Ctrl-C (the run's task cancelled) stops the fetch where it is: the article done is kept
    /// and counted, the one cut off mid-request is neither a failure nor an error, the rest are
    /// not begun, and the report says so (the command prints it as its last line). The held
    /// request is given up at once, not waited for.
    @Test func aCancelledRunKeepsWhatItFetchedAndSaysWhatIsLeft() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            guard request.path == FakeWikipedia.dogPath else { return nil }
            var reply = FakeWikipedia.standard(request, base: base)
            reply.delay = .seconds(60)
            return reply
        }
        defer { Task { await wiki.stop() } }
        var options = wiki.options()
        options.concurrency = 1
        let jobs = [
            FetchJob(language: "de", title: "Haushund", requesters: []), FetchJob(language: "en", title: "Dog", requesters: []),
            FetchJob(language: "en", title: "Test", requesters: []),
        ]
        let fetcher = WikipediaFetcher(cache: wiki.cache, options: options)
        let running = Task { await fetcher.run(jobs) }
        let deadline = ContinuousClock.now + .seconds(30)
        while wiki.log.count(FakeWikipedia.dogPath) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(wiki.log.count(FakeWikipedia.dogPath) == 1)
        let cancelled = ContinuousClock.now
        running.cancel()
        let report = await running.value
        #expect(ContinuousClock.now - cancelled < .seconds(30), "the held request was waited for")
        #expect(report.interrupted)
        #expect((report.fetched, report.unchanged, report.failed, report.notAsked) == (1, 0, 0, 2))
        #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics)")
        #expect(report.summaryLine == "interrupted: fetched 1, unchanged 0, failed 0, not done 2; what was fetched is kept, and `bestiary fetch` goes on from there")
        #expect(wiki.log.count("/en/api/rest_v1/page/summary/Test") == 0)
        #expect(wiki.cache.load().entries.count == 1)
    }

    /// A site language with a region or script (`pt-BR`) reads its base language's wiki (there
    /// is no pt-BR.wikipedia: every fetch failed, blaming the title; found by a translator),
    /// asking for its variant.
    @Test func aRegionalLanguageReadsItsBaseLanguagesWiki() async throws {
        #expect(WikipediaTitle.wikiCode("pt-BR") == "pt")
        #expect(WikipediaTitle.wikiCode("zh-Hant") == "zh")
        #expect(WikipediaTitle.wikiCode("zh-Hant-TW") == "zh")
        #expect(WikipediaTitle.wikiCode("es-419") == "es")
        #expect(WikipediaTitle.wikiCode("de") == "de")
        #expect(WikipediaTitle.wikiCode("zh-yue") == "zh-yue")
        #expect(WikipediaTitle.wikiCode("be-tarask") == "be-tarask")
        #expect(WikipediaTitle.wikiCode("zh-min-nan") == "zh-min-nan")
        let wiki = try await FakeWikipedia.start { request, _, base in
            request.path == "/pt/api/rest_v1/page/summary/Haushund"
                ? .json(FakeWikipedia.summary("de__Haushund.json", base: base)) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["pt-BR": "Haushund"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0", "\(report.diagnostics)")
        let asked = try #require(wiki.log.requests.first { $0.path == "/pt/api/rest_v1/page/summary/Haushund" })
        #expect(asked.header("accept-language") == "pt-BR")
        #expect(wiki.cache.load().entries.keys.map { $0.language } == ["pt-BR"])
    }

    @Test func oversizedImageIsRefused() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path.contains("/330px-") ? .bytes([UInt8](TestImages.png(tag: String(repeating: "x", count: 200))) + [UInt8](repeating: 0, count: 20_000)) : nil
        }
        defer { Task { await wiki.stop() } }
        var options = wiki.options()
        options.maxImageBytes = 10_000
        let report = await WikipediaFetcher(cache: wiki.cache, options: options).run(
            [FetchJob(language: "de", title: "Haushund", requesters: [])])
        #expect(report.failed == 1)
    }

    /// The endpoint answers a redirect title with 302 and a protocol-relative Location; the entry
    /// is keyed by the final body's canonical title and remembers the title that led there.
    @Test func followsProtocolRelativeRedirect() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            request.path == "/de/api/rest_v1/page/summary/Hund"
                ? .status(302, headers: [("Location", "//" + base.dropFirst("http://".count) + "/de/api/rest_v1/page/summary/Haushund")]) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Hund"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        let snapshot = wiki.cache.load()
        #expect(snapshot.entry(language: "de", title: "Hund")?.canonicalTitle == "Haushund")
        #expect(snapshot.entries.count == 1)
        #expect(snapshot.entries.values.first?.requested == ["Haushund", "Hund"] || snapshot.entries.values.first?.requested == ["Hund"])
        // A rerun knows where Hund leads: no request at all.
        let before = wiki.log.total
        #expect(await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Hund"])]).unchanged == 1)
        #expect(wiki.log.total == before)
    }

    /// Two records' titles that lead to one article (one a redirect): a first fetch stores the
    /// article once and counts both titles fetched (it said "unchanged" for the second, on a
    /// cache that had nothing); a rerun counts both unchanged.
    @Test func twoTitlesOfOneArticleAreBothFetchedOnAFirstFetch() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            request.path == "/de/api/rest_v1/page/summary/Hund"
                ? .status(302, headers: [("Location", base + "/de/api/rest_v1/page/summary/Haushund")]) : nil
        }
        defer { Task { await wiki.stop() } }
        var options = wiki.options()
        options.concurrency = 1
        let jobs = [FetchJob(language: "de", title: "Haushund", requesters: []), FetchJob(language: "de", title: "Hund", requesters: [])]
        let first = await WikipediaFetcher(cache: wiki.cache, options: options).run(jobs)
        #expect(first.summaryLine == "fetched 2, unchanged 0, failed 0")
        #expect(wiki.cache.load().entries.count == 1)
        let again = await WikipediaFetcher(cache: wiki.cache, options: options).run(jobs)
        #expect(again.summaryLine == "fetched 0, unchanged 2, failed 0")
    }

    @Test func redirectLoopIsDetected() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            switch request.path {
            case "/de/api/rest_v1/page/summary/A": .status(302, headers: [("Location", "B")])
            case "/de/api/rest_v1/page/summary/B": .status(301, headers: [("Location", "/de/api/rest_v1/page/summary/A")])
            default: nil
            }
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("x", ["de": "A"])])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.message == "wikipedia.de 'A': redirect loop: A → B → A")
        #expect(wiki.log.count("/de/api/rest_v1/page/summary/A") == 1)
        // `check` and the build say what the fetch found, not "run `bestiary fetch`", which
        // would find the same (found by a museum technician).
        let warnings = wiki.cache.load().summary(for: FakeWikipedia.animal("x", ["de": "A"]), language: "de", fallback: []).diagnostics.map(\.message)
        #expect(warnings == [
            "wikipedia.de: 'A' has no summary: the last `bestiary fetch` found that its redirects go round (redirect loop: A → B → A); check the title, or the article's redirects on de.wikipedia (until then its page in de shows no summary or description)"
        ])
    }

    /// Decided on the status, whatever the body says: both real 404 bodies.
    @Test(arguments: ["en__Sadsd.json", "fr__Article_Inexistant_Test_Amanogawa_Xyz123.json"])
    func notFoundIsReportedAtTheRecord(_ bodyFile: String) async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == "/de/api/rest_v1/page/summary/Hundd"
                ? .json(String(decoding: (try? Fixtures.data("wikipedia/" + bodyFile)) ?? Data(), as: UTF8.self), status: 404) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Hundd"])])
        #expect(report.summaryLine == "fetched 0, unchanged 0, failed 1")
        #expect(report.diagnostics == [
            .error("wikipedia.de 'Hundd': de.wikipedia has no article 'Hundd' (HTTP 404); check the title",
                   at: BestiaryDiagnostics.SourceLocation(path: "content/animals/hund.md", line: 5, column: 13), stage: "fetch")
        ])
        #expect(wiki.log.count("/de/api/rest_v1/page/summary/Hundd") == 1)  // a 404 is not retried
    }

    @Test func disambiguationPageIsReportedAndNotUsed() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("test", ["en": "Test"])])
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.location == BestiaryDiagnostics.SourceLocation(path: "content/animals/test.md", line: 5, column: 13))
        #expect(report.diagnostics.first?.message.contains("'Test' is a disambiguation page") == true)
        #expect(wiki.cache.load().entries.isEmpty)
    }

    /// A refresh that finds a cached article gone (deleted, a 404 of the summary API) keeps its
    /// summary, and the build and `check` say so at the record (they said nothing, and the old
    /// text stayed on the page); a later fetch that finds it again forgets that.
    @Test func aCachedArticleARefreshFindsGoneIsWarnedAbout() async throws {
        let gone = GoneSwitch()
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == FakeWikipedia.haushundPath && gone.on ? .json("{\"status\":404,\"type\":\"not_found\"}", status: 404) : nil
        }
        defer { Task { await wiki.stop() } }
        #expect(await wiki.fetch([hund]).summaryLine == "fetched 1, unchanged 0, failed 0")
        gone.on = true
        #expect(await wiki.fetch([hund], refresh: true).failed == 1)
        let lookup = wiki.cache.load().summary(for: hund, language: "de", fallback: [])
        #expect(lookup.summary?.revision == "266236844", "the cached summary still shows")
        #expect(lookup.diagnostics.map(\.message) == [
            "wikipedia.de: the last `bestiary fetch` found that de.wikipedia has no article 'Haushund' (HTTP 404); check the title; the page still shows the summary cached on 2026-09-21 (revision 266236844) until the title is mended or removed"
        ])
        gone.on = false
        #expect(await wiki.fetch([hund], refresh: true).failed == 0)
        #expect(wiki.cache.load().summary(for: hund, language: "de", fallback: []).diagnostics.isEmpty)
    }

    /// A title the fetch found no usable article for (a disambiguation page, a 404) is kept in
    /// `.pending/`, so the build's warning says what the fetch found instead of advising a fetch
    /// that cannot mend it; once the title is fetched, that is forgotten. A failure that asking
    /// again may mend (a 503), or a 404 that is not the summary API's, is not kept.
    @Test func aTitleWithoutAnArticleIsNamedSoByTheBuildUntilItIsFetched() async throws {
        let wiki = try await FakeWikipedia.start { request, call, _ in
            if request.path == FakeWikipedia.haushundPath, call == 1 { return .json("{\"status\":404,\"type\":\"Internal error\"}", status: 404) }
            if request.path == "/de/api/rest_v1/page/summary/Fuchs" { return .text("<html>Not Found</html>", status: 404) }
            if request.path == "/de/api/rest_v1/page/summary/Hund" { return .text("busy", status: 503) }
            return nil
        }
        defer { Task { await wiki.stop() } }
        let test = FakeWikipedia.animal("test", ["en": "Test"]), hund = FakeWikipedia.animal("hund", ["de": "Haushund"])
        let busy = FakeWikipedia.animal("busy", ["de": "Hund"]), elsewhere = FakeWikipedia.animal("fuchs", ["de": "Fuchs"])
        let first = await wiki.fetch([test, hund, busy, elsewhere], attempts: 1)
        #expect(first.failed == 4)
        func warnings(_ animal: Animal, _ language: String) -> [String] {
            wiki.cache.load().summary(for: animal, language: language, fallback: []).diagnostics.map(\.message)
        }
        func until(_ language: String) -> String { " (until then its page in \(language) shows no summary or description)" }
        #expect(warnings(test, "en") == [
            "wikipedia.en: 'Test' has no summary: the last `bestiary fetch` found that 'Test' is a disambiguation page (it lists several meanings); name the animal's own article" + until("en"),
        ])
        #expect(warnings(hund, "de") == [
            "wikipedia.de: 'Haushund' has no summary: the last `bestiary fetch` found that de.wikipedia has no article 'Haushund' (HTTP 404); check the title" + until("de"),
        ])
        #expect(warnings(busy, "de") == ["wikipedia.de: 'Hund' is not in the Wikipedia cache; run `bestiary fetch`" + until("de")])
        // A 404 that is not the summary API's (a wrong --wikipedia-url's server) says nothing of the title.
        #expect(warnings(elsewhere, "de") == ["wikipedia.de: 'Fuchs' is not in the Wikipedia cache; run `bestiary fetch`" + until("de")])
        // The article is there now: fetched, and the refusal forgotten.
        let second = await wiki.fetch([hund], attempts: 1)
        #expect(second.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(warnings(hund, "de").isEmpty)
        #expect(wiki.cache.refusal(language: "de", title: "Haushund") == nil)
    }

    @Test func damagedEntryIsFetchedAgain() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        _ = await wiki.fetch([hund])
        let path = wiki.cache.entryPath(language: "de", canonicalTitle: "Haushund")
        let good = try String(contentsOfFile: path, encoding: .utf8)
        try good.replacingOccurrences(of: "Haustier", with: "Kuscheltier").writeReplacing(toFile: path)

        let report = await wiki.fetch([hund])
        #expect(report.fetched == 1)
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 2)
        // Said as mended, not as still to be done (it said "`bestiary fetch` fetches it again").
        #expect(report.diagnostics.filter { $0.message.contains("damaged") }.map(\.severity) == [.note])
        #expect(report.diagnostics.contains { $0.message.hasPrefix("damaged Wikipedia cache entry: ") && $0.message.hasSuffix("; this fetch wrote it again") })
        #expect(wiki.cache.load().entry(language: "de", title: "Haushund")?.extract.contains("Kuscheltier") == false)
    }

    @Test func missingImageFileIsDownloadedAgainOnRefresh() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        _ = await wiki.fetch([hund])
        let rendition = try #require(wiki.cache.load().entry(language: "de", title: "Haushund")?.image?.renditions.first)
        try FileManager.default.removeItem(atPath: wiki.cache.imageFile(rendition.path))
        let images = wiki.log.count(prefix: "/upload/")
        let report = await wiki.fetch([hund], refresh: true)
        #expect(report.fetched == 1)
        #expect(wiki.log.count(prefix: "/upload/") == images + 1)
        #expect(wiki.cache.imageIsIntact(rendition, verifyHash: true))
    }

    /// A run that stopped after the summary (here: the image server was down) keeps the summary
    /// it had; the next run asks only for what is missing.
    @Test func unfinishedArticleResumesWithoutAskingAgain() async throws {
        let imagesDown = Flag()
        imagesDown.set(true)
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path.hasPrefix("/upload/") && imagesDown.value ? .status(500) : nil
        }
        defer { Task { await wiki.stop() } }
        #expect(await wiki.fetch([hund], attempts: 2).failed == 1)
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 1)

        imagesDown.set(false)
        let report = await wiki.fetch([hund])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(FakeWikipedia.haushundPath) == 1)  // the summary was not asked for again
        #expect(wiki.cache.load().entry(language: "de", title: "Haushund")?.image?.renditions.count == 2)
        #expect(!FileManager.default.fileExists(atPath: wiki.dir.appending("content/wikipedia/.pending/de/" + CacheFileName.stem(language: "de", canonicalTitle: "Haushund") + ".json")))
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var v = false
    var value: Bool { lock.withLock { v } }
    func set(_ new: Bool) { lock.withLock { v = new } }
}

/// Summaries are asked for with `Accept-Encoding: gzip` (Wikimedia's etiquette) and gzip answers,
/// whose Content-Length counts compressed bytes, are decoded.
@Suite struct GzipTests {
    @Test func gzipAnswerIsDecoded() async throws {
        // An article without image: nothing in the body points outside 127.0.0.1.
        let path = "/en/api/rest_v1/page/summary/Third_Council_of_the_Lateran"
        let gz = try Fixtures.data("wikipedia/generated__en__Third_Council_of_the_Lateran.json.gz")
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == path
                ? LoopbackServer.Reply(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: [UInt8](gz))
                : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("council", ["en": "Third Council of the Lateran"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0", "\(report.diagnostics)")
        #expect(wiki.cache.load().entry(language: "en", title: "Third Council of the Lateran")?.extract.hasPrefix("The Third Council") == true)
        #expect(wiki.log.requests.first { $0.path == path }?.header("accept-encoding") == "gzip")
    }
}

/// An image width that is gone (404) does not cost the article its text or its other width.
@Suite struct MissingImageTests {
    @Test func goneImageWidthIsLeftOut() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path.contains("/330px-") ? .status(404) : nil
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Haushund"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        #expect(wiki.log.count(prefix: "/upload/wikipedia/commons/thumb/") == 1)  // 404 is not retried
        #expect(wiki.cache.load().entry(language: "de", title: "Haushund")?.image?.renditions.map(\.width) == [864])
        #expect(report.diagnostics.map(\.severity) == [.warning])
    }
}

/// RFC 9745 `Deprecation` on the summary endpoint is passed on to the user, once.
@Suite struct DeprecationTests {
    @Test func deprecationHeaderBecomesOneNote() async throws {
        let wiki = try await FakeWikipedia.start { request, _, base in
            guard request.path.contains("/page/summary/") else { return nil }
            var reply = FakeWikipedia.standard(request, base: base)
            reply.headers.append(("Deprecation", "@1788000000"))
            return reply
        }
        defer { Task { await wiki.stop() } }
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Haushund"]), FakeWikipedia.animal("dog", ["en": "Dog"])])
        #expect(report.fetched == 2)
        #expect(report.diagnostics.filter { $0.severity == .note }.count == 1)
        #expect(report.diagnostics.first?.message.contains("Deprecation: @1788000000") == true)
    }
}

/// A switch a test's server reads from its own thread.
final class GoneSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var on: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
