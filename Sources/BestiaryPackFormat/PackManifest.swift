import Foundation

/// `v/N.json`: the full, immutable state of version N (authoritative; deltas are only a
/// shortcut to it). Records are sorted by id.
public struct PackManifest: Hashable, Sendable {
    public var pack: String
    public var version: Int
    /// When this version was first built (from `content/packs.lock`).
    public var created: PackTime
    public var records: [PackRecord]

    public init(pack: String, version: Int, created: PackTime, records: [PackRecord]) {
        self.pack = pack
        self.version = version
        self.created = created
        self.records = records.sorted { CanonicalJSON.codePointOrder($0.id, $1.id) }
    }

    /// ``PackDigest/State`` of the records.
    public var digest: String { PackDigest.state(ordered: records.lazy.map { (id: $0.id, rev: $0.rev) }) }

    /// Every media file the version needs, once each, sorted by hash (sorted whole, then the
    /// equal neighbours dropped: no set of 25,000 references is hashed).
    public var media: [PackMediaRef] {
        var keyed: [(key: UInt64, ref: PackMediaRef)] = []
        keyed.reserveCapacity(records.reduce(0) { $0 + $1.media.count })
        for record in records {
            for ref in record.media { keyed.append((Self.hexPrefix(ref.sha256) ?? 0, ref)) }
        }
        Self.sortByHash(&keyed)
        var unique: [PackMediaRef] = []
        unique.reserveCapacity(keyed.count)
        for (_, ref) in keyed where unique.last != ref { unique.append(ref) }
        return unique
    }

    /// Sorts references keyed by ``hexPrefix(_:)`` (0 where it is nil) by hash, then extension,
    /// then size. The hashes' first 16 hexadecimal digits, read as a number, order them as their
    /// text does (lower-case digits: '0'–'9' before 'a'–'f'), so the 25,000 references of the
    /// bench corpus are compared by an integer first, not by two strings each time (1.4 % of a
    /// one-record rebuild's CPU, on 2026-12-05); they are made in the same pass that lists the
    /// references, not in a copy of the list (2026-12-06). A hash without such a prefix sorts
    /// all of them by their text.
    static func sortByHash(_ keyed: inout [(key: UInt64, ref: PackMediaRef)]) {
        if keyed.contains(where: { $0.key == 0 && hexPrefix($0.ref.sha256) == nil }) {
            keyed.sort { ($0.ref.sha256, $0.ref.ext, $0.ref.bytes) < ($1.ref.sha256, $1.ref.ext, $1.ref.bytes) }
            return
        }
        keyed.sort { a, b in
            a.key != b.key ? a.key < b.key : (a.ref.sha256, a.ref.ext, a.ref.bytes) < (b.ref.sha256, b.ref.ext, b.ref.bytes)
        }
    }

