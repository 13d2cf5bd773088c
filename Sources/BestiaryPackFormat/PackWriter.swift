import BestiaryCrypto
import Foundation

/// A file of a published pack tree, relative to the pack folder (`packs/`).
public struct PackFile: Hashable, Sendable {
    public enum Contents: Hashable, Sendable {
        case bytes(Data)
        /// Bytes in parts, written one after the other (a rebuild's manifest: the runs of records
        /// it keeps from the last one, and what lies between them).
        case pieces([Data])
        /// The bytes of an existing file (media): link or copy it, never modify it in place.
        case link(from: String)
    }

    public var path: String
    public var contents: Contents {
        didSet { sha256 = nil }
    }
    /// The lower-case hex SHA-256 of `.bytes`, when the writer hashed them for a reference
    /// (manifests, deltas): whoever stores the file takes it instead of hashing the bytes again.
    /// Forgotten when `contents` changes; not part of equality (it is a function of the bytes).
    public private(set) var sha256: String?

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }

    public init(path: String, data: Data, sha256: String? = nil) {
        self.init(path: path, contents: .bytes(data))
        self.sha256 = sha256
    }

    public init(path: String, contents: Contents, sha256: String?) {
        self.init(path: path, contents: contents)
        self.sha256 = sha256
    }

    public static func == (a: PackFile, b: PackFile) -> Bool { a.path == b.path && a.contents == b.contents }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(contents)
    }

    /// The bytes, for files made in memory (parts joined).
    public var data: Data? {
        switch contents {
        case .bytes(let d): d
        case .pieces(let parts): PackFile.joined(parts)
        case .link: nil
        }
    }

    /// `parts` in one buffer.
    public static func joined(_ parts: [Data]) -> Data {
        var whole = Data(capacity: parts.reduce(0) { $0 + $1.count })
        for part in parts { whole.append(part) }
        return whole
    }
}

/// Turns one version's manifest and the states of earlier versions into the metadata files of
/// a pack tree: `v/N.json`, `d/FROM-N.json` for each earlier state, `latest.json`, and a
/// `.sig` beside each when keys are given. Media files are the caller's (they are copied, not
/// made). Everything but the signatures is a pure function of the inputs.
public struct PackWriter {
    /// An earlier version a delta starts from: its number and its records' revs, all of them or
    /// only those that changed since.
    public struct BaseState: Hashable, Sendable {
        public var version: Int
        /// Every record's rev at `version` (empty when ``changed`` is given).
        public var revisions: [String: String]
        /// Only the records that changed after `version`, each with its rev at `version` (nil:
        /// it was not there); every other record is as in the manifest the delta leads to. What
        /// the pack history gives (``PackDelta/init(pack:from:changed:target:index:digest:)``):
        /// a delta made from the few changes, not from 10,000 records compared.
        public var changed: [String: String?]?

        public init(version: Int, revisions: [String: String]) {
            self.version = version
            self.revisions = revisions
        }

        public init(version: Int, changed: [String: String?]) {
            self.version = version
            self.revisions = [:]
            self.changed = changed
        }
    }

    public var manifest: PackManifest
    /// Versions below `manifest.version` to make deltas from.
    public var bases: [BaseState]
    public var expires: PackTime
    public var signingKeys: [Curve25519.Signing.PrivateKey]

    /// ``PackManifest/encoded`` when the caller made it already (``PackManifest/encodeSharingRecords()``).
    public var encodedManifest: Data?
    /// The same in parts (``PackManifest/encodePieces(within:)``): the manifest's file is then
    /// written from them, and hashed part by part.
    public var manifestPieces: [Data]?

    public init(
        manifest: PackManifest, encodedManifest: Data? = nil, bases: [BaseState], expires: PackTime,
        signingKeys: [Curve25519.Signing.PrivateKey]
    ) {
        self.manifest = manifest
        self.encodedManifest = encodedManifest
        self.bases = bases
        self.expires = expires
        self.signingKeys = signingKeys
    }

    /// The files, sorted by path, and the pointer they end in.
    public func write() throws -> (files: [PackFile], pointer: PackPointer) {
        var files: [PackFile] = []
        func add(_ path: String, _ data: Data) throws -> PackFileRef {
            let digest = PackDigest.sha256(data)
            files.append(PackFile(path: path, data: data, sha256: digest))
            if !signingKeys.isEmpty {
                files.append(PackFile(path: path + PackFormat.signatureSuffix, data: try PackSignature.sign(data, with: signingKeys)))
            }
            return PackFileRef(path: path, sha256: digest, bytes: data.count)
        }
        let manifestPath = PackFormat.manifestPath(version: manifest.version)
        let manifestRef: PackFileRef
        if let parts = manifestPieces {
            let digest = PackDigest.hex(SHA256.hash(parts: parts))
            files.append(PackFile(path: manifestPath, contents: .pieces(parts), sha256: digest))
            if !signingKeys.isEmpty {
                files.append(PackFile(path: manifestPath + PackFormat.signatureSuffix, data: try PackSignature.sign(PackFile.joined(parts), with: signingKeys)))
            }
            manifestRef = PackFileRef(path: manifestPath, sha256: digest, bytes: parts.reduce(0) { $0 + $1.count })
        } else {
            manifestRef = try add(manifestPath, encodedManifest ?? manifest.encoded)
        }
        var deltas: [PackDeltaRef] = []
        let bases = bases.sorted(by: { $0.version < $1.version }).filter { $0.version < manifest.version && $0.version >= 1 }
        let ids = bases.contains { $0.changed == nil } ? Set(manifest.records.map(\.id)) : []
        var index: [String: Int] = [:]
        if bases.contains(where: { $0.changed != nil }) {
            index.reserveCapacity(manifest.records.count)
            for (i, record) in manifest.records.enumerated() { index[record.id] = i }
        }
        let digest = bases.isEmpty ? "" : manifest.digest
        for base in bases {
            let delta = base.changed.map { changed in
                PackDelta(pack: manifest.pack, from: base.version, changed: changed, target: manifest, index: index, digest: digest)
            } ?? PackDelta(pack: manifest.pack, from: base.version, base: base.revisions, target: manifest, ids: ids, digest: digest)
            let ref = try add(PackFormat.deltaPath(from: base.version, to: manifest.version), delta.encoded)
            deltas.append(PackDeltaRef(from: base.version, file: ref))
        }
        let pointer = PackPointer(
            pack: manifest.pack, version: manifest.version, manifest: manifestRef, deltas: deltas, expires: expires)
        _ = try add(PackFormat.pointerPath, pointer.encoded)
        files.sort { CanonicalJSON.codePointOrder($0.path, $1.path) }
        return (files, pointer)
    }
}
