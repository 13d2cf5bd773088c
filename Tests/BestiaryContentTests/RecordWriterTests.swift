import BestiaryDiagnostics
import BestiaryTestSupport
import Testing
import Yams

@testable import BestiaryContent

private let config = SiteConfig(title: LocalizedText(["en": "Test"]), baseURL: "https://example.org/", languages: ["en", "de"])
private let writer = RecordWriter(config: config)

/// Parses `text` as `content/animals/FILEID.md`, failing the test on any error.
private func parse(_ text: String, fileID: String = "red-fox") -> Animal? {
    let (animal, diagnostics) = Animal.parse(SourceText(path: "content/animals/\(fileID).md", text: text), fileID: fileID, config: config)
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors)\n--- text ---\n\(text)")
    return animal
}

/// The record without where it was read from, so that records from different texts compare.
private func content(_ a: Animal) -> Animal {
    var b = a
    let here = SourceLocation(path: "x")
    b.sourcePath = "x"
    b.fieldLocations = [:]
    b.sound?.location = here
    b.image?.location = here
    b.bodies = b.bodies.mapValues { MarkdownBody(markdown: $0.markdown, location: here) }
    return b
}

private func media(_ kind: MediaKind, _ source: MediaReference.Source, credit: String? = nil, focus: String? = nil) -> MediaReference {
    let path: String
    switch source {
    case .file(let p), .url(let p): path = p
    }
    let ext = String(path.split(separator: ".").last!)
    return MediaReference(
        kind: kind, source: source, format: MediaFormat.candidates(forExtension: ext).first!, credit: credit, focus: focus,
        location: SourceLocation(path: "x"))
}

@Suite struct RecordWriterTests {
    @Test func writesKeysInTheDocumentedOrderWithFlowMapsInTheSitesLanguageOrder() {
        var fox = Animal(
            id: "red-fox", name: LocalizedText(["de": "Rotfuchs", "en": "Red fox"]), scientific: "Vulpes vulpes", group: "mammal",
            difficulty: 1, tags: ["forest", "europe"], wikipedia: ["de": "Rotfuchs", "en": "Red fox"],
            description: LocalizedText(["en": "A small wild dog."]), sourcePath: "x")
        fox.habitat = LocalizedText(["en": "Forests, fields and towns"])
        fox.conservation = "Least Concern"
        fox.sound = media(.sound, .file("sounds/red-fox.ogg"), credit: "Jane Doe, XC123456")
        fox.image = media(.image, .file("images/red-fox.webp"), focus: "50% 20%")
        fox.bodies["en"] = MarkdownBody(markdown: "Foxes *hunt* at dusk.\n", location: SourceLocation(path: "x"))
        let expected = """
            ---
            name: {en: Red fox, de: Rotfuchs}
            scientific: Vulpes vulpes
            group: mammal
            difficulty: 1
            tags: [forest, europe]
            wikipedia: {en: Red fox, de: Rotfuchs}
            description: {en: A small wild dog.}
            habitat: {en: "Forests, fields and towns"}
            conservation: Least Concern
            sound:
              file: sounds/red-fox.ogg
              credit: Jane Doe, XC123456
            image:
              file: images/red-fox.webp
              focus: "50% 20%"
            ---
            Foxes *hunt* at dusk.

            """
        #expect(writer.document(for: fox, fileID: "red-fox") == expected)
        #expect(parse(expected).map(content) == content(fox))
    }

    @Test func writesTheIDOnlyWhenTheFileNameDoesNotGiveIt() {
        let a = Animal(id: "fox", name: LocalizedText(["en": "Fox"]), sourcePath: "x")
        #expect(!writer.document(for: a, fileID: "fox").contains("id:"))
        #expect(writer.document(for: a, fileID: "old-name").hasPrefix("---\nid: fox\n"))
    }

