import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// Shared reading of the JSON formats: parse with positions, find the list of entries, read
/// members as text with messages that name the entry.
struct JSONSource {
    let context: ImportContext
    var diagnostics: [Diagnostic] = []

    init(context: ImportContext) {
        self.context = context
    }

    /// The parsed file, or nil after reporting where it is malformed.
    mutating func parse(_ bytes: [UInt8], format: ImportFormat) -> JSONValue? {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            diagnostics.append(.error(
                "not valid JSON: \(error.message); a \(format.rawValue) file is JSON", at: context.location(error.position), stage: "import"))
            return nil
        }
    }

    /// The entries of a JSON array, or of the array under one of `wrappers` in an object
    /// (`{"species": […]}`); nil after reporting.
    mutating func entries(_ root: JSONValue, what: String, wrappers: [String]) -> [JSONValue]? {
        if case .array(let items, _) = root { return items }
        if case .object = root {
            for key in wrappers {
                if case .array(let items, _)? = root[key] { return items }
            }
        }
        error("expected a JSON list of \(what) (\"[{…}, {…}]\"), found \(root.kindName)", at: root.position)
        return nil
    }

    mutating func error(_ message: String, at position: JSONPosition) {
        diagnostics.append(.error(message, at: context.location(position), stage: "import"))
    }

    mutating func warning(_ message: String, at position: JSONPosition) {
        diagnostics.append(.warning(message, at: context.location(position), stage: "import"))
    }

    /// A member as trimmed text: nil when absent, null or blank (the source does not carry it).
    /// Reports other kinds. (Ids are read by ``RecordID``, untrimmed and strictly.)
    mutating func text(_ entry: JSONValue, _ key: String, label: String) -> String? {
        guard let value = entry[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let s, _):
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        default:
            error("\(label): '\(key)' must be text, not \(value.kindName)", at: value.position)
            return nil
        }
    }

    /// Like ``text(_:_:label:)``, and reports a missing or blank member.
    mutating func requiredText(_ entry: JSONValue, _ key: String, label: String) -> String? {
        if let value = text(entry, key, label: label) { return value }
        switch entry[key] {
        case nil, .null?: error("\(label) has no '\(key)'", at: entry.position)
        case .string(_, let position)?: error("\(label): '\(key)' is empty", at: position)
        default: break  // reported as the wrong kind
        }
        return nil
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
