/// A value a template renders: what `{{name}}` prints and what `{{#name}}` tests or iterates.
///
/// An enum rather than `Any`, so that looking a name up is a `switch` and one dictionary probe
/// instead of protocol-conformance casts and `Mirror` (what made swift-mustache slow).
/// The semantics are swift-mustache's:
///
/// - `{{#list}}` renders once per element (an empty list is false), `{{#bool}}` by its value,
///   `null` or a missing name is false, and every other value (a string, even an empty one, a
///   number, an object) is pushed on the context stack once.
/// - `{{name}}` prints strings as they are, numbers as Swift's `"\(n)"`, `true`/`false`, nothing
///   for `null`.
public enum TemplateValue: Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])
    case lambda(TemplateLambda)
    /// A list whose items are keyed, so a renderer can take an item's output from an earlier
    /// rendering (``TemplateLibrary/render(_:_:keeping:)``); otherwise the list of its items.
    case keyed(KeyedList)
    /// Present but empty: stops the lookup of a name up the context stack, and is false.
    case null
}

/// `{{#name}}text{{/name}}` with a lambda calls it with the section's raw text; the result is
/// then rendered as a template (Bestiary's `{{#asset}}css/site.css{{/asset}}`).
public struct TemplateLambda: Sendable {
    let body: @Sendable (String) -> String

    public init(_ body: @escaping @Sendable (String) -> String) {
        self.body = body
    }

    public func callAsFunction(_ text: String) -> String { body(text) }
}

extension TemplateValue {
    /// Converts dictionaries (`[String: Any]`), arrays, `String`, `Int`, `Bool`, `Double` and
    /// optionals (nil is ``null``), passing ``TemplateValue`` and ``TemplateLambda`` through, so
    /// callers that build `[String: Any]` contexts can move over piece by piece. Any other value
    /// becomes its `String(describing:)`.
    public init(any value: Any) {
        switch value {
        case let v as TemplateValue: self = v
        case let v as TemplateLambda: self = .lambda(v)
        case let v as KeyedList: self = .keyed(v)
        case let optional as any OptionalProtocol:
            self = optional.wrappedValue.map(TemplateValue.init(any:)) ?? .null
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .int(v)
        case let v as Double: self = .double(v)
        case let v as [String: Any]: self = .object(v.mapValues(TemplateValue.init(any:)))
        case let v as [Any]: self = .list(v.map(TemplateValue.init(any:)))
        default: self = .string(String(describing: value))
        }
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// An object's member, nil for other values.
    public subscript(key: String) -> TemplateValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// This value as plain Swift values (for printing lists and objects as swift-mustache did,
    /// with `String(describing:)`).
    var anyValue: Any {
        switch self {
        case .string(let v): return v
        case .int(let v): return v
        case .double(let v): return v
        case .bool(let v): return v
        case .list(let v): return v.map(\.anyValue)
        case .object(let v): return v.mapValues(\.anyValue)
        case .lambda(let v): return v
        case .keyed(let v): return v.items.map(\.anyValue)
        case .null: return Optional<Any>.none as Any
        }
    }
}

/// Lets ``TemplateValue/init(any:)`` see through an `Optional` hidden in an `Any`.
protocol OptionalProtocol {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedValue: Any? { self.map { $0 as Any } }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension TemplateValue {
    /// Whether a keyed list is anywhere in this value (outside keyed lists' items).
    var holdsKeyedList: Bool {
        switch self {
        case .keyed: return true
        case .list(let items): return items.contains { $0.holdsKeyedList }
        case .object(let members): return members.values.contains { $0.holdsKeyedList }
        default: return false
        }
    }
}
