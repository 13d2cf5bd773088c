import BestiaryPackFormat

/// The envelope read without `JSONDecoder`: the pack format's strict parser makes a tree, and
/// the entry's fields are taken from it by hand. A build reads every entry of the cache (14,555
/// for 10,000 animals in two languages), and `JSONDecoder` was most of that time.
///
/// It only ever accepts less than `JSONDecoder` does, never more and never differently: anything
/// it does not expect (a duplicate key, a byte-order mark, a number that is not a plain integer,
/// a value of another type, a missing field) gives nil, and ``CacheEntryFile/decode(_:)`` reads
/// the file with `JSONDecoder` instead, which accepts it or says what is wrong. Unknown keys are
/// ignored, as `JSONDecoder` ignores them. `CacheEntryReaderTests` compares the two.
enum CacheEntryReader {
    struct Envelope {
        var format: Int
        var checksum: String
        var entry: WikipediaEntry
    }

    static func envelope(_ bytes: some Collection<UInt8>) -> Envelope? {
        guard let root = try? JSONParser.parse(bytes), let fields = Fields(root),
            let format = fields.int("format"), let checksum = fields.string("checksum"),
            let entry = fields.object("entry").flatMap(Self.entry)
        else { return nil }
        return Envelope(format: format, checksum: checksum, entry: entry)
    }

    static func entry(_ f: Fields) -> WikipediaEntry? {
        guard let language = f.string("language"), let requested = f.strings("requested"),
            let canonicalTitle = f.string("canonicalTitle"), let title = f.string("title"),
            let pageID = f.optional("pageID", f.int), let revision = f.string("revision"),
            let lastEdited = f.optional("lastEdited", f.string), let fetchedAt = f.string("fetchedAt"),
            let etag = f.optional("etag", f.string), let url = f.string("url"), let direction = f.string("direction"),
            let description = f.optional("description", f.string), let wikibaseItem = f.optional("wikibaseItem", f.string),
            let extract = f.string("extract"), let extractHTML = f.string("extractHTML"),
            let license = f.object("license").flatMap(Self.license),
            let image = f.optional("image", { f.object($0).flatMap(Self.image) })
        else { return nil }
        return WikipediaEntry(
            language: language, requested: requested, canonicalTitle: canonicalTitle, title: title, pageID: pageID,
            revision: revision, lastEdited: lastEdited, fetchedAt: fetchedAt, etag: etag, url: url, direction: direction,
            description: description, wikibaseItem: wikibaseItem, extract: extract, extractHTML: extractHTML,
            license: license, image: image)
    }

    static func license(_ f: Fields) -> License? {
        guard let name = f.string("name"), let url = f.optional("url", f.string) else { return nil }
        return License(name: name, url: url)
    }

    static func image(_ f: Fields) -> CachedImage? {
        guard let file = f.string("file"), let original = f.optional("original", { f.object($0).flatMap(Self.source) }),
            case .array(let items)? = f.members["renditions"],
            let attribution = f.optional("attribution", { f.object($0).flatMap(Self.attribution) })
        else { return nil }
        var renditions: [ImageRendition] = []
        renditions.reserveCapacity(items.count)
        for item in items {
            guard let r = Fields(item).flatMap(Self.rendition) else { return nil }
            renditions.append(r)
        }
        return CachedImage(file: file, original: original, renditions: renditions, attribution: attribution)
    }

    static func source(_ f: Fields) -> ImageSource? {
        guard let url = f.string("url"), let width = f.int("width"), let height = f.int("height") else { return nil }
        return ImageSource(url: url, width: width, height: height)
    }

    static func rendition(_ f: Fields) -> ImageRendition? {
        guard let width = f.int("width"), let height = f.int("height"), let url = f.string("url"), let path = f.string("path"),
            let sha256 = f.string("sha256"), let bytes = f.int("bytes"), let format = f.string("format")
        else { return nil }
        return ImageRendition(width: width, height: height, url: url, path: path, sha256: sha256, bytes: bytes, format: format)
    }

    static func attribution(_ f: Fields) -> ImageAttribution? {
        guard let artist = f.optional("artist", f.string), let credit = f.optional("credit", f.string),
            let license = f.optional("license", { f.object($0).flatMap(Self.license) }),
            case .bool(let required)? = f.members["attributionRequired"],
            let descriptionURL = f.optional("descriptionURL", f.string)
        else { return nil }
        return ImageAttribution(artist: artist, credit: credit, license: license, attributionRequired: required, descriptionURL: descriptionURL)
    }

    /// An object's members, read the way a synthesized `Decodable` reads them.
    struct Fields {
        let members: [String: JSONValue]

        init?(_ value: JSONValue) {
            guard case .object(let members) = value else { return nil }
            self.members = members
        }

        func string(_ key: String) -> String? {
            if case .string(let s)? = members[key] { return s }
            return nil
        }

        func int(_ key: String) -> Int? {
            if case .integer(let i)? = members[key] { return Int(exactly: i) }
            return nil
        }

        func strings(_ key: String) -> [String]? {
            guard case .array(let items)? = members[key] else { return nil }
            var result: [String] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard case .string(let s) = item else { return nil }
                result.append(s)
            }
            return result
        }

        func object(_ key: String) -> Fields? { members[key].flatMap(Fields.init) }

        /// `decodeIfPresent`: absent or null is `.some(nil)`; a value `read` refuses is nil.
        func optional<T>(_ key: String, _ read: (String) -> T?) -> T?? {
            guard let value = members[key], value != .null else { return .some(nil) }
            return read(key).map { .some($0) }
        }
    }
}
