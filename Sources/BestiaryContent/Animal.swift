import BestiaryDiagnostics
import BestiaryMarkdown
import BestiaryStorage

/// One animal record: `content/animals/ID.md` (DESIGN.md §2).
///
/// Its fields are kept in one box that its copies share (``BestiaryStorage/SharedValue``): a copy of an animal
/// is one reference count, not one per field. Copying them field by field was about 4 % of the
/// CPU of a one-record rebuild of the bench corpus (2026-12-05).
@dynamicMemberLookup
public struct Animal: Hashable, Sendable, Identifiable, Encodable, CustomReflectable {
    /// The fields, each read and changed as the animal's own (`animal.name`).
    public struct Fields: Hashable, Sendable, Encodable {
        /// Stable forever: the key clients sync by. `[a-z0-9_-]`, 1–64 characters.
        public var id: String
        public var name: LocalizedText
        public var scientific: String?
        /// Free text such as bird, mammal, amphibian: used for filters and distractors.
        public var group: String?
        /// 1 (easy) … 3 (hard); nil when not given.
        public var difficulty: Int?
        public var tags: [String]
        /// Wikipedia article title per language.
        public var wikipedia: [String: String]
        /// The record's own short text, used where no summary exists.
        public var description: LocalizedText
        /// A clue that does not give the name away (quiz hints).
        public var hint: LocalizedText
        /// Where the animal lives, per language (`habitat: {en: …}`); shown on the animal's page.
        public var habitat: LocalizedText
        /// Conservation status as the source states it, e.g. `Least Concern` or `LC` (IUCN Red List);
        /// shown on the animal's page.
        public var conservation: String?
        public var sound: MediaReference?
        /// The record's own picture; without one, pages show the Wikipedia lead image.
        public var image: MediaReference?
        /// CSS `object-position` for the Wikipedia lead image, for records without an image of their
        /// own: written `image: {focus: "50% 0%"}` with neither `file` nor `url`.
        public var leadImageFocus: String?
        /// Text in place of the Wikipedia lead image, per language, for records without an image of
        /// their own: `image: {alt: …}` with neither `file` nor `url` (without it, the animal's name).
        public var leadImageAlt: LocalizedText
        /// Markdown bodies by language: the default language's from `ID.md`, others from `ID.LANG.md`.
        public var bodies: [String: MarkdownBody]
        /// The record's file, relative to the site root.
        public var sourcePath: String
        /// Where the fields were written, for later diagnostics (`wikipedia.de` → its line).
        public var fieldLocations: [String: SourceLocation]
    }

    @usableFromInline var fields: SharedValue<Fields>

    @inlinable public subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: field] }
        _modify { yield &fields.value[keyPath: field] }
    }

    /// The record's id (``Fields/id``): a member of its own, as `Identifiable` asks, which a
    /// dynamic member cannot be.
    public var id: String {
        get { fields.value.id }
        _modify { yield &fields.value.id }
    }

    public init(
        id: String, name: LocalizedText, scientific: String? = nil, group: String? = nil, difficulty: Int? = nil,
        tags: [String] = [], wikipedia: [String: String] = [:], description: LocalizedText = LocalizedText([:]),
        hint: LocalizedText = LocalizedText([:]), sound: MediaReference? = nil, image: MediaReference? = nil,
        bodies: [String: MarkdownBody] = [:], sourcePath: String, fieldLocations: [String: SourceLocation] = [:],
        habitat: LocalizedText = LocalizedText([:]), conservation: String? = nil, leadImageFocus: String? = nil,
        leadImageAlt: LocalizedText = LocalizedText([:])
    ) {
        fields = SharedValue(Fields(
            id: id,
            name: name,
            scientific: scientific,
            group: group,
            difficulty: difficulty,
            tags: tags,
            wikipedia: wikipedia,
            description: description,
            hint: hint,
            habitat: habitat,
            conservation: conservation,
            sound: sound,
            image: image,
            leadImageFocus: leadImageFocus,
            leadImageAlt: leadImageAlt,
            bodies: bodies,
            sourcePath: sourcePath,
            fieldLocations: fieldLocations
        ))
    }

    /// Encoded as its fields would be were they its own.
    public func encode(to encoder: any Encoder) throws {
        try fields.value.encode(to: encoder)
    }

    /// Its fields, as were they its own: what a test that lists them, printing and debugging show.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }

    /// The location of `field` (e.g. `wikipedia.de`), else of the record's first line.
    public func location(of field: String) -> SourceLocation {
        self.fieldLocations[field] ?? SourceLocation(path: self.sourcePath, line: 1, column: 1)
    }

    /// Valid ids: `[a-z0-9_-]{1,64}`.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 || $0 == 45 }
    }
}

/// A Markdown body with where it starts, so cmark's positions can be mapped back if needed.
public struct MarkdownBody: Hashable, Sendable, Encodable {
    public var markdown: String
    public var location: SourceLocation

    public init(markdown: String, location: SourceLocation) {
        self.markdown = markdown
        self.location = location
    }

    public var isBlank: Bool { markdown.allSatisfy(\.isWhitespace) }

