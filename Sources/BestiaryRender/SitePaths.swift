/// Where each page lives in `output/`, and relative URLs between pages.
///
/// The default language lives at the root (`animals/ID/index.html`), every other language under
/// its code (`en/animals/ID/index.html`), as Hugo does without `defaultContentLanguageInSubdir`.
/// Links between pages are relative, so the output works under any base path and in `serve`.
public struct SitePaths: Sendable {
    public let defaultLanguage: String

    public init(defaultLanguage: String) {
        self.defaultLanguage = defaultLanguage
    }

    /// `""` for the default language, `"en/"` otherwise.
    public func languagePrefix(_ language: String) -> String {
        language == defaultLanguage ? "" : language + "/"
    }

    /// Directory of a page relative to the output root, ending in `/` (or empty for the home).
    public func home(_ language: String) -> String { languagePrefix(language) }
    public func animal(_ id: String, _ language: String) -> String { languagePrefix(language) + "animals/\(id)/" }
    public func collection(_ language: String) -> String { languagePrefix(language) + "collection/" }
    public func quiz(_ language: String) -> String { languagePrefix(language) + "quiz/" }
    public func credits(_ language: String) -> String { languagePrefix(language) + "credits/" }
    public func page(_ slug: String, _ language: String) -> String { languagePrefix(language) + "\(slug)/" }

    /// The relative URL from the page in `from` (a directory) to the output root: `../../`.
    public static func rootRelative(from directory: String) -> String {
        let depth = directory.split(separator: "/").count
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    /// The shortest relative URL from the page in directory `from` to the output path `to`
    /// (a directory ending in `/`, or a file).
    public static func relative(from directory: String, to path: String) -> String {
        let from = directory.split(separator: "/")
        let isDirectory = path.isEmpty || path.hasSuffix("/")
        var to = path.split(separator: "/")
        let file = isDirectory ? nil : to.popLast()
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let up = String(repeating: "../", count: from.count - common)
        let down = to[common...].map { $0 + "/" }.joined()
        let result = up + down + (file.map(String.init) ?? "")
        return result.isEmpty ? "./" : result
    }
}
