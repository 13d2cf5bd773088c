import BestiaryCLI
import BestiaryFetch
import BestiaryStorage
import BestiaryWikipedia
import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary fetch` as a user runs it (in-process, real argv, a loopback Wikipedia).
@Suite(.serialized)
struct FetchCommandTests {
    func run(_ arguments: [String]) async -> (status: Int32, stderr: String, stdout: String) {
        let (console, captured) = Console.capturing()
        let status = await Console.$current.withValue(console) { await BestiaryCommand.run(arguments: arguments) }
        return (status, captured.stderr, captured.stdout)
    }

    func site(_ wiki: FakeWikipedia, contact: String? = "tests@example.invalid") throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("bestiary-fetch-cli")
        try dir.write("""
            title: {de: Test, en: Test}
            base_url: https://example.org/
            languages: [de, en]
            wikipedia:
              url: "\(wiki.template)"
              commons_url: "\(wiki.server.baseURL)/w/api.php"
            \(contact.map { "  contact: \($0)" } ?? "")
            """, to: "content/site.yml")
        try dir.write("---\nname: {de: Hund}\nwikipedia: {de: Haushund}\n---\n", to: "content/animals/hund.md")
        return dir
    }

    @Test func failureIsNamedAtTheRecordAndExitsOne() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        try dir.write("---\nname: {de: Phantom}\nwikipedia: {de: Gibt es nicht}\n---\n", to: "content/animals/phantom.md")

        let first = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(first.status == 1)
        let lines = first.stderr.split(separator: "\n").map(String.init)
        #expect(lines.last == "fetched 1, unchanged 0, failed 1")
        #expect(lines.contains(
            "content/animals/phantom.md:3:17: error: wikipedia.de 'Gibt es nicht': de.wikipedia has no article 'Gibt es nicht' (HTTP 404); check the title [fetch]"))
        #expect(lines.contains("fetching 2 articles"))
        #expect(lines.contains { $0.hasPrefix("[1/2] failed    de:Gibt es nicht") || $0.hasPrefix("[2/2] failed    de:Gibt es nicht") })

        try FileManager.default.removeItem(atPath: dir.appending("content/animals/phantom.md"))
        let second = await run(["fetch", "--root", dir.path])
        #expect(second.status == 0)
        #expect(second.stderr.hasSuffix("fetched 0, unchanged 1, failed 0"))
    }

    /// A record with an error (a pasted address for its title) was a note to run `check`, then
    /// "fetching 0 articles" and exit 0, so `fetch url && build` went on (a curator's): the error
    /// is said where it is, the rest is fetched, and the command fails.
    @Test func anErrorInARecordIsSaidAndFailsTheFetchOfTheRest() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        try dir.write("---\nname: {de: Eule}\nwikipedia: {de: \"https://de.wikipedia.org/wiki/Eule\"}\n---\n", to: "content/animals/eule.md")
        let result = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("content/animals/eule.md:3:17: error: wikipedia.de: 'https://de.wikipedia.org/wiki/Eule' is the article's web address") }, "\(lines)")
        #expect(lines.contains("bestiary: note: content/ has 1 error (above); fetching for the rest of it, then failing"), "\(lines)")
        #expect(lines.last == "fetched 1, unchanged 0, failed 0", "the dog's article is fetched: \(lines)")
    }

    /// A cache the fetch cannot write into is found before any request: the user gets one
    /// message and Wikipedia is asked nothing (it was asked for every article, each then failing
    /// at its write). Here a file stands where the German entries' folder goes (as root, a
    /// read-only folder would not stop the write; the check is the same write).
    @Test func anUnwritableCacheIsFoundBeforeAnyRequest() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        try dir.write("not a folder", to: "content/wikipedia/de")

        let result = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bestiary: error: cannot write the Wikipedia cache: cannot create directory "), "\(result.stderr)")
        #expect(result.stderr.contains("content/wikipedia/de: a file is in the way; nothing was asked of Wikipedia"), "\(result.stderr)")
        #expect(wiki.log.total == 0, "the fetch asked Wikipedia although it could not store the answers")
        // Nothing of the check is left in the folders it wrote into.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appending("content/wikipedia")).sorted() == [".pending", "de", "images"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appending("content/wikipedia/images")).isEmpty)
    }

    /// A cache that cannot be written (a checkout mounted read-only) does not fail a fetch that
    /// has nothing to write: every article cached, it says they are unchanged and exits 0. One
    /// article missing, it fails as before and says how many are missing.
    @Test func anUnwritableCacheHoldingEveryArticleIsNoFailure() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        #expect(await run(["fetch", "--root", dir.path, "--rate", "0"]).status == 0)
        let asked = wiki.log.total
        // As root a read-only folder would not stop a write: a file stands where .pending/ goes.
        try FileManager.default.removeItem(atPath: dir.appending("content/wikipedia/.pending"))
        try dir.write("not a folder", to: "content/wikipedia/.pending")

        let again = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.hasSuffix("fetched 0, unchanged 1, failed 0"), "\(again.stderr)")
        #expect(wiki.log.total == asked)

        try dir.write("---\nname: {de: Katze}\nwikipedia: {de: Hauskatze}\n---\n", to: "content/animals/katze.md")
        let missing = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("(1 of 2 articles is not cached); nothing was asked of Wikipedia"), "\(missing.stderr)")
        #expect(wiki.log.total == asked)
    }

    /// A fetch that changes nothing leaves the site as it was: the next build is up to date (the
    /// check that the cache is writable wrote a file into each folder, and their new times made
    /// the next build build everything anew).
    @Test func aFetchThatChangesNothingLeavesTheBuildUpToDate() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        #expect(await run(["fetch", "--root", dir.path, "--rate", "0"]).status == 0)
        #expect(await run(["build", "--root", dir.path]).status == 0)
        try await Task.sleep(for: .milliseconds(1100))
        let again = await run(["fetch", "--root", dir.path, "--rate", "0"])
        #expect(again.stderr.hasSuffix("fetched 0, unchanged 1, failed 0"), "\(again.stderr)")
        let build = await run(["build", "--root", dir.path])
        #expect(build.stderr.contains("is up to date"), "\(build.stderr)")
    }

    /// Two fetches of one site never run at once (they would ask Wikipedia for the same articles
    /// at twice the polite rate): the second waits for the lock, says so, and then finds what the
    /// first stored, asking nothing.
    @Test func aSecondFetchWaitsForTheFirstAndAsksNothingItStored() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        // The first fetch, as another process: it holds the site's fetch lock.
        var held = FileLock.acquire(dir.appending("content/wikipedia/.pending/lock"), waiting: {})
        try #require(held != nil)
        #expect(!FileManager.default.fileExists(atPath: dir.appending("content/wikipedia/.pending/.gitignore")))
        let (console, captured) = Console.capturing()
        let second = Task { await Console.$current.withValue(console) { await BestiaryCommand.run(arguments: ["fetch", "--root", dir.path, "--rate", "0"]) } }
        let waiting = "bestiary: another fetch of this site is running; waiting for it to finish"
        let deadline = ContinuousClock.now + .seconds(60)
        while !captured.stderr.contains(waiting), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(captured.stderr.contains(waiting), "the second fetch never said it waits: \(captured.stderr)")
        #expect(wiki.log.total == 0, "the second fetch asked while the first held the lock")
        // The lock file is git-ignored with the rest of .pending/ (the second fetch made that).
        #expect(try dir.read("content/wikipedia/.pending/.gitignore").hasSuffix("*\n"))
        // Meanwhile the first stores the article (the library takes no lock; the command does).
        let first = await WikipediaFetcher(cache: WikipediaCache(root: dir.path), options: wiki.options())
            .run([FetchJob(language: "de", title: "Haushund", requesters: [])])
        #expect(first.summaryLine == "fetched 1, unchanged 0, failed 0")
        let asked = wiki.log.total
        held = nil  // the first fetch ends
        #expect(await second.value == 0)
        #expect(captured.stderr.hasSuffix("fetched 0, unchanged 1, failed 0"), "\(captured.stderr)")
        #expect(wiki.log.total == asked, "the second fetch asked again for what the first stored")
    }

    @Test func unknownIDIsAUsageError() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let dir = try site(wiki)
        let result = await run(["fetch", "--root", dir.path, "hund", "nosuch"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no record with id 'nosuch'"))
        #expect(wiki.log.total == 0)
        #expect(await run(["fetch", "--root", dir.path, "--concurrency", "0"]).status == 2)
        // A tiny rate stopped the command with a trap (found by a new user); NaN and ∞ as well.
        for rate in ["0.0000000001", "1e-300", "-1", "nan", "inf"] {
            let slow = await run(["fetch", "--root", dir.path, "--rate=" + rate])
            #expect(slow.status == 2, "--rate \(rate)")
            #expect(slow.stderr.contains("--rate must be 0 (no limit) or at least 0.001 requests per second"), "\(slow.stderr)")
        }
        #expect(await run(["fetch", "--root", dir.path, "--timeout", "0"]).stderr.contains("--timeout must be more than 0 and at most 600 seconds"))
        // A negative number as its own word is the option's value, said out of range (it was
        // "Missing value for '--rate <PER-SECOND>'").
        #expect(await run(["fetch", "--root", dir.path, "--rate", "-1"]).stderr.contains("--rate must be 0 (no limit) or at least 0.001 requests per second"))
        #expect(await run(["fetch", "--root", dir.path, "--timeout", "-5"]).stderr.contains("--timeout must be more than 0 and at most 600 seconds"))
        #expect(await run(["fetch", "--root", dir.path, "--wikipedia-url", "ftp://x/{lang}"]).status == 2)
        try dir.write("---\nname: {de: Hund}\nwikipedia: {de: Haushund, en: Dog}\n---\n", to: "content/animals/hund.md")
        let noLang = await run(["fetch", "--root", dir.path, "--wikipedia-url", wiki.server.baseURL + "/api/rest_v1"])
        #expect(noLang.status == 2)
        #expect(noLang.stderr.contains("has no {lang}, but records name articles in de, en"))
        #expect(wiki.log.total == 0)
    }

    @Test func notASiteRootFails() async {
        let dir = TemporaryDirectory("bestiary-fetch-cli")
        let result = await run(["fetch", "--root", dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("content/site.yml"))
    }

    /// No network here: the record names no article, so nothing is fetched, but the warning
    /// about the missing contact for the real wikipedia.org is printed.
    @Test func warnsWithoutContactForTheRealWikipedia() async throws {
        let dir = TemporaryDirectory("bestiary-fetch-cli")
        try dir.write("title: T\nbase_url: https://example.org/\nlanguages: [en]\n", to: "content/site.yml")
        try dir.write("---\nname: {en: Cat}\n---\n", to: "content/animals/cat.md")
        let result = await run(["fetch", "--root", dir.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("content/site.yml:1:1: warning: site.yml has no wikipedia.contact"))
        #expect(result.stderr.hasSuffix("fetched 0, unchanged 0, failed 0"))
    }

    @Test func helpExplainsTheCommand() async {
        let result = await run(["fetch", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Download each record's Wikipedia summary and lead image"))
        #expect(result.stdout.contains("--refresh"))
        #expect(result.stdout.contains("Exit status: 0 when everything was fetched or unchanged"))
    }
}
