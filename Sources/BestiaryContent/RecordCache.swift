import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Parsed records kept from one `bestiary build` to the next, in another process (or, by the
/// preview, in memory from one rebuild to the next: ``carriedOver(started:)``): each record
/// file's parse result (the ``Animal`` or nothing, and its diagnostics) under the file's metadata
/// (size, time, inode, device), as ``ParseMemo`` keeps them in one process under their bytes.
/// A record whose file is unchanged is neither read nor parsed again: on 10,000 records this is
/// most of the `load` stage of a rebuild after one edit.
///
/// The file (`.NAME.bestiary-records`, next to the output like the build state) holds a header
/// with what every result depends on besides its file (the `bestiary` binary, ``SiteConfig``):
/// when either differs, nothing in it is used. It is a cache: a file that is missing, damaged or
/// from another version is ignored (everything is parsed), and it is replaced atomically after
/// each complete build by what that build used, except records changed in the 2 s before the
/// build began (``FileInfo/isSettled(before:)``, as ``FileFacts`` does).
public final class RecordCache: @unchecked Sendable {
    struct Entry {
        var info: FileInfo
        var animal: Animal?
        var diagnostics: [Diagnostic]
    }

    static let header = "bestiary-records 1"

    /// What the results were made with: the binary's identity.
    public let tool: String
    /// When the build began (nanoseconds since 1970).
    let started: Int64
    private let lock = NSLock()
    private var configDigest = ""
    private var known: [String: Entry] = [:]
    private var used: [String: Entry] = [:]
    /// Records parsed and taken from the cache by the last load.
    public private(set) var hits = 0

    public init(tool: String, started: Date = Date()) {
        self.tool = tool
        self.started = FileFacts.nanoseconds(started)
    }

    /// The cache in `path`, or an empty one when the file is missing, damaged or not for `tool`.
    public static func load(_ path: String, tool: String, fileSystem: any FileSystem, started: Date = Date()) -> RecordCache {
        let cache = RecordCache(tool: tool, started: started)
        guard var reader = CacheFile.reader(path, header: header, tool: tool, fileSystem: fileSystem), let digest = reader.string(),
            let entries = reader.dictionary({ $0.entry() }), reader.atEnd
        else { return cache }
        cache.configDigest = digest
        cache.known = entries
        return cache
    }

    /// Writes what the last load used, but for records changed just before (atomically; on
    /// failure the file is removed). When the file differs from that in only a few records
    /// (``driftKept(records:)``: parsed anew, or in the file but not used), it is left as it is:
    /// the next build parses those few again (a fraction of a millisecond each) instead of this
    /// one writing 20 MB for 10,000 records. Returns whether it wrote the file.
    @discardableResult
    public func save(_ path: String, fileSystem: any FileSystem) -> Bool {
        lock.lock()
        let drift = (used.count - hits) + (known.count - hits)
        if !known.isEmpty, drift <= Self.driftKept(records: known.count) {
            lock.unlock()
            return false
        }
        let entries = used.filter { $0.value.info.isSettled(before: started) }
        let digest = configDigest
        lock.unlock()
        CacheFile.write(path, header: Self.header, tool: tool, fileSystem: fileSystem) { writer in
            writer.string(digest)
            writer.dictionary(entries) { $0.entry($1) }
        }
        return true
    }

    /// The cache a later load in this process starts from (the preview's next rebuild): the
    /// records this one used, as ``save(_:fileSystem:)`` would keep them, without the file.
    public func carriedOver(started: Date) -> RecordCache {
        let next = RecordCache(tool: tool, started: started)
        lock.lock()
        defer { lock.unlock() }
        next.configDigest = configDigest
        next.known = used.filter { $0.value.info.isSettled(before: self.started) }
        return next
    }

    /// How many records the file may differ in from what a build used and still be left as it
    /// is: 8, or one in 64 of its records.
    static func driftKept(records: Int) -> Int { max(8, records / 64) }

    /// Starts a load with this site configuration: results made with another are forgotten.
    func begin(config: SiteConfig) {
        let digest = StableDigest.hex(config)
        lock.lock()
        defer { lock.unlock() }
        if digest != configDigest { known = [:] }
        configDigest = digest
        used = [:]
        hits = 0
    }

    func lookup(_ path: String, info: FileInfo) -> (Animal?, [Diagnostic])? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = known[path], entry.info == info else { return nil }
        used[path] = entry
        hits += 1
        return (entry.animal, entry.diagnostics)
    }

    func store(_ path: String, info: FileInfo, result: (Animal?, [Diagnostic])) {
        lock.lock()
        defer { lock.unlock() }
        used[path] = Entry(info: info, animal: result.0, diagnostics: result.1)
    }
}

// MARK: The file's encoding (on BestiaryStorage's ByteWriter and ByteReader)

extension ByteWriter {
    fileprivate mutating func location(_ l: SourceLocation) {
        string(l.path)
        count(l.line)
        count(l.column)
    }

    fileprivate mutating func localized(_ t: LocalizedText) { dictionary(t.values) { $0.string($1) } }

