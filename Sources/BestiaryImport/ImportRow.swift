import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage

/// One record's worth of data from a source (an element of a JSON dump, a CSV row, the options
/// of `bestiary add`), before it meets the site's content.
///
/// Fields come in two kinds, and that is what keeps hand edits safe:
/// - `fields` are what the source *carries*: they replace the record's values on every import.
/// - `defaults` are what the importer *derives* (a dog breed's English name, `group: bird`):
///   they only fill a field the record does not have yet, so a name corrected by hand stays.
/// Everything else in an existing record (fields the source does not carry, comments, the
/// Markdown body, translations) is never touched.
public struct ImportRow: Sendable {
    public var id: String
    public var origin: ImportOrigin
    public var fields: [FieldValue]
    public var defaults: [FieldValue]
    /// Files to copy into `content/` as the record's sound or picture.
    public var media: [MediaFile]
    /// Sounds or pictures whose file the source named but could not be found or read (already
    /// reported): their credit, licence and source are not applied (each would say "needs a
    /// sound", of a row that gave one).
    public var failedMedia: Set<MediaKind> = []
    /// The source's id for it is no valid id (already reported): its other values are checked,
    /// for one run to say all of a row's mistakes, but no record is made.
    public var idRefused = false

    public init(id: String, origin: ImportOrigin, fields: [FieldValue] = [], defaults: [FieldValue] = [], media: [MediaFile] = []) {
        self.id = id
        self.origin = origin
        self.fields = fields
        self.defaults = defaults
        self.media = media
    }

    /// A file outside `content/` that becomes `content/sounds/ID.EXT` or `content/images/ID.EXT`.
    public struct MediaFile: Sendable {
        public var kind: MediaKind
        /// Where to read it (relative to the working directory, or absolute).
        public var path: String
        /// Where the path is in its source (a CSV cell, a JSON value), for a message about the
        /// file; else the row's.
        public var location: SourceLocation?
        public init(kind: MediaKind, path: String, at location: SourceLocation? = nil) {
            self.kind = kind
            self.path = path
            self.location = location
        }
    }
}

public struct FieldValue: Sendable {
    public var field: RecordField
    public var value: String
    /// Where the value is in its source (a CSV cell), for a message about it; else the row's.
    public var location: SourceLocation?
    public init(_ field: RecordField, _ value: String, at location: SourceLocation? = nil) {
        self.field = field
        self.value = value
        self.location = location
    }
}

/// Where a row is in its source, for messages: `element 3`, `row 2`, `breed 'poodle'`, with the
/// file position.
public struct ImportOrigin: Sendable, Hashable {
    public var label: String
    /// Nil for rows that come from the command line (`bestiary add`).
    public var location: SourceLocation?

    public init(label: String, location: SourceLocation?) {
        self.label = label
        self.location = location
    }
}

/// The formats `bestiary import` reads (DESIGN.md §3).
public enum ImportFormat: String, Sendable, CaseIterable {
    /// A species API dump: the JSON array of `/species`.
    case nuthatch
    /// The Dog CEO breed list (`/api/breeds/list/all`).
    case dogceo
    /// The WildSound app's catalogue export (its Firestore `animals` collection as a JSON array).
    case wildsound
    /// A spreadsheet whose header names front-matter keys.
    case csv

    /// The language the source's names and texts are in (`--language` overrides it); nil for CSV,
    /// whose columns say it.
    public var sourceLanguage: String? {
        switch self {
        case .nuthatch, .dogceo: "en"
        case .wildsound: "de"
        case .csv: nil
        }
    }
}

/// What a format reader needs to know about the site and the command line.
public struct ImportContext: Sendable {
    public var config: SiteConfig
    /// The language of the source's texts (formats other than CSV).
    public var language: String
    /// Where files named by the source (a WildSound `storagePath`, a CSV `sound.file` that is not
    /// under content/ yet) are looked for: `--media`, else the import file's folder.
    public var mediaDirectory: String
    /// The import file as the user named it: the path in messages.
    public var displayPath: String
    /// The site's `content/` folder (a CSV's `sound.file` may already be there).
    public var contentDirectory: String
    public var fileSystem: any FileSystem

    public init(
        config: SiteConfig, language: String, mediaDirectory: String, displayPath: String, contentDirectory: String,
        fileSystem: any FileSystem = LocalFileSystem()
    ) {
        self.contentDirectory = contentDirectory
        self.config = config
        self.language = language
        self.mediaDirectory = mediaDirectory
        self.displayPath = displayPath
        self.fileSystem = fileSystem
    }

    /// `mediaDirectory/relative`.
    /// Where a media file a row names is: an absolute path as it is (a spreadsheet made on the
    /// same machine), else relative to the file imported or `--media`.
    func mediaPath(_ relative: String) -> String {
        relative.hasPrefix("/") || mediaDirectory == "." ? relative : mediaDirectory + "/" + relative
    }

    func location(_ position: JSONPosition) -> SourceLocation {
        SourceLocation(path: displayPath, line: position.line, column: position.column)
    }
}