    /// What is wrong with the text beyond what reading the file found, from one parse by cmark:
    /// - a direction control or a control character a page cannot show written as a character
    ///   reference (`&#x202E;`, `&#7;`: raw ones are refused when the file is read), an error;
    /// - a warning for each image whose address is a path (`![Owl](images/owl.jpg)`): the site has
    ///   no such file. Files under `content/` are published only as a record's sound and image,
    ///   under names made from their bytes (a name could give a quiz answer away);
    /// - a warning for raw HTML (once per text) and for each address safe mode removes: the page
    ///   leaves them out, for safety, and the author should know.
    public func problems() -> [Diagnostic] {
        func refused(_ scalar: UInt32) -> Bool { DirectionControl.isControl(scalar) || ControlCharacter.isControl(scalar) }
        // One written raw was reported when the file was read: not again as a character reference.
        let mayHoldRaw = markdown.utf8.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0C && $0 != 0x0D) || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        let raw: Set<UInt32> = mayHoldRaw ? Set(markdown.unicodeScalars.lazy.map(\.value).filter(refused)) : []
        let found = Markdown.inspect(markdown, referenced: { refused($0) && !raw.contains($0) })
        var problems: [Diagnostic] = []
        if let reference = found.referenced {
            let what = DirectionControl.isControl(reference.scalar)
                ? "\(DirectionControl.describe(reference.scalar)) by a character reference, \(DirectionControl.why)"
                : "\(ControlCharacter.describe(reference.scalar)) by a character reference, \(ControlCharacter.why)"
            problems.append(.error("the text refers to \(what)", at: at(line: reference.line, column: reference.column), stage: "load"))
        }
        for image in found.images where Self.isLocal(image.url) {
            problems.append(.warning(
                "image '\(image.url)' in the text will not show: files under content/ are published only as a record's sound and image; give the picture's https:// address instead",
                at: at(line: image.line, column: image.column), stage: "load"))
        }
        if let first = found.html.first {
            let n = found.html.count
            problems.append(.warning(
                "HTML in the text is left out of the page, for safety (\(n) piece\(n == 1 ? "" : "s"), the first here); write Markdown instead (**bold**, *italic*, [a link](https://…), a blank line between paragraphs)",
                at: at(line: first.line, column: first.column), stage: "load"))
        }
        for link in found.removedAddresses {
            problems.append(.warning(
                "the address '\(link.url.prefix(40))' is removed from the page, for safety (javascript:, vbscript:, file: and data: addresses are); give an https:// address",
                at: at(line: link.line, column: link.column), stage: "load"))
        }
        return problems
    }

    /// `line` and `column` in `markdown`, in the file.
    public func at(line: Int, column: Int) -> SourceLocation {
        SourceLocation(path: location.path, line: location.line + line - 1, column: line == 1 ? location.column + column - 1 : column)
    }

    /// A path (`images/owl.jpg`), not an address with a scheme, an absolute path or a fragment.
    public static func isLocal(_ url: String) -> Bool {
        let hasScheme = url.firstIndex(of: ":").map { colon in
            let scheme = url[..<colon]
            return !scheme.isEmpty && scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
        } ?? false
        return !url.isEmpty && !hasScheme && !url.hasPrefix("/") && !url.hasPrefix("#")
    }
}

extension Animal {
    /// Feeds every field into `feed`, in declaration order (a test lists them, so that a field
    /// added to the type is added here too): the digest of an animal's inputs that pages are
    /// reused by (`BestiaryRender`'s `PageDigests`).
    public func feed(into feed: inout DigestFeed) {
        feed.add(id)
        feed.add(self.name.values)
        feed.add(self.scientific)
        feed.add(self.group)
        feed.add(self.difficulty)
        feed.add(count: self.tags.count)
        for tag in self.tags { feed.add(tag) }
        feed.add(self.wikipedia)
        feed.add(self.description.values)
        feed.add(self.hint.values)
        feed.add(self.habitat.values)
        feed.add(self.conservation)
        for reference in [self.sound, self.image] {
            guard let reference else {
                feed.add(nil as String?)
                continue
            }
            feed.add(reference.kind.rawValue)
            switch reference.source {
            case .file(let path): feed.add("file " + path)
            case .url(let url): feed.add("url " + url)
            }
            feed.add(reference.format.rawValue)
            feed.add(reference.credit)
            feed.add(reference.license)
            feed.add(reference.sourceURL)
            feed.add(reference.focus)
            feed.add(reference.alt.values)
            reference.location.feed(into: &feed)
        }
        feed.add(self.leadImageFocus)
        feed.add(self.leadImageAlt.values)
        feed.add(count: self.bodies.count)
        for (language, body) in self.bodies.sorted(by: { $0.key < $1.key }) {
            feed.add(language)
            feed.add(body.markdown)
            body.location.feed(into: &feed)
        }
        feed.add(self.sourcePath)
        feed.add(count: self.fieldLocations.count)
        for (field, location) in self.fieldLocations.sorted(by: { $0.key < $1.key }) {
            feed.add(field)
            location.feed(into: &feed)
        }
    }
}

extension SourceLocation {
    func feed(into feed: inout DigestFeed) {
        feed.add(path)
        feed.add(line)
        feed.add(column)
    }
}

extension Animal {
    /// Whether the record's own `description` in `language` is shown instead of a Wikipedia
    /// summary written in `summaryLanguage` (another language's, a fallback): the author's text
    /// in the reader's language comes first. The pages, the credits, the quiz catalogue and the
    /// packs all go by this.
    public func prefersOwnDescription(in language: String, overSummaryIn summaryLanguage: String) -> Bool {
        summaryLanguage != language && self.description[language] != nil
    }
}
