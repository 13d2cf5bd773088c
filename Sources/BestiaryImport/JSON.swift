import BestiaryDiagnostics

/// A JSON value with the `line:col` it starts at, so that import errors can point into the file
/// ("element 3 at 14:5 has no 'id'"), which Foundation's `JSONSerialization` cannot do.
public indirect enum JSONValue: Sendable, Equatable {
    case object([JSONMember], JSONPosition)
    case array([JSONValue], JSONPosition)
    case string(String, JSONPosition)
    /// The number as written (`12`, `-3.5e2`): ids stay exact, never rounded through `Double`.
    case number(String, JSONPosition)
    case bool(Bool, JSONPosition)
    case null(JSONPosition)

    public var position: JSONPosition {
        switch self {
        case .object(_, let p), .array(_, let p), .string(_, let p), .number(_, let p), .bool(_, let p), .null(let p): p
        }
    }

    /// `object`, `array`, `text`, …: for messages.
    public var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "a list"
        case .string: "text"
        case .number: "a number"
        case .bool: "true/false"
        case .null: "null"
        }
    }

    /// The member `key` of an object (the parser refuses a repeated name).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// One `"key": value` of an object, in file order.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var keyPosition: JSONPosition
    public var value: JSONValue
}

/// 1-based line and column (in Unicode scalars).
public struct JSONPosition: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no NaN; a
/// byte-order mark is skipped. Errors say what was expected and where.
public struct JSONParser {
    /// Nesting deeper than this is refused (the parser recurses; a hostile file must not crash it).
    public static let maxDepth = 256

    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var position: JSONPosition

        public init(message: String, position: JSONPosition) {
            self.message = message
            self.position = position
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipSpace()
        guard parser.index < bytes.count else { throw parser.failure("the file is empty; expected JSON") }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.index < bytes.count {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var here: JSONPosition { JSONPosition(line: line, column: column) }

    private func failure(_ message: String, at position: JSONPosition? = nil) -> Failure {
        Failure(message: message, position: position ?? here)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private mutating func advance() {
        let b = bytes[index]
        index += 1
        if b == 0x0A {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
            if bytes[index] == 0x0D {
                index += 1  // CR does not move the column a reader sees
                continue
            }
            advance()
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maxDepth else { throw failure("nested more than \(Self.maxDepth) levels deep") }
        guard index < bytes.count else { throw failure("unexpected end of file; expected a value") }
        let start = here
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string(), start)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true, start)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false, start)
        case UInt8(ascii: "n"): try literal("null"); return .null(start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(), start)
        default:
            if bytes[index] == UInt8(ascii: "'") { throw failure("JSON strings use double quotes (\"), not single quotes") }
            throw failure("unexpected \(describeCurrent()); expected a value (object, list, text, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let start = here
        for b in word.utf8 {
            guard index < bytes.count, bytes[index] == b else {
                throw failure("unexpected \(describeCurrent()); expected '\(word)'", at: start)
            }
            advance()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        let start = here
        advance()  // {
        var members: [JSONMember] = []
        // By bytes: JSON names are code points, and two spellings of "é" are two names.
        var seen: [[UInt8]: JSONPosition] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            advance()
            return .object(members, start)
        }
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of file inside the object that starts at \(start.line):\(start.column)") }
            if bytes[index] == UInt8(ascii: "}") { throw failure("trailing comma before '}' (JSON allows none)") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()); expected a member name in double quotes")
            }
            let keyPosition = here
            let key = try string()
            // RFC 8259 leaves it open which of two same-named members counts, and JSON readers
            // disagree: a repeated name is a mistake in the dump, said, not guessed at.
            if let first = seen.updateValue(keyPosition, forKey: Array(key.utf8)) {
                throw failure("the member \"\(key)\" is given twice in this object (first at \(first.line):\(first.column))", at: keyPosition)
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describeCurrent()); expected ':' after the member name \"\(key)\"")
            }
            advance()
            skipSpace()
            let value = try value(depth: depth + 1)
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of file inside the object that starts at \(start.line):\(start.column)") }
            if bytes[index] == UInt8(ascii: ",") { advance(); continue }
            if bytes[index] == UInt8(ascii: "}") { advance(); return .object(members, start) }
            throw failure("unexpected \(describeCurrent()); expected ',' or '}' after a member")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        let start = here
        advance()  // [
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            advance()
            return .array(items, start)
        }
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of file inside the list that starts at \(start.line):\(start.column)") }
            if bytes[index] == UInt8(ascii: "]") { throw failure("trailing comma before ']' (JSON allows none)") }
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end of file inside the list that starts at \(start.line):\(start.column)") }
            if bytes[index] == UInt8(ascii: ",") { advance(); continue }
            if bytes[index] == UInt8(ascii: "]") { advance(); return .array(items, start) }
            throw failure("unexpected \(describeCurrent()); expected ',' or ']' after a list element")
        }
    }

    private mutating func string() throws(Failure) -> String {
        let start = here
        advance()  // "
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("text that starts at \(start.line):\(start.column) is not closed with '\"'") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { advance(); break }
            if b < 0x20 {
                throw failure(b == 0x0A ? "line break inside text (write it as \\n)" : "control character inside text (escape it)")
            }
            if b == UInt8(ascii: "\\") {
                let escape = here
                advance()
                guard index < bytes.count else { throw failure("unexpected end of file in an escape") }
                let e = bytes[index]
                advance()
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(escape)
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("lone UTF-16 surrogate \\u\(String(scalar, radix: 16))", at: escape)
                        }
                        advance(); advance()
                        let low = try hex4(escape)
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid UTF-16 surrogate pair", at: escape) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("lone UTF-16 surrogate \\u\(String(scalar, radix: 16))", at: escape)
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: escape)
                }
                continue
            }
            out.append(b)
            advance()
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw failure("text is not valid UTF-8; save the file as UTF-8", at: start)
        }
        return s
    }

    private mutating func hex4(_ escape: JSONPosition) throws(Failure) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let d = hexDigit(bytes[index]) else {
                throw failure("\\u needs four hex digits", at: escape)
            }
            v = v * 16 + d
            advance()
        }
        return v
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = index, startPosition = here
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { advance() }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number", at: startPosition) }
        if bytes[index] == UInt8(ascii: "0") {
            advance()
            if index < bytes.count, isDigit(bytes[index]) { throw failure("numbers may not have leading zeros", at: startPosition) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { advance() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            advance()
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number: digits must follow '.'", at: startPosition) }
            while index < bytes.count, isDigit(bytes[index]) { advance() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            advance()
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { advance() }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number: digits must follow the exponent", at: startPosition) }
            while index < bytes.count, isDigit(bytes[index]) { advance() }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
