import Foundation

/// The one byte form of a JSON value that the pack format hashes and publishes (docs/packs.md,
/// "Canonical JSON"):
///
/// - no whitespace outside strings;
/// - object members sorted by key, comparing keys as sequences of Unicode code points
///   (the same as comparing their UTF-8 bytes);
/// - strings in UTF-8; only `"` `\` and the control characters U+0000…U+001F are escaped,
///   as `\"` `\\` `\b` `\f` `\n` `\r` `\t` or `\u00xx` with lower-case hex; everything else
///   (including non-ASCII) is written as is;
/// - integers in decimal without a plus sign or leading zeros; `-0` is `0`;
/// - `true`, `false`, `null`.
///
/// For the data format 1 writes (strings, integers, booleans, arrays, objects) this is the
/// same as RFC 8785 (JCS) for keys in the Basic Multilingual Plane.
public enum CanonicalJSON {
    /// The canonical bytes of `value`.
    public static func encode(_ value: JSONValue) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return Data(out)
    }

    /// Appends the canonical bytes of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
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

    /// Keys in canonical order: by Unicode code points, i.e. by UTF-8 bytes.
    public static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted(by: codePointOrder)
    }

    /// `a < b` comparing UTF-8 bytes (which orders by code point). Swift's own `<` on strings
    /// compares canonically equivalent forms as equal, which is not what a byte format wants.
    public static func codePointOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func writeString(_ s: String, into out: inout [UInt8]) {
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

extension JSONValue {
    /// The canonical bytes (``CanonicalJSON``).
    public var canonicalData: Data { CanonicalJSON.encode(self) }

    /// The canonical form as a string.
    public var canonicalString: String { String(decoding: CanonicalJSON.encode(self), as: UTF8.self) }
}
