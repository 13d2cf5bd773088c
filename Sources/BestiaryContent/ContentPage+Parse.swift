import BestiaryDiagnostics

extension ContentPage {
    static let keys = ["title", "weight"]

    /// Parses `content/pages/SLUG.md`: front matter with `title` (and optional `weight`), then the
    /// default language's Markdown body.
    public static func parse(_ source: SourceText, slug: String, config: SiteConfig) -> (ContentPage?, [Diagnostic]) {
        let (page, diagnostics) = parseFields(source, slug: slug, config: config)
        return (page, source.problems + diagnostics)
    }

    private static func parseFields(_ source: SourceText, slug: String, config: SiteConfig) -> (ContentPage?, [Diagnostic]) {
        let document: FrontMatterDocument
        do {
            document = try FrontMatterDocument.split(source)
        } catch {
            return (nil, error.diagnostics)
        }
        var diagnostics: [Diagnostic] = []
        if !Animal.isValidID(slug) {
            diagnostics.append(.error(
                "page file name '\(slug)' must be 1–64 characters of a-z, 0-9, '_' and '-' (it becomes the URL)",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load"))
        } else if reservedSlugs.contains(slug) {
            diagnostics.append(.error(
                "page name '\(slug)' is taken by a generated part of the site; rename the file",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load"))
        } else if config.languages.contains(where: { $0.lowercased() == slug.lowercased() }) {
            // The folders as the build names them (the default language's pages are at the root;
            // a code keeps its case: /pt-BR/).
            let folders = config.languages.filter { $0 != config.defaultLanguage }.map { "/\($0)/" }.joined(separator: ", ")
            let why = folders.isEmpty
                ? "kept for the folder of its pages in a language the site may add"
                : "whose codes name the folders of its pages in other languages (\(folders))"
            diagnostics.append(.error(
                "page name '\(slug)' is one of the site's languages (site.yml), \(why); rename the file",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load"))
        }
        guard let yaml = document.yaml else {
            diagnostics.append(.error(
                "a page starts with front matter holding its title: '---', 'title: {…}', '---'",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load"))
            return (nil, diagnostics)
        }
        let reader = YAMLReader(path: source.path, firstLine: document.yamlFirstLine)
        guard let root = reader.parse(yaml), let f = reader.fields(root, allowed: keys, what: "the page") else {
            if reader.diagnostics.isEmpty {
                reader.report("front matter is empty; a page needs a title", line: 1, column: 1)
            }
            return (nil, diagnostics + reader.diagnostics)
        }
        var title = LocalizedText([:])
        if let node = f["title"]?.value {
            title = reader.localized(node, what: "title", defaultLanguage: config.defaultLanguage, languages: config.languages) ?? title
            if !title.isEmpty, title.values[config.defaultLanguage] == nil {
                reader.error("title needs the default language '\(config.defaultLanguage)'", at: node)
            }
        } else {
            reader.error("the page needs a 'title'", at: root)
        }
        let weight = f["weight"].flatMap { reader.int($0.value, what: "weight", range: -1000...1000) } ?? 0
        diagnostics += reader.diagnostics
        if diagnostics.contains(where: { $0.severity == .error }) { return (nil, diagnostics) }
        var bodies: [String: MarkdownBody] = [:]
        let body = MarkdownBody(markdown: document.body, location: SourceLocation(path: source.path, line: document.bodyFirstLine, column: 1))
        if !body.isBlank { bodies[config.defaultLanguage] = body }
        diagnostics += body.problems()
        return (ContentPage(slug: slug, title: title, weight: weight, bodies: bodies, sourcePath: source.path), diagnostics)
    }
}
