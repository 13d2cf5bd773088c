import Foundation

/// Values a build derived from files' bytes, kept from one `bestiary build` to the next (in
/// another process) under each file's metadata (size, time, inode, device), in one cache file
/// next to the output (``CacheFile``). A value is given back only for a file whose metadata is
/// unchanged; a cache file written by another binary, damaged or missing is ignored.
///
/// ``save(_:fileSystem:encode:)`` keeps what this build used (looked up or kept), except values
/// of files changed in the 2 s before the build began (``FileInfo/isSettled(before:)``), and
/// leaves the file alone when it would hold the same values. ``FileFacts`` and the Wikipedia
/// cache's decoded entries are kept this way. Thread-safe.
///
/// The file may also carry a ``stamp``: a string the saving build set to say that the values
/// are the whole of what it read from a set of files whose listing had that digest (the
/// Wikipedia cache's folder, ``useAll()``); a later build that sees the same listing takes
/// them all without looking each one up.
///
/// Files are named by their paths as the build spells them (`site/content/media/owl.ogg`,
/// `/home/me/site/content/…`), but kept under their paths below ``keyPrefix`` (the site root's
/// spelling and a slash): a build run as `--root site`, then from inside the site, or with an
/// absolute root, finds what the other kept. Paths not below it are not kept. (A value is still
/// given back only for a file with the same metadata, device and inode among it.)
public final class KeptByFile<Value>: @unchecked Sendable {
    public let header: String
    public let tool: String
    /// What every path asked about begins with and the file leaves out: the site root followed by
    /// a slash, or nothing for the current folder.
    public let keyPrefix: String
    /// When the build began, in nanoseconds since 1970 by the system clock (file times' clock).
    public let started: Int64

    private let lock = NSLock()
    private var known: [String: (info: FileInfo, value: Value)] = [:]
    private var used: [String: (info: FileInfo, value: Value)] = [:]
    /// Whether a value was kept that the file does not hold yet.
    private var learned = false
    /// The stamp the file holds (nil: none).
    public private(set) var stamp: String?
    /// The stamp the next save writes (``setStamp(_:)``).
    private var stampToSave: String?
    /// Values taken from the file since it was loaded.
    public private(set) var hits = 0

    public init(header: String, tool: String, keyPrefix: String, started: Date = Date()) {
        self.header = header
        self.tool = tool
        self.keyPrefix = keyPrefix
        self.started = FileFacts.nanoseconds(started)
    }

    /// The values in `path`; none when the file is missing, damaged, or not for `header` and `tool`.
    /// Inlinable, as ``save(_:fileSystem:encode:)`` is: made for each `Value` where it is used,
    /// the 14,555 Wikipedia entries are not decoded and encoded through generic value witnesses
    /// (saving them took 0.46 CPU-s of a full build, on one core).
    @inlinable public static func load(
        _ path: String, header: String, tool: String, keyPrefix: String, fileSystem: any FileSystem, started: Date = Date(),
        decode: (inout ByteReader) -> Value?
    ) -> KeptByFile {
        let kept = KeptByFile(header: header, tool: tool, keyPrefix: keyPrefix, started: started)
        guard var reader = CacheFile.reader(path, header: header, tool: tool, fileSystem: fileSystem),
            let stamp = reader.optional({ $0.string() }),
            let known = reader.dictionary(keyPrefix: keyPrefix, { r -> (info: FileInfo, value: Value)? in
                guard let info = r.info(), let value = decode(&r) else { return nil }
                return (info, value)
            }),
            reader.atEnd
        else { return kept }
        kept.restore(known, stamp: stamp)
        return kept
    }

    @usableFromInline func restore(_ known: [String: (info: FileInfo, value: Value)], stamp: String?) {
        lock.lock()
        defer { lock.unlock() }
        self.known = known
        self.stamp = stamp
        stampToSave = stamp
        // A build uses nearly all it kept (40,000 file facts on the bench corpus): made room
        // for once, not grown by doubling one lookup at a time.
        used.reserveCapacity(known.count)
    }

