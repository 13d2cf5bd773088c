import BestiaryDiagnostics

/// A sound or picture of a record: a file under `content/` or a URL, with its attribution.
public struct MediaReference: Hashable, Sendable, Encodable {
    public enum Source: Hashable, Sendable, Encodable {
        /// Path relative to `content/`, checked to stay inside it.
        case file(String)
        /// An absolute http(s) URL, used as is.
        case url(String)
    }

    public var kind: MediaKind
    public var source: Source
    /// What the bytes are (sniffed from the file, or from the URL's extension).
    public var format: MediaFormat
    public var credit: String?
    public var license: String?
    /// Where the file came from (a web page), for the attribution line.
    public var sourceURL: String?
    /// CSS `object-position` for cropping pictures, e.g. `50% 20%`.
    public var focus: String?
    /// Alternative text per language for pictures; the animal's name is used where missing.
    public var alt: LocalizedText
    /// Where its `file:` or `url:` value is: errors about the file point at the path itself.
    public var location: SourceLocation

    public init(
        kind: MediaKind, source: Source, format: MediaFormat, credit: String? = nil, license: String? = nil,
        sourceURL: String? = nil, focus: String? = nil, alt: LocalizedText = LocalizedText([:]), location: SourceLocation
    ) {
        self.kind = kind
        self.source = source
        self.format = format
        self.credit = credit
        self.license = license
        self.sourceURL = sourceURL
        self.focus = focus
        self.alt = alt
        self.location = location
    }

    /// The file path relative to `content/`, when the media is a file.
    public var filePath: String? {
        if case .file(let p) = source { return p }
        return nil
    }
}

public enum MediaKind: String, Hashable, Sendable, Codable {
    case sound
    case image
}

/// The media formats Bestiary accepts (DESIGN.md §2), recognised by their bytes.
public enum MediaFormat: String, Hashable, Sendable, Codable, CaseIterable {
    case mp3, ogg, opus, m4a, aac, wav
    case jpeg, png, webp, gif, svg

    public var kind: MediaKind {
        switch self {
        case .mp3, .ogg, .opus, .m4a, .aac, .wav: .sound
        case .jpeg, .png, .webp, .gif, .svg: .image
        }
    }

    /// The MIME type the browser needs (`<audio><source type>`, HTTP Content-Type).
    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .ogg: "audio/ogg"
        case .opus: "audio/ogg; codecs=opus"
        case .m4a: "audio/mp4"
        case .aac: "audio/aac"
        case .wav: "audio/wav"
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .svg: "image/svg+xml"
        }
    }

    /// The extension used for output file names.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        default: rawValue
        }
    }

    /// Formats a file extension may claim (lower-case, without the dot).
    public static func candidates(forExtension ext: String) -> [MediaFormat] {
        switch ext.lowercased() {
        case "mp3": [.mp3]
        case "ogg", "oga": [.ogg, .opus]
        case "opus": [.opus, .ogg]
        case "m4a", "mp4": [.m4a]
        case "aac": [.aac, .m4a]
        case "wav": [.wav]
        case "jpg", "jpeg": [.jpeg]
        case "png": [.png]
        case "webp": [.webp]
        case "gif": [.gif]
        case "svg": [.svg]
        default: []
        }
    }

    public static let soundExtensions = ["mp3", "ogg", "oga", "opus", "m4a", "aac", "wav"]
    public static let imageExtensions = ["jpg", "jpeg", "png", "webp", "gif", "svg"]
}