    @Test(arguments: [
        ("No", "\"No\""), ("yes", "\"yes\""), ("ON", "\"ON\""), ("null", "\"null\""), ("~", "\"~\""), ("1.0", "\"1.0\""),
        ("12:30", "\"12:30\""), ("2024-01-01", "\"2024-01-01\""), ("0x1F", "\"0x1F\""), (".inf", "\".inf\""),
        ("a: b", "\"a: b\""), ("ends:", "\"ends:\""), ("*alias", "\"*alias\""), ("&anchor", "\"&anchor\""), ("!tag", "\"!tag\""),
        ("%dir", "\"%dir\""), ("@at", "\"@at\""), ("`tick", "\"`tick\""), ("#hash", "\"#hash\""), ("a #comment", "\"a #comment\""),
        ("- dash", "\"- dash\""), ("[list]", "\"[list]\""), ("{map}", "\"{map}\""), ("| pipe", "\"| pipe\""), ("'quoted'", "\"'quoted'\""),
        ("\"dq\"", "\"\\\"dq\\\"\""), (" leading", "\" leading\""), ("trailing ", "\"trailing \""), ("tab\there", "\"tab\\there\""),
        ("bell\u{07}", "\"bell\\u0007\""), ("back\\slash", "back\\slash"), ("C#", "C#"), ("Red fox", "Red fox"),
        ("Rotkehlchen (Vogel)", "Rotkehlchen (Vogel)"), ("Jane Doe, XC123456", "Jane Doe, XC123456"), ("https://x.org/a#b", "https://x.org/a#b"),
        ("Ünïcödé 日本 🦊", "Ünïcödé 日本 🦊"), ("", "\"\""),
    ])
    func quotesWhatYAMLWouldMisread(_ value: String, _ written: String) throws {
        #expect(YAMLScalar.plainOrQuoted(value) == written)
        // Any YAML reader (here Yams with its own type resolution) gets the text back.
        let loaded = try Yams.load(yaml: "v: \(written)\n") as? [String: Any]
        #expect(loaded?["v"] as? String == value)
    }

    @Test(arguments: ["a, b", "x:y", "[", "it's", "say \"hi\"", "{"])
    func flowContextQuotesFlowIndicators(_ value: String) throws {
        let written = YAMLScalar.plainOrQuoted(value, flow: true)
        #expect(written.hasPrefix("\""))
        let loaded = try Yams.load(yaml: "v: {en: \(written)}\n") as? [String: [String: Any]]
        #expect(loaded?["v"]?["en"] as? String == value)
    }

    @Test func multiLineTextBecomesALiteralBlockWhenExactElseEscapes() {
        var a = Animal(id: "owl", name: LocalizedText(["en": "Owl"]), sourcePath: "x")
        a.description = LocalizedText(["en": "Hoots at night.\n\nSleeps by day: mostly.", "de": "Zeile 1  \nZeile 2"])
        let text = writer.document(for: a, fileID: "owl")
        #expect(text.contains("description:\n  en: |-\n    Hoots at night.\n\n    Sleeps by day: mostly.\n"))
        #expect(text.contains("  de: \"Zeile 1  \\nZeile 2\"\n"))
        #expect(parse(text, fileID: "owl").map(content) == content(a))
    }

    @Test func languageCodesYAMLWouldReadAsBooleansAreQuotedToo() throws {
        let norwegian = SiteConfig(title: LocalizedText(["no": "T"]), baseURL: "https://example.org/", languages: ["no", "en"])
        let a = Animal(id: "elg", name: LocalizedText(["no": "Elg", "en": "Moose"]), sourcePath: "x")
        let text = RecordWriter(config: norwegian).document(for: a, fileID: "elg")
        #expect(text == "---\nname: {\"no\": Elg, en: Moose}\n---\n")
        let (back, diagnostics) = Animal.parse(SourceText(path: "content/animals/elg.md", text: text), fileID: "elg", config: norwegian)
        #expect(diagnostics.isEmpty)
        #expect(back?.name.values == ["no": "Elg", "en": "Moose"])
    }

    @Test func leadImageFocusIsWrittenAsAnImageWithOnlyAFocus() {
        var a = Animal(id: "fuchs", name: LocalizedText(["en": "Fox"]), sourcePath: "x")
        a.leadImageFocus = "50% 0%"
        let text = writer.document(for: a, fileID: "fuchs")
        #expect(text.contains("image:\n  focus: \"50% 0%\"\n"))
        #expect(parse(text, fileID: "fuchs")?.leadImageFocus == "50% 0%")

        a.leadImageAlt = LocalizedText(["en": "A fox in snow"])
        let described = writer.document(for: a, fileID: "fuchs")
        #expect(described.contains("image:\n  focus: \"50% 0%\"\n  alt: {en: A fox in snow}\n"), "\(described)")
        #expect(parse(described, fileID: "fuchs")?.leadImageAlt == a.leadImageAlt)
    }

