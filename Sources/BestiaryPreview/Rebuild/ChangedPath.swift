/// What kind of site input a changed file is. The preview passes this to the ``Rebuilder`` so the
/// build engine can pick the cheapest correct rebuild (Zola's `serve` does the same per change kind).
public enum ChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// `content/site.yml`: everything depends on it.
    case siteConfig = "site-config"
    /// `content/animals/**/ID.md` or a translation `ID.LANG.md`.
    case record
    /// `content/pages/**/*.md` (and their translations).
    case page
    /// A sound or picture under `content/` (anything not Markdown, not site.yml, not the cache).
    case media
    /// A file of the Wikipedia cache under `content/wikipedia/` (written by `bestiary fetch`).
    case wikipediaCache = "wikipedia-cache"
    /// `templates/layouts/`, `templates/partials/`, `templates/markdown/`: Mustache templates.
    case template
    /// `templates/i18n/*.json`: the theme's interface strings.
    case uiStrings = "ui-strings"
    /// `templates/assets/**`: CSS, JavaScript, icons, fonts.
    case asset
    /// Anything else under `content/` or `templates/` (the engine may ignore it or rebuild all).
    case other
    /// Unknown scope: the watcher lost track (event queue overflow, a watched root was replaced)
    /// or this is the first build. The engine must rebuild everything.
    case everything
}

/// How a path changed. Editors that save by writing a temporary file and renaming it over the
/// original show up as `modified` (the coalescer folds create/remove/rename pairs).
public enum ChangeEvent: String, Sendable, Hashable, Codable {
    case created
    case modified
    case removed
}

/// One changed input of the site, as the preview hands it to the build engine.
public struct ChangedPath: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Relative to the site root, `/`-separated: `content/animals/red-fox.md`, `templates/layouts/base.html`.
    /// Empty for ``ChangeKind/everything``.
    public var path: String
    public var kind: ChangeKind
    public var event: ChangeEvent

    public init(path: String, kind: ChangeKind, event: ChangeEvent = .modified) {
        self.path = path
        self.kind = kind
        self.event = event
    }

    /// A change of unknown scope: rebuild everything.
    public static let everything = ChangedPath(path: "", kind: .everything)

    /// Classifies `path` (relative to the site root) by where it lives.
    public init(classifying path: String, event: ChangeEvent = .modified) {
        self.init(path: path, kind: Self.kind(of: path), event: event)
    }

    /// The kind of a root-relative path; see ``ChangeKind``.
    public static func kind(of path: String) -> ChangeKind {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let top = parts.first else { return .everything }
        let name = parts.last.map(String.init) ?? ""
        let isMarkdown = name.lowercased().hasSuffix(".md")
        switch top {
        case "content":
            guard parts.count > 1 else { return .everything }  // content/ itself appeared or vanished
            if parts.count == 2 && parts[1] == "site.yml" { return .siteConfig }
            switch parts[1] {
            case "animals" where isMarkdown: return .record
            case "animals" where parts.count == 2: return .everything  // the folder itself
            case "pages" where isMarkdown: return .page
            case "pages" where parts.count == 2: return .everything
            case "wikipedia": return .wikipediaCache
            default:
                if parts.count == 2 && (isMarkdown || name.hasSuffix(".yml") || name.hasSuffix(".lock")) { return .other }
                return .media
            }
        case "templates":
            guard parts.count > 1 else { return .everything }
            switch parts[1] {
            case "layouts", "partials", "markdown": return .template
            case "i18n": return .uiStrings
            case "assets": return .asset
            default: return .other
            }
        default:
            return .other
        }
    }

    public var description: String {
        kind == .everything ? "(everything)" : "\(path) (\(kind.rawValue), \(event.rawValue))"
    }
}
