import Dispatch
import Foundation

/// Folds a burst of raw file events into one batch of ``ChangedPath``s.
///
/// Editors save in several steps (vim: rename to a backup, create, write, close, delete the backup;
/// others: write a temporary file, then rename it over the original), and `git checkout` touches
/// many files at once. A batch is delivered once no event has arrived for `quiet`, or `maxDelay`
/// after its first event, whichever comes first, so a save is one rebuild and a steady stream of
/// events cannot postpone a rebuild forever.
final class ChangeCoalescer: @unchecked Sendable {
    private struct Pending {
        var first: ChangeEvent
        var last: ChangeEvent
    }

    private let root: String
    private let filter: WatchFilter
    private let quiet: DispatchTimeInterval
    private let maxDelay: DispatchTimeInterval
    private let deliver: @Sendable ([ChangedPath]) -> Void
    private let queue = DispatchQueue(label: "bestiary.preview.coalescer")
    private var pending: [String: Pending] = [:]
    private var everything = false
    private var firstEventAt: DispatchTime?
    private var scheduled: DispatchWorkItem?
    private var stopped = false

    init(
        root: String, filter: WatchFilter, quiet: Duration, maxDelay: Duration,
        deliver: @escaping @Sendable ([ChangedPath]) -> Void
    ) {
        self.root = root
        self.filter = filter
        self.quiet = .nanoseconds(Int(quiet.components.seconds * 1_000_000_000 + quiet.components.attoseconds / 1_000_000_000))
        self.maxDelay = .nanoseconds(Int(maxDelay.components.seconds * 1_000_000_000 + maxDelay.components.attoseconds / 1_000_000_000))
        self.deliver = deliver
    }

    /// A raw event for `path` (relative to the site root).
    func record(_ path: String, _ event: ChangeEvent) {
        if filter.ignores(path) { return }
        queue.async { [self] in
            guard !stopped else { return }
            if var p = pending[path] {
                p.last = event
                pending[path] = p
            } else {
                pending[path] = Pending(first: event, last: event)
            }
            reschedule()
        }
    }

    /// The watcher lost track (queue overflow, a watched root replaced): rebuild everything.
    func recordEverything() {
        queue.async { [self] in
            guard !stopped else { return }
            everything = true
            reschedule()
        }
    }

    /// Drops pending events; nothing is delivered afterwards.
    func stop() {
        queue.sync {
            stopped = true
            scheduled?.cancel()
            pending = [:]
        }
    }

    private func reschedule() {
        let now = DispatchTime.now()
        if firstEventAt == nil { firstEventAt = now }
        let latest = firstEventAt! + maxDelay
        var due = now + quiet
        if due > latest { due = latest }
        scheduled?.cancel()
        let item = DispatchWorkItem { [weak self] in self?.flush() }
        scheduled = item
        queue.asyncAfter(deadline: due, execute: item)
    }

    private func flush() {
        guard !stopped else { return }
        let batch = pending
        let all = everything
        pending = [:]
        everything = false
        firstEventAt = nil
        scheduled = nil
        var changes: [ChangedPath] = []
        if all { changes.append(.everything) }
        for (path, p) in batch.sorted(by: { $0.key < $1.key }) {
            var st = stat()
            let exists = lstat(root == "." ? path : root + "/" + path, &st) == 0
            let event: ChangeEvent
            if !exists {
                if p.first == .created { continue }  // came and went within the burst
                event = .removed
            } else {
                event = p.first == .created ? .created : .modified
            }
            changes.append(ChangedPath(classifying: path, event: event))
        }
        if changes.isEmpty { return }
        deliver(changes)
    }
}
