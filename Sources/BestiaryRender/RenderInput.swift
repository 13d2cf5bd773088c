import BestiaryContent
import Foundation

/// Where a media file ended up in the output, with what pages need to show it well.
public struct MediaOutput: Sendable, Hashable, Encodable {
    /// Relative to the output root, e.g. `media/horse.0123456789.ogg`.
    public var path: String
    public var bytes: Int
    /// Pixel size of pictures (nil for sounds and unknown sizes).
    public var width: Int?
    public var height: Int?

    public init(path: String, bytes: Int, width: Int? = nil, height: Int? = nil) {
        self.path = path
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// A Wikipedia summary as a page shows it: in the page's language or a fallback one.
public struct SummaryView: Sendable, Hashable, Encodable {
    /// The lead paragraph as plain text (never HTML from the network).
    public var text: String
    /// The language the text is in (differs from the page's when it is a fallback).
    public var language: String
    /// The article's title as Wikipedia shows it.
    public var title: String
    public var articleURL: String
    public var license: String
    public var licenseURL: String
    /// The article's lead image, when cached.
    public var image: WikiImageView?

    public init(
        text: String, language: String, title: String, articleURL: String, license: String = "CC BY-SA 4.0",
        licenseURL: String = "https://creativecommons.org/licenses/by-sa/4.0/", image: WikiImageView? = nil
    ) {
        self.text = text
        self.language = language
        self.title = title
        self.articleURL = articleURL
        self.license = license
        self.licenseURL = licenseURL
        self.image = image
    }
}

/// A Wikipedia lead image in one or more widths, with its author and licence from Commons.
public struct WikiImageView: Sendable, Hashable, Encodable {
    /// Sorted by width, smallest first.
    public var variants: [MediaOutput]
    public var credit: String?
    public var license: String?
    public var licenseURL: String?
    /// The file's description page (Commons).
    public var sourceURL: String?
    /// The language and address of the article it leads, when it is not the one whose text it
    /// is shown with (that article has no lead picture).
    public var articleLanguage: String?
    public var articleURL: String?

    public init(
        variants: [MediaOutput], credit: String? = nil, license: String? = nil, licenseURL: String? = nil, sourceURL: String? = nil,
        articleLanguage: String? = nil, articleURL: String? = nil
    ) {
        self.articleLanguage = articleLanguage
        self.articleURL = articleURL
        self.variants = variants.sorted { ($0.width ?? 0) < ($1.width ?? 0) }
        self.credit = credit
        self.license = license
        self.licenseURL = licenseURL
        self.sourceURL = sourceURL
    }
}

/// Everything the render stage needs; produced by the earlier stages.
public struct RenderInput: Sendable {
    public var catalog: Catalog
    public var theme: Theme
    public var templates: Templates
    public var strings: UIStrings
    public var assets: AssetPipeline
    /// Animal id → page language → summary (already resolved along the fallback list).
    public var summaries: [String: [String: SummaryView]]
    /// Content-relative media path → where it is in the output.
    public var media: [String: MediaOutput]
    /// The build's date (from `SOURCE_DATE_EPOCH` when set): shown in the footer only.
    public var buildDate: Date
    /// Absolute base URL with a trailing slash (site.yml's, or `--base-url`).
    public var baseURL: String
    /// A short stable id for browser storage keys (the pack id, else derived from the base URL).
    public var siteID: String

    public init(
        catalog: Catalog, theme: Theme, templates: Templates, strings: UIStrings, assets: AssetPipeline,
        summaries: [String: [String: SummaryView]], media: [String: MediaOutput], buildDate: Date, baseURL: String, siteID: String
    ) {
        self.catalog = catalog
        self.theme = theme
        self.templates = templates
        self.strings = strings
        self.assets = assets
        self.summaries = summaries
        self.media = media
        self.buildDate = buildDate
        self.baseURL = baseURL
        self.siteID = siteID
    }
}
