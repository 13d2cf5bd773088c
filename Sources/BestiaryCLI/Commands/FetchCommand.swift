import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics
import BestiaryFetch
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// `bestiary fetch`: fills and revalidates the Wikipedia cache (content/wikipedia/).
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download each record's Wikipedia summary and lead image into content/wikipedia/.",
        discussion: """
            Records name their articles with `wikipedia: {de: Rotfuchs, en: Red fox}`. This command \
            asks Wikipedia once for each distinct article, stores the text, the lead image (at 330 \
            and 960 px) and the image's author and licence under content/wikipedia/, and prints \
            `fetched N, unchanged N, failed N`. Commit that folder: `bestiary build` uses it and \
            never goes online.

            Articles already cached are not asked for again; --refresh asks Wikipedia whether they \
            changed (an unchanged article downloads nothing). A fetch that is interrupted can \
            simply be run again: it continues where it stopped. On a terminal it draws a progress \
            bar; in a log, a line per article fetched or failed and one per run of unchanged ones \
            (a long run: a line every 10 s).

            It is polite by default (2 requests at a time, at most 5 per second, retries that wait \
            as the server asks). Put your e-mail in site.yml (`wikipedia: {contact: you@example.org}`): \
            Wikimedia requires a contact in the User-Agent and blocks anonymous clients.

            Exit status: 0 when everything was fetched or unchanged, 1 when something failed (each \
            failure is named with the record's file:line), 2 for a wrong option or id, 130 when \
            stopped by Ctrl-C, 143 by SIGTERM (the counts so far are printed; run it again to go on).
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Ask Wikipedia whether cached articles changed (If-None-Match); unchanged ones download nothing.")
    var refresh = false

    @Option(
        name: .customLong("wikipedia-url"),
        help: ArgumentHelp(
            "The summary endpoint, {lang} standing for the language (default: site.yml's wikipedia.url, else https://{lang}.wikipedia.org/api/rest_v1).",
            valueName: "TEMPLATE"))
    var wikipediaURL: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Requests in flight at once (1–32).", valueName: "N"))
    var concurrency: Int = FetchOptions.defaultConcurrency

    // `.unconditional`: `--rate -1` is a value, said to be out of range (it read as a missing value).
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("At most this many requests per second; 0 for no limit (for a local stand-in).", valueName: "PER-SECOND"))
    var rate: Double = FetchOptions.defaultRequestsPerSecond

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds one request may take before it is retried.", valueName: "SECONDS"))
    var timeout: Double = 30

    @Argument(help: ArgumentHelp("Only the records with these ids (default: all).", valueName: "ID"))
    var ids: [String] = []

    static let slowestRate = 0.001

    func validate() throws {
        guard (1...32).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 32") }
        // A floor of one request in about 17 minutes: far below it, the wait between requests
        // overflowed its conversion to nanoseconds (a trap).
        guard rate == 0 || (rate >= Self.slowestRate && rate.isFinite) else {
            throw ValidationError("--rate must be 0 (no limit) or at least \(Self.slowestRate) requests per second")
        }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be more than 0 and at most 600 seconds") }
        if let template = wikipediaURL {
            let probe = URL(string: template.replacingOccurrences(of: "{lang}", with: "en"))
            guard let scheme = probe?.scheme?.lowercased(), ["http", "https"].contains(scheme), probe?.host != nil else {
                throw ValidationError("--wikipedia-url must be an http(s) URL such as https://{lang}.wikipedia.org/api/rest_v1")
            }
        }
    }

    func run() async throws {
        let console = Console.current
        let result = ContentLoader(root: global.siteRoot).load()
        guard let catalog = result.catalog else {
            console.report(result.diagnostics.items, format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        // Errors in content/: said where they are (a pasted address for a title was a note to run
        // `check`, then "fetching 0 articles" and exit 0: a curator's `fetch url && build` went
        // on), the rest fetched, and the command fails at its end.
        let contentErrors = result.diagnostics.items.filter { $0.severity == .error }
        if !contentErrors.isEmpty {
            console.report(contentErrors, format: global.diagnostics, everyWarning: global.allWarnings)
            console.err("bestiary: note: content/ has \(BuildCommand.count(contentErrors.count, "error")) (above); fetching for the rest of it, then failing")
        }
        let (jobs, unknown) = FetchPlan.jobs(for: catalog, ids: ids)
        if !unknown.isEmpty {
            console.err("bestiary: error: no record with id \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (ids are the file names in content/animals/)")
            throw CommandFailure(status: 2)
        }
        let settings = catalog.config.wikipedia
        let template = wikipediaURL ?? settings.url
        if !template.contains("{lang}"), Set(jobs.map(\.language)).count > 1 {
            console.err("bestiary: error: the Wikipedia URL '\(template)' has no {lang}, but records name articles in \(Set(jobs.map(\.language)).sorted().joined(separator: ", ")); write it like https://{lang}.wikipedia.org/api/rest_v1")
            throw CommandFailure(status: 2)
        }
        var warnings: [Diagnostic] = []
        if settings.contact?.trimmingCharacters(in: .whitespaces).isEmpty ?? true, FetchOptions.isWikimedia(template) {
            warnings.append(.warning(
                "site.yml has no wikipedia.contact: Wikimedia requires a contact (an e-mail or URL) in the User-Agent and may block this client; add your e-mail address or web site as `wikipedia: {contact: …}`",
                at: catalog.config.location(of: "wikipedia"), stage: "fetch"))
        } else if FetchOptions.isWikimedia(template), let problem = ContentLoader.contactPlaceholder(settings.contact) {
            warnings.append(.warning(problem, at: catalog.config.location(of: "wikipedia.contact"), stage: "fetch"))
        }
        let options = FetchOptions(
            urlTemplate: template, commonsURL: settings.commonsURL, refresh: refresh, concurrency: concurrency,
            requestsPerSecond: rate > 0 ? rate : nil,
            userAgent: FetchOptions.userAgent(version: BestiaryCommand.version, contact: settings.contact),
            timeout: .milliseconds(Int64(timeout * 1000)))
        console.report(warnings, format: global.diagnostics, everyWarning: global.allWarnings)

        // One fetch of a site at a time: two would ask Wikipedia for the same articles at twice
        // the polite rate. The second waits, then finds what the first stored (the cache is read
        // from here on).
        let cache = WikipediaCache(root: global.siteRoot)
        let fetcher = WikipediaFetcher(cache: cache, options: options)
        // A cache that cannot be written fails the fetch only when the fetch would write: when
        // every article is cached, it reports them unchanged (a read-only checkout, found by a
        // tester), asking nothing and taking no lock.
        var writes = !jobs.isEmpty
        if writes, let problem = cache.writeProblem(languages: Set(jobs.map(\.language)).sorted()) {
            let asking = fetcher.jobsAskingTheServer(jobs)
            if !asking.isEmpty {
                let some = asking.count == jobs.count ? "" : " (\(asking.count) of \(jobs.count) articles \(asking.count == 1 ? "is" : "are") not cached)"
                console.err("bestiary: error: \(problem)\(some); nothing was asked of Wikipedia")
                throw CommandFailure(status: 1)
            }
            writes = false
        }
        let lock = !writes ? nil : await FileLock.acquireOnOwnThread(WikipediaFetcher.lockPath(for: cache)) {
            console.err("bestiary: another fetch of this site is running; waiting for it to finish")
        }
        defer { withExtendedLifetime(lock) {} }

        let progress = FetchProgressPrinter(console: console)
        let running = Task { await fetcher.run(jobs) { progress.handle($0) } }
        // Ctrl-C stops the fetch between writes (an article half done stays pending for the next
        // run) and still prints the counts; a second Ctrl-C stops at once.
        let signals = ShutdownSignals(onFirst: { _ in running.cancel() })
        let report = await running.value
        signals.cancel()
        progress.finish()

        console.report(report.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
        console.err(report.summaryLine)
        if report.interrupted { throw CommandFailure(status: ShutdownSignals.status(signals.first ?? SIGINT)) }
        if report.failed > 0 || !contentErrors.isEmpty { throw CommandFailure(status: 1) }
    }
}

/// Draws fetch progress: a bar redrawn in place on a terminal; otherwise (a log in CI) a line per
/// article fetched or failed, and one line for each run of unchanged articles, so a rerun over a
/// cache of 14,000 articles says so in a few lines instead of 14,000.
final class FetchProgressPrinter: @unchecked Sendable {
    /// A run of unchanged articles (a log's one line for them all).
    private struct Run {
        var first: String
        var last: String
        var count: Int
        var done: Int
        var started: ContinuousClock.Instant
    }

    /// How long a run of unchanged articles goes on before its line is printed anyway: a
    /// `--refresh` of a large cache at the polite rate is most of an hour of `304`s, and its log must show
    /// it is moving.
    static let runInterval: Duration = .seconds(10)

    private let console: Console
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lock = NSLock()
    private let start: ContinuousClock.Instant
    private var counts = (fetched: 0, unchanged: 0, failed: 0)
    private var barShown = false
    private var lastDraw: ContinuousClock.Instant
    private var total = 0
    private var done = 0
    /// How many articles had finished when the bar was last drawn (not its number: workers report
    /// out of order, so a late one changes the counts and not the number).
    private var drawnFinished = -1

    private var run: Run?

    init(console: Console, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.console = console
        self.now = now
        self.start = now()
        self.lastDraw = start - .seconds(1)
    }

    func handle(_ event: FetchEvent) {
        lock.withLock {
            switch event {
            case .started(let total):
                self.total = total
                if !console.isTerminal { console.err("fetching \(total) article\(total == 1 ? "" : "s")") }
            case .retrying(let url, let reason, let wait):
                if !console.isTerminal {
                    printRun()
                    console.err("  retrying \(url): \(reason), waiting \(format(wait))")
                }
            case .finished(let job, let outcome, let done, let total):
                // Workers report out of order: the bar shows the highest number reached.
                self.done = max(self.done, done)
                switch outcome {
                case .fetched: counts.fetched += 1
                case .unchanged: counts.unchanged += 1
                case .failed: counts.failed += 1
                }
                if console.isTerminal {
                    // The last to finish is drawn, whichever worker reports it.
                    if now() - lastDraw > .milliseconds(100) || self.done == total { draw() }
                } else {
                    switch outcome {
                    case .fetched:
                        printRun()
                        console.err("\(position(done)) fetched   \(job.label)")
                    case .unchanged:
                        let time = now()
                        if var run {
                            run.last = job.label
                            run.count += 1
                            // Workers report out of order: the run's line shows the highest.
                            run.done = max(run.done, done)
                            self.run = run
                        } else {
                            run = Run(first: job.label, last: job.label, count: 1, done: done, started: time)
                        }
                        if let run, time - run.started >= Self.runInterval { printRun() }
                    case .failed(let reason):
                        printRun()
                        console.err("\(position(done)) failed    \(job.label): \(reason)")
                    }
                }
            }
        }
    }

    func finish() {
        lock.withLock {
            if console.isTerminal && total > 0 && drawnFinished != finished { draw() }
            printRun()
        }
    }

    /// `[ 12/550]`: the number padded to the total's width.
    private func position(_ done: Int) -> String {
        let width = String(total).count
        return "[" + String(repeating: " ", count: max(0, width - String(done).count)) + "\(done)/\(total)]"
    }

    /// The line of the run of unchanged articles so far, if any: `[147/550] unchanged de:Dachs 001`
    /// for one, `[147/550] unchanged 147, de:Biber 019 … en:Woodpecker 273` for more.
    private func printRun() {
        guard let run else { return }
        self.run = nil
        let what = run.count == 1 ? run.first : "\(run.count), \(run.first) … \(run.last)"
        console.err("\(position(run.done)) unchanged \(what)")
    }

    private var finished: Int { counts.fetched + counts.unchanged + counts.failed }

    private func draw() {
        lastDraw = now()
        drawnFinished = finished
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let elapsed = lastDraw - start
        let seconds = max(0.001, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let perSecond = Double(done) / seconds
        let rate = String(format: "%.1f", perSecond)
        var line = "\(bar) \(done)/\(total)  fetched \(counts.fetched) · unchanged \(counts.unchanged) · failed \(counts.failed)  \(rate)/s"
        // What is left at the rate so far (a first fetch of 11,000 birds at Wikimedia's pace takes hours).
        if done > 0 && done < total && seconds >= 2 { line += ", " + Self.timeLeft(Double(total - done) / perSecond) }
        // Move up over the previous bar and clear it, so the bar stays on one line.
        console.err((barShown ? "\u{1B}[1A\u{1B}[2K" : "") + line)
        barShown = true
    }

    /// `about 2 h 5 min left`, `about 3 min 20 s left`, `about 40 s left`: two units at most,
    /// seconds rounded up to 10 s above a minute.
    static func timeLeft(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "about \(max(1, s)) s left" }
        if s < 3600 {
            let tens = (s % 60 + 9) / 10 * 10
            return tens == 60 ? "about \(s / 60 + 1) min left" : tens == 0 ? "about \(s / 60) min left" : "about \(s / 60) min \(tens) s left"
        }
        let minutes = (s % 3600 + 59) / 60
        return minutes == 60 ? "about \(s / 3600 + 1) h left" : minutes == 0 ? "about \(s / 3600) h left" : "about \(s / 3600) h \(minutes) min left"
    }

    private func format(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return String(format: "%.1f s", s)
    }
}