    /// The value kept for the file at `path` when it had `info` (and the value passes `fits`).
    public func lookup(_ path: String, info: FileInfo, fits: (Value) -> Bool = { _ in true }) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = known[path], entry.info == info, fits(entry.value) else { return nil }
        used[path] = entry
        hits += 1
        return entry.value
    }

    /// The metadata of every file looked up or kept since loading, by path: as the build saw it.
    public func infos() -> [String: FileInfo] {
        lock.lock()
        defer { lock.unlock() }
        return used.mapValues(\.info)
    }

    /// Every value the file holds, marked used (so saved again): for a caller that knows the
    /// files are unchanged without looking at each (their listing has the digest of ``stamp``).
    public func useAll() -> [Value] {
        lock.lock()
        defer { lock.unlock() }
        // Into a build that used none yet, the table is shared rather than copied.
        if used.isEmpty { used = known } else { used.merge(known) { _, kept in kept } }
        hits += known.count
        return known.values.map(\.value)
    }

    /// The values kept for these files with this metadata, marked used (so saved again), under
    /// one lock: for a caller that needs no value, only that each is kept. A value this build
    /// kept already stays as it is. Returns how many files had one.
    public func useAll(_ files: some Sequence<(path: String, info: FileInfo)>) -> Int {
        lock.lock()
        defer { lock.unlock() }
        var found = 0
        for (path, info) in files {
            if let entry = used[path] {
                if entry.info == info { found += 1 }
            } else if let entry = known[path], entry.info == info {
                used[path] = entry
                hits += 1
                found += 1
            }
        }
        return found
    }

    /// The stamp the next ``save(_:fileSystem:encode:)`` writes (nil: none).
    public func setStamp(_ stamp: String?) {
        lock.lock()
        defer { lock.unlock() }
        stampToSave = stamp
    }

    /// Keeps `value` for the file at `path` with `info`.
    public func keep(_ path: String, info: FileInfo, _ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        used[path] = (info, value)
        learned = true
    }

    /// Writes the values used since loading, but for racy files (atomically; on failure the file
    /// is removed). When every value came from the file and all were used, the file already holds
    /// exactly these and is left as it is.
    @inlinable public func save(_ path: String, fileSystem: any FileSystem, encode: (inout ByteWriter, Value) -> Void) {
        guard let (used, stamp) = toSave() else { return }
        let started = started, keyPrefix = keyPrefix
        let values = used.filter { $0.value.info.isSettled(before: started) }
        CacheFile.write(path, header: header, tool: tool, fileSystem: fileSystem) { writer in
            writer.optional(stamp) { $0.string($1) }
            writer.dictionary(values, droppingKeyPrefix: keyPrefix) { w, entry in
                w.info(entry.info)
                encode(&w, entry.value)
            }
        }
    }

    /// What ``save(_:fileSystem:encode:)`` writes (the values used and the stamp), nil when the
    /// file already holds exactly that.
    @usableFromInline func toSave() -> (used: [String: (info: FileInfo, value: Value)], stamp: String?)? {
        lock.lock()
        defer { lock.unlock() }
        let unchanged = !learned && used.count == known.count && !known.isEmpty && stampToSave == stamp
        return unchanged ? nil : (used, stampToSave)
    }

    /// Drops every value held in memory (after ``save(_:fileSystem:encode:)``, when nothing more
    /// will be asked). With `leavingToExit`, a process that is about to end skips freeing them
    /// one by one (``ProcessMemory/leaveToExit(_:)``).
    public func forget(leavingToExit: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        if leavingToExit { ProcessMemory.leaveToExit([known, used]) }
        known = [:]
        used = [:]
        learned = false
        stamp = nil
        stampToSave = nil
    }
}

extension FileInfo {
    /// Files changed this close to (or after) a build's start are not vouched for: coarse file
    /// system clocks tick in up to 2 s.
    public static let racyNanoseconds: Int64 = 2_000_000_000

    /// Whether what a build that began at `started` (nanoseconds since 1970) read of this file
    /// may be kept for the next build: the file had not changed in the 2 s before. A file changed
    /// later could change again within the file system's time resolution and keep this metadata
    /// (git's "racily clean" files).
    public func isSettled(before started: Int64) -> Bool {
        modificationTime < started - Self.racyNanoseconds
    }
}
