import Foundation

/// The one byte form of a JSON value that the pack format hashes and publishes (docs/packs.md,
/// "Canonical JSON"):
///
/// - no whitespace outside strings;
/// - object members sorted by key, comparing keys as sequences of UTF-16 code units (as RFC 8785
///   does; for ASCII keys the same as comparing their bytes);
/// - strings in UTF-8; only `"` `\` and the control characters U+0000…U+001F are escaped,
///   as `\"` `\\` `\b` `\f` `\n` `\r` `\t` or `\u00xx` with lower-case hex; everything else
///   (including non-ASCII) is written as is;
/// - integers in decimal without a plus sign or leading zeros; `-0` is `0`;
/// - `true`, `false`, `null`.
///
/// For the data format 1 writes (strings, integers, booleans, arrays, objects) this is the
/// same as RFC 8785 (JCS).
public enum CanonicalJSON {
    /// The canonical bytes of `value`, written once into a buffer of exactly their size (a
    /// 10,000-record manifest is tens of MB: growing an array to it would hold about twice that,
    /// and copying it into `Data` once more).
    public static func encode(_ value: JSONValue) -> Data {
        let count = size(of: value)
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var sink = FixedSink(base: base, capacity: count)
            write(value, into: &sink)
            precondition(sink.count == count, "CanonicalJSON.size(of:) disagrees with write(_:into:)")
        }
        return data
    }

    /// The canonical bytes of the object `members` plus a member `key` whose value is the array
    /// of `elements`, each already canonical JSON (a manifest's records), copied as they are.
    public static func encode(object members: [String: JSONValue], splicing key: String, elements: [Data]) -> Data {
        var elements = elements
        return encode(object: members, splicing: key, consuming: &elements).data
    }

    /// The bytes of ``encode(object:splicing:elements:)`` as parts to be written one after the
    /// other, without the whole in one buffer: each run of elements that lie one after the other
    /// in `source`, separated by one comma (the records of the last manifest that a new one keeps,
    /// in their order), is one slice of `source`; the rest (the object around the array, the
    /// other elements, the commas) is copied into small buffers between them. A rebuild's
    /// manifest is tens of MB of which one record changed: made whole, it was that many MB of new
    /// memory written once and copied again into the file. Returns where each element is in the
    /// whole, and its size; nil when less than half the elements' bytes lie in `source` (a
    /// rebuild that made most records again): the parts would then hold about the whole while
    /// the elements keep their own bytes, where ``encode(object:splicing:consuming:)`` frees
    /// each element as it is copied.
    public static func encodePieces(
        object members: [String: JSONValue], splicing key: String, elements: [Data], within source: Data
    ) -> (pieces: [Data], ranges: [Range<Int>], count: Int)? {
        // Where each element's bytes are in `source`, if they are.
        let offsets: [Int?] = source.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
            let low = UInt(bitPattern: src.baseAddress), high = low + UInt(src.count)
            return elements.map { element in
                element.withUnsafeBytes { bytes in
                    let at = UInt(bitPattern: bytes.baseAddress)
                    guard !element.isEmpty, at >= low, at + UInt(bytes.count) <= high else { return nil }
                    return Int(at - low)
                }
            }
        }
        let inside = zip(elements, offsets).reduce(0) { $0 + ($1.1 == nil ? 0 : $1.0.count) }
        guard inside * 2 >= elements.reduce(0, { $0 + $1.count }), inside > 0 else { return nil }
        // The object with one element, split around it.
        var shell = [Data([0x30])]
        let (whole, at) = encode(object: members, splicing: key, consuming: &shell)
        let open = whole[whole.startIndex..<(whole.startIndex + at[0].lowerBound)]
        let close = whole[(whole.startIndex + at[0].upperBound)...]
        var pieces: [Data] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(elements.count)
        var small = Data(open)
        var count = open.count
        source.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
            // The run of `source` being gathered: its start and end, as offsets into `source`.
            var run: Range<Int>?
            func flush() {
                guard let r = run else { return }
                if !small.isEmpty { pieces.append(small) }
                small = Data()
                pieces.append(source[(source.startIndex + r.lowerBound)..<(source.startIndex + r.upperBound)])
                run = nil
            }
            for (i, (element, offset)) in zip(elements, offsets).enumerated() {
                if let offset, let r = run, offset == r.upperBound + 1, src[r.upperBound] == 0x2C {
                    run = r.lowerBound..<(offset + element.count)
                } else {
                    flush()
                    if i > 0 { small.append(0x2C) }
                    if let offset {
                        run = offset..<(offset + element.count)
                    } else {
                        small.append(element)
                    }
                }
                // Where it is in the whole: after what came before, and its comma.
                if i > 0 { count += 1 }
                ranges.append(count..<(count + element.count))
                count += element.count
            }
            flush()
        }
        small.append(close)
        count += close.count
        pieces.append(small)
        return (pieces, ranges, count)
    }

    /// As ``encode(object:splicing:elements:)``, but each element is emptied as soon as it is
    /// copied, so that a buffer only `elements` holds is freed before the next one is copied (a
    /// manifest never needs its records' bytes twice over). Returns where each element went.
    public static func encode(
        object members: [String: JSONValue], splicing key: String, consuming elements: inout [Data]
    ) -> (data: Data, ranges: [Range<Int>]) {
        precondition(members[key] == nil, "'\(key)' is both a member and spliced")
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(elements.count)
        var count = size(of: .object(members)) + size(of: key) + 1 + 2 + max(0, elements.count - 1)
        if !members.isEmpty { count += 1 }
        for element in elements { count += element.count }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var sink = FixedSink(base: base, capacity: count)
            sink.append(0x7B)
            let keys = (Array(members.keys) + [key]).sorted(by: keyOrder)
            for (n, k) in keys.enumerated() {
                if n > 0 { sink.append(0x2C) }
                writeString(k, into: &sink)
                sink.append(0x3A)
                guard k == key else {
                    write(members[k]!, into: &sink)
                    continue
                }
                sink.append(0x5B)
                for i in elements.indices {
                    if i > 0 { sink.append(0x2C) }
                    let start = sink.count
                    sink.append(bytes: elements[i])
                    elements[i] = Data()
                    ranges.append(start..<sink.count)
                }
                sink.append(0x5D)
            }
            sink.append(0x7D)
            precondition(sink.count == count, "CanonicalJSON: spliced object size mismatch")
        }
        return (data, ranges)
    }

    /// The number of bytes ``encode(_:)`` makes of `value`.
    public static func size(of value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(true): return 4
        case .bool(false): return 5
        case .integer(let i): return String(i).utf8.count
        case .number(let literal): return literal.utf8.count
        case .string(let s): return size(of: s)
        case .array(let items): return 2 + max(0, items.count - 1) + items.reduce(0) { $0 + size(of: $1) }
        case .object(let members):
            return 2 + max(0, members.count - 1) + members.reduce(0) { $0 + size(of: $1.key) + 1 + size(of: $1.value) }
        }
    }

    private static func size(of s: String) -> Int {
        var n = 2
        for byte in s.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: n += 2
            case 0..<0x20: n += 6
            default: n += 1
            }
        }
        return n
    }

    /// Appends the canonical bytes of `value` to `out`.
    public static func write<Sink: CanonicalSink>(_ value: JSONValue, into out: inout Sink) {
        switch value {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true): out.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false): out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(0x5B)
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(0x2C) }
                write(item, into: &out)
            }
            out.append(0x5D)
        case .object(let members):
            out.append(0x7B)
            for (n, key) in sortedKeys(members).enumerated() {
                if n > 0 { out.append(0x2C) }
                writeString(key, into: &out)
                out.append(0x3A)
                write(members[key]!, into: &out)
            }
            out.append(0x7D)
        }
    }

    /// Keys in canonical order: by UTF-16 code units (``keyOrder(_:_:)``).
    public static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted(by: keyOrder)
    }

    /// The order of an object's members: by their keys' UTF-16 code units, as RFC 8785 (JCS)
    /// sorts them, and as Java's, Kotlin's and JavaScript's string comparisons do, so that a
    /// client in those languages computes the same `rev` (by code point, a key at U+E000…U+FFFF
    /// came before one above U+FFFF; in UTF-16 it comes after; an app developer's find). For
    /// ASCII keys, as format 1's own, it is plain byte order.
    ///
    /// Compared over the UTF-8 bytes (as fast as byte order): the two orders differ only where
    /// the first differing code points are one of U+E000…U+FFFF (lead byte EE or EF) and one
    /// above U+FFFF (lead byte F0…F4), which UTF-16 writes as surrogates (D800…DFFF), below.
    public static func keyOrder(_ a: String, _ b: String) -> Bool {
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            guard let x = ia.next() else { return ib.next() != nil }
            guard let y = ib.next() else { return false }
            guard x != y else { continue }
            // The bytes before are equal, so x and y are both lead bytes or both continuations.
            if x >= 0xF0 && (y == 0xEE || y == 0xEF) { return true }
            if y >= 0xF0 && (x == 0xEE || x == 0xEF) { return false }
            return x < y
        }
    }

    /// `a < b` comparing UTF-8 bytes (which orders by code point). Swift's own `<` on strings
    /// compares canonically equivalent forms as equal, which is not what a byte format wants.
    public static func codePointOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func writeString<Sink: CanonicalSink>(_ s: String, into out: inout Sink) {
        out.append(0x22)
        for byte in s.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, 0x62])
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }
}

/// Where ``CanonicalJSON`` writes bytes: a growing `[UInt8]`, or a buffer of known size.
public protocol CanonicalSink {
    mutating func append(_ byte: UInt8)
    mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8
}

extension Array: CanonicalSink where Element == UInt8 {}

/// Writes into memory sized beforehand by ``CanonicalJSON/size(of:)``.
struct FixedSink: CanonicalSink {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "canonical JSON larger than measured")
        base[count] = byte
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        for byte in bytes { append(byte) }
    }

    /// Copies `data` in one go.
    mutating func append(bytes data: Data) {
        precondition(count + data.count <= capacity, "canonical JSON larger than measured")
        data.copyBytes(to: base + count, count: data.count)
        count += data.count
    }
}

extension JSONValue {
    /// The canonical bytes (``CanonicalJSON``).
    public var canonicalData: Data { CanonicalJSON.encode(self) }

    /// The canonical form as a string.
    public var canonicalString: String { String(decoding: CanonicalJSON.encode(self), as: UTF8.self) }
}
