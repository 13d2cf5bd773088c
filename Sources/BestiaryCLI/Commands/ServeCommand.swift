import ArgumentParser
import CBestiarySystem
import BestiaryDiagnostics
import BestiaryHTTP
import BestiaryPreview
import BestiarySite
import BestiaryStorage
import Foundation

/// `bestiary serve`: build, serve output/ on 127.0.0.1, watch content/ and templates/, rebuild on
/// every change and reload open pages (or show the errors in them).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site at http://127.0.0.1:8000/, rebuilding and reloading on every change.",
        discussion: """
            Builds the site, serves output/, and watches content/ and templates/: every saved change \
            rebuilds the site and reloads the open pages by themselves. A change that breaks the \
            build shows its errors (file:line:col) over the page in the browser and here, while \
            the last good build stays served; fixing the file clears them. The live-reload script \
            is added by the server on the fly and is never part of `bestiary build` output. \
            Its content packs are never signed nor recorded in content/packs.lock: deploy what \
            `bestiary build` makes.

            Binds to 127.0.0.1 unless --host says otherwise. Ctrl-C stops (a running build is \
            finished first; press it twice to stop at once).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Address to listen on (0.0.0.0 makes the preview reachable from other machines).")
    var host = "127.0.0.1"

    // Unconditional: `--port -1` is a wrong number, said as such, not a missing value.
    @Option(name: .long, parsing: .unconditional, help: "Port to listen on (0 picks a free one).")
    var port = 8000

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: ROOT/output).", valueName: "DIR"))
    var output: String?

    @Flag(name: .long, help: "Watch by polling instead of inotify (for shared or network folders where inotify sees no changes).")
    var poll = false

    @Flag(name: .customLong("no-live-reload"), help: "Serve the output as deployed: no reload script, the service worker on (to try offline play).")
    var noLiveReload = false

    @Flag(name: .long, help: "Print every rebuild's stages with their times, not only the first build's.")
    var verbose = false

    func validate() throws {
        if output?.isEmpty == true { throw ValidationError("--output must name a folder") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }

    func run() async throws {
        let console = Console.current
        let format = global.diagnostics
        let root = global.siteRoot
        let outputDirectory = BuildOptions(root: root, output: output).outputDirectory
        let printer = ServePrinter(console: console, format: format, verbose: verbose, everyWarning: global.allWarnings, liveReload: !noLiveReload)
        // A mistyped --root, or an --output folder of other files, fails before anything listens.
        // The output is held for the whole session: a one-shot build of it refuses meanwhile.
        let serving: FileLock?
        do throws(DiagnosticError) {
            let builder = SiteBuilder(options: BuildOptions(root: root, output: outputDirectory))
            try builder.checkBeforeServing()
            // An output folder no edit can make writable (a read-only mount, another user's):
            // the preview served 404s whose overlay said to fix a file and save (found by an IT
            // person). Said now, as `build` says it.
            // The first build makes the output next to it, as `build` does: its folder must be writable.
            var folder = PathText.parent(outputDirectory)
            while !folder.isEmpty, access(folder, F_OK) != 0, case let parent = PathText.parent(folder), parent != folder {
                folder = parent
            }
            for path in [folder.isEmpty ? "." : folder, outputDirectory] where access(path, F_OK) == 0 && access(path, W_OK) != 0 {
                throw DiagnosticError(.error(
                    "cannot write the preview's output: \(path) is not writable (\(String(cString: strerror(errno)))); give --output a folder you can write",
                    stage: "write"))
            }
            serving = try builder.holdForPreview()
        } catch {
            console.report(error.diagnostics, format: format, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        if !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
            console.err("note: --host \(host): the preview is reachable from other machines on the network, not only from this one")
        }
        if ["0.0.0.0", "::", "[::]", ""].contains(host) { printer.networkAddresses = LocalAddresses.ipv4() }
        let session = PreviewSession(
            configuration: .init(
                root: root, outputDirectory: outputDirectory, host: host, port: port,
                watch: poll ? .polling(interval: .milliseconds(500)) : .automatic, liveReload: !noLiveReload),
            makeRebuilder: { baseURL in
                SiteRebuilder(options: BuildOptions(root: root, output: outputDirectory, baseURL: baseURL), onStage: printer.stageHandler())
            },
            report: { printer.print($0, outputDirectory: outputDirectory) })

        // The second Ctrl-C stops without waiting. A first build cut off there leaves only its
        // staging folder, which the next build removes; a rebuild cut off leaves each file old or
        // new, with every file a page names there (it writes those first), and the next build
        // writes the output anew.
        let signals = ShutdownSignals(
            beforeExit: { console.err("stopped at once") },
            onFirst: { _ in
                console.err("stopping… (after the build under way, if one is; Ctrl-C again stops at once)")
                session.stop()
            })
        defer { signals.cancel() }
        defer { withExtendedLifetime(serving) {} }
        do {
            try await session.run()
        } catch {
            console.err("bestiary: error: \(error)")
            throw CommandFailure(status: 1)
        }
        // What is left in the output is the preview's (its links lead to this server, its packs
        // unrecorded): a teacher who previewed and then uploaded it published a 404 page and a
        // sitemap pointing at 127.0.0.1.
        console.err("stopped; \(outputDirectory) holds the preview's build (links to this server, not to base_url): run `bestiary build` before deploying it")
    }
}

/// Turns SIGINT, SIGTERM and SIGHUP into a call of a handler on the first, and an exit at once
/// on the second, instead of killing the process, so `serve` and `fetch` can stop
/// cleanly: a terminal closed, or an SSH session dropped, during a fetch stopped it without its
/// counts (a curator's). A hang-up ignored from the start (`nohup`) stays ignored.
final class ShutdownSignals: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()
    private var count = 0
    private var firstNumber: Int32?

    /// The status of a command stopped by `signal`, as a shell gives it: 130 for Ctrl-C (SIGINT),
    /// 143 for SIGTERM (a CI's timeout, `kill`), which said 130 too.
    static func status(_ signal: Int32) -> Int32 { 128 + signal }

    /// The signals handled: SIGHUP only where it is not ignored already.
    private let numbers = [SIGINT, SIGTERM] + (cbestiary_signal_ignored(SIGHUP) == 1 ? [] : [SIGHUP])

    /// The first signal received, if one was: what stopped the command (its exit status).
    var first: Int32? { lock.withLock { firstNumber } }

    /// `onFirst` is called with the first signal (stop cleanly); a second exits at once, with that
    /// signal's status, after `beforeExit`.
    init(beforeExit: @escaping @Sendable () -> Void = {}, onFirst: @escaping @Sendable (Int32) -> Void = { _ in }) {
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let isFirst = lock.withLock {
                    count += 1
                    if count == 1 { firstNumber = number }
                    return count == 1
                }
                guard isFirst else {
                    beforeExit()
                    exit(Self.status(number))
                }
                onFirst(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        for number in numbers { signal(number, SIG_DFL) }
    }
}

/// What `bestiary serve` prints: the first build's stages like `bestiary build`, then one line
/// per rebuild (with the time of day, for a terminal left open for hours), and every problem.
final class ServePrinter: @unchecked Sendable {
    private let console: Console
    private let format: DiagnosticFormatter.Format
    /// `--all-warnings`: no warnings alike are folded (``AlikeWarnings``).
    private let everyWarning: Bool
    private let lock = NSLock()
    private var builds = 0
    /// The last successful build's warnings (each as its text line), nil before the first.
    private var lastWarnings: Set<String>?

    private let verbose: Bool

    /// Whether pages get the live-reload script, which shows a failed build's errors over them.
    private let liveReload: Bool

    /// This machine's addresses on its networks, when the preview listens on all of them
    /// (`--host 0.0.0.0`): said with the address served, which is the loopback's.
    var networkAddresses: [String] = []

    init(console: Console, format: DiagnosticFormatter.Format, verbose: Bool = false, everyWarning: Bool = false, liveReload: Bool = true) {
        self.liveReload = liveReload
        self.everyWarning = everyWarning
        self.verbose = verbose
        self.console = console
        self.format = format
    }

    /// Prints the stages of the first build only (of every build with `--verbose`).
    func stageHandler() -> @Sendable (BuildReport.Stage, Int, Int) -> Void {
        { [self] stage, index, total in
            guard verbose || lock.withLock({ builds == 0 }) else { return }
            let ms = String(format: "%6.0f ms", stage.seconds * 1000)
            console.err("[\(index)/\(total)] \(stage.name.padding(toLength: 7, withPad: " ", startingAt: 0)) \(ms)  \(stage.detail)")
        }
    }

    func print(_ event: PreviewSession.Event, outputDirectory: String) {
        switch event {
        case .listening, .building:
            break
        case .serving(let url, let watching):
            console.err("serving \(outputDirectory) at \(url)  (watching content/ and templates/ with \(watching); Ctrl-C stops)")
            if !networkAddresses.isEmpty, let port = URL(string: url)?.port {
                let others = networkAddresses.map { "http://\($0):\(port)/" }.joined(separator: " or ")
                console.err("other machines on this network (a phone on the same Wi-Fi) open \(others)")
            }
        case .built(let result, let changes):
            let first = lock.withLock {
                defer { builds += 1 }
                return builds == 0
            }
            // An up-to-date check reads no record: it has no warnings to compare.
            if !result.upToDate { reportWarnings(result.diagnostics) }
            let seconds = String(format: "%.2f", result.seconds)
            if result.upToDate {
                console.err("\(first ? "" : Self.clock() + " ")output is up to date (nothing changed since the last build)")
            } else if first {
                console.err("built \(result.pages) pages (\(result.files) files) in \(seconds) s")
            } else {
                let changed = result.changedOutputs.map { ", \($0.count) output files changed" } ?? ""
                console.err("\(Self.clock()) rebuilt in \(seconds) s after \(Self.summary(changes)): \(result.pages) pages\(changed)")
            }
        case .failed(let diagnostics, let changes):
            let first = lock.withLock {
                defer { builds += 1 }
                return builds == 0
            }
            // The errors, and only the warnings the last good build did not have.
            let known = lock.withLock { lastWarnings } ?? []
            console.report(diagnostics.filter { $0.severity == .error || !known.contains(DiagnosticFormatter.text($0)) }, format: format, everyWarning: everyWarning)
            let errors = diagnostics.filter { $0.severity == .error }.count
            // A first build that fails in a new site has no earlier build to fall back on.
            let served = FileManager.default.fileExists(atPath: outputDirectory + "/index.html")
            console.err(
                "\(Self.clock()) \(first ? "the first build failed" : "build failed after \(Self.summary(changes))"): "
                    + "\(BuildCommand.count(errors, "error")); "
                    + (served ? "still serving the last good build" + (liveReload ? ", errors shown in the browser" : " (without live reload, the errors are shown only here)")
                        : "nothing built to serve yet: every page shows the errors until they are fixed"))
        case .note(let text):
            console.err("note: \(text)")
        }
    }

    /// The first build's warnings are all printed (more than 20 alike folded, as every command
    /// prints them: ``AlikeWarnings``); a rebuild's only where they differ from the last
    /// successful build's: the new ones, and how many are gone. (Printing all of them again
    /// buried the one new warning among 4,300 on a catalogue of 11,000 birds.)
    private func reportWarnings(_ diagnostics: [Diagnostic]) {
        let texts = diagnostics.map { DiagnosticFormatter.text($0) }
        let last = lock.withLock {
            defer { lastWarnings = Set(texts) }
            return lastWarnings
        }
        guard let last else { return console.report(diagnostics, format: format, everyWarning: everyWarning) }
        let new = zip(diagnostics, texts).filter { !last.contains($0.1) }.map(\.0)
        if !new.isEmpty { console.report(new, format: format, everyWarning: everyWarning) }
        let gone = last.subtracting(texts).count
        if gone > 0 {
            console.err("\(Self.clock()) \(gone) warning\(gone == 1 ? "" : "s") of the last build \(gone == 1 ? "is" : "are") gone\(new.isEmpty ? "" : "; \(new.count) new")")
        }
    }

    static func summary(_ changes: [ChangedPath]) -> String {
        if changes.contains(where: { $0.kind == .everything }) { return "changes everywhere" }
        let paths = changes.map(\.path)
        if paths.count <= 3 { return paths.joined(separator: ", ") }
        return paths.prefix(2).joined(separator: ", ") + " and \(paths.count - 2) more"
    }

    static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "[%02d:%02d:%02d]", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
