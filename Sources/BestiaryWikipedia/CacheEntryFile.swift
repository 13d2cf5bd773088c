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
        data.append(0x0A)
        return data
    }

    /// The entry, or ``Damage`` saying why the file cannot be trusted.
    public static func decode(_ data: Data) throws -> WikipediaEntry {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
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
        let actual = Hashing.sha256Hex(try canonicalJSON(envelope.entry))
        guard actual == envelope.checksum else {
            throw Damage(reason: "its checksum does not match its content (edited by hand or damaged)")
        }
        return envelope.entry
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
