import Foundation

/// A file of the pack named by its path, SHA-256 and size: how the pointer pins a manifest
/// or delta, so that the pointer's signature covers it (TUF's snapshot/timestamp idea).
public struct PackFileRef: Hashable, Sendable {
    /// Relative to the folder holding `latest.json`.
    public var path: String
    public var sha256: String
    public var bytes: Int

    public init(path: String, sha256: String, bytes: Int) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
    }

    var json: JSONValue { ["path": .string(path), "sha256": .string(sha256), "bytes": .integer(Int64(bytes))] }

    init(json: JSONValue, file: String?, context: String) throws(PackFormatError) {
        let r = try FieldReader(json, file: file, context: context)
        path = try r.string("path")
        guard PackFormat.isSafePath(path) else {
            throw r.fail("\(context): path '\(path)' must be a relative path of letters a-z or A-Z, digits, '.', '_', '-' and '/' without '..'")
        }
        sha256 = try r.sha256("sha256")
        bytes = try r.integer("bytes")
    }
}

/// A delta the pointer offers: from version `from` to the pointer's version.
public struct PackDeltaRef: Hashable, Sendable {
    public var from: Int
    public var file: PackFileRef

    public init(from: Int, file: PackFileRef) {
        self.from = from
        self.file = file
    }

    var json: JSONValue {
        var o = file.json.objectValue!
        o["from"] = .integer(Int64(from))
        return .object(o)
    }
}

/// `latest.json`: the small, frequently re-signed pointer a client reads first (TUF's
/// timestamp role). It names the newest version, pins its manifest and the deltas to it by
/// hash and size, and expires, so an old pointer cannot be replayed forever (freeze attack).
public struct PackPointer: Hashable, Sendable {
    public var pack: String
    public var version: Int
    public var manifest: PackFileRef
    /// Sorted by `from`, ascending.
    public var deltas: [PackDeltaRef]
    public var expires: PackTime

    public init(pack: String, version: Int, manifest: PackFileRef, deltas: [PackDeltaRef], expires: PackTime) {
        self.pack = pack
        self.version = version
        self.manifest = manifest
        self.deltas = deltas.sorted { $0.from < $1.from }
        self.expires = expires
    }

    public var json: JSONValue {
        [
            "format": .integer(PackFormat.version),
            "type": "latest",
            "pack": .string(pack),
            "version": .integer(Int64(version)),
            "manifest": manifest.json,
            "deltas": .array(deltas.map(\.json)),
            "expires": .string(expires.description),
        ]
    }

    /// The published bytes: canonical JSON.
    public var encoded: Data { json.canonicalData }

    /// The delta that starts at `version`, if the pointer offers one.
    public func delta(from version: Int) -> PackDeltaRef? { deltas.first { $0.from == version } }

    /// Reads a pointer; unknown members are ignored (additive changes keep format 1).
    public static func decode(_ data: Data, file: String? = PackFormat.pointerPath) throws(PackFormatError) -> PackPointer {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            // A server's page served with 200 in its place (said so where a key is given: an app
            // developer's, who had none yet).
            let page = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<")
                ? "; it is an HTML page: a server's page served in the file's place (is the address right?)" : ""
            throw PackFormatError(file: file, "not valid JSON: \(error)\(page)")
        }
        let r = try FieldReader(value, file: file, context: "the pointer")
        try r.checkHeader(type: "latest")
        let pack = try r.id("pack")
        let version = try r.integer("version", min: 1)
        let manifest = try PackFileRef(json: r.value("manifest"), file: file, context: "manifest")
        var deltas: [PackDeltaRef] = []
        var seen = Set<Int>()
        for (n, item) in try r.array("deltas").enumerated() {
            let dr = try FieldReader(item, file: file, context: "deltas[\(n)]")
            let from = try dr.integer("from", min: 1)
            guard from < version else { throw dr.fail("deltas[\(n)]: 'from' \(from) is not below version \(version)") }
            guard seen.insert(from).inserted else { throw dr.fail("deltas[\(n)]: a second delta from version \(from)") }
            // The format lists them ascending by `from` (§4): another order is not a pointer
            // this format writes (found by an app maker: it was taken).
            if let last = deltas.last, from < last.from {
                throw dr.fail("deltas[\(n)]: 'from' \(from) comes after \(last.from); deltas are listed ascending by 'from'")
            }
            deltas.append(PackDeltaRef(from: from, file: try PackFileRef(json: item, file: file, context: "deltas[\(n)]")))
        }
        let expires = try r.time("expires")
        return PackPointer(pack: pack, version: version, manifest: manifest, deltas: deltas, expires: expires)
    }
}
