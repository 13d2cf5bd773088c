import BestiaryStorage
import Foundation

/// One cached article summary: `content/wikipedia/LANG/NAME.json`.
///
/// It keeps what a page needs to show the summary and credit it, and what a refresh needs to
/// ask cheaply whether anything changed (ETag, revision). Written by `bestiary fetch`, read by
/// `bestiary build`; field names are stable because teams commit the cache.
///
/// Its fields are kept in one box that its copies share (``BestiaryStorage/SharedValue``), as an
/// animal's are: a build copies the 14,555 entries of the bench corpus from its kept file into
/// the snapshot's tables.
@dynamicMemberLookup
public struct WikipediaEntry: Hashable, Sendable, Codable, CustomReflectable {
    /// The fields, each read and changed as the entry's own (`entry.revision`).
    public struct Fields: Hashable, Sendable, Codable {
        /// The wiki's language code (`de`).
        public var language: String
        /// The titles records asked for that led here (redirects, other spellings), sorted. The
        /// cache's index from requested title to entry is built from these lists.
        public var requested: [String]
        /// `titles.canonical` of the final response: the entry's key.
        public var canonicalTitle: String
        /// The title with spaces, for display.
        public var title: String
        public var pageID: Int?
        /// The revision the text was taken from: the change detector.
        public var revision: String
        /// When the article was last edited (from the endpoint).
        public var lastEdited: String?
        /// When Bestiary downloaded this text (ISO 8601, UTC). A refresh answered "304 Not
        /// Modified" leaves it (and the file) alone, so a refresh does not touch committed files.
        public var fetchedAt: String
        /// The ETag of the response, sent back as `If-None-Match` by `fetch --refresh`.
        public var etag: String?
        /// The article's URL for readers.
        public var url: String
        /// `ltr` or `rtl`.
        public var direction: String
        public var description: String?
        public var wikibaseItem: String?
        /// The first paragraph as plain text.
        public var extract: String
        /// The first paragraph as HTML from Wikipedia: untrusted, escape or sanitise it.
        public var extractHTML: String
        /// The text's licence.
        public var license: License
        /// The lead image, when the article has one and it could be stored.
        public var image: CachedImage?
    }

    @usableFromInline var fields: SharedValue<Fields>

    @inlinable public subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: field] }
        _modify { yield &fields.value[keyPath: field] }
    }

    public init(
        language: String, requested: [String], canonicalTitle: String, title: String, pageID: Int? = nil,
        revision: String, lastEdited: String? = nil, fetchedAt: String, etag: String? = nil, url: String,
        direction: String = "ltr", description: String? = nil, wikibaseItem: String? = nil, extract: String,
        extractHTML: String, license: License = .wikipediaText, image: CachedImage? = nil
    ) {
        fields = SharedValue(Fields(
            language: language,
            requested: requested,
            canonicalTitle: canonicalTitle,
            title: title,
            pageID: pageID,
            revision: revision,
            lastEdited: lastEdited,
            fetchedAt: fetchedAt,
            etag: etag,
            url: url,
            direction: direction,
            description: description,
            wikibaseItem: wikibaseItem,
            extract: extract,
            extractHTML: extractHTML,
            license: license,
            image: image
        ))
    }

    public init(from decoder: any Decoder) throws {
        fields = SharedValue(try Fields(from: decoder))
    }

    /// Encoded as its fields would be were they its own.
    public func encode(to encoder: any Encoder) throws {
        try fields.value.encode(to: encoder)
    }

    /// Its fields, as were they its own: what printing and debugging show.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }
}

/// A licence with the link that explains it.
public struct License: Hashable, Sendable, Codable {
    /// Short name, e.g. `CC BY-SA 4.0`.
    public var name: String
    public var url: String?

    public init(name: String, url: String?) {
        self.name = name
        self.url = url
    }

    /// Wikipedia's text licence on current wikis.
    public static let wikipediaText = License(name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0/")
}

/// The lead image of an article as stored in the cache.
public struct CachedImage: Hashable, Sendable, Codable {
    /// The file's title on its wiki, `File:Harzer_Fuchs_Hündin_2.jpg`.
    public var file: String
    /// The original file's URL and size (never downloaded unless it is the largest rendition).
    public var original: ImageSource?
    /// The downloaded widths, narrowest first (for `srcset`).
    public var renditions: [ImageRendition]
    /// Author and licence from Commons' `extmetadata`; nil when the file page gave none.
    public var attribution: ImageAttribution?

    public init(file: String, original: ImageSource?, renditions: [ImageRendition], attribution: ImageAttribution?) {
        self.file = file
        self.original = original
        self.renditions = renditions
        self.attribution = attribution
    }
}

/// One downloaded width of an image, stored by content as `images/SHA256.EXT`.
public struct ImageRendition: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int
    /// Where it was downloaded from (to download it again when the file went missing).
    public var url: String
    /// Relative to `content/`: `wikipedia/images/SHA256.jpg`.
    public var path: String
    public var sha256: String
    public var bytes: Int
    /// `jpeg`, `png`, `gif` or `webp` (a `MediaFormat` raw value), from the bytes.
    public var format: String

    public init(width: Int, height: Int, url: String, path: String, sha256: String, bytes: Int, format: String) {
        self.width = width
        self.height = height
        self.url = url
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
        self.format = format
    }
}

/// Who made an image and under which licence, as Commons states it (plain text, tags removed).
public struct ImageAttribution: Hashable, Sendable, Codable {
    /// `Artist`: the author's name.
    public var artist: String?
    /// `Credit`: e.g. "Own work".
    public var credit: String?
    /// `LicenseShortName` and `LicenseUrl`: e.g. `CC BY-SA 3.0`.
    public var license: License?
    /// `AttributionRequired`: whether the author must be named.
    public var attributionRequired: Bool
    /// The file's description page (`https://commons.wikimedia.org/wiki/File:…`): link it.
    public var descriptionURL: String?

    public init(artist: String?, credit: String?, license: License?, attributionRequired: Bool, descriptionURL: String?) {
        self.artist = artist
        self.credit = credit
        self.license = license
        self.attributionRequired = attributionRequired
        self.descriptionURL = descriptionURL
    }
}
