import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import Foundation

/// A media file as the pack needs it: its hash (the file's name in `packs/media/`), size,
/// format, and the file to link it from. The build makes one per file under `content/` (see
/// ``PackProducer/mediaDigests(for:)``) and per cached Wikipedia picture.
public struct MediaDigest: Hashable, Sendable {
    /// Lower-case hex SHA-256 of the bytes.
    public var sha256: String
    public var bytes: Int
    public var format: MediaFormat
    /// The file holding the bytes (absolute, or relative to the working directory).
    public var sourcePath: String

    public init(sha256: String, bytes: Int, format: MediaFormat, sourcePath: String) {
        self.sha256 = sha256
        self.bytes = bytes
        self.format = format
        self.sourcePath = sourcePath
    }

    /// Hashes the file at `path`.
    public static func compute(path: String, format: MediaFormat, fileSystem: any FileSystem) throws -> MediaDigest {
        let data = try fileSystem.read(path)
        return MediaDigest(sha256: Hashing.sha256Hex(data), bytes: data.count, format: format, sourcePath: path)
    }

    var ref: PackMediaRef { PackMediaRef(sha256: sha256, bytes: bytes, ext: format.fileExtension) }
}

/// A text about a record in one language, as apps show it offline: a Wikipedia summary with
/// its licence and link, or the record's own description. The build maps cached summaries into
/// these; the pack copies them into the record's payload under `texts.LANG`.
public struct PackText: Hashable, Sendable {
    public enum Source: String, Hashable, Sendable {
        case wikipedia
        case record
    }

    public var source: Source
    /// Plain text (a summary's `extract`).
    public var text: String
    /// The language the text is written in, when it is not the one it is filed under (a
    /// fallback along the site's languages).
    public var language: String?
    /// Article title.
    public var title: String?
    /// Link to the article (or the text's origin).
    public var url: String?
    /// E.g. `CC BY-SA 4.0`.
    public var license: String?
    public var licenseURL: String?
    /// Who to credit; Wikipedia texts default to "Wikipedia contributors".
    public var credit: String?
    /// The article revision the text was taken from: a new revision makes a new pack version.
    public var revision: String?
    /// The article's lead picture, used by apps where the record has no picture of its own.
    public var image: PackImage?

    public init(
        source: Source, text: String, language: String? = nil, title: String? = nil, url: String? = nil, license: String? = nil,
        licenseURL: String? = nil, credit: String? = nil, revision: String? = nil, image: PackImage? = nil
    ) {
        self.source = source
        self.text = text
        self.language = language
        self.title = title
        self.url = url
        self.license = license
        self.licenseURL = licenseURL
        self.credit = credit
        self.revision = revision
        self.image = image
    }
}

/// A picture that is not a record's own (a Wikipedia lead image), with its attribution.
public struct PackImage: Hashable, Sendable {
    public var media: MediaDigest
    public var credit: String?
    public var license: String?
    /// The picture's page (e.g. on Wikimedia Commons).
    public var sourceURL: String?

    public init(media: MediaDigest, credit: String? = nil, license: String? = nil, sourceURL: String? = nil) {
        self.media = media
        self.credit = credit
        self.license = license
        self.sourceURL = sourceURL
    }
}
