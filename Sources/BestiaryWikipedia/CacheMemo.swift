import BestiaryStorage
import Foundation

/// What a long-running process (the preview) keeps of the Wikipedia cache between builds: each
/// entry file as decoded and checked, and each image file's check, by the file's metadata (size,
/// time, inode). A file that changed in any of them is read again; an entry file that is gone is
/// dropped (image checks, a few bytes each, are kept for the session).
/// On a 10,000-animal site this turns the enrich stage of a rebuild from reading and verifying
/// 14,000 JSON files into a walk over their metadata. A file changed in the 2 s before the build
/// began (``begin(started:)``) is not kept: it could change again within the file system's time
/// resolution and keep its metadata (``FileInfo/isSettled(before:)``). A build whose walk lists
/// the cache's folder as the last one's did takes that build's entries whole (``Whole``). Thread-safe.
public final class CacheMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (FileInfo, Result<WikipediaEntry, CacheEntryFile.Damage>)] = [:]
    private var images: [String: (FileInfo, String, Bool)] = [:]
    private var seenEntries = Set<String>()
    /// The last build's entries, all of them, under the digest of the listing they were read from
    /// (``WikipediaCache/Listing/stamp``), when that build read every entry file intact, where it
    /// belongs and settled, and found every picture the entries name intact, listed in the
    /// pictures' folder and settled: the next build whose listing has the same digest takes them
    /// as they are, without a lookup each, and when the pictures' folder lists every file with
    /// the metadata it had then, their checks as they were.
    private var whole: Whole?

    /// What ``WikipediaCache/load()`` kept whole: the entries, the digest of the pictures' folder
    /// as it listed it (``WikipediaCache/picturesStamp(_:)``, as kept entries keep it), and the
    /// pictures it found intact (paths relative to `content/`).
    struct Whole {
        var stamp: String
        var entries: [WikipediaSnapshot.Key: WikipediaEntry]
        /// The titles' index made from them (``WikipediaSnapshot/index``).
        var index: [WikipediaSnapshot.Key: WikipediaSnapshot.Key]
        var pictures: String
        var intact: Set<String>

        /// The snapshot's ``WikipediaSnapshot/wholeStamp``.
        var wholeStamp: String { stamp + " " + pictures }
    }
    /// When the current build began (nanoseconds since 1970); nil keeps every file.
    private var started: Int64?

    public init() {}

    /// Starts a build that began at `started` (nanoseconds since 1970, by the file system's clock).
    public func begin(started: Int64) {
        lock.lock()
        self.started = started
        lock.unlock()
    }

    private func settled(_ info: FileInfo) -> Bool {
        Self.settled(info, started: started)
    }

    private static func settled(_ info: FileInfo, started: Int64?) -> Bool {
        started.map { info.isSettled(before: $0) } ?? true
    }

    /// Whether what the current build reads of a file with some metadata may be kept (the rule
    /// the memo keeps entries and images by), with the build's start read once.
    func settledRule() -> @Sendable (FileInfo) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let started = started
        return { Self.settled($0, started: started) }
    }

    /// Whether the last build's entries are kept whole (for tests).
    public var keepsWhole: Bool { lock.withLock { whole != nil } }

    /// What was kept whole under `stamp`, or nil.
    func whole(stamp: String) -> Whole? {
        lock.lock()
        defer { lock.unlock() }
        guard let whole, whole.stamp == stamp else { return nil }
        return whole
    }

    /// Keeps this build's read whole; nil keeps nothing whole.
    func keepWhole(_ whole: Whole?) {
        lock.lock()
        defer { lock.unlock() }
        self.whole = whole
    }

    func entry(_ path: String, info: FileInfo) -> Result<WikipediaEntry, CacheEntryFile.Damage>? {
        lock.lock()
        defer { lock.unlock() }
        seenEntries.insert(path)
        guard let (known, result) = entries[path], known == info else { return nil }
        return result
    }

    func keepEntry(_ path: String, info: FileInfo, _ result: Result<WikipediaEntry, CacheEntryFile.Damage>) {
        lock.lock()
        defer { lock.unlock() }
        entries[path] = settled(info) ? (info, result) : nil
    }

    /// Whether the image at `path` passed `check` (its format, or format and SHA-256) when it had
    /// this metadata.
    func image(_ path: String, info: FileInfo, check: String) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        guard let (known, knownCheck, intact) = images[path], known == info, knownCheck == check else { return nil }
        return intact
    }

    func keepImage(_ path: String, info: FileInfo, check: String, intact: Bool) {
        lock.lock()
        defer { lock.unlock() }
        images[path] = settled(info) ? (info, check, intact) : nil
    }

    /// Called after a full load: forgets entries whose files were not seen (removed).
    func forgetUnseen() {
        lock.lock()
        defer { lock.unlock() }
        entries = entries.filter { seenEntries.contains($0.key) }
        seenEntries = []
    }

    public func reset() {
        lock.lock()
        defer { lock.unlock() }
        entries = [:]
        images = [:]
        seenEntries = []
        whole = nil
    }
}
