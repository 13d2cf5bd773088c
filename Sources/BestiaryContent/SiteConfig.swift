import BestiaryDiagnostics

/// `content/site.yml` (DESIGN.md §2).
public struct SiteConfig: Hashable, Sendable, Encodable {
    public var title: LocalizedText
    /// Absolute URL the site is deployed under, always ending in `/`.
    public var baseURL: String
    /// The site's languages; the first is the default, and content falls back along this list.
    public var languages: [String]
    public var wikipedia: WikipediaSettings
    public var quiz: QuizSettings
    public var packs: PackSettings?
    /// Each tag's label per language (`tags: {north-america: {de: Nordamerika, en: North
    /// America}}`): what the animal pages show for a record's tag, which is written once for all
    /// languages. See ``tagLabel(_:language:)``.
    public var tags: [String: LocalizedText] = [:]
    /// `app:`: how the site looks installed on a phone (the web app manifest, the browser's bar).
    public var app = AppSettings()
    /// The file, for diagnostics raised after loading (e.g. by `build`) about no key of it.
    public var location: SourceLocation
    /// Where each key was written (`quiz.choices`), for diagnostics raised after loading: see
    /// ``location(of:)``. Not part of what the config says: equal configs may differ in it.
    public var keyLocations = KeyLocations()

    /// Where `key` (dotted, `packs.expires_days`) was written; else its nearest parent that was;
    /// else the file's first line (a key left out, such as a default `quiz.choices`).
    public func location(of key: String) -> SourceLocation {
        var key = Substring(key)
        while true {
            if let found = keyLocations.positions[String(key)] { return found }
            guard let dot = key.lastIndex(of: ".") else { return location }
            key = key[..<dot]
        }
    }

    /// Key positions, left out of equality, hashing and encoding: moving a line of site.yml
    /// changes no page or pack, and no cache keyed by the config.
    public struct KeyLocations: Hashable, Sendable, Encodable {
        public var positions: [String: SourceLocation] = [:]
        public init(_ positions: [String: SourceLocation] = [:]) { self.positions = positions }
        public static func == (a: KeyLocations, b: KeyLocations) -> Bool { true }
        public func hash(into hasher: inout Hasher) {}
        /// Always `null`: the config's encoding keys caches (a field added later is encoded
        /// by synthesis, so none is left out by mistake).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    public var defaultLanguage: String { languages[0] }

    public init(
        title: LocalizedText, baseURL: String, languages: [String], wikipedia: WikipediaSettings = .init(),
        quiz: QuizSettings = .init(), packs: PackSettings? = nil,
        location: SourceLocation = SourceLocation(path: "content/site.yml", line: 1, column: 1)
    ) {
        self.title = title
        self.baseURL = baseURL
        self.languages = languages
        self.wikipedia = wikipedia
        self.quiz = quiz
        self.packs = packs
        self.tags = [:]
        self.location = location
    }

    /// What a page in `language` shows for `tag`: its label in that language, else the tag as
    /// written (a label in another language would put that language on the page).
    public func tagLabel(_ tag: String, language: String) -> String {
        tags[tag]?[language] ?? tag
    }

    /// The languages in the order to try for `language`: itself, then the site's list.
    public func fallback(for language: String) -> [String] {
        [language] + languages.filter { $0 != language }
    }
}

/// `wikipedia:` in site.yml.
public struct WikipediaSettings: Hashable, Sendable, Encodable {
    public static let defaultURL = "https://{lang}.wikipedia.org/api/rest_v1"
    public static let defaultCommonsURL = "https://commons.wikimedia.org/w/api.php"

    /// REST base URL template; `{lang}` is replaced by the language code.
    public var url: String
    /// Contact put into the User-Agent (Wikimedia's policy requires one for real use).
    public var contact: String?
    /// Action API used for image licences and authors (`imageinfo`/`extmetadata`).
    public var commonsURL: String

    public init(url: String = WikipediaSettings.defaultURL, contact: String? = nil, commonsURL: String = WikipediaSettings.defaultCommonsURL) {
        self.url = url
        self.contact = contact
        self.commonsURL = commonsURL
    }
}

/// `quiz:` in site.yml.
public struct QuizSettings: Hashable, Sendable, Encodable {
    public var questions: Int
    public var choices: Int

    public init(questions: Int = 10, choices: Int = 4) {
        self.questions = questions
        self.choices = choices
    }
}

/// `app:` in site.yml: the colours of the installed web app (its manifest's `theme_color` and
/// `background_color`, and the pages' `<meta name="theme-color">`), `#rrggbb` in lower case, and
/// the label under its icon.
public struct AppSettings: Hashable, Sendable, Encodable {
    /// The browser's bar and the app switcher's frame.
    public var themeColor = "#2f6b4f"
    /// The splash screen while the installed app starts.
    public var backgroundColor = "#fbfaf7"
    /// The label under the installed app's icon (the manifest's `short_name`), per language;
    /// without one, the title cut at a word to 12 characters.
    public var shortName = LocalizedText([:])
    /// About what a phone's home screen shows under an icon.
    public static let shortNameLength = 12

    public init() {}
}

/// `packs:` in site.yml.
public struct PackSettings: Hashable, Sendable, Encodable {
    /// The pack's stable id, `[a-z0-9_-]`.
    public var id: String
    /// How many earlier versions get a delta to the newest.
    public var keepDeltas: Int
    /// Base64 Ed25519 public keys clients should trust (for `pack verify` and docs).
    public var publicKeys: [String]
    /// Days until `latest.json` expires (clients refuse an expired pointer).
    public var expiresDays: Int

    public init(id: String, keepDeltas: Int = 10, publicKeys: [String] = [], expiresDays: Int = 30) {
        self.id = id
        self.keepDeltas = keepDeltas
        self.publicKeys = publicKeys
        self.expiresDays = expiresDays
    }
}
