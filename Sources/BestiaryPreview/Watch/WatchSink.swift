/// What a watcher reports to its owner.
enum WatchSignal: Sendable, Equatable {
    /// `path` (relative to the site root) was created, written, renamed or removed.
    case changed(String, ChangeEvent)
    /// The watcher lost track of what changed (event queue overflow, a root replaced).
    case lostTrack
    /// The watcher cannot go on (inotify ran out of watches); the owner should switch to polling.
    case failed(String)
}

/// A source of ``WatchSignal``s over the watched folders of a site root.
protocol FileWatcher: AnyObject, Sendable {
    /// Starts watching; signals go to the sink given at creation, from a background thread.
    func start() throws(WatchSetupError)
    /// Stops watching and waits until no more signals will be sent.
    func stop()
}

/// Why a watcher could not start.
struct WatchSetupError: Error, CustomStringConvertible {
    var description: String
}

/// The folders of a site root that hold its sources.
enum WatchedFolders {
    static let names = ["content", "templates"]
}
