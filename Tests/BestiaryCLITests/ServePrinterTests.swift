@testable import BestiaryCLI
import BestiaryDiagnostics
import BestiaryFetch
import BestiaryPreview
import BestiaryTestSupport
import Foundation
import Testing

/// What `bestiary serve` prints when a build fails.
@Suite struct ServePrinterTests {
    let problem = Diagnostic.error("difficulty must be a whole number from 1 to 3", at: SourceLocation(path: "content/animals/cow.md", line: 3, column: 13), stage: "load")

    /// A new site whose first build fails has no last good build to serve (it said it had one:
    /// found by an author).
    @Test func aFirstBuildThatFailsInANewSiteSaysNothingIsServedYet() throws {
        let dir = TemporaryDirectory("serve-printer")
        let (console, captured) = Console.capturing()
        let printer = ServePrinter(console: console, format: .text)
        printer.print(.failed([problem], changes: [.everything]), outputDirectory: dir.appending("output"))
        let last = try #require(captured.stderr.split(separator: "\n").last)
        #expect(last.hasSuffix(" the first build failed: 1 error; nothing built to serve yet: every page shows the errors until they are fixed"), "\(last)")

        // Once an output is there, a failed build leaves it served.
        try dir.write("<!doctype html>", to: "output/index.html")
        printer.print(.failed([problem], changes: [ChangedPath(path: "content/animals/cow.md", kind: .record)]), outputDirectory: dir.appending("output"))
        let next = try #require(captured.stderr.split(separator: "\n").last)
        #expect(next.hasSuffix(" build failed after content/animals/cow.md: 1 error; still serving the last good build, errors shown in the browser"), "\(next)")
        // Without live reload no script shows them over the page (it said it did: a designer's find).
        let plain = ServePrinter(console: console, format: .text, liveReload: false)
        plain.print(.failed([problem], changes: [ChangedPath(path: "content/animals/cow.md", kind: .record)]), outputDirectory: dir.appending("output"))
        let said = try #require(captured.stderr.split(separator: "\n").last)
        #expect(said.hasSuffix(" 1 error; still serving the last good build (without live reload, the errors are shown only here)"), "\(said)")
    }

    /// A rebuild prints only the warnings that are new since the last good build, and how many
    /// are gone; a failed build in between does not make the next print them all again (one new
    /// warning was buried among 4,300 on a catalogue of 11,000 birds).
    @Test func aRebuildPrintsOnlyTheWarningsThatChanged() throws {
        let dir = TemporaryDirectory("serve-printer")
        let (console, captured) = Console.capturing()
        let printer = ServePrinter(console: console, format: .text)
        func warning(_ id: String) -> Diagnostic {
            .warning("name 'Owl' is also \(id)'s", at: SourceLocation(path: "content/animals/\(id).md", line: 2, column: 1), stage: "validate")
        }
        let record = ChangedPath(path: "content/animals/owl.md", kind: .record)
        func built(_ warnings: [Diagnostic]) -> String {
            let before = captured.stderr.count
            printer.print(.built(RebuildResult(pages: 3, files: 9, diagnostics: warnings, seconds: 0.5), changes: [record]), outputDirectory: dir.appending("output"))
            return String(captured.stderr.dropFirst(before))
        }
        let first = built([warning("a"), warning("b")])
        #expect(first.contains("a.md:2:1") && first.contains("b.md:2:1"), "\(first)")
        #expect(!built([warning("a"), warning("b")]).contains("warning"))
        let added = built([warning("a"), warning("b"), warning("c")])
        #expect(added.contains("c.md:2:1: warning") && !added.contains("a.md") && !added.contains("b.md"), "\(added)")
        // A failed build prints its errors and only the warnings that are new.
        var before = captured.stderr.count
        printer.print(.failed([problem, warning("a"), warning("d")], changes: [record]), outputDirectory: dir.appending("output"))
        let failed = String(captured.stderr.dropFirst(before))
        #expect(failed.contains("cow.md:3:13: error") && failed.contains("d.md:2:1: warning") && !failed.contains("a.md:2:1"), "\(failed)")
        // An up-to-date check has no warnings of its own: nothing is said of them.
        before = captured.stderr.count
        printer.print(.built(RebuildResult(pages: 3, files: 9, seconds: 0.1, upToDate: true), changes: [record]), outputDirectory: dir.appending("output"))
        #expect(!String(captured.stderr.dropFirst(before)).contains("gone"))
        let fixed = built([warning("a"), warning("c")])
        #expect(!fixed.contains(".md:2:1: warning"), "\(fixed)")
        #expect(fixed.contains("1 warning of the last build is gone"), "\(fixed)")
    }
}

