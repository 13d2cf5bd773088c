import BestiaryStorage
import Foundation

/// The cache's entry files as a one-shot build decoded them, kept for the next build by each
/// file's metadata (`.NAME.bestiary-wikipedia`, next to the output; ``KeptByFile``). On the
/// 10,000-animal bench corpus a rebuild then reads one binary file instead of reading and
/// decoding 14,555 JSON files. Damaged entries are not kept: they are read (and reported) again.
/// The preview keeps the same in memory (``CacheMemo``).
public enum KeptEntries {
    static let header = "bestiary-wikipedia 3"

    /// The entries in `path`; none when it is missing, damaged or written by another binary.
    /// `keyPrefix`: the site root and a slash (``KeptByFile/keyPrefix``).
    public static func load(
        _ path: String, tool: String, keyPrefix: String, fileSystem: any FileSystem, started: Date = Date()
    ) -> KeptByFile<WikipediaEntry> {
        KeptByFile.load(path, header: header, tool: tool, keyPrefix: keyPrefix, fileSystem: fileSystem, started: started) { $0.entry() }
    }

    /// A store that knows nothing yet (`build --force`).
    public static func empty(tool: String, keyPrefix: String, started: Date = Date()) -> KeptByFile<WikipediaEntry> {
        KeptByFile(header: header, tool: tool, keyPrefix: keyPrefix, started: started)
    }

    /// Writes the entries this build used (``KeptByFile/save(_:fileSystem:encode:)``).
    public static func save(_ kept: KeptByFile<WikipediaEntry>, to path: String, fileSystem: any FileSystem) {
        kept.save(path, fileSystem: fileSystem) { $0.entry($1) }
    }
}

extension ByteWriter {
    fileprivate mutating func text(_ s: String?) { optional(s) { $0.string($1) } }

    fileprivate mutating func license(_ l: License) {
        string(l.name)
        text(l.url)
    }

    fileprivate mutating func entry(_ e: WikipediaEntry) {
        string(e.language)
        strings(e.requested)
        string(e.canonicalTitle)
        string(e.title)
        optional(e.pageID) { $0.count($1) }
        string(e.revision)
        text(e.lastEdited)
        string(e.fetchedAt)
        text(e.etag)
        string(e.url)
        string(e.direction)
        text(e.description)
        text(e.wikibaseItem)
        string(e.extract)
        string(e.extractHTML)
        license(e.license)
        optional(e.image) { w, image in
            w.string(image.file)
            w.optional(image.original) { w, o in
                w.string(o.url)
                w.count(o.width)
                w.count(o.height)
            }
            w.count(image.renditions.count)
            for r in image.renditions {
                w.count(r.width)
                w.count(r.height)
                w.string(r.url)
                w.string(r.path)
                w.string(r.sha256)
                w.count(r.bytes)
                w.string(r.format)
            }
            w.optional(image.attribution) { w, a in
                w.text(a.artist)
                w.text(a.credit)
                w.optional(a.license) { $0.license($1) }
                w.flag(a.attributionRequired)
                w.text(a.descriptionURL)
            }
        }
    }
}

extension ByteReader {
    fileprivate mutating func text() -> String?? { optional { $0.string() } }

    fileprivate mutating func license() -> License? {
        guard let name = string(), let url = text() else { return nil }
        return License(name: name, url: url)
    }

    fileprivate mutating func rendition() -> ImageRendition? {
        guard let width = number(), let height = number(), let url = string(), let path = string(), let sha256 = string(),
            let bytes = number(), let format = string()
        else { return nil }
        return ImageRendition(width: width, height: height, url: url, path: path, sha256: sha256, bytes: bytes, format: format)
    }

    fileprivate mutating func image() -> CachedImage? {
        guard let file = string(),
            let original = optional({ r -> ImageSource? in
                guard let url = r.string(), let width = r.number(), let height = r.number() else { return nil }
                return ImageSource(url: url, width: width, height: height)
            }),
            let count = count()
        else { return nil }
        var renditions: [ImageRendition] = []
        for _ in 0..<count {
            guard let r = rendition() else { return nil }
            renditions.append(r)
        }
        guard let attribution = optional({ r -> ImageAttribution? in
            guard let artist = r.text(), let credit = r.text(), let license = r.optional({ $0.license() }),
                let required = r.flag(), let url = r.text()
            else { return nil }
            return ImageAttribution(artist: artist, credit: credit, license: license, attributionRequired: required, descriptionURL: url)
        })
        else { return nil }
        return CachedImage(file: file, original: original, renditions: renditions, attribution: attribution)
    }

    fileprivate mutating func entry() -> WikipediaEntry? {
        guard let language = string(), let requested = strings(), let canonicalTitle = string(), let title = string(),
            let pageID = optional({ $0.number() }), let revision = string(), let lastEdited = text(), let fetchedAt = string(),
            let etag = text(), let url = string(), let direction = string(), let description = text(),
            let wikibaseItem = text(), let extract = string(), let extractHTML = string(), let license = license(),
            let image = optional({ $0.image() })
        else { return nil }
        return WikipediaEntry(
            language: language, requested: requested, canonicalTitle: canonicalTitle, title: title, pageID: pageID,
            revision: revision, lastEdited: lastEdited, fetchedAt: fetchedAt, etag: etag, url: url, direction: direction,
            description: description, wikibaseItem: wikibaseItem, extract: extract, extractHTML: extractHTML,
            license: license, image: image)
    }
}
