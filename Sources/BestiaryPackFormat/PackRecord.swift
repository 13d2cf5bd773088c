import Crypto
import Foundation

/// A media file a record needs: content-addressed, so its name is its hash and it never changes.
public struct PackMediaRef: Hashable, Sendable, Comparable {
    public var sha256: String
    public var bytes: Int
    /// File extension without the dot (`ogg`, `png`); the file is `media/SHA256.EXT`.
    public var ext: String

    public init(sha256: String, bytes: Int, ext: String) {
        self.sha256 = sha256
        self.bytes = bytes
        self.ext = ext
    }

    public var path: String { PackFormat.mediaPath(sha256: sha256, ext: ext) }

    public static func < (a: PackMediaRef, b: PackMediaRef) -> Bool { (a.sha256, a.ext) < (b.sha256, b.ext) }

    public var json: JSONValue { ["sha256": .string(sha256), "bytes": .integer(Int64(bytes)), "ext": .string(ext)] }

    init(json: JSONValue, file: String?, context: String) throws(PackFormatError) {
        let r = try FieldReader(json, file: file, context: context)
        sha256 = try r.sha256("sha256")
        bytes = try r.integer("bytes")
        ext = try r.string("ext")
        guard PackFormat.isValidExtension(ext) else { throw r.fail("\(context): 'ext' '\(ext)' must be 1–10 of a-z and 0-9") }
    }
}

/// One record of a pack: `{id, media, payload, rev}`.
///
/// `payload` is what apps show (names, texts, media attributions); its shape is the producer's
/// business and clients store it as is. `media` lists every file the record needs, so a client
/// can fetch them without understanding the payload. `rev` is the SHA-256 of the canonical JSON of
/// the record without `rev` (unknown members included): equal revs mean equal records.
public struct PackRecord: Hashable, Sendable {
    public var id: String
    public var rev: String
    /// Sorted by hash, no duplicates.
    public var media: [PackMediaRef]
    public var payload: JSONValue
    /// Every member except `rev`, as read or built (unknown members of a newer producer too).
    public private(set) var members: [String: JSONValue]

    /// A new record; computes `rev`.
    public init(id: String, media: [PackMediaRef], payload: JSONValue) {
        let unique = Array(Set(media)).sorted()
        self.id = id
        self.media = unique
        self.payload = payload
        self.members = ["id": .string(id), "media": .array(unique.map(\.json)), "payload": payload]
        self.rev = Self.computeRev(members)
    }

    /// SHA-256 (hex) of the canonical JSON of `members` (the record without `rev`).
    public static func computeRev(_ members: [String: JSONValue]) -> String {
        PackDigest.hex(SHA256.hash(data: CanonicalJSON.encode(.object(members))))
    }

    /// The record as it is published.
    public var json: JSONValue {
        var o = members
        o["rev"] = .string(rev)
        return .object(o)
    }

    /// Reads a record and checks that `rev` is the hash of the rest: a record that does not
    /// hash to its rev is refused, so a store can trust revs to compare records.
    public init(json: JSONValue, file: String?, context: String) throws(PackFormatError) {
        let r = try FieldReader(json, file: file, context: context)
        id = try r.id("id")
        let ctx = "\(context) '\(id)'"
        rev = try r.sha256("rev")
        var refs: [PackMediaRef] = []
        for (n, item) in try r.array("media").enumerated() {
            refs.append(try PackMediaRef(json: item, file: file, context: "\(ctx) media[\(n)]"))
        }
        for (a, b) in zip(refs, refs.dropFirst()) where !(a < b) {
            throw r.fail("\(ctx): media must be sorted by sha256 without repeats")
        }
        media = refs
        payload = try r.value("payload")
        guard payload.objectValue != nil else { throw r.fail("\(ctx): 'payload' must be an object") }
        var m = r.members
        m["rev"] = nil
        members = m
        let computed = Self.computeRev(m)
        guard computed == rev else {
            throw r.fail("\(ctx): rev \(rev) is not the SHA-256 of the record (\(computed)); the record was altered")
        }
    }
}
