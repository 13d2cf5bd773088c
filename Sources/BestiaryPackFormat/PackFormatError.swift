/// A pack file that is not what format 1 says: which file, and what is wrong with it.
public struct PackFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: String, Hashable, Sendable {
        /// The bytes are not the JSON shape format 1 describes.
        case malformed
        /// `format` names a version this code does not know.
        case unknownFormat
    }

    public var reason: Reason
    /// The file inside the pack (`latest.json`, `v/3.json`), when known.
    public var file: String?
    public var message: String

    public init(_ reason: Reason = .malformed, file: String?, _ message: String) {
        self.reason = reason
        self.file = file
        self.message = message
    }

    public var description: String { file.map { "\($0): \(message)" } ?? message }
}

/// Reads the members of one JSON object with messages that name the file and the field.
struct FieldReader {
    let members: [String: JSONValue]
    let file: String?
    let context: String

    init(_ value: JSONValue, file: String?, context: String) throws(PackFormatError) {
        guard let members = value.objectValue else {
            throw PackFormatError(file: file, "\(context) must be a JSON object, not \(value.typeName)")
        }
        self.members = members
        self.file = file
        self.context = context
    }

    func fail(_ message: String) -> PackFormatError { PackFormatError(file: file, message) }

    func value(_ key: String) throws(PackFormatError) -> JSONValue {
        guard let v = members[key] else { throw fail("\(context) has no '\(key)'") }
        return v
    }

    func string(_ key: String) throws(PackFormatError) -> String {
        let v = try value(key)
        guard let s = v.stringValue else { throw fail("\(context): '\(key)' must be a string, not \(v.typeName)") }
        return s
    }

    func integer(_ key: String, min: Int64 = 0) throws(PackFormatError) -> Int {
        let v = try value(key)
        guard let i = v.integerValue else { throw fail("\(context): '\(key)' must be an integer, not \(v.typeName)") }
        guard i >= min, i <= PackFormat.maxInteger else {
            throw fail("\(context): '\(key)' is \(i), outside \(min)…\(PackFormat.maxInteger)")
        }
        return Int(i)
    }

    func array(_ key: String) throws(PackFormatError) -> [JSONValue] {
        let v = try value(key)
        guard let a = v.arrayValue else { throw fail("\(context): '\(key)' must be an array, not \(v.typeName)") }
        return a
    }

    func sha256(_ key: String) throws(PackFormatError) -> String {
        let s = try string(key)
        guard PackFormat.isSHA256(s) else { throw fail("\(context): '\(key)' must be 64 lower-case hex digits (SHA-256)") }
        return s
    }

    func id(_ key: String) throws(PackFormatError) -> String {
        let s = try string(key)
        guard PackFormat.isValidID(s) else { throw fail("\(context): '\(key)' '\(s)' is not 1–64 of a-z, 0-9, '_' and '-'") }
        return s
    }

    func time(_ key: String) throws(PackFormatError) -> PackTime {
        let s = try string(key)
        guard let t = PackTime(s) else { throw fail("\(context): '\(key)' '\(s)' is not a UTC time like 2026-01-31T12:00:00Z") }
        return t
    }

    /// Checks `format` first, so a newer file is reported as such rather than as malformed.
    func checkHeader(type expected: String) throws(PackFormatError) {
        guard let f = members["format"] else { throw fail("\(context) has no 'format'") }
        guard f.integerValue == PackFormat.version else {
            let shown = f.integerValue.map(String.init) ?? f.canonicalString
            throw PackFormatError(
                .unknownFormat, file: file,
                "format \(shown) is not one this client reads (it reads format \(PackFormat.version)); update the app or bestiary")
        }
        let type = try string("type")
        guard type == expected else { throw fail("\(context) is a '\(type)' file where a '\(expected)' file belongs") }
    }
}
