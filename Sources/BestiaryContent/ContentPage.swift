import BestiaryDiagnostics

/// A free page: `content/pages/SLUG.md` (about, how to play), with translations `SLUG.LANG.md`.
public struct ContentPage: Hashable, Sendable, Encodable {
    /// From the file name: `[a-z0-9_-]`.
    public var slug: String
    public var title: LocalizedText
    /// Order in the navigation (smaller first, then by slug).
    public var weight: Int
    public var bodies: [String: MarkdownBody]
    public var sourcePath: String

    public init(slug: String, title: LocalizedText, weight: Int = 0, bodies: [String: MarkdownBody], sourcePath: String) {
        self.slug = slug
        self.title = title
        self.weight = weight
        self.bodies = bodies
        self.sourcePath = sourcePath
    }

    /// Slugs that would collide with the generated parts of the site.
    public static let reservedSlugs: Set<String> = [
        "animals", "quiz", "collection", "assets", "media", "packs", "sightings", "settings", "stats",
        "index", "404", "sitemap", "sw", "manifest", "credits", "offline",
    ]
}
