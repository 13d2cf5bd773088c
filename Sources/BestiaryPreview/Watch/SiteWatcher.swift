import Foundation

/// Watches a site root's `content/` and `templates/` and delivers coalesced batches of changes.
///
/// Uses inotify on Linux and falls back to polling where inotify is unavailable, where its watch
/// limit is reached at start, or when it fails later (the switch is announced through `onNote`).
public final class SiteWatcher: @unchecked Sendable {
    /// How to notice changes.
    public enum Strategy: Sendable, Equatable {
        /// inotify where available, else polling every half second.
        case automatic
        /// List the folders every `interval`.
        case polling(interval: Duration)
    }

    public let root: String
    private let requested: Strategy
    private let coalescer: ChangeCoalescer
    private let onNote: @Sendable (String) -> Void
    private let lock = NSLock()
    private var watcher: (any FileWatcher)?
    private var stopped = false
    /// What is in use: `inotify` or `polling every 0.5 s`.
    public var description: String { lock.withLock { mode } }
    private var mode = "not started"
    /// For tests: an inotify watch limit lower than the system's.
    var inotifyWatchLimit: Int?

    /// - Parameters:
    ///   - quiet: a batch is delivered once no event came for this long …
    ///   - maxDelay: … or this long after its first event.
    ///   - onChanges: called on a background queue with each batch (never empty).
    public init(
        root: String, strategy: Strategy = .automatic, filter: WatchFilter = WatchFilter(),
        quiet: Duration = .milliseconds(30), maxDelay: Duration = .milliseconds(200),
        onNote: @escaping @Sendable (String) -> Void = { _ in },
        onChanges: @escaping @Sendable ([ChangedPath]) -> Void
    ) {
        self.root = root
        self.requested = strategy
        self.onNote = onNote
        self.coalescer = ChangeCoalescer(root: root, filter: filter, quiet: quiet, maxDelay: maxDelay, deliver: onChanges)
    }

    /// Starts watching. Never fails: polling works wherever the folders can be listed.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        #if os(Linux)
        if requested == .automatic {
            let inotify = InotifyWatcher(root: root, watchLimit: inotifyWatchLimit, sink: signalHandler())
            do {
                try inotify.start()
                watcher = inotify
                mode = "inotify"
                return
            } catch {
                inotify.stop()
                onNote("watching by polling: \(error)")
            }
        }
        #endif
        startPolling()
    }

    /// Stops watching; no batch is delivered after this returns.
    public func stop() {
        lock.lock()
        stopped = true
        let current = watcher
        watcher = nil
        lock.unlock()
        current?.stop()
        coalescer.stop()
    }

    private func startPolling() {
        var interval = Duration.milliseconds(500)
        if case .polling(let requestedInterval) = requested { interval = requestedInterval }
        let polling = PollingWatcher(root: root, interval: interval, sink: signalHandler())
        try? polling.start()
        watcher = polling
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        mode = "polling every \(String(format: "%g", seconds)) s"
    }

    private func signalHandler() -> @Sendable (WatchSignal) -> Void {
        { [weak self] signal in
            guard let self else { return }
            switch signal {
            case .changed(let path, let event): coalescer.record(path, event)
            case .lostTrack: coalescer.recordEverything()
            case .failed(let reason):
                // Called on the failing watcher's own thread: switch from another one.
                DispatchQueue.global().async { self.fallBack(reason) }
            }
        }
    }

    private func fallBack(_ reason: String) {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        let old = watcher
        watcher = nil
        lock.unlock()
        old?.stop()
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        onNote("\(reason); watching by polling from now on")
        startPolling()
        coalescer.recordEverything()
    }
}
