import BestiaryDiagnostics
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
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: "languages: [de, en]", with: "languages: [de, en, fr]")
            .replacingOccurrences(of: "title: { de: Minimal, en: Minimal }", with: "title: { de: Minimal, en: Minimal, fr: Minimal }")
            .writeReplacing(toFile: config)
        let warnings = try Self.warnings(building: root, into: work.appending("out"), containing: "no interface texts")
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("'fr'") == true)
        #expect(warnings.first?.location?.path == "content/site.yml")
        #expect(warnings.first?.stage == "render")
        #expect(warnings.first?.message.hasSuffix("copy the default theme's i18n/en.json there and translate it") == true)

        // A file for a variant of the language (`fr-FR`) is never used for `fr`: said, with the fix.
        try FileManager.default.createDirectory(atPath: root + "/templates/i18n", withIntermediateDirectories: true)
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/fr-FR.json"))
        let variant = try Self.warnings(building: root, into: work.appending("out2"), containing: "no interface texts")
        #expect(variant.map(\.message) == [
            "the theme has no interface texts in 'fr' (templates/i18n/fr.json), so its pages show menus, buttons and the quiz in English; templates/i18n/fr-FR.json is used only for pages in 'fr-FR': rename it to i18n/fr.json"
        ])
        // For a variant (`fr-CA`), another variant's file is written for other readers: no such advice.
        let french = try String(contentsOfFile: config, encoding: .utf8)
        try french.replacingOccurrences(of: "[de, en, fr]", with: "[de, en, fr-CA]").replacingOccurrences(of: "fr: Minimal", with: "fr-CA: Minimal")
            .writeReplacing(toFile: config)
        let other = try Self.warnings(building: root, into: work.appending("out3"), containing: "no interface texts")
        #expect(other.map(\.message) == [
            "the theme has no interface texts in 'fr-CA' (templates/i18n/fr-CA.json), so its pages show menus, buttons and the quiz in English; copy the default theme's i18n/en.json there and translate it"
        ])
        // `fr-CA.json` beside `languages: [fr-ca]` was never used, silently when `fr.json` served
        // instead (found by a translator): said at the file.
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/fr-CA.json"))
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/fr.json"))
        let canadian = try String(contentsOfFile: config, encoding: .utf8)
        try canadian.replacingOccurrences(of: "fr-CA", with: "fr-ca").writeReplacing(toFile: config)
        let cased = try Self.warnings(building: root, into: work.appending("out4"), containing: "is not used")
        #expect(cased.map(\.message) == [
            "templates/i18n/fr-CA.json is not used: site.yml's languages names 'fr-ca', and file names are matched as written; write 'fr-CA' in languages, or rename the file to i18n/fr-ca.json"
        ])
        #expect(cased.first?.location?.path == "templates/i18n/fr-CA.json")
        // `FR.json`: `FR` is no code to write in languages, so only the rename is offered; and a
        // file that is there but broken is its own error, not "no interface texts" too.
        try canadian.replacingOccurrences(of: "fr-CA", with: "fr").writeReplacing(toFile: config)
        try FileManager.default.removeItem(atPath: root + "/templates/i18n/fr-CA.json")
        try FileManager.default.moveItem(atPath: root + "/templates/i18n/fr.json", toPath: root + "/templates/i18n/FR.json")
        let capitals = try Self.warnings(building: root, into: work.appending("out5"), containing: "FR.json is not used")
        #expect(capitals.map(\.message) == [
            "templates/i18n/FR.json is not used: site.yml's languages names 'fr', and file names are matched as written; rename the file to i18n/fr.json"
        ])
        try FileManager.default.removeItem(atPath: root + "/templates/i18n/FR.json")
        try Data("{\"nav.quiz\": \"Le \"quiz\"\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/fr.json"))
        let check = try Binary.run(["check", "--root", root])
        #expect(check.status == 1)
        #expect(check.stderr.contains("templates/i18n/fr.json:1:19: error: strings are not valid JSON"), "\(check.stderr)")
        #expect(!check.stderr.contains("no interface texts"), "\(check.stderr)")
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
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: "languages: [de, en]", with: "languages: [de, en, fr]")
            .replacingOccurrences(of: "title: { de: Minimal, en: Minimal }", with: "title: { de: Minimal, en: Minimal, fr: Minimal }")
            .writeReplacing(toFile: config)
        try Data("{\"nav.quiz\": \"Quiz\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/fr.json"))
        let french = try Self.warnings(building: root, into: work.appending("out2"), containing: "lack")
        #expect(french.count == 1)
        #expect(french.first?.message.contains("'fr' lack ") == true)
        // Counted by the part of the interface they are in, most first: a translator's to-do.
        #expect(french.first?.message.contains(" English texts (quiz.*: ") == true && french.first?.message.contains(", prefs.*: ") == true, "\(french.first?.message ?? "")")
        #expect(french.first?.location?.path == "templates/i18n/fr.json")
        #expect(french.first?.message.hasSuffix("from the default theme's i18n/en.json (`bestiary init DIR` writes it to DIR/templates/i18n/en.json)") == true)
        // A text of the site's own is in its i18n/en.json, and said to be there.
        try Data("{\"museum.note\": \"Note\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/templates/i18n/en.json"))
        let own = try Self.warnings(building: root, into: work.appending("out3"), containing: "lack")
        #expect(own.map(\.message).filter { $0.hasPrefix("the interface texts in 'de' lack 1 ") && $0.hasSuffix("(museum.note), so those show in English on its pages; add them, translated, from your templates/i18n/en.json") }.count == 1, "\(own)")
        #expect(own.map(\.message).filter { $0.hasPrefix("the interface texts in 'fr' lack ") && $0.contains("from your templates/i18n/en.json (1 of them) and the default theme's i18n/en.json") }.count == 1, "\(own)")
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
