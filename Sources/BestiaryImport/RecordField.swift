import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// One front-matter field as a CSV header, `bestiary add --set` or an import format names it:
/// the record's keys, nested ones dotted (`name.en`, `wikipedia.de`, `sound.credit`, `image.focus`).
public enum RecordField: Hashable, Sendable, CustomStringConvertible {
    case localized(LocalizedKey, language: String)
    case scientific
    case group
    case difficulty
    case tags
    case conservation
    case wikipedia(language: String)
    case media(MediaKind, MediaAttribute)
    case imageAlt(language: String)

    /// The localized texts of a record.
    public enum LocalizedKey: String, Sendable, CaseIterable {
        case name, description, hint, habitat
    }

    /// The keys under `sound:` and `image:` (`focus` is the image's only).
    public enum MediaAttribute: String, Sendable, CaseIterable {
        case file, url, credit, license, source, focus
    }

    /// Separates tags in one text: `forest; europe`.
    public static let tagSeparator: Character = ";"

    /// Every key spelling accepted, for "did you mean" and help texts.
    public static func allKeys(languages: [String]) -> [String] {
        var keys: [String] = []
        for key in LocalizedKey.allCases { keys += [key.rawValue] + languages.map { "\(key.rawValue).\($0)" } }
        keys += ["scientific", "group", "difficulty", "tags", "conservation"]
        keys += languages.map { "wikipedia.\($0)" }
        keys += MediaAttribute.allCases.filter { $0 != .focus }.map { "sound.\($0.rawValue)" }
        keys += MediaAttribute.allCases.map { "image.\($0.rawValue)" }
        keys += ["image.alt"] + languages.map { "image.alt.\($0)" }
        return keys
    }

    /// Reads a dotted key. A localized key without a language (`name`) is the default language's.
    /// Languages must be among the site's.
    /// `plain`: the language of a key without one (`name`); the site's default when nil.
    public static func parse(_ key: String, languages: [String], plain: String? = nil) -> Result<RecordField, FieldProblem> {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let defaultLanguage = plain ?? languages.first ?? "en"
        func language(_ code: String) -> Result<String, FieldProblem> {
            // The site's language in other capitals (`name.DE`) or with a region (`description.de-DE`):
            // the column meant is that language's, not a new language.
            let prefix = key.dropLast(code.count)
            let listed = LanguageCode.listed(code, among: languages)
            guard LanguageCode.isValid(code) else {
                let meant = listed.map { "\(prefix)\($0)" } ?? LanguageCode.meant(byName: code)
                return .failure(FieldProblem("'\(key)': '\(code)' is not a language code like en or de\(meant.map { " (did you mean '\($0)'?)" } ?? "")"))
            }
            guard languages.contains(code) else {
                if let listed {
                    return .failure(FieldProblem(
                        "'\(key)': language '\(code)' is not in content/site.yml's languages (\(languages.joined(separator: ", "))), which write it '\(listed)': name the column \(prefix)\(listed)"))
                }
                return .failure(FieldProblem(
                    "'\(key)': language '\(code)' is not in content/site.yml's languages (\(languages.joined(separator: ", "))); add it there first"))
            }
            return .success(code)
        }
        switch (parts.first ?? "", parts.count) {
        case ("scientific", 1): return .success(.scientific)
        case ("group", 1): return .success(.group)
        case ("difficulty", 1): return .success(.difficulty)
        case ("tags", 1): return .success(.tags)
        case ("conservation", 1): return .success(.conservation)
        case ("wikipedia", 2): return language(parts[1]).map { .wikipedia(language: $0) }
        case ("wikipedia", 1): return .success(.wikipedia(language: defaultLanguage))
        case ("image", 2) where parts[1] == "alt": return .success(.imageAlt(language: defaultLanguage))
        case ("image", 3) where parts[1] == "alt": return language(parts[2]).map { .imageAlt(language: $0) }
        case ("sound", 2), ("image", 2):
            let kind: MediaKind = parts[0] == "sound" ? .sound : .image
            guard let attribute = MediaAttribute(rawValue: parts[1]), attribute != .focus || kind == .image else { break }
            return .success(.media(kind, attribute))
        default:
            if let localized = LocalizedKey(rawValue: parts[0]) {
                if parts.count == 1 { return .success(.localized(localized, language: defaultLanguage)) }
                if parts.count == 2 { return language(parts[1]).map { .localized(localized, language: $0) } }
            }
        }
        // `id` is no field of the front matter, but a header's first column: suggested too (`ID`).
        // A spreadsheet's own names for some: `Scientific Name`, `sound`, `image`.
        let spelt = key.lowercased().filter { $0.isLetter }
        let named = ["scientificname": "scientific", "latinname": "scientific", "sound": "sound.file", "image": "image.file", "picture": "image.file", "photo": "image.file"][spelt]
        guard let meant = named ?? Suggestion.closest(to: key, among: ["id"] + allKeys(languages: languages)) else {
            var problem = FieldProblem("'\(key)' is not a record field")
            problem.nothingLikeIt = true
            return .failure(problem)
        }
        // `\u{FEFF}id` (a file with two byte-order marks): it read "'id' is not a record field (did
        // you mean 'id'?)"; the character no one can see is named.
        let unseen = key.unicodeScalars.first { PastedText.isInvisible($0) }.map {
            " (it holds U+\(String(format: "%04X", $0.value))\(PastedText.invisibleNames[$0.value].map { ", \($0)" } ?? ""), which cannot be seen)"
        } ?? ""
        return .failure(FieldProblem("'\(key)' is not a record field\(unseen) (did you mean '\(meant)'?)"))
    }

