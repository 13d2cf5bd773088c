import Foundation

/// Why bytes are not the JSON the pack format accepts, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the problem.
    public var offset: Int
    public var message: String

    public var description: String { "\(message) (at byte \(offset))" }
}

/// A strict RFC 8259 parser for untrusted pack files.
///
/// Stricter than Foundation's on purpose, because two readers must never see two different
/// documents in the same bytes: duplicate keys, invalid UTF-8, lone surrogates, control
/// characters in strings, a byte-order mark and trailing data are errors. Nesting is capped so
/// a hostile file cannot exhaust the stack.
public struct JSONParser {
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    public static func parse(_ data: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(Array(data))
        if let bad = UTF8Check.firstInvalid(parser.bytes) {
            throw JSONParseError(offset: bad, message: "not valid UTF-8")
        }
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // An editor's or a server's doing; said as such (it read "unexpected character 'ï'").
            throw JSONParseError(offset: 0, message: "the file starts with a UTF-8 byte-order mark (EF BB BF), which a pack file must not have; write it without one")
        }
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        if parser.i != parser.bytes.count {
            throw JSONParseError(offset: parser.i, message: "unexpected data after the JSON value")
        }
        return value
    }

    private func fail(_ message: String) -> JSONParseError { JSONParseError(offset: i, message: message) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[i] {
        case 0x7B: return try object()
        case 0x5B: return try array()
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return try number()
        default:
            // The bytes are valid UTF-8 here: name the character they are, not their first byte's.
            let character = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self).first.map(String.init) ?? "?"
            throw fail("unexpected character '\(character)'")
        }
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, bytes[i..<i + w.count].elementsEqual(w) else { throw fail("invalid literal") }
        i += w.count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nested more than \(Self.maxDepth) levels deep") }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        i += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == 0x7D {
            i += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw fail("expected a member name in quotes") }
            let keyOffset = i
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw fail("expected ':' after a member name") }
            i += 1
            skipSpace()
            let v = try value()
            if members.updateValue(v, forKey: key) != nil {
                throw JSONParseError(offset: keyOffset, message: "member '\(key)' appears twice")
            }
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of data in an object") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x7D { i += 1; break }
            throw fail("expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == 0x5D {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of data in an array") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x5D { i += 1; break }
            throw fail("expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(items)
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1  // opening quote
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                let s = String(decoding: bytes[start..<i], as: UTF8.self)
                i += 1
                return s
            }
            if b == 0x5C { break }
            if b < 0x20 { throw fail("control character in a string; it must be escaped") }
            i += 1
        }
        var out: [UInt8] = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x22:
                i += 1
                return String(decoding: out, as: UTF8.self)
            case 0x5C:
                i += 1
                guard i < bytes.count else { throw fail("unexpected end of data in an escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x2F: out.append(0x2F)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else {
                            throw fail("lone UTF-16 surrogate in a \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid UTF-16 surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone UTF-16 surrogate in a \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default: throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            default:
                if b < 0x20 { throw fail("control character in a string; it must be escaped") }
                out.append(b)
                i += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid hex digit in a \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = i
        if bytes[i] == 0x2D { i += 1 }
        guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("invalid number") }
        if bytes[i] == 0x30 {
            i += 1
            if i < bytes.count, (0x30...0x39).contains(bytes[i]) { throw fail("leading zero in a number") }
        } else {
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        var integral = true
        if i < bytes.count, bytes[i] == 0x2E {
            integral = false
            i += 1
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("invalid fraction") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            integral = false
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw fail("invalid exponent") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        let literal = String(decoding: bytes[start..<i], as: UTF8.self)
        if integral, let v = Int64(literal) { return .integer(v == 0 ? 0 : v) }
        return .number(literal)
    }
}

/// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
enum UTF8Check {
    static func firstInvalid(_ b: [UInt8]) -> Int? {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let len: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: len = 2
            case 0xE0: len = 3; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: len = 3
            case 0xED: len = 3; hi = 0x9F
            case 0xF0: len = 4; lo = 0x90
            case 0xF1...0xF3: len = 4
            case 0xF4: len = 4; hi = 0x8F
            default: return i
            }
            guard i + len <= n else { return i }
            guard (lo...hi).contains(b[i + 1]) else { return i }
            for k in 2..<len where !(0x80...0xBF).contains(b[i + k]) { return i }
            i += len
        }
        return nil
    }
}