    /// The value of the first 16 characters of `hash` when they are lower-case hexadecimal digits
    /// followed by an ASCII character (no combining mark joins the 16th to the next, and the text
    /// order is decided by the 16 digits when they differ); nil otherwise.
    static func hexPrefix(_ hash: String) -> UInt64? {
        // Over the string's bytes in place (through its `utf8` view, one index at a time, the
        // 50,000 calls of a rebuild of the bench corpus took 17 ms).
        var hash = hash
        return hash.withUTF8 { bytes -> UInt64? in
            guard bytes.count > 16, bytes[16] < 0x80 else { return nil }
            var value: UInt64 = 0
            for byte in bytes[..<16] {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                default: return nil
                }
            }
            return value
        }
    }

    /// Every member but `records`.
    private var header: [String: JSONValue] { header(media: media) }

    /// Every member but `records`, `media` being ``media``.
    private func header(media: [PackMediaRef]) -> [String: JSONValue] {
        [
            "format": .integer(PackFormat.version),
            "type": "manifest",
            "pack": .string(pack),
            "version": .integer(Int64(version)),
            "created": .string(created.description),
            "count": .integer(Int64(records.count)),
            "digest": .string(digest),
            "media": ["count": .integer(Int64(media.count)), "bytes": .integer(Int64(media.reduce(0) { $0 + $1.bytes }))],
        ]
    }

    public var json: JSONValue {
        var o = header
        o["records"] = .array(records.map(\.json))
        return .object(o)
    }

    /// The canonical JSON of ``json``, with each record's ``PackRecord/encoded`` bytes put in as
    /// they are (no tree of the whole manifest is made).
    public var encoded: Data {
        CanonicalJSON.encode(object: header, splicing: "records", elements: records.map(\.encoded))
    }

    /// ``encoded``, made once: each record's bytes are moved into the manifest as it is written
    /// and the record then holds a slice of the manifest, so a producer holds the records' bytes
    /// once, not twice (10,000 records: about 40 MB less at the packs stage's peak). Records
    /// compare and hash as before.
    public mutating func encodeSharingRecords() -> Data {
        let header = self.header
        var elements = records.map(\.encoded)
        // Only `elements` references the bytes now, so each buffer is freed once copied.
        for i in records.indices { records[i] = records[i].holding(Data()) }
        let (data, ranges) = CanonicalJSON.encode(object: header, splicing: "records", consuming: &elements)
        for i in records.indices { records[i] = records[i].holding(data[ranges[i]]) }
        return data
    }

    /// ``encoded`` as parts to write one after the other (``CanonicalJSON/encodePieces(object:splicing:elements:within:)``):
    /// the records that lie in `source` (the last manifest) one after the other are slices of it.
    /// The records keep their bytes. Returns the parts, where each record is in the whole, and
    /// the whole's size; nil when less than half the records' bytes lie in `source`.
    public func encodePieces(within source: Data) -> (pieces: [Data], ranges: [Range<Int>], count: Int)? {
        encodePieces(within: source, media: media)
    }

    /// The same, `media` being ``media`` as the caller listed it already (a one-record rebuild
    /// of the bench corpus listed its 25,000 references twice: about 14 ms of CPU).
    public func encodePieces(within source: Data, media: [PackMediaRef]) -> (pieces: [Data], ranges: [Range<Int>], count: Int)? {
        CanonicalJSON.encodePieces(object: header(media: media), splicing: "records", elements: records.map(\.encoded), within: source)
    }

    /// Reads and checks a manifest: header, every record's rev, order, count and digest.
    public static func decode(_ data: Data, file: String?) throws(PackFormatError) -> PackManifest {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw PackFormatError(file: file, "not valid JSON: \(error)")
        }
        return try decode(value, file: file)
    }

    /// The same, from the file's JSON already parsed (`pack verify` reads members decoding
    /// leaves alone from it too).
    public static func decode(_ value: JSONValue, file: String?) throws(PackFormatError) -> PackManifest {
        let r = try FieldReader(value, file: file, context: "the manifest")
        try r.checkHeader(type: "manifest")
        let pack = try r.id("pack")
        let version = try r.integer("version", min: 1)
        let created = try r.time("created")
        var records: [PackRecord] = []
        var state = PackDigest.State()
        for (n, item) in try r.array("records").enumerated() {
            let record = try PackRecord(json: item, file: file, context: "records[\(n)]")
            if let last = records.last, !CanonicalJSON.codePointOrder(last.id, record.id) {
                throw r.fail("records must be sorted by id without repeats ('\(last.id)' then '\(record.id)')")
            }
            state.add(id: record.id, rev: record.rev)
            records.append(record)
        }
        let count = try r.integer("count")
        guard count == records.count else { throw r.fail("'count' says \(count) records but there are \(records.count)") }
        let digest = try r.sha256("digest")
        guard digest == state.finalize() else { throw r.fail("'digest' does not match the records") }
        return PackManifest(pack: pack, version: version, created: created, records: records)
    }
}

/// `d/FROM-N.json`: what turns version FROM into version N. Only the latest state of each
/// changed record (`upserts`) and the ids that are gone (`tombstones`), as CouchDB's changes
/// feed coalesces. `count` and `digest` describe version N, so a client proves it arrived.
public struct PackDelta: Hashable, Sendable {
    public var pack: String
    public var from: Int
    public var version: Int
    public var created: PackTime
    /// Sorted by id.
    public var upserts: [PackRecord]
    /// Sorted, disjoint from the upserts.
    public var tombstones: [String]
    /// Records in version N.
    public var count: Int
    /// State digest of version N.
    public var digest: String

    public init(
        pack: String, from: Int, version: Int, created: PackTime, upserts: [PackRecord], tombstones: [String], count: Int,
        digest: String
    ) {
        self.pack = pack
        self.from = from
        self.version = version
        self.created = created
        self.upserts = upserts.sorted { CanonicalJSON.codePointOrder($0.id, $1.id) }
        self.tombstones = tombstones.sorted(by: CanonicalJSON.codePointOrder)
        self.count = count
        self.digest = digest
    }

