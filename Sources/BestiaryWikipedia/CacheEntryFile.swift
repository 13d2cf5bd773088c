import BestiaryStorage
import Foundation

/// The bytes of a cache entry file: `{"checksum": …, "entry": {…}, "format": 1}`.
///
/// The checksum is the SHA-256 of the entry's compact JSON with sorted keys. It catches a file
/// edited by hand, cut short, or mangled by a merge: such an entry is refused (never rendered)
/// and `bestiary fetch` downloads it again.
public enum CacheEntryFile {
    public static let format = 1

    /// Why an entry file is not usable.
    public struct Damage: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    private struct Envelope: Codable {
        var format: Int
        var checksum: String
        var entry: WikipediaEntry
    }

    private static func canonicalJSON(_ entry: WikipediaEntry) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(entry)
    }

    /// Pretty-printed with sorted keys (stable diffs when the cache is committed), ending in a newline.
    public static func encode(_ entry: WikipediaEntry) throws -> Data {
        let checksum = Hashing.sha256Hex(try canonicalJSON(entry))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(Envelope(format: format, checksum: checksum, entry: entry))
        // An empty list or object as `[]`, `{}`: Foundation writes `[` and `]` with an empty line
        // between (an entry whose titles a redirect took away read oddly in a commit's diff).
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("[\n\n") || text.contains("{\n\n") {
            data = Data(text.replacingOccurrences(of: #"([\[{])\n\n *([\]}])"#, with: "$1$2", options: .regularExpression).utf8)
        }
        data.append(0x0A)
        return data
    }

    /// The entry, or ``Damage`` saying why the file cannot be trusted.
    public static func decode(_ data: Data) throws -> WikipediaEntry {
        let envelope: Envelope
        do {
            if let read = CacheEntryReader.envelope(data) {
                envelope = Envelope(format: read.format, checksum: read.checksum, entry: read.entry)
            } else {
                envelope = try JSONDecoder().decode(Envelope.self, from: data)
            }
        } catch DecodingError.keyNotFound(let key, let context) {
            throw Damage(reason: "'\(path(context.codingPath + [key]))' is missing")
        } catch DecodingError.typeMismatch(_, let context) {
            throw Damage(reason: "'\(path(context.codingPath))' has the wrong type")
        } catch DecodingError.valueNotFound(_, let context) {
            throw Damage(reason: "'\(path(context.codingPath))' is null")
        } catch {
            throw Damage(reason: "it is not valid JSON")
        }
        guard envelope.format == format else {
            throw Damage(reason: "it has format \(envelope.format); this Bestiary reads format \(format)")
        }
        // As `encode` wrote it, the entry's bytes without their indentation are the canonical
        // JSON the checksum was made from: hashing them avoids encoding the entry again. Any
        // other layout (a file reformatted by hand) is checked the long way.
        if let compact = compactEntry(data), Hashing.sha256Hex(compact) == envelope.checksum {
            return try safe(envelope.entry)
        }
        let actual = Hashing.sha256Hex(try canonicalJSON(envelope.entry))
        guard actual == envelope.checksum else {
            throw Damage(reason: "its checksum does not match its content (edited by hand or damaged)")
        }
        return try safe(envelope.entry)
    }

    /// The entry as a page may show it: an optional link of another kind left out (as a fetch
    /// leaves it out now: a cache an older version wrote keeps its articles), a required one
    /// (the article's, a picture's) refused as ``unsafeField(_:)`` says.
    static func safe(_ entry: WikipediaEntry) throws -> WikipediaEntry {
        let kept = droppingUnsafeOptionalLinks(entry)
        if let problem = unsafeField(kept) { throw Damage(reason: problem) }
        return kept
    }

    /// What in an entry no fetch writes and a page must not carry, whatever its checksum (which
    /// anyone can compute): a link that is not http(s) (`javascript:` ran in a visitor's browser,
    /// found by a security review), or a picture's path other than `wikipedia/images/SHA256.EXT`
    /// (`../` published a file from outside the site). Nil when there is none.
    /// `entry` without the optional links ``unsafeField(_:)`` would refuse (a Commons licence
    /// address without a scheme, say): a fetch stores the rest rather than nothing, and asks
    /// the same again on every later run (found by a reviewer).
    public static func droppingUnsafeOptionalLinks(_ entry: WikipediaEntry) -> WikipediaEntry {
        var e = entry
        if !isWebAddress(e.license.url) { e.license.url = nil }
        if var image = e.image {
            if let original = image.original, !isWebAddress(original.url) { image.original = nil }
            if var attribution = image.attribution {
                if !isWebAddress(attribution.descriptionURL) { attribution.descriptionURL = nil }
                if let url = attribution.license?.url, !isWebAddress(url) { attribution.license?.url = nil }
                image.attribution = attribution
            }
            e.image = image
        }
        return e
    }

    /// An http(s) address a page may link (or none).
    static func isWebAddress(_ url: String?) -> Bool {
        guard let url else { return true }
        let lower = url.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !url.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
    }

    public static func unsafeField(_ entry: WikipediaEntry) -> String? {
        func web(_ url: String?) -> Bool { isWebAddress(url) }
        var links: [(String, String?)] = [("url", entry.url), ("license.url", entry.license.url)]
        if let image = entry.image {
            links.append(("image.original.url", image.original?.url))
            links.append(("image.attribution.descriptionURL", image.attribution?.descriptionURL))
            links.append(("image.attribution.license.url", image.attribution?.license?.url))
            for (i, r) in image.renditions.enumerated() {
                links.append(("image.renditions[\(i)].url", r.url))
                // One file in the cache's picture folder (`wikipedia/images/SHA256.EXT`): no `..`,
                // no folder, no hidden file.
                let folder = WikipediaCache.imagesFolder + "/"
                let name = r.path.hasPrefix(folder) ? r.path.dropFirst(folder.count) : ""
                guard !name.isEmpty, name.first != ".", name.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 46 || $0 == 95 || $0 == 45 }) else {
                    return "image.renditions[\(i)].path '\(r.path)' is not a picture of the cache (wikipedia/images/SHA256.EXT)"
                }
            }
        }
        if let (field, url) = links.first(where: { !web($0.1) }) {
            return "\(field) '\(url ?? "")' is not an http(s) address"
        }
        return nil
    }

    /// The bytes of the envelope's `entry` value with the whitespace between tokens left out
    /// (strings kept as they are), or nil when the file is not a JSON object holding one.
    /// For a file `encode` wrote, these are the entry's compact sorted-keys JSON.
    static func compactEntry(_ data: Data) -> [UInt8]? {
        data.withUnsafeBytes { raw -> [UInt8]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = CompactingScanner(bytes: bytes)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            while true {
                scanner.skipSpace()
                guard let key = scanner.string() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                let isEntry = key.elementsEqual(#""entry""#.utf8)
                var copy: [UInt8]? = isEntry ? [] : nil
                guard scanner.value(into: &copy) else { return nil }
                if isEntry { return copy }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ",")) else { return nil }
            }
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// Walks JSON text token by token, copying a value's bytes without the whitespace between its
/// tokens. Only as strict as ``CacheEntryFile/compactEntry(_:)`` needs: the bytes it returns are
/// compared with a checksum, and the decoder has already judged the file.
private struct CompactingScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    mutating func skipSpace() {
        while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    mutating func take(_ b: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == b else { return false }
        at += 1
        return true
    }

    /// A string token, quotes and escapes included, as written.
    mutating func string() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at
        at += 1
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"): at += 2
            case UInt8(ascii: "\""):
                at += 1
                return bytes[start..<at]
            default: at += 1
            }
        }
        return nil
    }

    /// One value (object, array, string or scalar), appended to `copy` without whitespace
    /// when `copy` is not nil.
    mutating func value(into copy: inout [UInt8]?) -> Bool {
        skipSpace()
        var depth = 0
        repeat {
            guard at < bytes.count else { return false }
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                guard let token = string() else { return false }
                copy?.append(contentsOf: token)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return true }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 { return true }
            case _ where Self.isSpace(b):
                if depth == 0 { return true }
                at += 1
                continue
            default:
                break
            }
            copy?.append(b)
            at += 1
        } while depth > 0 || (at < bytes.count && !Self.isSpace(bytes[at]) && bytes[at] != UInt8(ascii: ",") && bytes[at] != UInt8(ascii: "}"))
        return true
    }
}
