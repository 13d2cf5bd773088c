import BestiaryDiagnostics
import Foundation

/// `bestiary serve` as a library: serve the output folder, build, watch the sources, rebuild on
/// every change, and tell open pages (reload, or show the errors). One object per run.
///
///     let session = PreviewSession(configuration: config, makeRebuilder: { SiteRebuilder(options: …($0)) }) { event in … }
///     try await session.run()          // returns after stop() (Ctrl-C), or throws if it cannot listen
///
/// Order of events: listen first (so a taken port fails at once, and the base URL knows the real
/// port), start watching, build, then report ``Event/serving(url:)``. While a build runs, new
/// changes are collected and built together afterwards; builds never overlap. A failed build
/// leaves `output/` servable (the first build is swapped in whole; a rebuild writes what a page
/// names before the page, and removes old files last), so the server goes on serving the last
/// good build, with the errors over every page.
public final class PreviewSession: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var root: String
        public var outputDirectory: String
        public var host: String
        public var port: Int
        public var watch: SiteWatcher.Strategy
        /// Coalescing window of the watcher (see ``SiteWatcher``).
        public var quiet: Duration
        public var maxDelay: Duration
        /// False serves the output as deployed: no injected script, the service worker on (for
        /// trying offline play); rebuilds still happen, the browser is not told.
        public var liveReload: Bool

        public init(
            root: String, outputDirectory: String, host: String = "127.0.0.1", port: Int = 8000,
            watch: SiteWatcher.Strategy = .automatic, quiet: Duration = .milliseconds(30), maxDelay: Duration = .milliseconds(200),
            liveReload: Bool = true
        ) {
            self.liveReload = liveReload
            self.root = root
            self.outputDirectory = outputDirectory
            self.host = host
            self.port = port
            self.watch = watch
            self.quiet = quiet
            self.maxDelay = maxDelay
        }
    }

    /// What the session tells its owner (the command prints these).
    public enum Event: Sendable {
        /// The socket listens; the first build starts.
        case listening(url: String)
        /// The first build is done (or failed) and the site is served at `url`.
        case serving(url: String, watching: String)
        /// A build started for these changes.
        case building([ChangedPath])
        case built(RebuildResult, changes: [ChangedPath])
        case failed([Diagnostic], changes: [ChangedPath])
        /// Something the user should know that is not a build result (watcher fallback).
        case note(String)
    }

    public let configuration: Configuration
    public let live: LiveReload
    private let makeRebuilder: @Sendable (String) -> any Rebuilder
    private let report: @Sendable (Event) -> Void
    private let buildQueue = DispatchQueue(label: "bestiary.preview.build", qos: .userInitiated)

    private let lock = NSLock()
    private var pending: [String: ChangedPath] = [:]
    private var pendingEverything = false
    /// How many times the watcher reported changes: a build that fails while this moves on (or
    /// just after) failed on a half-saved file.
    private var received = 0
    private var wakeUp: AsyncStream<Void>.Continuation?
    private var stopRequested = false
    private var serverTask: Task<Void, any Error>?
    private var baseURLValue: String?

    /// - Parameters:
    ///   - makeRebuilder: makes the build engine once the base URL (with the real port) is known.
    ///   - report: called from background threads.
    public init(
        configuration: Configuration, makeRebuilder: @escaping @Sendable (String) -> any Rebuilder,
        report: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.live = LiveReload()
        self.makeRebuilder = makeRebuilder
        self.report = report
    }

    /// The URL the site is served at, once listening (`http://127.0.0.1:PORT/`).
    public var baseURL: String? { lock.withLock { baseURLValue } }

    /// Serves, builds and watches until ``stop()``. Throws when the server cannot listen.
    public func run() async throws(ServeError) {
        let (wake, wakeContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (ready, readyContinuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let server = PreviewServer(
            outputDirectory: configuration.outputDirectory, host: configuration.host, port: configuration.port,
            live: configuration.liveReload ? live : nil)
        let task = Task<Void, any Error> {
            defer { readyContinuation.finish() }
            try await server.run { _, port in readyContinuation.yield(port) }
        }
        let alreadyStopped: Bool = lock.withLock {
            wakeUp = wakeContinuation
            serverTask = task
            return stopRequested
        }
        if alreadyStopped { wakeContinuation.finish() }

        var port: Int?
        for await p in ready {
            port = p
            break
        }
        guard let port else {
            // The server ended before listening: it could not bind.
            do {
                try await task.value
            } catch let error as ServeError {
                throw error
            } catch {
                throw ServeError(host: configuration.host, port: configuration.port, underlying: error)
            }
            return
        }
        let url = Self.baseURL(host: configuration.host, port: port)
        lock.withLock { baseURLValue = url }
        report(.listening(url: url))
        let rebuilder = makeRebuilder(url)

        let watcher = SiteWatcher(
            root: configuration.root, strategy: configuration.watch, quiet: configuration.quiet, maxDelay: configuration.maxDelay,
            onNote: { [report] in report(.note($0)) },
            onChanges: { [weak self] changes in self?.enqueue(changes) })
        watcher.start()

        if !lock.withLock({ stopRequested }) {
            let first = await build(rebuilder, changes: [.everything])
            if !lock.withLock({ stopRequested }) { report(.serving(url: url, watching: watcher.description)) }
            // Up to date, the first build did no work: it is done now, while the site is served,
            // so that the first edit rebuilds only what it changes (edits meanwhile wait for it).
            if first?.upToDate == true, !lock.withLock({ stopRequested }) { await warm(rebuilder) }
        }
        for await _ in wake {
            let changes: [ChangedPath] = lock.withLock {
                defer {
                    pending = [:]
                    pendingEverything = false
                }
                if stopRequested { return [] }
                return (pendingEverything ? [ChangedPath.everything] : []) + pending.values.sorted { $0.path < $1.path }
            }
            if changes.isEmpty { continue }
            await build(rebuilder, changes: changes)
        }
        // stop() was called: nothing more is built. What a one-shot build can take from this
        // session's output is left beside it; then the event streams are closed so the server's
        // connections can end, and the server stops.
        _ = await onBuildQueue { () throws(DiagnosticError) in rebuilder.finish() }
        watcher.stop()
        live.close()
        task.cancel()
        _ = await task.result
    }

    /// Ends ``run()``: stops watching, lets a running build finish (output/ stays servable either
    /// way), closes the open pages' event streams, and stops the server. Safe from any thread.
    public func stop() {
        let continuation: AsyncStream<Void>.Continuation? = lock.withLock {
            stopRequested = true
            return wakeUp
        }
        continuation?.finish()
    }

    /// Adds changes to the next build, and wakes the build loop.
    func enqueue(_ changes: [ChangedPath]) {
        let continuation: AsyncStream<Void>.Continuation? = lock.withLock {
            if stopRequested { return nil }
            merge(changes)
            received += 1
            return wakeUp
        }
        continuation?.yield()
    }

    /// Must hold the lock. `older` changes (of a failed build) never replace newer ones.
    private func merge(_ changes: [ChangedPath], older: Bool = false) {
        for change in changes {
            if change.kind == .everything {
                pendingEverything = true
                continue
            }
            if let current = pending[change.path] {
                if older { continue }
                if current.event == .created && change.event == .modified { continue }
            }
            pending[change.path] = change
        }
    }

    /// `work` on the build queue (builds never overlap), its outcome handed back here.
    private func onBuildQueue<T: Sendable>(_ work: @escaping @Sendable () throws(DiagnosticError) -> T) async -> Result<T, DiagnosticError> {
        await withCheckedContinuation { continuation in
            buildQueue.async {
                do throws(DiagnosticError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }

    /// ``Rebuilder/warm()`` on the build queue, quietly: the open pages hear of it only when it
    /// changed output files (it writes none while the output is what it makes).
    private func warm(_ rebuilder: any Rebuilder) async {
        switch await onBuildQueue({ () throws(DiagnosticError) in try rebuilder.warm() }) {
        case .success(let result?):
            if result.changedOutputs?.isEmpty == true {
                report(.note(String(format: "held the site in memory in %.2f s: an edit now rebuilds only what it changes", result.seconds)))
            } else {
                // The output did not hold what the build makes (changed by hand): written anew.
                live.succeeded(changed: result.changedOutputs)
                report(.built(result, changes: [.everything]))
            }
        case .success(nil):
            break
        case .failure(let error):
            let reason = (error.diagnostics.first { $0.severity == .error } ?? error.diagnostics.first).map { ": \($0.message)" } ?? ""
            report(.note("could not hold the site in memory\(reason); the first edit builds it whole"))
        }
    }

    @discardableResult
    private func build(_ rebuilder: any Rebuilder, changes: [ChangedPath]) async -> RebuildResult? {
        report(.building(changes))
        live.building()
        let receivedBefore = lock.withLock { received }
        switch await onBuildQueue({ () throws(DiagnosticError) in try rebuilder.rebuild(changes: changes) }) {
        case .success(let result):
            live.succeeded(changed: result.changedOutputs)
            report(.built(result, changes: changes))
            return result
        case .failure(let error):
            // The next build must cover these changes too: the engine only hears about changes
            // since its last successful build.
            lock.withLock { merge(changes, older: true) }
            // An editor that saves in two steps (empties the file, then writes it) makes a build
            // fail on the half-saved file. When anything changes again during the build or within
            // a moment after it, this failure is not shown (it flashed the error over the page):
            // the next build, which follows at once, decides.
            if await changedAgain(since: receivedBefore, within: Self.settling) { return nil }
            var diagnostics = error.diagnostics
            if diagnostics.isEmpty { diagnostics = [.error("the build failed without saying why", stage: "build")] }
            live.failed(diagnostics)
            report(.failed(diagnostics, changes: changes))
            return nil
        }
    }

    /// How long a failed build waits for more changes before it shows its failure.
    static let settling: Duration = .milliseconds(300)

    /// Whether the watcher reported changes since `count` (``received``), waiting up to `limit`.
    private func changedAgain(since count: Int, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            let (changed, stopped) = lock.withLock { (received != count, stopRequested) }
            if changed { return true }
            if stopped || ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// `http://HOST:PORT/`, with a wildcard address replaced by loopback (what a browser can open).
    static func baseURL(host: String, port: Int) -> String {
        switch host {
        case "0.0.0.0", "": return "http://127.0.0.1:\(port)/"
        case "::", "[::]": return "http://[::1]:\(port)/"
        default: return host.contains(":") && !host.hasPrefix("[") ? "http://[\(host)]:\(port)/" : "http://\(host):\(port)/"
        }
    }
}
