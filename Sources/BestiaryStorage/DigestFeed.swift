import BestiaryCrypto

/// SHA-256 over values fed one by one, each tagged and length-prefixed so that no two sequences
/// of values give the same bytes: the hand-written digests of what a page or a pack record is
/// made from (a type's fields in a fixed order, dictionaries in key order), where walking the
/// value's `Encodable` form (``StableDigest``) costs too much for 10,000 values per build.
public struct DigestFeed {
    /// Gathered, then hashed in one pass: thousands of tiny `SHA256.update` calls cost more than
    /// the copy (the digest is that of the same bytes either way).
    private var bytes: [UInt8] = []

    public init() {
        bytes.reserveCapacity(4096)
    }

    public mutating func add(count: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(count)).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A string, or nil (told apart from every string, the empty one included).
    public mutating func add(_ text: String?) {
        guard var text else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        text.withUTF8 { utf8 in
            add(count: utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A number, or nil.
    public mutating func add(_ number: Int?) {
        guard let number else {
            bytes.append(2)
            return
        }
        bytes.append(3)
        add(count: number)
    }

    public mutating func add(_ values: [String: String]) {
        add(count: values.count)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            add(key)
            add(value)
        }
    }

    /// The lower-case hex digest.
    public mutating func finish() -> String {
        Hashing.hex(SHA256.hash(data: bytes))
    }
}
