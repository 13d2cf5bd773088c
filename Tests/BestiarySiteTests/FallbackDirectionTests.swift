import BestiaryDiagnostics
import BestiaryRender
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
            .writeReplacing(toFile: yml)
        try work.write("---\ntitle: {de: Besuch, ar: زيارة}\n---\nÖffnungszeiten: Di–So 10–18 Uhr.\n", to: "minimal/content/pages/visit.md")
        _ = try build(root: root, output: work.appending("out"))
        let arabic = try work.read("out/ar/visit/index.html")
        // The German text (a fallback) left to right; the Arabic title marked as such inside it.
        #expect(arabic.contains("<article class=\"page\" lang=\"de\" dir=\"ltr\">\n<h1 lang=\"ar\" dir=\"rtl\">زيارة</h1>"), "\(arabic)")
        // English has no title either: the heading is the German one, as is the body (nothing to mark).
        let english = try work.read("out/en/visit/index.html")
        #expect(english.contains("<article class=\"page\" lang=\"de\" dir=\"ltr\">\n<h1>Besuch</h1>"), "\(english)")
        // Said above it in the page's language.
        #expect(english.contains("<p class=\"note\">This text is in German.</p>\n<article class=\"page\" lang=\"de\""), "\(english)")
        // The page in its own language: nothing marked.
        #expect(try work.read("out/visit/index.html").contains("<article class=\"page\">\n<h1>Besuch</h1>"))
        #expect(!(try work.read("out/visit/index.html").contains("<p class=\"note\">")))
        // A picture's text in another language (here the name it falls back to) says its own.
        let robin = try work.read("out/ar/animals/robin/index.html")
        #expect(robin.contains(" alt=\"Rotkehlchen\" lang=\"de\" dir=\"ltr\""), "\(robin)")
        #expect(!(try work.read("out/animals/robin/index.html").contains("alt=\"Rotkehlchen\" lang=")), "the German page marks nothing")
    }
}

/// A theme's file that is a symbolic link (a stylesheet or layout shared by several sites) is
/// read through: it was left out without a word and the default theme's used instead. An edit of
/// the file it leads to is no "up to date".
@Suite struct ThemeLinkTests {
    @Test func aLinkedThemeFileIsUsedAndItsEditsRebuild() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        try work.write("body { color: rebeccapurple; }\n", to: "shared/museum.css")
        try FileManager.default.createDirectory(atPath: root + "/templates/assets/css", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/templates/assets/css/site.css", withDestinationPath: work.appending("shared/museum.css"))
        func options() -> BuildOptions {
            var options = BuildOptions(
                root: root, output: work.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"],
                time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
            options.recordsPackVersions = false
            return options
        }
        func stylesheet() throws -> String {
            let css = try FileManager.default.contentsOfDirectory(atPath: work.appending("out/assets/css")).first { $0.hasPrefix("site.") }
            return try work.read("out/assets/css/" + (try #require(css)))
        }
        _ = try SiteBuilder(options: options()).build()
        #expect(try stylesheet() == "body { color: rebeccapurple; }\n")
        #expect(try SiteBuilder(options: options()).build().upToDate)
        try work.write("body { color: teal; }\n", to: "shared/museum.css")
        let again = try SiteBuilder(options: options()).build()
        #expect(!again.upToDate, "the linked file changed")
        #expect(try stylesheet() == "body { color: teal; }\n")
        // A link that leads nowhere, or to a folder, is not followed, and said so (the default
        // theme's file stood in without a word).
        try FileManager.default.createDirectory(atPath: root + "/templates/partials", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/templates/partials/footer.html", withDestinationPath: work.appending("moved/footer.html"))
        try FileManager.default.createSymbolicLink(atPath: root + "/templates/partials/footer2.html", withDestinationPath: work.appending("moved/footer2.html"))
        try FileManager.default.createSymbolicLink(atPath: root + "/templates/layouts", withDestinationPath: work.appending("shared"))
        let prepared = try PreparedTheme.load(root: root, fileSystem: LocalFileSystem(), languages: ["de", "en"], config: nil)
        #expect(prepared.warnings.map(DiagnosticFormatter.text).filter { $0.contains("symbolic link") } == [
            "templates/layouts:1:1: warning: symbolic link to a folder is not followed; link each file instead [render]",
            "templates/partials/footer.html:1:1: warning: symbolic link leads nowhere, so the default theme's file is used; mend or remove it [render]",
            // No default stands in for a file of the site's own.
            "templates/partials/footer2.html:1:1: warning: symbolic link leads nowhere, so the theme has no such file; mend or remove it [render]",
        ])
    }
}
