import BestiaryDiagnostics
import BestiaryMarkdown
import BestiaryStorage
import Foundation
import Mustache

/// The theme's Mustache templates, compiled once per build.
///
/// - `layouts/*.html` and `partials/*.html` are HTML templates: `{{value}}` is HTML-escaped.
/// - `markdown/*.md` are Markdown templates: `{{value}}` is escaped *for Markdown*
///   (``Markdown/escape(_:)``) so text shows literally, `{{{value}}}` inserts Markdown as is
///   (a record's own body), and the result goes through cmark in safe mode before it is placed
///   into a layout. Neither kind lets text from content or Wikipedia inject markup.
public struct Templates: @unchecked Sendable {
    let library: MustacheLibrary
    public let names: Set<String>
    /// Template name (`layouts.animal`) → a digest of its text and of every partial it uses,
    /// transitively: what a page rendered with it depends on (the render memo's key).
    let digests: [String: String]

    /// Registers the Markdown content type once per process.
    private static let registerMarkdown: Void = {
        MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN")
    }()

    /// Compiles every template of `theme`; all parse errors and unknown partials are reported.
    public static func compile(_ theme: Theme) throws(DiagnosticError) -> Templates {
        _ = registerMarkdown
        var library = MustacheLibrary()
        var bag = DiagnosticBag()
        var names = Set<String>()
        var sources: [String: (text: String, origin: String)] = [:]
        for path in theme.files.keys.sorted() {
            let isHTML = (path.hasPrefix("layouts/") || path.hasPrefix("partials/")) && path.hasSuffix(".html")
            let isMarkdown = path.hasPrefix("markdown/") && path.hasSuffix(".md")
            guard isHTML || isMarkdown, let file = theme.files[path] else { continue }
            guard var text = String(data: file.data, encoding: .utf8) else {
                bag.error("template is not valid UTF-8", at: SourceLocation(path: file.origin), stage: "render")
                continue
            }
            // Mustache names cannot hold '/': layouts/base.html is `layouts.base`.
            let name = String(path.dropLast(isHTML ? 5 : 3)).replacingOccurrences(of: "/", with: ".")
            var lineOffset = 0
            if isMarkdown && !text.hasPrefix("{{% CONTENT_TYPE") {
                text = "{{% CONTENT_TYPE: MARKDOWN }}" + text
                lineOffset = 0
            }
            do {
                let template = try MustacheTemplate(string: text)
                library.register(template, named: name)
                names.insert(name)
                sources[name] = (text, file.origin)
            } catch let error as MustacheTemplate.ParserError {
                bag.error(
                    "template error: \(Self.explain(error.error))",
                    at: SourceLocation(path: file.origin, line: error.context.lineNumber + lineOffset, column: error.context.columnNumber),
                    stage: "render")
            } catch {
                bag.error("template error: \(error)", at: SourceLocation(path: file.origin), stage: "render")
            }
        }
        // swift-mustache renders an unknown partial as nothing; catch them here instead.
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            for reference in partialReferences(in: source.text) where !names.contains(reference.name) {
                bag.error(
                    "unknown partial '\(reference.name)' (theme templates: \(names.sorted().joined(separator: ", ")))",
                    at: SourceLocation(path: source.origin, line: reference.line, column: reference.column), stage: "render")
            }
            _ = name
        }
        for required in ["layouts/home", "layouts/animal", "layouts/collection", "layouts/quiz", "layouts/page", "layouts/credits", "layouts/404",
            "layouts/sightings", "layouts/settings", "layouts/offline"]
        where theme.files[required + ".html"] == nil {
            bag.error("the theme has no \(required).html", at: SourceLocation(path: "templates/\(required).html"), stage: "render")
        }
        try bag.throwIfErrors()
        return Templates(library: library, names: names, digests: closureDigests(sources.mapValues(\.text)))
    }

    /// For each template, the digest of its own text and the texts of the partials it reaches.
    static func closureDigests(_ texts: [String: String]) -> [String: String] {
        let references = texts.mapValues { Set(partialReferences(in: $0).map(\.name)) }
        var result: [String: String] = [:]
        for name in texts.keys {
            var reached: Set<String> = [name]
            var pending = [name]
            while let next = pending.popLast() {
                for r in references[next] ?? [] where reached.insert(r).inserted { pending.append(r) }
            }
            var data = Data()
            for r in reached.sorted() {
                data.append(contentsOf: Array("\(r)\n\(texts[r]?.utf8.count ?? 0)\n".utf8))
                data.append(contentsOf: Array((texts[r] ?? "").utf8))
            }
            result[name] = Hashing.sha256Hex(data)
        }
        return result
    }

    /// The digest of what `names` render with (see ``digests``).
    func digest(_ names: String...) -> String {
        names.map { digests[$0.replacingOccurrences(of: "/", with: ".")] ?? "" }.joined(separator: "+")
    }

    /// A sentence for swift-mustache's parser errors.
    static func explain(_ error: any Error) -> String {
        guard let e = error as? MustacheTemplate.Error else { return "\(error)" }
        switch e {
        case .sectionCloseNameIncorrect: return "a closing tag {{/name}} does not match the section it closes"
        case .unfinishedName: return "a tag is not finished or its name is not allowed (template names use dots: {{> partials.header}})"
        case .expectedSectionEnd: return "a section {{#name}} is never closed with {{/name}}"
        case .invalidSetDelimiter: return "a set-delimiter tag {{=<% %>=}} is malformed"
        case .transformAppliedToInheritanceSection: return "a transform cannot be applied to an inherited section"
        case .illegalTokenInsideInheritSection: return "only {{$block}} sections may appear inside {{<parent}}…{{/parent}}"
        case .textInsideInheritSection: return "text outside a {{$block}} inside {{<parent}}…{{/parent}}"
        case .invalidConfigVariableSyntax: return "a {{% … }} pragma is malformed"
        case .unrecognisedConfigVariable: return "unknown {{% … }} pragma"
        @unknown default: return "\(e)"
        }
    }

    /// Renders template `name` (`layouts/animal` or `layouts.animal`) with `context`.
    public func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name.replacingOccurrences(of: "/", with: ".")) ?? ""
    }

    /// Renders a Markdown template and turns the result into HTML through cmark.
    public func renderMarkdown(_ name: String, _ context: [String: Any]) -> String {
        Markdown.html(render(name, context))
    }

    struct Reference {
        var name: String
        var line: Int
        var column: Int
    }

    /// `{{> name}}` and `{{< name}}` tags in `text`, with their positions.
    static func partialReferences(in text: String) -> [Reference] {
        var result: [Reference] = []
        var line = 1
        var column = 1
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\n" {
                line += 1
                column = 1
                i += 1
                continue
            }
            if scalars[i] == "{", i + 2 < scalars.count, scalars[i + 1] == "{", scalars[i + 2] == ">" || scalars[i + 2] == "<" {
                var j = i + 3
                while j < scalars.count, scalars[j] == " " { j += 1 }
                var name = ""
                while j < scalars.count, scalars[j] != "}", scalars[j] != " " {
                    name.unicodeScalars.append(scalars[j])
                    j += 1
                }
                if !name.isEmpty { result.append(Reference(name: name, line: line, column: column)) }
            }
            column += 1
            i += 1
        }
        return result
    }
}

/// `{{% CONTENT_TYPE: MARKDOWN }}`: values are escaped so CommonMark shows them literally.
struct MarkdownContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        Markdown.escape(text)
    }
}
