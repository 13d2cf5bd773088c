import BestiaryContent
import BestiaryPacks
import BestiaryRender
import BestiaryStorage
import BestiaryWikipedia
import Foundation

/// What a long-running process (the preview) keeps from one build to the next, so a rebuild does
/// only the work whose inputs changed: records are read again only when their file changed
/// (``RecordCache``, by metadata) and parsed again only when their bytes changed (``ParseMemo``),
/// Wikipedia cache entries read and checked again, and media hashed again, only when their file
/// changed (``CacheMemo``), pages rendered again only when what they show changed
/// (``RenderMemo``), and the output folder is updated in place, file by file, instead of
/// written anew. What a build read of a file changed in the 2 s before it began is not kept (its
/// metadata could stay the same through another change: ``FileInfo/isSettled(before:)``). Every
/// reuse is checked against the inputs as they are now (their bytes, digests or files' metadata,
/// never the changed paths the watcher reported), so a rebuild with a memo writes the same bytes
/// as one without (`RebuildEquivalenceTests`, `RandomEditTests`).
public final class BuildMemo: @unchecked Sendable {
    let parse = ParseMemo()
    let wikipedia = CacheMemo()
    let render = RenderMemo()
    let enrich = EnrichMemo()
    private let lock = NSLock()
    private var media: [String: (FileInfo, MediaRecord)] = [:]
    private var outputIndex: (directory: String, index: OutputIndex, folder: String?)?
    /// The last build's newest manifest with where each record is in it: records whose inputs
    /// are unchanged are taken from it as they are (a one-shot build reads the same from the
    /// output, ``KeptRecords``), instead of 10,000 made and encoded again.
    private var packRecords: KeptRecords?
    /// The records the last load used, by their files' metadata (``RecordCache``).
    private var records: RecordCache?
    /// The pack history the last build replayed (``PackStage/lock(of:options:memo:)``), with
    /// the bytes of `content/packs.lock` it was read from and how many versions' digests were checked.
    private var packHistory: (data: Data, recent: Int, lock: PackLock)?
    /// The walk the last build's output was made from (the lines it recorded, ``BuildState``),
    /// when it began (the inputs it found changed in the 2 s before are taken as edited again:
    /// ``InputChanges/unsettled``), and what that build kept of each animal: the next rebuild's change set starts from them, as a one-shot
    /// rebuild's starts from the walk and the output record kept beside the output
    /// (docs/change-driven-rebuild.md, step 2). Taken by each build that goes on past its check
    /// that nothing changed, so that a build that fails leaves none.
    private var walk: Walk?
    /// The Wikipedia pictures' metadata by path, as the last snapshot with a stamp listed them
    /// (``pictureInfos(of:prefix:)``).
    private var pictures: (stamp: String, prefix: String, infos: [String: FileInfo])?
    /// When the current build began (nanoseconds since 1970): what it read of a file changed in
    /// the 2 s before is not kept (``FileInfo/isSettled(before:)``), as a one-shot build's kept
    /// files do not keep it.
    private var started: Int64?

    /// What ``walk`` holds.
    struct Walk {
        var lines: [String]
        /// When the walk began (nanoseconds since 1970, the file system's clock).
        var started: Int64
        var animals: [String: KeptAnimal]
    }

    public init() {}

    /// Pages the last build rendered and reused.
    public var pagesRendered: Int { render.rendered }
    public var pagesReused: Int { render.reused }

    /// Forgets everything: the next build does all the work (after the watcher lost track).
    public func reset() {
        lock.lock()
        media = [:]
        outputIndex = nil
        packRecords = nil
        records = nil
        packHistory = nil
        walk = nil
        pictures = nil
        lock.unlock()
        render.reset()
        parse.reset()
        wikipedia.reset()
        enrich.reset()
    }

    /// Starts a build that began at `started` (by the file system's clock).
    func begin(started: Date) {
        let nanoseconds = FileFacts.nanoseconds(started)
        lock.lock()
        self.started = nanoseconds
        lock.unlock()
        wikipedia.begin(started: nanoseconds)
    }

