/// A JSON value as the pack format reads and writes it.
///
/// Integers are kept exactly (`Int64`), never as floating point, because versions, byte counts
/// and difficulty levels must round-trip bit for bit. Format 1 writes no fractions; a number with
/// a fraction or exponent that a future producer writes is kept as its literal text (`.number`)
/// so that unknown fields survive a read–write cycle unchanged.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number that is not an integer in `Int64`'s range, kept exactly as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The members of an object, or nil.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// `object[key]` for objects, nil otherwise.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The JSON type's name, for messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var o: [String: JSONValue] = [:]
        for (k, v) in elements { o[k] = v }
        self = .object(o)
    }
}
