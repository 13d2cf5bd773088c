import BestiaryStorage
import Foundation

/// Watches `content/` and `templates/` by listing them every `interval` and comparing each file's
/// inode, size and modification time with the previous listing. The fallback where inotify is
/// unavailable (macOS, some containers) or its watches run out; it costs one `lstat` per file per
/// interval.
///
/// Link counts and change times are not compared: the build hard-links media into the output,
/// which changes both.
final class PollingWatcher: FileWatcher, @unchecked Sendable {
    struct Stamp: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64
        /// The SHA-256 of its bytes while it changed less than 2 s before the scan, nil after: on
        /// a file system whose clock ticks in seconds (FAT, some network folders), a second write
        /// of the same length within one tick keeps the rest, and the build after the first
        /// write would stay (git's "racily clean" files).
        var digest: String? = nil

        /// The same metadata, and the same bytes where both scans read them.
        static func == (a: Stamp, b: Stamp) -> Bool {
            a.inode == b.inode && a.size == b.size && a.modified == b.modified && (a.digest == nil || b.digest == nil || a.digest == b.digest)
        }
    }

    private let root: String
    private let interval: Duration
    private let sink: @Sendable (WatchSignal) -> Void
    private let lock = NSLock()
    private var stopping = false
    private var running = false
    private let finished = DispatchSemaphore(value: 0)
    private let wakeUp = DispatchSemaphore(value: 0)

    init(root: String, interval: Duration, sink: @escaping @Sendable (WatchSignal) -> Void) {
        self.root = root
        self.interval = interval
        self.sink = sink
    }

    func start() throws(WatchSetupError) {
        let initial = scan()
        running = true
        let thread = Thread { [self] in
            defer { finished.signal() }
            var previous = initial
            // What was last said of each file. A file is said changed once it stayed the same
            // for one interval: one still being written (a copy to a network folder, where
            // polling is used) was built half-written, with an error, and again once whole
            // (found by an editor's audit; inotify waits for the writer to close it instead).
            var said = initial
            let nanos = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
            while true {
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(nanos)))
                if lock.withLock({ stopping }) { return }
                var current = scan()
                for (path, event) in Self.changes(previous: previous, current: &current, said: &said) { sink(.changed(path, event)) }
                previous = current
            }
        }
        thread.name = "bestiary.preview.polling"
        thread.start()
    }

    /// What one scan says, given the one before and what was said last (updated): a file whose
    /// stamp is the same as in the scan before and not what was said of it, and each file gone
    /// from both. A stamp without bytes (the file settled) takes those the scan before read of the
    /// same metadata: the last bytes read of it stand until its metadata changes, so a write
    /// within its tick that only one scan read is still said.
    static func changes(previous: [String: Stamp], current: inout [String: Stamp], said: inout [String: Stamp]) -> [(String, ChangeEvent)] {
        for (path, stamp) in current where stamp.digest == nil {
            if let before = previous[path], before.digest != nil, before == stamp { current[path]?.digest = before.digest }
        }
        var out: [(String, ChangeEvent)] = []
        for (path, stamp) in current.sorted(by: { $0.key < $1.key }) where previous[path] == stamp {
            let old = said[path]
            if old != stamp {
                out.append((path, old == nil || old?.inode != stamp.inode ? .created : .modified))
                said[path] = stamp
            } else if old?.digest == nil, stamp.digest != nil {
                said[path] = stamp  // its bytes, read now, stand for what was said
            }
        }
        // Gone in two scans: a save by rename or by delete-then-write is said in one batch with
        // its new file (said at once, it made a build without the record, then another).
        for path in said.keys.sorted() where current[path] == nil && previous[path] == nil {
            out.append((path, .removed))
            said[path] = nil
        }
        return out
    }

    func stop() {
        guard running else { return }
        running = false
        lock.withLock { stopping = true }
        wakeUp.signal()
        finished.wait()
    }

    /// Every file below the watched folders (junk names skipped), with its stamp: the bytes too of
    /// a regular file changed in the 2 s before the scan (``Stamp/digest``).
    func scan() -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        let recent = FileFacts.nanoseconds(Date()) - FileInfo.racyNanoseconds
        func visit(_ relative: String, followLink: Bool) {
            let path = root == "." ? relative : root + "/" + relative
            var st = stat()
            guard (followLink ? stat(path, &st) : lstat(path, &st)) == 0 else { return }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
                for name in names where !WatchFilter.isJunkName(name) {
                    visit(relative + "/" + name, followLink: false)
                }
            } else {
                // A link to a file (a stylesheet several sites share) changes when that file does.
                if (st.st_mode & S_IFMT) == S_IFLNK {
                    var target = stat()
                    if stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG { st = target }
                }
                #if os(Linux)
                let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
                #else
                let modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
                #endif
                var stamp = Stamp(inode: UInt64(st.st_ino), size: Int64(st.st_size), modified: modified)
                // Not a file larger than 64 MB (a video being copied would be read whole on each scan).
                if modified >= recent, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= 64 << 20, let bytes = FileManager.default.contents(atPath: path) {
                    stamp.digest = Hashing.sha256Hex(bytes)
                }
                result[relative] = stamp
            }
        }
        for subtree in WatchedFolders.names { visit(subtree, followLink: true) }
        return result
    }
}
