import BestiaryPackFormat
import BestiarySync
import BestiaryTestSupport
import BestiaryCrypto
import Foundation

/// A generated animal for client tests (not real data): a name and its media bytes.
struct GeneratedAnimal: Hashable {
    var name: String
    var media: [Data] = []
}

/// Publishes pack trees the way the producer does (PackWriter: full manifest, deltas from the
/// last versions, media by hash), with generated records, into `root/packs`.
final class TestPublisher {
    let directory = TemporaryDirectory("bestiary-sync")
    let key = Curve25519.Signing.PrivateKey()
    let pack: String
    var keepDeltas: Int
    private(set) var versions: [Int: [String: String]] = [:]
    private(set) var latest = 0

    init(pack: String = "demo", keepDeltas: Int = 10) {
        self.pack = pack
        self.keepDeltas = keepDeltas
    }

    var root: String { directory.appending("packs") }
    var publicKey: PackPublicKey { PackPublicKey(key.publicKey) }

    static func record(_ id: String, _ animal: GeneratedAnimal) -> PackRecord {
        let refs = animal.media.map { PackMediaRef(sha256: PackDigest.sha256($0), bytes: $0.count, ext: "ogg") }
        return PackRecord(
            id: id, media: refs,
            payload: ["id": .string(id), "name": ["en": .string(animal.name)], "generated": true, "sounds": .array(refs.map { .string($0.sha256) })])
    }

    /// Publishes the next version with these animals; returns its number.
    @discardableResult
    func publish(
        _ animals: [String: GeneratedAnimal], expires: PackTime = PackTime(seconds: 4_102_444_800), signed: Bool = true,
        created: PackTime = PackTime(seconds: 1_767_225_600)
    ) throws -> Int {
        let records = animals.map { Self.record($0.key, $0.value) }
        latest += 1
        let manifest = PackManifest(pack: pack, version: latest, created: created, records: records)
        let bases = (max(1, latest - keepDeltas)..<latest).compactMap { v in versions[v].map { PackWriter.BaseState(version: v, revisions: $0) } }
        let (files, _) = try PackWriter(manifest: manifest, bases: bases, expires: expires, signingKeys: signed ? [key] : []).write()
        try? FileManager.default.removeItem(atPath: root)
        for file in files { try directory.write(file.data!, to: "packs/" + file.path) }
        for data in animals.values.flatMap(\.media) {
            try directory.write(data, to: "packs/" + PackFormat.mediaPath(sha256: PackDigest.sha256(data), ext: "ogg"))
        }
        versions[latest] = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0.rev) })
        return latest
    }

    /// Rewrites `latest.json` (and its signature, with `key`) after `change` edits its JSON.
    func rewritePointer(signWith key: Curve25519.Signing.PrivateKey? = nil, _ change: (inout [String: JSONValue]) -> Void) throws {
        var json = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: root + "/latest.json"))).objectValue!
        change(&json)
        let data = JSONValue.object(json).canonicalData
        try directory.write(data, to: "packs/latest.json")
        try directory.write(try PackSignature.sign(data, with: [key ?? self.key]), to: "packs/latest.json.sig")
    }

    /// Rewrites the delta from `from` to the latest version after `change` edits its JSON, signs
    /// it, and pins its new bytes in the (re-signed) pointer: a delta its publisher made so.
    func rewriteDelta(from: Int, _ change: (inout [String: JSONValue]) -> Void) throws {
        let path = "d/\(from)-\(latest).json"
        var json = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: root + "/" + path))).objectValue!
        change(&json)
        let data = JSONValue.object(json).canonicalData
        try directory.write(data, to: "packs/" + path)
        try directory.write(try PackSignature.sign(data, with: [key]), to: "packs/" + path + ".sig")
        try rewritePointer { pointer in
            pointer["deltas"] = .array((pointer["deltas"]?.arrayValue ?? []).map { ref in
                guard ref["path"]?.stringValue == path else { return ref }
                var o = ref.objectValue!
                o["sha256"] = .string(PackDigest.sha256(data))
                o["bytes"] = .integer(Int64(data.count))
                return .object(o)
            })
        }
    }

    /// A copy of the current tree (to serve an old version later).
    func snapshot() throws -> TemporaryDirectory {
        let copy = TemporaryDirectory("bestiary-old")
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: root, toPath: copy.path)
        return copy
    }
}

/// Generated media bytes: distinct per seed, `size` long.
func generatedMedia(_ seed: Int, size: Int = 3000) -> Data {
    var out = Data("OggS generated test sound \(seed) ".utf8)
    var x = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
    while out.count < size {
        x = x &* 1_664_525 &+ 1_013_904_223
        out.append(UInt8(truncatingIfNeeded: x >> 24))
    }
    return out.prefix(size)
}

/// Everything a store holds, comparable: trust state, records with payloads, media bytes' hashes.
struct StoreSnapshot: Equatable, CustomStringConvertible {
    var state: PackStoreState
    var records: [StoredRecord]
    var media: [String: String]

    init(_ store: PackStore) throws {
        state = try store.state()
        records = try store.records()
        var media: [String: String] = [:]
        for sha in try store.mediaIndex().keys { media[sha] = PackDigest.sha256(try store.mediaData(sha256: sha)!) }
        self.media = media
    }

    var description: String { "version \(state.version), \(records.count) records, \(media.count) media" }
}

extension SyncClient.Configuration {
    static func testing(keys: [PackPublicKey], now: Date = Date(timeIntervalSince1970: 1_767_225_600 + 86_400)) -> Self {
        Self(trustedKeys: keys, downloadRetries: 2, now: { now })
    }
}
