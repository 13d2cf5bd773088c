import BestiaryCrypto
import Foundation

/// A digest of any `Encodable` value that is the same in every process: what a build keeps on disk
/// to tell, in the next process, whether a page's inputs changed.
///
/// Swift's `Hasher` is seeded anew per process and dictionaries iterate in a different order each
/// time, so neither `hashValue` nor `JSONEncoder` without sorted keys can be compared across
/// builds. This encoder walks the value's synthesized `Encodable` conformance (so a field added to
/// a type is covered without anyone remembering to), keeps every keyed container's entries sorted
/// by key (a dictionary's order no longer matters), tags every value with its type and length (no
/// two different values run together into the same bytes), and hashes the result with SHA-256.
///
/// A `Set`, or a dictionary keyed by anything but `String` or `Int`, encodes as an unkeyed list in
/// its per-process order: such values would need sorting before they are digested (none of the
/// render keys holds one).
public enum StableDigest {
    /// The lower-case hex SHA-256 of `value`'s canonical encoding.
    public static func hex<T: Encodable>(_ value: T) -> String {
        Hashing.sha256Hex(bytes(value))
    }

    /// The canonical encoding itself (for tests and for combining digests).
    public static func bytes<T: Encodable>(_ value: T) -> [UInt8] {
        let root = Node()
        do {
            try value.encode(to: DigestEncoder(node: root, codingPath: []))
        } catch {
            // Only a conformance that throws by itself gets here; its message keeps the digest
            // distinct from every value that encodes.
            root.setText(tag: 0x21, "\(error)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        root.write(into: &out)
        return out
    }

    /// One digest for an ordered list of parts (strings that are themselves digests or names).
    public static func combine(_ parts: [String]) -> String {
        var hasher = SHA256()
        for var part in parts {
            var count = UInt64(part.utf8.count).littleEndian
            withUnsafeBytes(of: &count) { hasher.update(bufferPointer: $0) }
            part.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return Hashing.hex(hasher.finalize())
    }

    // MARK: The tree an encoding builds

    /// One encoded value: a scalar (a tag and its payload), a keyed container or an unkeyed one.
    /// Scalars keep their value until ``write(into:)``, so that digesting a value does not
    /// allocate an array per field.
    final class Node {
        private enum Content {
            case empty
            case text(tag: UInt8, String)
            case bytes(tag: UInt8, [UInt8])
            case fixed(tag: UInt8, UInt64)
            case keyed([(String, Node)])
            case unkeyed([Node])
        }

        private var content = Content.empty

        func setScalar(tag: UInt8, _ payload: [UInt8]) { content = .bytes(tag: tag, payload) }
        func setText(tag: UInt8, _ text: String) { content = .text(tag: tag, text) }
        func setFixed(tag: UInt8, _ bits: UInt64) { content = .fixed(tag: tag, bits) }

        func keyedChild(_ key: String) -> Node {
            let child = Node()
            if case .keyed(var entries) = content {
                content = .empty  // keeps the array uniquely referenced while it grows
                entries.append((key, child))
                content = .keyed(entries)
            } else {
                content = .keyed([(key, child)])
            }
            return child
        }

        func unkeyedChild() -> Node {
            let child = Node()
            if case .unkeyed(var items) = content {
                content = .empty
                items.append(child)
                content = .unkeyed(items)
            } else {
                content = .unkeyed([child])
            }
            return child
        }

        func becomeKeyed() { if case .empty = content { content = .keyed([]) } }
        func becomeUnkeyed() { if case .empty = content { content = .unkeyed([]) } }

        var count: Int {
            switch content {
            case .unkeyed(let items): items.count
            case .keyed(let entries): entries.count
            default: 0
            }
        }

        func write(into out: inout [UInt8]) {
            switch content {
            case .empty:
                out.append(0x45)  // E
            case .text(let tag, let text):
                out.append(tag)
                Node.appendLength(text.utf8.count, to: &out)
                out.append(contentsOf: text.utf8)
            case .bytes(let tag, let payload):
                out.append(tag)
                Node.appendLength(payload.count, to: &out)
                out.append(contentsOf: payload)
            case .fixed(let tag, let bits):
                out.append(tag)
                withUnsafeBytes(of: bits.littleEndian) { out.append(contentsOf: $0) }
            case .keyed(let entries):
                out.append(0x4B)  // K
                Node.appendLength(entries.count, to: &out)
                for (key, child) in entries.sorted(by: { $0.0 < $1.0 }) {
                    Node.appendLength(key.utf8.count, to: &out)
                    out.append(contentsOf: key.utf8)
                    child.write(into: &out)
                }
            case .unkeyed(let items):
                out.append(0x55)  // U
                Node.appendLength(items.count, to: &out)
                for item in items { item.write(into: &out) }
            }
        }

        static func appendLength(_ n: Int, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: UInt64(n).littleEndian) { bytes.append(contentsOf: $0) }
        }
    }
}

// MARK: Encoder

/// The containers do not extend `codingPath` with their keys: nothing reads it while digesting,
/// and an array made for every nested value was a fifth of the time a digest took.
private struct DigestEncoder: Encoder {
    let node: StableDigest.Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeKeyed()
        return KeyedEncodingContainer(KeyedDigestContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeUnkeyed()
        return UnkeyedDigestContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleDigestContainer(node: node, codingPath: codingPath)
    }
}

/// Scalars, tagged by type so that `1` and `"1"` and `true` differ.
private enum Scalar {
    static func string(_ s: String, into node: StableDigest.Node) { node.setText(tag: 0x73, s) }
    static func int(_ v: Int64, into node: StableDigest.Node) { node.setFixed(tag: 0x69, UInt64(bitPattern: v)) }
    static func uint(_ v: UInt64, into node: StableDigest.Node) { node.setFixed(tag: 0x75, v) }
    static func double(_ v: Double, into node: StableDigest.Node) { node.setFixed(tag: 0x64, v.bitPattern) }
    static func bool(_ v: Bool, into node: StableDigest.Node) { node.setFixed(tag: 0x62, v ? 1 : 0) }
    static func null(into node: StableDigest.Node) { node.setScalar(tag: 0x6E, []) }

    /// The three types with a form of their own are told apart by their metadata, not by a cast
    /// (`value as? String` on every field cost more than the rest of the encoding).
    static func value<T: Encodable>(_ value: T, into node: StableDigest.Node, codingPath: [any CodingKey]) throws {
        if T.self == String.self {
            string(value as! String, into: node)
        } else if T.self == Data.self {
            node.setScalar(tag: 0x78, Array(value as! Data))
        } else if T.self == Date.self {
            double((value as! Date).timeIntervalSinceReferenceDate, into: node)
        } else {
            try value.encode(to: DigestEncoder(node: node, codingPath: codingPath))
        }
    }
}

private struct KeyedDigestContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: StableDigest.Node
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> StableDigest.Node { node.keyedChild(key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { Scalar.null(into: child(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { Scalar.bool(value, into: child(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { Scalar.string(value, into: child(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { Scalar.double(value, into: child(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { Scalar.double(Double(value), into: child(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { Scalar.int(Int64(value), into: child(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { Scalar.int(Int64(value), into: child(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { Scalar.int(Int64(value), into: child(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { Scalar.int(Int64(value), into: child(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { Scalar.int(value, into: child(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { Scalar.uint(UInt64(value), into: child(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { Scalar.uint(UInt64(value), into: child(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { Scalar.uint(UInt64(value), into: child(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { Scalar.uint(UInt64(value), into: child(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { Scalar.uint(value, into: child(key)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try Scalar.value(value, into: child(key), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let c = child(key)
        c.becomeKeyed()
        return KeyedEncodingContainer(KeyedDigestContainer<NestedKey>(node: c, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let c = child(key)
        c.becomeUnkeyed()
        return UnkeyedDigestContainer(node: c, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { DigestEncoder(node: node.keyedChild("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { DigestEncoder(node: child(key), codingPath: codingPath) }
}

private struct UnkeyedDigestContainer: UnkeyedEncodingContainer {
    let node: StableDigest.Node
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func next() -> StableDigest.Node { node.unkeyedChild() }

    mutating func encodeNil() throws { Scalar.null(into: next()) }
    mutating func encode(_ value: Bool) throws { Scalar.bool(value, into: next()) }
    mutating func encode(_ value: String) throws { Scalar.string(value, into: next()) }
    mutating func encode(_ value: Double) throws { Scalar.double(value, into: next()) }
    mutating func encode(_ value: Float) throws { Scalar.double(Double(value), into: next()) }
    mutating func encode(_ value: Int) throws { Scalar.int(Int64(value), into: next()) }
    mutating func encode(_ value: Int8) throws { Scalar.int(Int64(value), into: next()) }
    mutating func encode(_ value: Int16) throws { Scalar.int(Int64(value), into: next()) }
    mutating func encode(_ value: Int32) throws { Scalar.int(Int64(value), into: next()) }
    mutating func encode(_ value: Int64) throws { Scalar.int(value, into: next()) }
    mutating func encode(_ value: UInt) throws { Scalar.uint(UInt64(value), into: next()) }
    mutating func encode(_ value: UInt8) throws { Scalar.uint(UInt64(value), into: next()) }
    mutating func encode(_ value: UInt16) throws { Scalar.uint(UInt64(value), into: next()) }
    mutating func encode(_ value: UInt32) throws { Scalar.uint(UInt64(value), into: next()) }
    mutating func encode(_ value: UInt64) throws { Scalar.uint(value, into: next()) }
    mutating func encode<T: Encodable>(_ value: T) throws { try Scalar.value(value, into: next(), codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let c = next()
        c.becomeKeyed()
        return KeyedEncodingContainer(KeyedDigestContainer<NestedKey>(node: c, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let c = next()
        c.becomeUnkeyed()
        return UnkeyedDigestContainer(node: c, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { DigestEncoder(node: next(), codingPath: codingPath) }
}

private struct SingleDigestContainer: SingleValueEncodingContainer {
    let node: StableDigest.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { Scalar.null(into: node) }
    mutating func encode(_ value: Bool) throws { Scalar.bool(value, into: node) }
    mutating func encode(_ value: String) throws { Scalar.string(value, into: node) }
    mutating func encode(_ value: Double) throws { Scalar.double(value, into: node) }
    mutating func encode(_ value: Float) throws { Scalar.double(Double(value), into: node) }
    mutating func encode(_ value: Int) throws { Scalar.int(Int64(value), into: node) }
    mutating func encode(_ value: Int8) throws { Scalar.int(Int64(value), into: node) }
    mutating func encode(_ value: Int16) throws { Scalar.int(Int64(value), into: node) }
    mutating func encode(_ value: Int32) throws { Scalar.int(Int64(value), into: node) }
    mutating func encode(_ value: Int64) throws { Scalar.int(value, into: node) }
    mutating func encode(_ value: UInt) throws { Scalar.uint(UInt64(value), into: node) }
    mutating func encode(_ value: UInt8) throws { Scalar.uint(UInt64(value), into: node) }
    mutating func encode(_ value: UInt16) throws { Scalar.uint(UInt64(value), into: node) }
    mutating func encode(_ value: UInt32) throws { Scalar.uint(UInt64(value), into: node) }
    mutating func encode(_ value: UInt64) throws { Scalar.uint(value, into: node) }
    mutating func encode<T: Encodable>(_ value: T) throws { try Scalar.value(value, into: node, codingPath: codingPath) }
}
