import BestiaryDiagnostics
@testable import BestiaryRender
import BestiarySite
import BestiaryTestSupport
import Foundation
import Testing

/// A site in a language the theme has no interface texts for still builds, but says so: its
/// pages would show English buttons under `<html lang="fr">`.
struct InterfaceLanguageTests {
    @Test func aLanguageWithoutInterfaceTextsIsAWarning() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let config = root + "/content/site.yml"
        try Self.addLanguages(["nl"], to: config)
        let warnings = try Self.warnings(building: root, into: work.appending("out"), containing: "no interface texts")
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("'nl'") == true)
        #expect(warnings.first?.location?.path == "content/site.yml")
        #expect(warnings.first?.stage == "render")
        #expect(warnings.first?.message.hasSuffix("copy the default theme's i18n/en.json there and translate it") == true)

        // A file for a variant of the language (`nl-BE`) is never used for `nl`: said, with the fix.
        try FileManager.default.createDirectory(atPath: root + "/templates/i18n", withIntermediateDirectories: true)
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/nl-BE.json"))
        let variant = try Self.warnings(building: root, into: work.appending("out2"), containing: "no interface texts")
        #expect(variant.map(\.message) == [
            "the theme has no interface texts in 'nl' (templates/i18n/nl.json), so its pages show menus, buttons and the quiz in English; templates/i18n/nl-BE.json is used only for pages in 'nl-BE': rename it to i18n/nl.json"
        ])
        // For a variant (`nl-SR`), another variant's file is written for other readers: no such advice.
        let dutch = try String(contentsOfFile: config, encoding: .utf8)
        try dutch.replacingOccurrences(of: "[de, en, nl]", with: "[de, en, nl-SR]").replacingOccurrences(of: "nl: Minimal", with: "nl-SR: Minimal")
            .writeReplacing(toFile: config)
        let other = try Self.warnings(building: root, into: work.appending("out3"), containing: "no interface texts")
        #expect(other.map(\.message) == [
            "the theme has no interface texts in 'nl-SR' (templates/i18n/nl-SR.json), so its pages show menus, buttons and the quiz in English; copy the default theme's i18n/en.json there and translate it"
        ])
        // `nl-SR.json` beside `languages: [nl-sr]` was never used, silently when `nl.json` served
        // instead (found by a translator): said at the file.
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/nl-SR.json"))
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/nl.json"))
        let surinamese = try String(contentsOfFile: config, encoding: .utf8)
        try surinamese.replacingOccurrences(of: "nl-SR", with: "nl-sr").writeReplacing(toFile: config)
        let cased = try Self.warnings(building: root, into: work.appending("out4"), containing: "is not used")
        #expect(cased.map(\.message) == [
            "templates/i18n/nl-SR.json is not used: site.yml's languages names 'nl-sr', and file names are matched as written; write 'nl-SR' in languages, or rename the file to i18n/nl-sr.json"
        ])
        #expect(cased.first?.location?.path == "templates/i18n/nl-SR.json")
        // `NL.json`: `NL` is no code to write in languages, so only the rename is offered; and a
        // file that is there but broken is its own error, not "no interface texts" too.
        try surinamese.replacingOccurrences(of: "nl-SR", with: "nl").writeReplacing(toFile: config)
        try FileManager.default.removeItem(atPath: root + "/templates/i18n/nl-SR.json")
        try FileManager.default.moveItem(atPath: root + "/templates/i18n/nl.json", toPath: root + "/templates/i18n/NL.json")
        let capitals = try Self.warnings(building: root, into: work.appending("out5"), containing: "NL.json is not used")
        #expect(capitals.map(\.message) == [
            "templates/i18n/NL.json is not used: site.yml's languages names 'nl', and file names are matched as written; rename the file to i18n/nl.json"
        ])
        // ... and not also "used only for pages in 'NL'" (a translator's two warnings read as one
        // contradicting the other).
        #expect(try Self.warnings(building: root, into: work.appending("out5b"), containing: "no interface texts").isEmpty)
        // `sp.json` for `es`: a code no language has; said at the file, with the code meant.
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/sp.json"))
        let country = try Self.warnings(building: root, into: work.appending("out5c"), containing: "sp.json")
        #expect(country.map(\.message) == [
            "templates/i18n/sp.json is not used: 'sp' is no language code (ISO 639-1 has no 'sp'); rename it to i18n/es.json"
        ])
        try FileManager.default.removeItem(atPath: root + "/templates/i18n/sp.json")
        try FileManager.default.removeItem(atPath: root + "/templates/i18n/NL.json")
        try Data("{\"nav.quiz\": \"Le \"quiz\"\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/nl.json"))
        let check = try Binary.run(["check", "--root", root])
        #expect(check.status == 1)
        #expect(check.stderr.contains("templates/i18n/nl.json:1:19: error: strings are not valid JSON"), "\(check.stderr)")
        #expect(!check.stderr.contains("no interface texts"), "\(check.stderr)")
    }

    /// French and Italian sites get the default theme's own texts in their language (they showed
    /// English menus and the quiz in English, with a warning to translate 388 texts): no warning,
    /// the pages in the language, a count the build prints in its plural form.
    @Test func frenchAndItalianSitesHaveTheirOwnInterfaceTexts() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        let config = root + "/content/site.yml"
        try Self.addLanguages(["fr", "it", "fr-CH"], to: config)
        let out = work.appending("out")
        let warnings = try Self.warnings(building: root, into: out, containing: "")
        #expect(!warnings.contains { $0.message.contains("interface texts") || $0.message.contains(" lack ") }, "\(warnings.map(\.message))")
        let french = try String(contentsOfFile: out + "/fr/index.html", encoding: .utf8)
        let italian = try String(contentsOfFile: out + "/it/index.html", encoding: .utf8)
        let swiss = try String(contentsOfFile: out + "/fr-CH/index.html", encoding: .utf8)
        for (page, lang, quiz, settings) in [(french, "fr", "Quiz", "Paramètres"), (italian, "it", "Quiz", "Impostazioni"), (swiss, "fr-CH", "Quiz", "Paramètres")] {
            #expect(page.contains("<html lang=\"\(lang)\""), "\(lang)")
            #expect(page.contains(">\(quiz)<") && page.contains(settings), "\(lang): the theme's own texts in the language")
            #expect(!page.contains(">Settings<"), "\(lang): no English menu")
        }
        // A count the build prints, in the language's plural form.
        for (folder, count) in [("fr", "3 animaux"), ("it", "3 animali")] {
            let collection = try String(contentsOfFile: out + "/\(folder)/collection/index.html", encoding: .utf8)
            #expect(collection.contains(">\(count)<"), "\(folder): \(count)")
        }
        for lang in ["fr", "it"] {
            let table = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/\(lang).json"))) as? [String: String])
            let english = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/en.json"))) as? [String: String])
            #expect(Set(table.keys) == Set(english.keys), "\(lang).json has every English key and no other")
            func placeholders(_ s: String) -> Set<String> {
                Set(s.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
            }
            for (key, value) in english where placeholders(table[key] ?? "") != placeholders(value) {
                Issue.record("\(lang).json's \(key) has other placeholders than the English: \(table[key] ?? "")")
            }
        }
    }

    /// Spanish and Arabic sites get the default theme's own texts too: no warning, menus in the
    /// language, Arabic pages right to left, and a count the build prints in the language's
    /// plural form (Arabic has six: 3 is `few`, 11 `many`).
    @Test func spanishAndArabicSitesHaveTheirOwnInterfaceTexts() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        try Self.addLanguages(["es", "ar"], to: root + "/content/site.yml")
        let out = work.appending("out")
        let warnings = try Self.warnings(building: root, into: out, containing: "")
        #expect(!warnings.contains { $0.message.contains("interface texts") || $0.message.contains(" lack ") }, "\(warnings.map(\.message))")
        for (lang, dir) in [("es", "ltr"), ("ar", "rtl")] {
            let table = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/\(lang).json"))) as? [String: String])
            let home = try String(contentsOfFile: out + "/\(lang)/index.html", encoding: .utf8)
            #expect(home.contains("<html lang=\"\(lang)\" dir=\"\(dir)\""), "\(lang)")
            for key in ["nav.collection", "nav.settings", "nav.sightings"] {
                let text = try #require(table[key])
                #expect(home.contains(">\(text)<"), "\(lang): \(key) is \(text)")
            }
            #expect(!home.contains(">Settings<"), "\(lang): no English menu")
            let form = lang == "ar" ? "few" : "other"
            let count = try #require(table["collection.countAll.\(form)"]).replacingOccurrences(of: "{count}", with: "3")
            let collection = try String(contentsOfFile: out + "/\(lang)/collection/index.html", encoding: .utf8)
            #expect(collection.contains(">\(count)<"), "\(lang): \(count)")
            // A credit's parts are joined by the language's separator: Arabic pages showed a Latin
            // comma between the author, the licence and the source (a teacher's trial).
            let separator = try #require(table["punctuation.listSeparator"])
            let credits = try String(contentsOfFile: out + "/\(lang)/credits/index.html", encoding: .utf8)
            #expect(credits.contains("Generated test picture</span>\(separator)<"), "\(lang)")
            let robin = try String(contentsOfFile: out + "/\(lang)/animals/robin/index.html", encoding: .utf8)
            #expect(robin.contains("Generated test picture</span>\(separator)<"), "\(lang)")
        }
    }

    /// A site's own `i18n/de.json` adds to the default theme's German, key by key: one that lacks
    /// texts (an older copy, or a file giving only the texts the site changes) shows the default
    /// theme's German for them, never English or a key, and is not warned about. A table in a
    /// language the default theme lacks is still completed from English, and said once, at its file.
    @Test func aSitesTableAddsToTheDefaultThemesOfItsLanguage() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        // The default theme's layouts, which show the texts.
        try FileManager.default.removeItem(atPath: root + "/templates")
        try FileManager.default.createDirectory(atPath: root + "/templates/i18n", withIntermediateDirectories: true)
        try Data("{\"nav.collection\": \"Unsere Tiere\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/de.json"))
        let lacking = try Self.warnings(building: root, into: work.appending("out"), containing: "lack")
        #expect(lacking.isEmpty, "\(lacking)")
        let home = try String(contentsOfFile: work.appending("out") + "/index.html", encoding: .utf8)
        #expect(home.contains("Unsere Tiere"))
        let german = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/de.json"))) as? [String: String])
        let quiz = try #require(german["nav.quiz"])
        #expect(home.contains(">\(quiz)<"), "the default theme's German for nav.quiz")
        #expect(!home.contains(">nav.home<"))

        let config = root + "/content/site.yml"
        try Self.addLanguages(["nl"], to: config)
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/nl.json"))
        let dutch = try Self.warnings(building: root, into: work.appending("out2"), containing: "lack")
        #expect(dutch.count == 1)
        #expect(dutch.first?.message.contains("'nl' lack ") == true)
        // Counted by the part of the interface they are in, most first: a translator's to-do.
        let parts = (dutch.first?.message ?? "").matches(of: /(\w+)\.\*: (\d+)/).map { (String($0.1), Int($0.2) ?? 0) }
        #expect(parts.count == 6 && parts.map(\.1) == parts.map(\.1).sorted(by: >), "\(dutch.first?.message ?? "")")
        #expect(dutch.first?.message.contains(" English texts (\(parts.first?.0 ?? "?").*: ") == true && parts.contains { $0.0 == "quiz" } && parts.contains { $0.0 == "prefs" })
        #expect(dutch.first?.location?.path == "templates/i18n/nl.json")
        #expect(dutch.first?.message.hasSuffix("from the default theme's i18n/en.json (`bestiary init DIR` writes it to DIR/templates/i18n/en.json)") == true)
        // A text of the site's own is in its i18n/en.json, and said to be there.
        try Data("{\"museum.note\": \"Note\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/en.json"))
        let own = try Self.warnings(building: root, into: work.appending("out3"), containing: "lack")
        #expect(own.map(\.message).filter { $0.hasPrefix("the interface texts in 'de' lack 1 ") && $0.hasSuffix("(museum.note), so those show in English on its pages; add them, translated, from your templates/i18n/en.json") }.count == 1, "\(own)")
        #expect(own.map(\.message).filter { $0.hasPrefix("the interface texts in 'nl' lack ") && $0.contains("from your templates/i18n/en.json (1 of them) and the default theme's i18n/en.json") }.count == 1, "\(own)")
    }

    /// A translator's half-done texts: a plural form left out (`….one`) showed English in the
    /// middle of Portuguese ("Exported 1 sighting."), where the docs promise the language's
    /// `.other`; and `check` gave the missing texts only by part, even with `--all-warnings`.
    @Test func aMissingPluralFormShowsTheLanguagesOtherAndCheckListsEveryMissingText() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let config = root + "/content/site.yml"
        try Self.addLanguages(["pt"], to: config)
        try FileManager.default.createDirectory(atPath: root + "/templates/i18n", withIntermediateDirectories: true)
        try Data("{\"sightings.exported.other\": \"Foram exportados {count} avistamentos.\", \"nav.quiz\": \"Quiz\"}\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/templates/i18n/pt.json"))
        var theme = Theme.builtIn
        theme.files["i18n/pt.json"] = Theme.File(data: try Data(contentsOf: URL(fileURLWithPath: root + "/templates/i18n/pt.json")), origin: "templates/i18n/pt.json", isOverride: true)
        let table = try UIStrings.load(theme).table(for: "pt")
        #expect(table["sightings.exported.one"] == "Foram exportados {count} avistamentos.")
        #expect(table["quiz.next"] == "Next question", "a text the language lacks altogether is English")
        let summary = try Binary.run(["check", "--root", root])
        #expect(summary.stderr.contains(#/English texts \(\w+\.\*: \d+, /#), "\(summary.stderr)")
        #expect(summary.stderr.contains("so those show in English on its pages (the "), "\(summary.stderr)")
        let listed = try Binary.run(["check", "--root", root, "--all-warnings"])
        let line = listed.stderr.split(separator: "\n").first { $0.contains("the interface texts in 'pt' lack") }.map(String.init) ?? ""
        #expect(line.contains("quiz.next, ") && line.contains("sightings.exported.one, ") && !line.contains("quiz.*:"), "\(line)")
    }

    /// The minimal fixture's site.yml at `config` with `codes` added to its languages and title.
    static func addLanguages(_ codes: [String], to config: String) throws {
        let list = codes.joined(separator: ", "), titles = codes.map { "\($0): Minimal" }.joined(separator: ", ")
        try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "languages: [de, en]", with: "languages: [de, en, \(list)]")
            .replacingOccurrences(of: "title: { de: Minimal, en: Minimal }", with: "title: { de: Minimal, en: Minimal, \(titles) }")
            .writeReplacing(toFile: config)
    }

    /// The warnings of a build of `root` whose message contains `text`.
    static func warnings(building root: String, into output: String, containing text: String) throws -> [Diagnostic] {
        var options = BuildOptions(root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        return builder.diagnostics.items.filter { $0.message.contains(text) }
    }
}
