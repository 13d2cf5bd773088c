import Testing

@testable import BestiarySite

/// A lead picture's output extension, found by bytes, is what splitting the path at its dots
/// gives (the last part, lower case, else the picture's format), for every shape of path.
struct EnrichmentTests {
    @Test func extensionsAreFoundAsSplittingFindsThem() {
        let paths = [
            "wikipedia/images/ab12.jpg", "wikipedia/images/AB12.JPG", "wikipedia/images/x.tar.PNG", "a.", "a..", ".", "...", "", "noext",
            "dir.v2/file", ".hidden", "x.WebP", "x.j\u{301}pg", "bilder/Bär.PNG", "x.\u{301}png", "é.Ä",
        ]
        for path in paths {
            let expected = path.split(separator: ".").last.map { $0.lowercased() } ?? "jpeg"
            #expect(Enrichment.extensionOf(path, orElse: "jpeg") == expected, "\(path)")
        }
    }
}

import BestiaryContent
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation

/// The recorded German summary of 'Haushund' (no lead picture) cached in `dir` as a fetch of
/// `requested` would file it.
@discardableResult
func cacheHaushund(in dir: TemporaryDirectory, requested: String) throws -> WikipediaSummary {
    try cacheHaushund(root: dir.path, requested: requested)
}

/// The same in the site at `root`.
@discardableResult
func cacheHaushund(root: String, requested: String) throws -> WikipediaSummary {
    let s = try WikipediaSummary.decode(try Fixtures.data("wikipedia/de__Haushund.json"))
    try WikipediaCache(root: root).write(WikipediaEntry(
        language: s.language, requested: [requested], canonicalTitle: s.canonicalTitle, title: s.normalizedTitle, pageID: s.pageID,
        revision: s.revision, lastEdited: s.timestamp, fetchedAt: "2026-11-01T00:00:00Z", etag: "\"\(s.revision)/x\"", url: s.pageURL!,
        direction: s.direction, description: s.description, wikibaseItem: s.wikibaseItem, extract: s.extract, extractHTML: s.extractHTML, image: nil))
    return s
}

/// What `check` tells of a language's texts follows what its pages show: a French page that
/// shows the German Wikipedia summary (a fallback) would show a French description in its place,
/// so the German-only description is listed for French (the default language, as a teacher made
/// it); the German page shows the German summary, so its description is not missing there.
@Suite struct SummarisedLanguagesTests {
    @Test func aSummaryInAnotherLanguageDoesNotHideAMissingDescription() throws {
        let dir = TemporaryDirectory("bestiary-summarised")
        try dir.write("title: {fr: Animaux}\nbase_url: https://example.org/\nlanguages: [fr, de, en]\n", to: "content/site.yml")
        try dir.write("---\nname: {fr: Chien, de: Hund, en: Dog}\nwikipedia: {de: Haushund}\ndescription: {de: Ein Hund.}\n---\nLe chien.\n", to: "content/animals/hund.md")
        try cacheHaushund(in: dir, requested: "Haushund")
        let catalog = try #require(ContentLoader(root: dir.path).load().catalog)
        let checked = WikipediaCheck.check(of: catalog, fileSystem: LocalFileSystem())
        #expect(checked.summarised["hund"] == ["de"], "\(checked.summarised)")
        let notes = TranslationCheck.notes(of: catalog) { checked.summarised[$0]?.contains($1) == true }.map(\.message)
        #expect(notes.first?.hasPrefix("not yet in 'fr' (the default language): 1 of 1 records (hund: description)") == true, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("not yet in 'en': 1 of 1 records (hund: description, body)") }, "\(notes)")
        #expect(!notes.contains { $0.hasPrefix("not yet in 'de'") && $0.contains("description") }, "\(notes)")
    }
}

/// A curator's removed records left their articles in the cache, and nothing said which files
/// they were (their names are made from the title and a hash): `check` names them in one note.
/// And a record whose cached articles lead with no picture is not told to fetch again.
@Suite struct UnusedEntriesTests {
    @Test func articlesNoRecordNamesAreNamedInOneNote() throws {
        let dir = TemporaryDirectory("bestiary-unused-entries")
        try dir.write("title: {de: Tiere}\nbase_url: https://example.org/\nlanguages: [de]\n", to: "content/site.yml")
        try dir.write("---\nname: {de: Hund}\nwikipedia: {de: Hund}\n---\n", to: "content/animals/hund.md")
        let s = try cacheHaushund(in: dir, requested: "Hund")
        func messages() throws -> [String] {
            let catalog = try #require(ContentLoader(root: dir.path).load().catalog)
            return WikipediaCheck.check(of: catalog, fileSystem: LocalFileSystem()).problems.map(\.message)
        }
        let named = try messages()
        #expect(!named.contains { $0.contains("named by no record") }, "\(named)")
        // Its article is cached, with no lead picture: no advice to fetch.
        #expect(named.contains { $0.hasPrefix("'hund' has no sound and no picture") && $0.hasSuffix("(its cached Wikipedia articles have no lead picture)") }, "\(named)")
        try dir.write("---\nname: {de: Katze}\n---\n", to: "content/animals/hund.md")
        let file = WikipediaCache.relativeEntryPath(language: "de", canonicalTitle: s.canonicalTitle)
        #expect(try messages().contains("1 cached Wikipedia article is named by no record (records removed, or titles changed): \(file); they are not published, and deleting those files drops them"))
    }
}