    /// The pack history the last build replayed from these very bytes, with as many versions'
    /// digests checked.
    func packHistory(of data: Data, checkingDigestsOfLast recent: Int) -> PackLock? {
        lock.withLock { packHistory.flatMap { $0.recent == recent && $0.data == data ? $0.lock : nil } }
    }

    /// Whether the memo holds a history replayed from these bytes (for tests).
    func packHistoryKept(_ data: Data) -> Bool {
        lock.withLock { packHistory?.data == data }
    }

    func keepPackHistory(_ history: PackLock, of data: Data, checkingDigestsOfLast recent: Int) {
        lock.withLock { packHistory = (data, recent, history) }
    }

    /// The records a load that starts at `started` takes by their files' metadata: those the
    /// last load used, but for files changed in the 2 s before that load began
    /// (``RecordCache/carriedOver(started:)``). The memo keeps the cache returned, for the next.
    func records(tool: String, started: Date) -> RecordCache {
        lock.lock()
        defer { lock.unlock() }
        let next = records.flatMap { $0.tool == tool ? $0.carriedOver(started: started) : nil } ?? RecordCache(tool: tool, started: started)
        records = next
        return next
    }

    /// The format the media file at `path` (relative to `content/`) had when the memo read it, if
    /// it still has this metadata.
    func mediaFormat(_ path: String, info: FileInfo) -> MediaFormat? {
        mediaRecord(path, info: info)?.format
    }

    func mediaRecord(_ path: String, info: FileInfo) -> MediaRecord? {
        lock.lock()
        defer { lock.unlock() }
        guard let (known, record) = media[path], known == info else { return nil }
        return record
    }

    func keepMedia(_ records: [String: (FileInfo, MediaRecord)]) {
        lock.lock()
        media = started.map { started in records.filter { $0.value.0.isSettled(before: started) } } ?? records
        lock.unlock()
    }

    func keptPackRecords() -> KeptRecords? {
        lock.lock()
        defer { lock.unlock() }
        return packRecords
    }

    func keepPackRecords(_ records: KeptRecords?) {
        lock.lock()
        packRecords = records
        lock.unlock()
    }

    /// ``WikipediaSnapshot/pictureInfos(prefix:)``, taken from the last build while the snapshot
    /// has the stamp that build's had: its pictures' folder listed every file with the same
    /// metadata (29,156 paths on the bench corpus, made again on every rebuild).
    func pictureInfos(of snapshot: WikipediaSnapshot, prefix: String) -> [String: FileInfo] {
        if let stamp = snapshot.wholeStamp, let kept = lock.withLock({ pictures }), kept.stamp == stamp, kept.prefix == prefix {
            return kept.infos
        }
        let infos = snapshot.pictureInfos(prefix: prefix)
        lock.withLock { pictures = snapshot.wholeStamp.map { ($0, prefix, infos) } }
        return infos
    }

    /// The last build's walk, which the memo no longer holds (``walk``).
    func takeWalk() -> Walk? {
        lock.withLock {
            defer { walk = nil }
            return walk
        }
    }

    func keepWalk(_ kept: Walk?) {
        lock.withLock { walk = kept }
    }

    /// Whether the memo knows what `directory` holds (a build of this memo wrote or adopted it).
    public func holdsOutput(of directory: String) -> Bool { output(for: directory) != nil }

    func output(for directory: String) -> OutputIndex? {
        lock.lock()
        defer { lock.unlock() }
        return outputIndex?.directory == directory ? outputIndex?.index : nil
    }

    /// The identity of the folder `directory` was when the index was set
    /// (``OutputRecord/folderIdentity(_:)``): a record made from the index is for that folder only.
    func outputFolder(for directory: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return outputIndex?.directory == directory ? outputIndex?.folder : nil
    }

    /// `folder`: the identity of the output folder the index describes, taken once it was written.
    func setOutput(_ index: OutputIndex?, for directory: String, folder: String? = nil) {
        lock.lock()
        outputIndex = index.map { (directory, $0, folder) }
        lock.unlock()
    }
}
