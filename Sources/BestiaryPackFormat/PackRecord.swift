import BestiaryCrypto
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
/// the record without `rev` (unknown members included): equal revs mean equal records, and two
/// records are `==` when their ids, revs and media are.
public struct PackRecord: Hashable, Sendable {
    public let id: String
    public let rev: String
    /// Sorted by hash, no duplicates.
    public let media: [PackMediaRef]
    private let storage: Storage

    /// A record holds its members as a tree (as built or read), or only as its published bytes
    /// (``compacted()``: a producer of 10,000 records keeps tens of MB less).
    private enum Storage: Sendable {
        /// Every member except `rev`.
        case tree([String: JSONValue])
        /// The canonical JSON of the whole record, `rev` included.
        case bytes(Data)
    }

    /// A new record; computes `rev`.
    public init(id: String, media: [PackMediaRef], payload: JSONValue) {
        let unique = Self.listed(media)
        self.id = id
        self.media = unique
        let members: [String: JSONValue] = ["id": .string(id), "media": .array(unique.map(\.json)), "payload": payload]
        self.storage = .tree(members)
        self.rev = Self.computeRev(members)
    }

    /// A new record holding only its published bytes: the same as
    /// `PackRecord(id:media:payload:).compacted()`, with the members encoded once instead of
    /// twice. `rev` sorts after `id`, `media` and `payload`, so the published bytes are the
    /// encoded members with `,"rev":"…"` put before their closing brace.
    public static func compact(id: String, media: [PackMediaRef], payload: JSONValue) -> PackRecord {
        let unique = Self.listed(media)
        var bytes = CanonicalJSON.encode(.object(["id": .string(id), "media": .array(unique.map(\.json)), "payload": payload]))
        let rev = PackDigest.hex(SHA256.hash(data: bytes))
        bytes.removeLast()
        bytes.append(contentsOf: #","rev":""#.utf8)
        bytes.append(contentsOf: rev.utf8)
        bytes.append(contentsOf: #""}"#.utf8)
        return PackRecord(id: id, rev: rev, media: unique, storage: .bytes(bytes))
    }

    /// Every member except `rev`, as read or built (unknown members of a newer producer too).
    public var members: [String: JSONValue] {
        switch storage {
        case .tree(let members): return members
        case .bytes(let data):
            // Bytes this type encoded itself from a tree: they parse.
            var members = (try? JSONParser.parse(data))?.objectValue ?? [:]
            members["rev"] = nil
            return members
        }
    }

    public var payload: JSONValue { members["payload"] ?? .object([:]) }

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

    /// The canonical JSON of ``json``: what manifests and deltas hold for this record.
    public var encoded: Data {
        switch storage {
        case .tree: return CanonicalJSON.encode(json)
        case .bytes(let data): return data
        }
    }

    /// `media` as a record lists it: sorted by hash, no duplicates.
    /// Sorted, each once. A record lists a few: sorted and its neighbours compared, without a
    /// `Set` (one per record: 10,000 on every build).
    private static func listed(_ media: [PackMediaRef]) -> [PackMediaRef] {
        var unique: [PackMediaRef] = []
        unique.reserveCapacity(media.count)
        for ref in media.sorted() where !unique.contains(ref) { unique.append(ref) }
        return unique
    }

    /// Integers beyond this are not the same number to every reader (a JavaScript `Number`, a
    /// JSON reader into doubles): 2^53 − 1.
    public static let largestSafeInteger: Int64 = 9_007_199_254_740_991

    /// Why `value` holds a number that readers would not all write back as it is written (JCS,
    /// RFC 8785, writes numbers as JavaScript does): an integer beyond ±``largestSafeInteger``, or
    /// a number with an exponent, a fraction ending in 0 (`1.0`), more than 15 significant digits
    /// or below 10^-6; or nil. A plain fraction such as `47.37`, which a newer producer's unknown
    /// member may hold, is every reader's alike and is let through.
    static func numberProblem(in value: JSONValue) -> String? {
        switch value {
        case .number(let literal) where !isCanonicalFraction(literal):
            return "the number \(literal) is not written as every reader writes it back (JCS writes 1.0 as 1, 1e2 as 100, and JavaScript holds only 15 significant digits), so readers would hash it to different revs (docs/packs.md, section 2)"
        case .integer(let n) where n > largestSafeInteger || n < -largestSafeInteger:
            return "the integer \(n) is beyond ±(2^53 − 1), which not every reader holds exactly (JavaScript reads it as another number)"
        case .array(let items):
            for item in items { if let problem = numberProblem(in: item) { return problem } }
        case .object(let members):
            for key in members.keys.sorted() { if let problem = numberProblem(in: members[key]!) { return problem } }
        default: break
        }
        return nil
    }

    /// `-?D.F` as JavaScript writes a number: no exponent, no leading zero but a lone one, a
    /// fraction not ending in 0, at most 15 significant digits (so that every double reader holds
    /// it and writes it back so), and not below 10^-6 (written with an exponent there).
    static func isCanonicalFraction(_ literal: String) -> Bool {
        var text = Substring(literal)
        if text.first == "-" { text = text.dropFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let whole = parts.first, let fraction = parts.last, !whole.isEmpty, !fraction.isEmpty,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.last != "0",
            whole == "0" || whole.first != "0"
        else { return false }
        let digits = whole == "0" ? fraction.drop { $0 == "0" } : whole + fraction
        if whole == "0", fraction.prefix(while: { $0 == "0" }).count >= 6 { return false }
        return digits.count <= 15
    }

    /// A record from its published bytes (an earlier manifest's, for a record whose inputs did not
    /// change) and the media it lists; nil unless the bytes are a record of `id` ending with its
    /// `,"rev":"…"}`, and the rev is the digest of the rest. `checkingRev` false takes the rev as
    /// it is: for bytes this process made and kept in its own memory (the preview's last build).
    public static func published(id: String, media: [PackMediaRef], bytes: Data, checkingRev: Bool = true) -> PackRecord? {
        let head = Array(#"{"id":""#.utf8) + Array(id.utf8) + [UInt8(ascii: "\"")]
        let tail = Array(#","rev":""#.utf8)
        let revLength = 64, end = 2  // `"}`
        guard bytes.count > head.count + tail.count + revLength + end, bytes.starts(with: head),
            bytes.suffix(end).elementsEqual(Array(#""}"#.utf8))
        else { return nil }
        let revEnd = bytes.endIndex - end
        let revStart = revEnd - revLength
        guard bytes[(revStart - tail.count)..<revStart].elementsEqual(tail) else { return nil }
        let rev = String(decoding: bytes[revStart..<revEnd], as: UTF8.self)
        // The rev is the SHA-256 of the record without it: the bytes before `,"rev":"…"` closed by
        // `}` (``compact(id:media:payload:)``). Checked, so that no damaged or misplaced bytes are
        // published under a rev they do not have.
        if checkingRev {
            var hasher = SHA256()
            hasher.update(data: bytes[bytes.startIndex..<(revStart - tail.count)])
            hasher.update(data: Data("}".utf8))
            guard PackDigest.hex(hasher.finalize()) == rev else { return nil }
        }
        return PackRecord(id: id, rev: rev, media: listed(media), storage: .bytes(bytes))
    }

    /// The same record holding only its published bytes; ``members`` and ``payload`` are parsed
    /// from them when asked for.
    public func compacted() -> PackRecord {
        guard case .tree = storage else { return self }
        return PackRecord(id: id, rev: rev, media: media, storage: .bytes(encoded))
    }

    /// The same record whose published bytes are `bytes` (equal to ``encoded``; a slice of the
    /// manifest that holds them, for example).
    public func holding(_ bytes: Data) -> PackRecord {
        PackRecord(id: id, rev: rev, media: media, storage: .bytes(bytes))
    }

    private init(id: String, rev: String, media: [PackMediaRef], storage: Storage) {
        self.id = id
        self.rev = rev
        self.media = media
        self.storage = storage
    }

    public static func == (a: PackRecord, b: PackRecord) -> Bool {
        a.id == b.id && a.rev == b.rev && a.media == b.media
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rev)
    }

    /// The media objects of a payload that name a file of the pack (not a `url`): its `sound` and
    /// `image`, and each text's `image`, with where they are.
    static func packFiles(named payload: [String: JSONValue]) -> [(place: String, file: [String: JSONValue])] {
        var found: [(String, [String: JSONValue])] = []
        func take(_ value: JSONValue?, _ place: String) {
            guard let object = value?.objectValue, object["url"] == nil || object["sha256"] != nil else { return }
            found.append((place, object))
        }
        take(payload["sound"], "sound")
        take(payload["image"], "image")
        for (language, text) in (payload["texts"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            take(text.objectValue?["image"], "texts.\(language).image")
        }
        return found
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
        let payload = try r.value("payload")
        guard let object = payload.objectValue else { throw r.fail("\(ctx): 'payload' must be an object") }
        // What section 8 says an app can rely on (a payload signed with another id, or naming a
        // picture the record's media lack, was synced and verified as fine; an app developer's).
        guard object["id"]?.stringValue == id else { throw r.fail("\(ctx): the payload's 'id' is not the record's '\(id)'") }
        for (place, file) in Self.packFiles(named: object) {
            let sha = file["sha256"]?.stringValue, bytes = file["bytes"]?.integerValue, ext = file["ext"]?.stringValue
            guard refs.contains(where: { $0.sha256 == sha && Int64($0.bytes) == bytes && $0.ext == ext }) else {
                throw r.fail("\(ctx): the payload's \(place) names a file (sha256, bytes, ext) that is not in the record's media")
            }
        }
        var m = r.members
        m["rev"] = nil
        // Numbers as format 1 writes them, or readers part: JCS writes `1.0` as `1` and
        // JavaScript reads 2^53 + 1 as 2^53, so either hashes to another rev there than here (an
        // app developer's check, made from section 2, failed on a tree this one passed).
        if let problem = Self.numberProblem(in: .object(m)) { throw r.fail("\(ctx): \(problem)") }
        storage = .tree(m)
        let computed = Self.computeRev(m)
        guard computed == rev else {
            throw r.fail("\(ctx): rev \(rev) is not the SHA-256 of the record (\(computed)); the record was altered")
        }
    }
}
