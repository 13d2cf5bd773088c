import BestiaryTemplate
import Mustache

/// Renders the same template and context through swift-mustache (the reference) and through
/// BestiaryTemplate, so tests can compare the two byte for byte.
enum Reference {
    /// A lambda in a test context: becomes a `MustacheLambda` for swift-mustache and a
    /// `TemplateLambda` for ours.
    struct Lambda: @unchecked Sendable {
        let body: @Sendable (String) -> String
        init(_ body: @escaping @Sendable (String) -> String) { self.body = body }
    }

    /// `MARKDOWN` in both engines: a stand-in escape (the real one is Bestiary's, not the engine's).
    static func markdownEscape(_ text: String) -> String {
        var out = ""
        for c in text {
            if "*_[]#`\\".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    struct MarkdownType: MustacheContentType {
        func escapeText(_ text: String) -> String { Reference.markdownEscape(text) }
    }

    static let registered: Void = { MustacheContentTypes.register(MarkdownType(), named: "MARKDOWN") }()

    static func mustacheValue(_ value: Any) -> Any {
        switch value {
        case let l as Lambda: return MustacheLambda { l.body($0) }
        case let d as [String: Any]: return d.mapValues(mustacheValue)
        case let a as [Any]: return a.map(mustacheValue)
        default: return value
        }
    }

    static func templateValue(_ value: Any) -> TemplateValue {
        switch value {
        case let l as Lambda: return .lambda(TemplateLambda(l.body))
        case let d as [String: Any]: return .object(d.mapValues(templateValue))
        case let a as [Any]: return .list(a.map(templateValue))
        default: return TemplateValue(any: value)
        }
    }

    /// swift-mustache's output of `main` (nil when it cannot parse a template).
    static func theirs(_ templates: [String: String], _ main: String, _ context: Any) -> String? {
        _ = registered
        var library = MustacheLibrary()
        for (name, text) in templates {
            guard let t = try? MustacheTemplate(string: text) else { return nil }
            library.register(t, named: name)
        }
        return library.render(mustacheValue(context), withTemplate: main)
    }

    static let markdown = ContentType(name: "MARKDOWN", escape: markdownEscape)

    static func ours(_ templates: [String: String], _ main: String, _ context: Any) throws -> String? {
        try TemplateLibrary(templates, contentTypes: [markdown]).render(main, templateValue(context))
    }
}