    /// The delta from the state `base` (id → rev) to `target`.
    public init(pack: String, from: Int, base: [String: String], target: PackManifest) {
        self.init(pack: pack, from: from, base: base, target: target, ids: Set(target.records.map(\.id)), digest: target.digest)
    }

    /// The same, with `target`'s record ids and ``PackManifest/digest`` given (a writer making
    /// a delta from each of several bases makes them once).
    public init(pack: String, from: Int, base: [String: String], target: PackManifest, ids: Set<String>, digest: String) {
        self.init(
            pack: pack, from: from, version: target.version, created: target.created,
            upserts: target.records.filter { base[$0.id] != $0.rev },
            tombstones: base.keys.filter { !ids.contains($0) }, count: target.records.count, digest: digest)
    }

    /// The same, from only the records that changed since `from` (`changed`: id → its rev at
    /// `from`, nil when it was not there; every other record is the same in both), `index` giving
    /// each of `target`'s records' position by id.
    public init(pack: String, from: Int, changed: [String: String?], target: PackManifest, index: [String: Int], digest: String) {
        var upserts: [PackRecord] = []
        var tombstones: [String] = []
        for (id, old) in changed {
            if let i = index[id] {
                if target.records[i].rev != old { upserts.append(target.records[i]) }
            } else if old != nil {
                tombstones.append(id)
            }
        }
        self.init(
            pack: pack, from: from, version: target.version, created: target.created, upserts: upserts, tombstones: tombstones,
            count: target.records.count, digest: digest)
    }

    /// Every member but `upserts`.
    private var header: [String: JSONValue] {
        [
            "format": .integer(PackFormat.version),
            "type": "delta",
            "pack": .string(pack),
            "from": .integer(Int64(from)),
            "version": .integer(Int64(version)),
            "created": .string(created.description),
            "count": .integer(Int64(count)),
            "digest": .string(digest),
            "tombstones": .array(tombstones.map { .string($0) }),
        ]
    }

    public var json: JSONValue {
        var o = header
        o["upserts"] = .array(upserts.map(\.json))
        return .object(o)
    }

    /// The canonical JSON of ``json``, the upserts' ``PackRecord/encoded`` bytes put in as they are.
    public var encoded: Data {
        CanonicalJSON.encode(object: header, splicing: "upserts", elements: upserts.map(\.encoded))
    }

    public static func decode(_ data: Data, file: String?) throws(PackFormatError) -> PackDelta {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw PackFormatError(file: file, "not valid JSON: \(error)")
        }
        let r = try FieldReader(value, file: file, context: "the delta")
        try r.checkHeader(type: "delta")
        let pack = try r.id("pack")
        let from = try r.integer("from", min: 1)
        let version = try r.integer("version", min: 1)
        guard from < version else { throw r.fail("'from' \(from) is not below 'version' \(version)") }
        let created = try r.time("created")
        var upserts: [PackRecord] = []
        for (n, item) in try r.array("upserts").enumerated() {
            let record = try PackRecord(json: item, file: file, context: "upserts[\(n)]")
            if let last = upserts.last, !CanonicalJSON.codePointOrder(last.id, record.id) {
                throw r.fail("upserts must be sorted by id without repeats ('\(last.id)' then '\(record.id)')")
            }
            upserts.append(record)
        }
        var tombstones: [String] = []
        let upserted = Set(upserts.map(\.id))
        for (n, item) in try r.array("tombstones").enumerated() {
            guard let id = item.stringValue, PackFormat.isValidID(id) else { throw r.fail("tombstones[\(n)] is not a record id") }
            if let last = tombstones.last, !CanonicalJSON.codePointOrder(last, id) {
                throw r.fail("tombstones must be sorted without repeats")
            }
            guard !upserted.contains(id) else { throw r.fail("'\(id)' is both upserted and deleted") }
            tombstones.append(id)
        }
        let count = try r.integer("count")
        let digest = try r.sha256("digest")
        return PackDelta(
            pack: pack, from: from, version: version, created: created, upserts: upserts, tombstones: tombstones, count: count,
            digest: digest)
    }
}
