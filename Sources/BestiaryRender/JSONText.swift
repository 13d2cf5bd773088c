import Foundation

/// Deterministic JSON for the output: sorted keys, no whitespace, and `<`, `>`, `&`, U+2028 and
/// U+2029 escaped so the text can sit inside a `<script>` element without ending it.
public enum JSONText {
    /// Encodes a tree of `[String: Any]`, `[Any]`, `String`, `Int`, `Double`, `Bool` and `NSNull`
    /// (keys sorted by their UTF-8 bytes). Written by hand: JSONSerialization spends most of its
    /// time casting, and the catalogue of a 10,000-animal site is several megabytes.
    public static func encode(_ object: Any) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(object, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: Any, into out: inout [UInt8]) {
        switch value {
        case let s as String: writeString(s, into: &out)
        case let b as Bool: out.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
        case let i as Int: out.append(contentsOf: String(i).utf8)
        case let d as Double:
            if d.isFinite, d == d.rounded(), abs(d) < 1e15 { out.append(contentsOf: String(Int(d)).utf8) }
            else if d.isFinite { out.append(contentsOf: String(d).utf8) }
            else { out.append(contentsOf: "null".utf8) }
        case let dictionary as [String: Any]:
            out.append(UInt8(ascii: "{"))
            var first = true
            for key in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(dictionary[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let strings as [String]:
            out.append(UInt8(ascii: "["))
            for (i, s) in strings.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(s, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let array as [Any]:
            out.append(UInt8(ascii: "["))
            for (i, element) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(contentsOf: "null".utf8)  // NSNull, and anything else
        }
    }

    static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string that can also sit inside a `<script>` element: `<`, `>`, `&`, U+2028 and
    /// U+2029 are escaped as `\uXXXX`.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        func unicode(_ v: UInt32) {
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
            for shift in [12, 8, 4, 0] { out.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
        }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20, 0x3C, 0x3E, 0x26, 0x2028, 0x2029: unicode(scalar.value)
            case 0..<0x80: out.append(UInt8(scalar.value))
            default: out.append(contentsOf: String(Character(scalar)).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// HTML and XML text escaping for the parts built in Swift (sitemap, attributes).
public enum Escape {
    public static func xml(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 8)
        appendXML(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether ``appendXML(_:to:)`` writes `byte` as an entity.
    public static func isXMLSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    /// Appends `s` escaped (the five characters are ASCII, so UTF-8 bytes pass through as they are).
    public static func appendXML(_ s: String, to out: inout [UInt8]) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// Percent-encodes a path segment (ids are already safe; titles are not).
    public static func pathSegment(_ s: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }
}