    @Test func longFlowMapsAndListsSwitchToBlockStyle() {
        var a = Animal(id: "x", name: LocalizedText(["en": String(repeating: "Long name ", count: 12).trimmingCharacters(in: .whitespaces)]), sourcePath: "x")
        a.tags = (1...30).map { "tag\($0)" }
        let text = writer.document(for: a, fileID: "x")
        #expect(text.contains("name:\n  en: Long name"))
        #expect(text.contains("tags:\n  - tag1\n  - tag2\n"))
        #expect(parse(text, fileID: "x").map(content) == content(a))
    }

    /// The round-trip property over many generated records full of text YAML could misread.
    @Test func roundTripsGeneratedRecords() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<400 {
            let animal = GeneratedRecord.make(&rng)
            let text = writer.document(for: animal, fileID: animal.id)
            guard let back = parse(text, fileID: animal.id) else { continue }
            #expect(content(back) == content(animal), "\(text)")
        }
    }
}

// MARK: - Surgical updates

@Suite struct RecordWriterUpdateTests {
    /// A record as a person writes it: comments, their own order inside maps, quoting, a body.
    static let handWritten = """
        ---
        # Our fox. Keep the German name first, it is a German site.
        name: {de: Fuchs, en: Fox}   # common names
        scientific: 'Vulpes vulpes'
        tags: [forest]

        # Titles checked by hand on 2024-05-01.
        wikipedia:
          de: Rotfuchs
          en: Red fox
        sound:
          file: sounds/fox.ogg
          credit: "Jane Doe"   # XC123456
        ---
        The red fox is the **largest** of the true foxes.

        """

    @Test func unchangedRecordKeepsEveryByte() throws {
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        #expect(writer.update(Self.handWritten, from: old, to: old, fileID: "fox") == Self.handWritten)
    }

    @Test func changingOneFieldRewritesOnlyItsLines() throws {
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        var new = old
        new.scientific = "Vulpes vulpes crucigera"
        let updated = writer.update(Self.handWritten, from: old, to: new, fileID: "fox")
        #expect(updated == Self.handWritten.replacingOccurrences(of: "scientific: 'Vulpes vulpes'", with: "scientific: Vulpes vulpes crucigera"))
        #expect(parse(updated, fileID: "fox").map(content) == content(new))
    }

