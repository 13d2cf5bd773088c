import BestiaryStorage

/// What a page (or a pack record) shows for one animal in one language: a Wikipedia summary,
/// its credit line and its lead image.
///
/// Render it as: the `extract` (plain text, escaped) or the `extractHTML` after sanitising
/// (it comes from Wikipedia: allow only `p b i em strong span sub sup abbr ul li` without
/// attributes), inside an element with `lang=language` and `dir=direction`; when
/// ``isFallback`` say so ("from the English Wikipedia"); then the credit
/// "Text: Wikipedia, ‘title’ (link to `url`), CC BY-SA 4.0 (link to `license.url`)".
///
/// Its fields are kept in one box that its copies share (``BestiaryStorage/SharedValue``), as an
/// animal's are.
@dynamicMemberLookup
public struct ResolvedSummary: Hashable, Sendable, CustomReflectable {
    /// The fields, each read and changed as the summary's own (`summary.extract`).
    public struct Fields: Hashable, Sendable {
        /// The language of the page this was resolved for.
        public var pageLanguage: String
        /// The language the text is in; differs from ``pageLanguage`` for a fallback.
        public var language: String
        /// `ltr` or `rtl`: put it on the element holding the text.
        public var direction: String
        /// The article's title with spaces.
        public var title: String
        public var canonicalTitle: String
        /// Wikipedia's short description ("Species of mammal"), plain text.
        public var description: String?
        /// The first paragraph, plain text.
        public var extract: String
        /// The first paragraph as HTML from Wikipedia. Untrusted: sanitise or escape.
        public var extractHTML: String
        /// The article for readers: link it in the credit.
        public var url: String
        public var revision: String
        public var lastEdited: String?
        /// The text's licence (CC BY-SA 4.0).
        public var license: License
        public var image: ResolvedImage?
    }

    @usableFromInline var fields: SharedValue<Fields>

    @inlinable public subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: field] }
        _modify { yield &fields.value[keyPath: field] }
    }

    /// True when the text is in another language than the page (German page, English text).
    public var isFallback: Bool { self.language != self.pageLanguage }

    public init(
        pageLanguage: String, language: String, direction: String, title: String, canonicalTitle: String,
        description: String?, extract: String, extractHTML: String, url: String, revision: String, lastEdited: String?,
        license: License, image: ResolvedImage?
    ) {
        fields = SharedValue(Fields(
            pageLanguage: pageLanguage,
            language: language,
            direction: direction,
            title: title,
            canonicalTitle: canonicalTitle,
            description: description,
            extract: extract,
            extractHTML: extractHTML,
            url: url,
            revision: revision,
            lastEdited: lastEdited,
            license: license,
            image: image
        ))
    }

    /// Its fields, as were they its own: what printing and debugging show.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }
}

/// A cached lead image, ready for `<img srcset>` and its credit line.
public struct ResolvedImage: Hashable, Sendable {
    public struct Rendition: Hashable, Sendable {
        public var width: Int
        public var height: Int
        /// Relative to `content/` (`wikipedia/images/SHA256.jpg`), like other media paths.
        public var path: String
        /// The file to copy into the site.
        public var absolutePath: String
        public var sha256: String
        /// `jpeg`, `png`, `gif`, `webp`.
        public var format: String
        public var bytes: Int

        public init(width: Int, height: Int, path: String, absolutePath: String, sha256: String, format: String, bytes: Int) {
            self.width = width
            self.height = height
            self.path = path
            self.absolutePath = absolutePath
            self.sha256 = sha256
            self.format = format
            self.bytes = bytes
        }
    }

    /// `File:Name.jpg` on Commons.
    public var file: String
    /// Narrowest first; every file is present.
    public var renditions: [Rendition]
    /// Author and licence; nil when Commons gave none (link ``descriptionURL`` or the file instead).
    public var attribution: ImageAttribution?
    /// The file's page on Commons, for "Image: Artist, licence (link)".
    public var descriptionURL: String?
    /// The language and address of the article it leads, when that is not the article whose text
    /// it is shown with: one whose own article has no lead picture shows another language's
    /// (``WikipediaSnapshot/pages(of:_:)``, which ``WikipediaSnapshot/summaries(for:)`` runs for each animal).
    public var borrowedFrom: Article?

    public struct Article: Hashable, Sendable {
        public var language: String
        public var url: String
        public init(language: String, url: String) {
            self.language = language
            self.url = url
        }
    }

    public init(file: String, renditions: [Rendition], attribution: ImageAttribution?, descriptionURL: String?) {
        self.file = file
        self.renditions = renditions
        self.attribution = attribution
        self.descriptionURL = descriptionURL
    }
}