/// The fetch's progress bar says how long is left at the rate so far (a first fetch of 11,000
/// birds at Wikimedia's pace takes hours, and the bar said nothing of it).
@Suite struct FetchTimeLeftTests {
    @Test func timeLeftIsTwoUnitsAtMostRoundedUp() {
        #expect(FetchProgressPrinter.timeLeft(0.2) == "about 1 s left")
        #expect(FetchProgressPrinter.timeLeft(40) == "about 40 s left")
        #expect(FetchProgressPrinter.timeLeft(200) == "about 3 min 20 s left")
        #expect(FetchProgressPrinter.timeLeft(119.5) == "about 2 min left")
        #expect(FetchProgressPrinter.timeLeft(175) == "about 3 min left")
        #expect(FetchProgressPrinter.timeLeft(7_500) == "about 2 h 5 min left")
        #expect(FetchProgressPrinter.timeLeft(3_599.5) == "about 1 h left")
        #expect(FetchProgressPrinter.timeLeft(7_170) == "about 2 h left")
    }
}

/// Without a terminal (a log in CI), `fetch` prints a line per article fetched or failed and one
/// per run of unchanged articles: a rerun over the bench corpus's cache printed 14,555 lines of
/// `unchanged`.
@Suite struct FetchLogTests {
    final class Clock: @unchecked Sendable {
        var instant = ContinuousClock.now
    }

    func job(_ title: String) -> FetchJob { FetchJob(language: "en", title: title, requesters: []) }

    @Test func runsOfUnchangedArticlesAreOneLineEach() {
        let (console, captured) = Console.capturing()
        let printer = FetchProgressPrinter(console: console)
        printer.handle(.started(total: 12))
        var done = 0
        func finished(_ title: String, _ outcome: FetchOutcome) {
            done += 1
            printer.handle(.finished(job: job(title), outcome: outcome, done: done, total: 12))
        }
        for title in ["Badger", "Fox", "Owl"] { finished(title, .unchanged) }
        finished("Wolf", .fetched)
        finished("Hare", .unchanged)
        printer.handle(.retrying(url: "http://127.0.0.1:1/x", reason: "HTTP 500", wait: .milliseconds(300)))
        finished("Stoat", .unchanged)
        finished("Mole", .failed("en.wikipedia has no article 'Mole'"))
        for title in ["Bee", "Wasp", "Ant", "Moth", "Gnat"] { finished(title, .unchanged) }
        printer.finish()
        #expect(captured.stderr.split(separator: "\n").map(String.init) == [
            "fetching 12 articles",
            "[ 3/12] unchanged 3, en:Badger … en:Owl",
            "[ 4/12] fetched   en:Wolf",
            "[ 5/12] unchanged en:Hare",
            "  retrying http://127.0.0.1:1/x: HTTP 500, waiting 0.3 s",
            "[ 6/12] unchanged en:Stoat",
            "[ 7/12] failed    en:Mole: en.wikipedia has no article 'Mole'",
            "[12/12] unchanged 5, en:Bee … en:Gnat",
        ])
    }

    /// The workers report as they finish, not in the order of their numbers: a run's line shows
    /// the highest number it reached.
    @Test func aRunShowsTheHighestNumberOfItsArticles() {
        for order in [[2, 1, 3], [1, 3, 2]] {
            let (console, captured) = Console.capturing()
            let printer = FetchProgressPrinter(console: console)
            printer.handle(.started(total: 3))
            for (done, title) in zip(order, ["Badger", "Fox", "Owl"]) {
                printer.handle(.finished(job: job(title), outcome: .unchanged, done: done, total: 3))
            }
            printer.finish()
            #expect(captured.stderr.split(separator: "\n").last == "[3/3] unchanged 3, en:Badger … en:Owl", "\(order)")
        }
    }

    /// On a terminal the bar too ends at the highest number, whatever order the workers report in.
    @Test func theBarEndsAtTheHighestNumber() {
        let captured = CapturedOutput()
        let console = Console(out: { captured.append(out: $0) }, err: { captured.append(err: $0) }, isTerminal: true)
        let printer = FetchProgressPrinter(console: console)
        printer.handle(.started(total: 2))
        printer.handle(.finished(job: job("Owl"), outcome: .fetched, done: 2, total: 2))
        printer.handle(.finished(job: job("Fox"), outcome: .fetched, done: 1, total: 2))
        printer.finish()
        let bar = captured.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.contains(" 2/2  fetched 2"), "\(bar)")
    }

    /// A long run (a `--refresh` of a large cache: `304` after `304` at the polite rate) still
    /// prints a line every ``FetchProgressPrinter/runInterval``.
    @Test func aLongRunOfUnchangedArticlesPrintsALineNowAndThen() {
        let (console, captured) = Console.capturing()
        let clock = Clock()
        let printer = FetchProgressPrinter(console: console) { clock.instant }
        printer.handle(.started(total: 100))
        for done in 1...100 {
            printer.handle(.finished(job: job("Bird \(done)"), outcome: .unchanged, done: done, total: 100))
            clock.instant += .milliseconds(400)
        }
        printer.finish()
        // A run's line comes with its article 10 s after its first: the 26th, the 52nd, the 78th.
        #expect(captured.stderr.split(separator: "\n").map(String.init) == [
            "fetching 100 articles",
            "[ 26/100] unchanged 26, en:Bird 1 … en:Bird 26",
            "[ 52/100] unchanged 26, en:Bird 27 … en:Bird 52",
            "[ 78/100] unchanged 26, en:Bird 53 … en:Bird 78",
            "[100/100] unchanged 22, en:Bird 79 … en:Bird 100",
        ])
    }
}
