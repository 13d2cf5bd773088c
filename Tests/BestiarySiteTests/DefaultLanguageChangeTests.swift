import BestiaryDiagnostics
import BestiarySite
import BestiaryTestSupport
import Foundation
import Testing

/// A translator made Spanish the default (`[de, en, es]` to `[es, de, en]`): every address changed,
/// German learners' installed app turned Spanish, and the German bodies not yet moved to
/// `ID.de.md` were published as Spanish, without a word from `check` or the build. Both say it
/// while the output was built with another default language, and the build after says nothing.
struct DefaultLanguageChangeTests {
    @Test func anotherDefaultLanguageIsSaidWithTheBodiesItRelabels() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        func build() throws -> [Diagnostic] {
            let builder = SiteBuilder(options: BuildOptions(root: root, environment: [:]))
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.message.contains("default language is now") || $0.message.contains("in ID.md files") }
        }
        #expect(try build().isEmpty)
        let config = root + "/content/site.yml"
        try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "languages: [de, en]", with: "languages: [en, de]")
            .writeReplacing(toFile: config)
        // The English translations, which the new default's ID.md must hold (an error otherwise), dropped.
        for file in ["animals/robin.en.md", "pages/about.en.md"] { try FileManager.default.removeItem(atPath: root + "/content/" + file) }

        let check = try Binary.run(["check", "--root", root])
        #expect(check.stderr.contains("content/site.yml:3:1: warning: the default language is now 'en', and the output was built with 'de': every page's address changes."), "\(check.stderr)")
        let said = try build()
        #expect(said.map(\.message).first?.contains("The pages at the root (/, /animals/ID/) turn 'en', its pages move to /de/…, and the old /en/… addresses lead nowhere") == true, "\(said)")
        #expect(said.count == 2)
        #expect(said.last?.location?.path == "content/animals/bob.md")
        #expect(said.last?.message.hasPrefix("3 texts in ID.md files (bob, robin, page about) were published as 'de' by the last build and are taken as 'en' now: if they are still in 'de', move each to ID.de.md first (content/animals/bob.md to content/animals/bob.de.md)") == true, "\(said)")
        // Published: said no more.
        #expect(try build().isEmpty)
        // A body moved as advised is not named (back to German as the default, robin's moved).
        try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "languages: [en, de]", with: "languages: [de, en]")
            .writeReplacing(toFile: config)
        let robin = try String(contentsOfFile: root + "/content/animals/robin.md", encoding: .utf8)
        let end = try #require(robin.range(of: "\n---\n", range: robin.index(robin.startIndex, offsetBy: 3)..<robin.endIndex))
        try String(robin[end.upperBound...]).write(toFile: root + "/content/animals/robin.en.md", atomically: true, encoding: .utf8)
        try (robin[..<end.upperBound] + "Das Rotkehlchen singt.\n").write(toFile: root + "/content/animals/robin.md", atomically: true, encoding: .utf8)
        let back = try build()
        #expect(back.count == 2 && back.last?.message.hasPrefix("2 texts in ID.md files (bob, page about)") == true, "\(back)")
    }
}