    fileprivate mutating func media(_ m: MediaReference) {
        string(m.kind.rawValue)
        switch m.source {
        case .file(let p): flag(false); string(p)
        case .url(let u): flag(true); string(u)
        }
        string(m.format.rawValue)
        optional(m.credit) { $0.string($1) }
        optional(m.license) { $0.string($1) }
        optional(m.sourceURL) { $0.string($1) }
        optional(m.focus) { $0.string($1) }
        localized(m.alt)
        location(m.location)
    }

    fileprivate mutating func animal(_ a: Animal) {
        string(a.id)
        localized(a.name)
        optional(a.scientific) { $0.string($1) }
        optional(a.group) { $0.string($1) }
        optional(a.difficulty) { $0.count($1) }
        strings(a.tags)
        dictionary(a.wikipedia) { $0.string($1) }
        localized(a.description)
        localized(a.hint)
        localized(a.habitat)
        optional(a.conservation) { $0.string($1) }
        optional(a.sound) { $0.media($1) }
        optional(a.image) { $0.media($1) }
        optional(a.leadImageFocus) { $0.string($1) }
        localized(a.leadImageAlt)
        dictionary(a.bodies) { w, body in
            w.string(body.markdown)
            w.location(body.location)
        }
        string(a.sourcePath)
        dictionary(a.fieldLocations) { $0.location($1) }
    }

    fileprivate mutating func diagnostic(_ d: Diagnostic) {
        string(d.severity.rawValue)
        optional(d.location) { $0.location($1) }
        string(d.message)
        optional(d.stage) { $0.string($1) }
    }

    fileprivate mutating func entry(_ e: RecordCache.Entry) {
        info(e.info)
        optional(e.animal) { $0.animal($1) }
        count(e.diagnostics.count)
        for d in e.diagnostics { diagnostic(d) }
    }
}

extension ByteReader {
    /// `path`: the last location's path, taken again when this one names the same file (a
    /// record's dozen or so field locations all name it: 140,000 copies of the paths of the bench
    /// corpus's 10,000 records, 9 MB, were held by every rebuild before).
    fileprivate mutating func location(reusing path: inout String?) -> SourceLocation? {
        guard let file = string(reusing: &path), let line = number(), let column = number() else { return nil }
        return SourceLocation(path: file, line: line, column: column)
    }

    fileprivate mutating func localized() -> LocalizedText? { dictionary { $0.string() }.map(LocalizedText.init) }

    fileprivate mutating func media(reusing path: inout String?) -> MediaReference? {
        guard let kind = string().flatMap(MediaKind.init(rawValue:)), let isURL = flag(), let target = string(),
            let format = string().flatMap(MediaFormat.init(rawValue:)), let credit = optional({ $0.string() }),
            let license = optional({ $0.string() }), let sourceURL = optional({ $0.string() }), let focus = optional({ $0.string() }),
            let alt = localized(), let location = location(reusing: &path)
        else { return nil }
        return MediaReference(
            kind: kind, source: isURL ? .url(target) : .file(target), format: format, credit: credit, license: license,
            sourceURL: sourceURL, focus: focus, alt: alt, location: location)
    }

    /// `path`: as ``location(reusing:)`` takes it.
    fileprivate mutating func animal(reusing path: inout String?) -> Animal? {
        guard let id = string(), let name = localized(), let scientific = optional({ $0.string() }), let group = optional({ $0.string() }),
            let difficulty = optional({ $0.number() }), let tags = strings(), let wikipedia = dictionary({ $0.string() }),
            let description = localized(), let hint = localized(), let habitat = localized(),
            let conservation = optional({ $0.string() }), let sound = optional({ $0.media(reusing: &path) }),
            let image = optional({ $0.media(reusing: &path) }),
            let focus = optional({ $0.string() }), let leadAlt = localized(),
            let bodies = dictionary({ r -> MarkdownBody? in
                guard let markdown = r.string(), let location = r.location(reusing: &path) else { return nil }
                return MarkdownBody(markdown: markdown, location: location)
            }),
            let sourcePath = string(reusing: &path), let fieldLocations = dictionary({ $0.location(reusing: &path) })
        else { return nil }
        return Animal(
            id: id, name: name, scientific: scientific, group: group, difficulty: difficulty, tags: tags, wikipedia: wikipedia,
            description: description, hint: hint, sound: sound, image: image, bodies: bodies, sourcePath: sourcePath,
            fieldLocations: fieldLocations, habitat: habitat, conservation: conservation, leadImageFocus: focus,
            leadImageAlt: leadAlt)
    }

    fileprivate mutating func diagnostic(reusing path: inout String?) -> Diagnostic? {
        guard let severity = string().flatMap(Severity.init(rawValue:)), let location = optional({ $0.location(reusing: &path) }),
            let message = string(), let stage = optional({ $0.string() })
        else { return nil }
        return Diagnostic(severity, message, at: location, stage: stage)
    }

    fileprivate mutating func entry() -> RecordCache.Entry? {
        var path: String?
        guard let info = info(), let animal = optional({ $0.animal(reusing: &path) }), let n = count() else { return nil }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<n {
            guard let d = diagnostic(reusing: &path) else { return nil }
            diagnostics.append(d)
        }
        return RecordCache.Entry(info: info, animal: animal, diagnostics: diagnostics)
    }
}
