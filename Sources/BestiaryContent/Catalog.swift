import BestiaryDiagnostics

/// Everything `content/` says, loaded and validated: the input of every later stage.
public struct Catalog: Sendable {
    /// The site root (the folder holding `content/`), as given on the command line.
    public var root: String
    public var config: SiteConfig
    /// Sorted by id.
    public var animals: [Animal]
    /// Sorted by weight, then slug.
    public var pages: [ContentPage]
    /// Every media file a record refers to, by its path relative to `content/`.
    public var mediaFiles: [String: MediaFile]

    public init(root: String, config: SiteConfig, animals: [Animal], pages: [ContentPage], mediaFiles: [String: MediaFile]) {
        self.root = root
        self.config = config
        self.animals = animals
        self.pages = pages
        self.mediaFiles = mediaFiles
    }

    public var contentDirectory: String { Catalog.contentDirectory(root: root) }

    /// The animal's name in each of the site's languages (along the fallbacks; its id when it has
    /// none), and the key the quiz compares it by: the language and the name, case and runs of
    /// spaces aside (`nameKeys` in questions.js).
    public static func nameKeys(_ animal: Animal, languages: [String]) -> [(key: String, name: String)] {
        languages.map { lang in
            let name = animal.name.resolve(lang, fallback: languages)?.text ?? animal.id
            if let key = asciiKey(lang, name) { return (key, name) }
            // Direction marks (U+200E, U+200F, U+061C) show nothing: 'Hare' and 'Hare' + U+200E
            // are one name on screen (found by a tester: an unanswerable question, no warning).
            let shown = String(String.UnicodeScalarView(name.unicodeScalars.filter { !Self.directionMarks.contains($0) }))
            return (lang + "\u{0}" + shown.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased(), name)
        }
    }

    static let directionMarks: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{061C}"]

    /// `nameKeys`' key of an ASCII name, byte by byte (the same key: ASCII holds no direction
    /// mark, its white space is U+0009–U+000D and the space, and its lower case is A–Z's). The
    /// loader keys every animal's names in every language before its first stage ends; through
    /// `Character`s that was 40–50 ms of one core on a 10,000-animal site. Nil for other names.
    static func asciiKey(_ lang: String, _ name: String) -> String? {
        var bytes = Array(lang.utf8)
        bytes.append(0)
        let start = bytes.count
        var pendingSpace = false
        for byte in name.utf8 {
            switch byte {
            case 0x80...: return nil
            case 0x09...0x0D, 0x20: pendingSpace = bytes.count > start
            default:
                if pendingSpace { bytes.append(0x20); pendingSpace = false }
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How many animals have a name no animal before them has in any of the site's languages
    /// (each along its fallbacks; case and spaces aside): `countDistinctNames` in the web app's
    /// questions.js, whose rounds never offer two such animals side by side and refuse to start
    /// with fewer than a question's choices. `animals` in id order, as the quiz takes them (the
    /// catalogue's order). Stops counting at `atLeast`.
    public static func distinctNames(_ animals: [Animal], languages: [String], atLeast: Int = .max) -> Int {
        var used = Set<String>()
        var count = 0
        for animal in animals where count < atLeast {
            let keys = nameKeys(animal, languages: languages).map(\.key)
            if keys.contains(where: used.contains) { continue }
            used.formUnion(keys)
            count += 1
        }
        return count
    }

    public static func contentDirectory(root: String) -> String {
        pathPrefix(root: root) + "content"
    }

    /// What a path below the site root begins with as a build spells it: the root and a slash,
    /// or nothing for the current folder.
    public static func pathPrefix(root: String) -> String {
        root == "." ? "" : root + "/"
    }

    public func animal(id: String) -> Animal? {
        animals.first { $0.id == id }
    }
}

/// A media file under `content/`, checked: it exists, stays inside, and its bytes are `format`.
public struct MediaFile: Hashable, Sendable {
    /// Relative to `content/`.
    public var path: String
    public var format: MediaFormat
    public var size: Int
    /// A change hint only (never in output).
    public var modificationTime: Int64

    public init(path: String, format: MediaFormat, size: Int, modificationTime: Int64) {
        self.path = path
        self.format = format
        self.size = size
        self.modificationTime = modificationTime
    }
}