    /// Whether a value given as a file is a web address (`https://…`), which a record names as
    /// `sound.url` or `image.url` instead.
    public static func isWebAddress(_ value: String) -> Bool {
        let lower = value.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    public var description: String {
        switch self {
        case .localized(let key, let language): "\(key.rawValue).\(language)"
        case .scientific: "scientific"
        case .group: "group"
        case .difficulty: "difficulty"
        case .tags: "tags"
        case .conservation: "conservation"
        case .wikipedia(let language): "wikipedia.\(language)"
        case .media(let kind, let attribute): "\(kind.rawValue).\(attribute.rawValue)"
        case .imageAlt(let language): "image.alt.\(language)"
        }
    }

    /// `file` and `url` first: they make the `sound:`/`image:` that credits and licences go into.
    var applicationOrder: Int {
        if case .media(_, let a) = self, a == .file || a == .url { return 0 }
        return 1
    }

    /// Whether `animal` has a value for this field (defaults fill only empty fields).
    public func isSet(in animal: Animal) -> Bool {
        switch self {
        case .localized(let key, let language): return Self.text(key, of: animal).values[language] != nil
        case .scientific: return animal.scientific != nil
        case .group: return animal.group != nil
        case .difficulty: return animal.difficulty != nil
        case .tags: return !animal.tags.isEmpty
        case .conservation: return animal.conservation != nil
        case .wikipedia(let language): return animal.wikipedia[language] != nil
        case .media(let kind, let attribute):
            guard let m = kind == .sound ? animal.sound : animal.image else {
                return kind == .image && attribute == .focus && animal.leadImageFocus != nil
            }
            switch attribute {
            case .file, .url: return true
            case .credit: return m.credit != nil
            case .license: return m.license != nil
            case .source: return m.sourceURL != nil
            case .focus: return m.focus != nil
            }
        case .imageAlt(let language): return (animal.image?.alt ?? animal.leadImageAlt).values[language] != nil
        }
    }

    static func text(_ key: LocalizedKey, of animal: Animal) -> LocalizedText {
        switch key {
        case .name: animal.name
        case .description: animal.description
        case .hint: animal.hint
        case .habitat: animal.habitat
        }
    }

    /// Sets the field to `value` (already trimmed, not empty). Values are checked only as far as
    /// needed to build the record; the record parser checks the rest on the written text.
    public func apply(_ value: String, to animal: inout Animal) throws(FieldProblem) {
        if let scalar = DirectionControl.first(in: value) {
            throw FieldProblem("\(self) contains \(DirectionControl.describe(scalar)), \(DirectionControl.why)")
        }
        if let scalar = ControlCharacter.first(in: value) {
            throw FieldProblem("\(self) contains \(ControlCharacter.describe(scalar)), \(ControlCharacter.why)")
        }
        switch self {
        case .localized(let key, let language):
            switch key {
            case .name: animal.name.values[language] = value
            case .description: animal.description.values[language] = value
            case .hint: animal.hint.values[language] = value
            case .habitat: animal.habitat.values[language] = value
            }
        case .scientific: animal.scientific = value
        case .group: animal.group = value
        case .conservation: animal.conservation = value
        case .difficulty:
            // A cell formatted with decimals (`2.0`, `2,00` in a German spreadsheet) is the number.
            var whole = Substring(value)
            if let mark = whole.lastIndex(where: { $0 == "." || $0 == "," }), whole[whole.index(after: mark)...].allSatisfy({ $0 == "0" }) {
                whole = whole[..<mark]
            }
            guard let n = Int(whole), (1...3).contains(n) else {
                throw FieldProblem("difficulty must be 1, 2 or 3, not '\(value)'")
            }
            animal.difficulty = n
        case .tags:
            // `garden, forest` was one tag, "garden, forest".
            if !value.contains(Self.tagSeparator), value.contains(",") {
                let meant = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
                throw FieldProblem("tags are separated by ';', not ',': '\(value)' would be one tag; write \(meant)")
            }
            var tags: [String] = []
            for part in value.split(separator: Self.tagSeparator) {
                let tag = part.trimmingCharacters(in: .whitespacesAndNewlines)
                if !tag.isEmpty && !tags.contains(tag) { tags.append(tag) }
            }
            animal.tags = tags
        case .wikipedia(let language):
            // An article's address (a spreadsheet's link) names its title: that is what is written.
            if let article = PastedText.wikipediaArticle(value), article.language == LanguageCode.wikipediaCode(language) {
                animal.wikipedia[language] = article.title
            } else {
                animal.wikipedia[language] = value
            }
        case .imageAlt(let language):
            // Without a picture of the record's own, it describes the Wikipedia picture (as image.focus crops it).
            if animal.image == nil { animal.leadImageAlt.values[language] = value } else { animal.image!.alt.values[language] = value }
        case .media(let kind, let attribute):
            try applyMedia(kind, attribute, value, to: &animal)
        }
    }

    private func applyMedia(_ kind: MediaKind, _ attribute: MediaAttribute, _ value: String, to animal: inout Animal) throws(FieldProblem) {
        let key = "\(kind.rawValue).\(attribute.rawValue)"
        var reference = kind == .sound ? animal.sound : animal.image
        switch attribute {
        case .file, .url:
            let format: MediaFormat
            if attribute == .file {
                if let problem = ContentPath.lexicalProblem(value) { throw FieldProblem("\(key) '\(value)': \(problem)") }
                guard let f = Self.format(ofPath: value, kind: kind) else {
                    throw FieldProblem("\(key) '\(value)' is not a supported \(kind == .sound ? "sound" : "picture") type (\(Self.extensions(kind)))")
                }
                format = f
            } else {
                let path = String(value.split(separator: "?").first ?? Substring(value))
                guard let f = Self.format(ofPath: path, kind: kind) else {
                    throw FieldProblem("\(key) '\(value)' must end in \(Self.extensions(kind)), so that the type is known")
                }
                format = f
            }
            let source: MediaReference.Source = attribute == .file ? .file(value) : .url(value)
            if reference == nil {
                reference = MediaReference(kind: kind, source: source, format: format, location: SourceLocation(path: animal.sourcePath))
                if kind == .image {
                    // The Wikipedia picture's focus and alt text become the record's picture's.
                    reference!.focus = animal.leadImageFocus
                    reference!.alt = animal.leadImageAlt
                    animal.leadImageFocus = nil
                    animal.leadImageAlt = LocalizedText([:])
                }
            } else {
                reference!.source = source
                reference!.format = format
            }
        case .focus:
            if reference == nil {
                animal.leadImageFocus = value
                return
            }
            reference!.focus = value
        case .credit, .license, .source:
            guard reference != nil else {
                throw FieldProblem("\(key) needs \(kind == .sound ? "a sound" : "a picture"): give \(kind.rawValue).file or \(kind.rawValue).url too")
            }
            switch attribute {
            case .credit: reference!.credit = value
            case .license: reference!.license = value
            default: reference!.sourceURL = value
            }
        }
        if kind == .sound { animal.sound = reference } else { animal.image = reference }
    }

    static func format(ofPath path: String, kind: MediaKind) -> MediaFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return MediaFormat.candidates(forExtension: String(name[name.index(after: dot)...])).first { $0.kind == kind }
    }

    static func extensions(_ kind: MediaKind) -> String {
        (kind == .sound ? MediaFormat.soundExtensions : MediaFormat.imageExtensions).map { "." + $0 }.joined(separator: ", ")
    }
}

/// Why a field could not be read or set: a sentence for the user.
public struct FieldProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// A key that is no record field and like none (a spreadsheet's notes column).
    public var nothingLikeIt = false
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

