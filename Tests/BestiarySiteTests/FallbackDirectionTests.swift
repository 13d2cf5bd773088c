import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// Text shown in another language than its page's carries that language and its direction, so an
/// Arabic page shows German text left to right, and an Arabic heading over it right to left.
@Suite struct FallbackDirectionTests {
    @Test func aPageWhoseBodyFallsBackKeepsItsOwnDirectionAndItsTitlesLanguage() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")  // the default theme's layouts
        let yml = root + "/content/site.yml"
        try (try String(contentsOfFile: yml, encoding: .utf8)).replacingOccurrences(of: "languages: [de, en]", with: "languages: [de, en, ar]")
            .write(toFile: yml, atomically: true, encoding: .utf8)
        try work.write("---\ntitle: {de: Besuch, ar: زيارة}\n---\nÖffnungszeiten: Di–So 10–18 Uhr.\n", to: "minimal/content/pages/visit.md")
        _ = try build(root: root, output: work.appending("out"))
        let arabic = try work.read("out/ar/visit/index.html")
        // The German text (a fallback) left to right; the Arabic title marked as such inside it.
        #expect(arabic.contains("<article class=\"page\" lang=\"de\" dir=\"ltr\">\n<h1 lang=\"ar\" dir=\"rtl\">زيارة</h1>"), "\(arabic)")
        // English has no title either: the heading is the German one, as is the body (nothing to mark).
        let english = try work.read("out/en/visit/index.html")
        #expect(english.contains("<article class=\"page\" lang=\"de\" dir=\"ltr\">\n<h1>Besuch</h1>"), "\(english)")
        // The page in its own language: nothing marked.
        #expect(try work.read("out/visit/index.html").contains("<article class=\"page\">\n<h1>Besuch</h1>"))
    }
}
