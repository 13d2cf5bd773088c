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
    }

    /// A site's own `i18n/de.json` that lacks texts (an older copy) is completed from English:
    /// the build says which, once, at that file.
    @Test func aTableLackingEnglishTextsIsAWarning() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let theme = URL(fileURLWithPath: Fixtures.repositoryRoot + "/templates/i18n/de.json")
        var german = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: theme)) as? [String: String])
        german["quiz.next"] = nil
        german["nav.quiz"] = nil
        try FileManager.default.createDirectory(atPath: root + "/templates/i18n", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: german, options: [.sortedKeys]).write(to: URL(fileURLWithPath: root + "/templates/i18n/de.json"))
        let warnings = try Self.warnings(building: root, into: work.appending("out"), containing: "lack")
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("'de' lack 2 of the theme's") == true)
        #expect(warnings.first?.message.contains("(nav.quiz, quiz.next)") == true)
        #expect(warnings.first?.location?.path == "templates/i18n/de.json")
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