    @Test func newKeysGoAfterTheKeyThatPrecedesThemAndBeforeTheNextKeysComments() throws {
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        var new = old
        new.group = "mammal"  // after scientific… tags is next in the order, so before tags
        new.habitat = LocalizedText(["en": "Forests and towns"])  // after wikipedia, before sound
        new.name.values["en"] = "Red fox"
        let updated = writer.update(Self.handWritten, from: old, to: new, fileID: "fox")
        #expect(updated == """
            ---
            # Our fox. Keep the German name first, it is a German site.
            name: {en: Red fox, de: Fuchs}
            scientific: 'Vulpes vulpes'
            group: mammal
            tags: [forest]

            # Titles checked by hand on 2024-05-01.
            wikipedia:
              de: Rotfuchs
              en: Red fox
            habitat: {en: Forests and towns}
            sound:
              file: sounds/fox.ogg
              credit: "Jane Doe"   # XC123456
            ---
            The red fox is the **largest** of the true foxes.

            """)
        #expect(parse(updated, fileID: "fox").map(content) == content(new))
    }

    @Test func removedKeysLoseTheirLinesOnly() throws {
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        var new = old
        new.wikipedia = [:]
        new.sound = nil
        let updated = writer.update(Self.handWritten, from: old, to: new, fileID: "fox")
        #expect(updated == """
            ---
            # Our fox. Keep the German name first, it is a German site.
            name: {de: Fuchs, en: Fox}   # common names
            scientific: 'Vulpes vulpes'
            tags: [forest]

            # Titles checked by hand on 2024-05-01.
            ---
            The red fox is the **largest** of the true foxes.

            """)
    }

    @Test func keepsByteOrderMarkAndCRLF() throws {
        let crlf = "\u{FEFF}" + Self.handWritten.replacingOccurrences(of: "\n", with: "\r\n")
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        var new = old
        new.difficulty = 2
        let updated = writer.update(crlf, from: old, to: new, fileID: "fox")
        #expect(updated.hasPrefix("\u{FEFF}---\r\n"))
        #expect(updated.contains("tags: [forest]\r\n"))
        #expect(updated.contains("difficulty: 2\r\n"))
        #expect(!updated.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(updated.replacingOccurrences(of: "\r\n", with: "\n").dropFirst() == Substring(writer.update(Self.handWritten, from: old, to: new, fileID: "fox")))
    }

    @Test func aFlowMappingFrontMatterIsWrittenAnewKeepingFieldsAndBody() throws {
        let text = "---\n{name: {en: Fox}, group: mammal}\n---\nBody text.\n"
        let old = try #require(parse(text, fileID: "fox"))
        var new = old
        new.scientific = "Vulpes vulpes"
        let updated = writer.update(text, from: old, to: new, fileID: "fox")
        #expect(updated == "---\nname: {en: Fox}\nscientific: Vulpes vulpes\ngroup: mammal\n---\nBody text.\n")
    }

    @Test func aChangedBodyReplacesTheBodyOnly() throws {
        let old = try #require(parse(Self.handWritten, fileID: "fox"))
        var new = old
        new.bodies["en"] = MarkdownBody(markdown: "New text.\n", location: SourceLocation(path: "x"))
        let updated = writer.update(Self.handWritten, from: old, to: new, fileID: "fox")
        #expect(updated.hasSuffix("credit: \"Jane Doe\"   # XC123456\n---\nNew text.\n"))
    }

    /// A record whose keys are in another order than the writer's: a key changed where another is
    /// inserted (`group` written before `name`; `name` changed, `difficulty` added) gave two
    /// `name`s, so import and `add --force` failed on it (found by a user).
    @Test func aKeyChangedWhereAnotherIsInsertedIsReplacedOnce() throws {
        let text = "---\ngroup: mammal\nname: {en: Otter}\n---\nBody\n"
        let old = try #require(parse(text, fileID: "otter"))
        var new = old
        new.name.values["de"] = "Fischotter"
        new.difficulty = 2
        let updated = writer.update(text, from: old, to: new, fileID: "otter")
        #expect(updated == "---\ngroup: mammal\ndifficulty: 2\nname: {en: Otter, de: Fischotter}\n---\nBody\n")
        #expect(parse(updated, fileID: "otter").map(content) == content(new))
    }

    /// Property: from any generated record, its keys in the writer's order or shuffled, to any
    /// other, the update reads back as the new record (in another order, a key replaced where
    /// another was inserted once gave two `name`s).
    @Test(arguments: [false, true])
    func updatesBetweenGeneratedRecordsReadBackAsTheNewRecord(shuffled: Bool) {
        var rng = SplitMix64(seed: shuffled ? 34 : 21)
        for _ in 0..<(shuffled ? 300 : 200) {
            let a = GeneratedRecord.make(&rng)
            var b = GeneratedRecord.make(&rng)
            b.id = a.id
            let written = writer.document(for: a, fileID: a.id)
            let original = shuffled ? Self.shufflingKeys(written, &rng) : written
            guard let old = parse(original, fileID: a.id) else { continue }
            let updated = writer.update(original, from: old, to: b, fileID: a.id)
            #expect(parse(updated, fileID: a.id).map(content) == content(b), "\(original)\n=>\n\(updated)")
        }
    }

    /// `text` with its front matter's top-level entries (a key's line and its indented or empty
    /// lines) in a random order.
    static func shufflingKeys<R: RandomNumberGenerator>(_ text: String, _ rng: inout R) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let close = lines.indices.dropFirst().first(where: { lines[$0] == "---" }) else { return text }
        var blocks: [[String]] = []
        for line in lines[1..<close] {
            if line.hasPrefix(" ") || line.isEmpty, !blocks.isEmpty { blocks[blocks.count - 1].append(line) } else { blocks.append([line]) }
        }
        blocks.shuffle(using: &rng)
        lines.replaceSubrange(1..<close, with: blocks.flatMap { $0 })
        return lines.joined(separator: "\n")
    }
}

// MARK: - Generated records

enum GeneratedRecord {
    static let pieces = [
        "No", "yes", "1.0", "a: b", "*x", "&y", "!z", "%p", "@q", "`r", "#s", "x #y", "key:", "[a]", "{b}", "a, b", "it's",
        "\"q\"", "back\\slash", "tab\tx", "Ümlaut", "日本", "🦊", "line1\nline2", "null", "~", "- dash", "? q", "| pipe", "> gt",
        "=", "<<", ".5", "+1", "0x1F", "2024-01-01", "12:30", "true", "On", "ctrl\u{0C}", "\u{2028}", "Red fox", "Vulpes",
        "a\n\nb", "end  \nnext", "---", "...", "'", "\"", "\\",
    ]
    static let safeTitles = ["Rotfuchs", "Red fox", "Amsel (Vogel)", "C++", "Ärger", "12 Monkeys", "Yes", "No", "a: b", "*x"]
    static let focuses = ["50% 20%", "center top", "10px 40%", "left", "0 0"]

    static func text<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        var s = ""
        for i in 0..<Int.random(in: 1...3, using: &rng) {
            if i > 0 { s += ["", " ", ": ", ", "].randomElement(using: &rng)! }
            s += pieces.randomElement(using: &rng)!
        }
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? "x" : t
    }

    static func localized<R: RandomNumberGenerator>(_ rng: inout R, required: Bool = false) -> LocalizedText {
        var values: [String: String] = [:]
        if required || Bool.random(using: &rng) { values["en"] = text(&rng) }
        if Bool.random(using: &rng) { values["de"] = text(&rng) }
        return LocalizedText(values)
    }

    static func make<R: RandomNumberGenerator>(_ rng: inout R) -> Animal {
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &rng) ? value() : nil }
        let id = "a" + String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 36)
        var a = Animal(id: id, name: localized(&rng, required: true), sourcePath: "x")
        if Bool.random(using: &rng) { a.scientific = text(&rng) }
        if Bool.random(using: &rng) { a.group = text(&rng) }
        if Bool.random(using: &rng) { a.difficulty = Int.random(in: 1...3, using: &rng) }
        if Bool.random(using: &rng) { a.tags = (0..<Int.random(in: 1...4, using: &rng)).map { _ in text(&rng) } }
        if Bool.random(using: &rng) { a.wikipedia["en"] = safeTitles.randomElement(using: &rng)! }
        if Bool.random(using: &rng) { a.wikipedia["de"] = safeTitles.randomElement(using: &rng)! }
        a.description = localized(&rng)
        a.hint = localized(&rng)
        a.habitat = localized(&rng)
        if Bool.random(using: &rng) { a.conservation = text(&rng) }
        if Bool.random(using: &rng) {
            var s = MediaReference(
                kind: .sound, source: Bool.random(using: &rng) ? .file("sounds/\(id).ogg") : .url("https://example.org/a%20b/\(id).mp3?x=1"),
                format: .ogg, location: SourceLocation(path: "x"))
            if case .url = s.source { s.format = .mp3 }
            if Bool.random(using: &rng) { s.credit = text(&rng) }
            if Bool.random(using: &rng) { s.license = text(&rng) }
            if Bool.random(using: &rng) { s.sourceURL = "https://xeno-canto.org/\(Int.random(in: 1...999_999, using: &rng))" }
            a.sound = s
        }
        switch Int.random(in: 0...2, using: &rng) {
        case 0:
            var i = MediaReference(kind: .image, source: .file("images/\(id).png"), format: .png, location: SourceLocation(path: "x"))
            if Bool.random(using: &rng) { i.focus = focuses.randomElement(using: &rng)! }
            if Bool.random(using: &rng) { i.credit = text(&rng) }
            i.alt = localized(&rng)
            a.image = i
        case 1:
            if Bool.random(using: &rng) { a.leadImageFocus = focuses.randomElement(using: &rng)! }
            a.leadImageAlt = localized(&rng)
        default:
            break
        }
        if Bool.random(using: &rng) {
            a.bodies["en"] = MarkdownBody(markdown: "Some *Markdown*:\n\n---\n\n- a list\n", location: SourceLocation(path: "x"))
        }
        return a
    }
}
