import Foundation

/// One response of the REST summary endpoint (`/page/summary/{title}`), decoded leniently.
///
/// Only the fields Bestiary uses are kept. Decoding follows the Page Content Service schema
/// (Summary 1.4–1.5): `type`, `titles`, `revision`, `lang`, `extract`, `extract_html` are
/// required; everything else may be missing, and unknown keys (the 2020 `api_urls` block) are
/// ignored. See `docs/wikipedia.md` for the endpoint's quirks.
public struct WikipediaSummary: Hashable, Sendable {
    /// `standard`, `disambiguation`, `no-extract`, `mainpage` (or a future value).
    public var type: String
    /// The database key with underscores (`Third_Council_of_the_Lateran`): cache key and URL part.
    public var canonicalTitle: String
    /// The title with spaces, for display.
    public var normalizedTitle: String
    /// HTML (`<i>Canis</i>`, wrapped in `<span>`s in 2026 responses).
    public var displayTitle: String?
    public var pageID: Int?
    /// The revision id; a string since 2025 (older responses had a number).
    public var revision: String
    /// Time of the last edit (ISO 8601), as the endpoint reports it.
    public var timestamp: String?
    /// The wiki's language code (`de`), and its writing direction (`ltr` or `rtl`).
    public var language: String
    public var direction: String
    public var description: String?
    /// The Wikidata item (`Q144`), when the page has one.
    public var wikibaseItem: String?
    /// The article's URL for readers (`content_urls.desktop.page`).
    public var pageURL: String?
    /// The first paragraph as plain text.
    public var extract: String
    /// The first paragraph as simple HTML. Untrusted: escape or sanitise before rendering.
    public var extractHTML: String
    /// The lead image scaled to the endpoint's width (330 px since 2026, 320 px before).
    public var thumbnail: ImageSource?
    /// The original file and its size; the ceiling for any thumbnail width.
    public var originalImage: ImageSource?

    /// True for articles that can be shown: the only kind Bestiary caches.
    public var isStandard: Bool { type == "standard" }

    public init(
        type: String, canonicalTitle: String, normalizedTitle: String, displayTitle: String? = nil, pageID: Int? = nil,
        revision: String, timestamp: String? = nil, language: String, direction: String = "ltr",
        description: String? = nil, wikibaseItem: String? = nil, pageURL: String? = nil, extract: String,
        extractHTML: String, thumbnail: ImageSource? = nil, originalImage: ImageSource? = nil
    ) {
        self.type = type
        self.canonicalTitle = canonicalTitle
        self.normalizedTitle = normalizedTitle
        self.displayTitle = displayTitle
        self.pageID = pageID
        self.revision = revision
        self.timestamp = timestamp
        self.language = language
        self.direction = direction
        self.description = description
        self.wikibaseItem = wikibaseItem
        self.pageURL = pageURL
        self.extract = extract
        self.extractHTML = extractHTML
        self.thumbnail = thumbnail
        self.originalImage = originalImage
    }
}

/// An image URL with its pixel size, as the summary gives it.
public struct ImageSource: Hashable, Sendable, Codable {
    public var url: String
    public var width: Int
    public var height: Int

    public init(url: String, width: Int, height: Int) {
        self.url = url
        self.width = width
        self.height = height
    }
}
