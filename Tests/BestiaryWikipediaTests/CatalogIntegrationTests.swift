import BestiaryContent
import BestiaryDiagnostics
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// A site root loaded by ContentLoader, as `bestiary build` will: the cache folder does not
/// disturb loading, summaries resolve per page language, warnings point at the record's line.
struct CatalogIntegrationTests {
    @Test func buildSideLookupOnALoadedSite() throws {
        let dir = TemporaryDirectory()
        try dir.write("""
            title: {de: Test, en: Test}
            base_url: https://example.org/
            languages: [de, en]
            """, to: "content/site.yml")
        try dir.write("""
            ---
            name: {de: Hund, en: Dog}
            wikipedia: {de: Haushund, en: Dog}
            ---
            """, to: "content/animals/dog.md")
        try dir.write("""
            ---
            name: {de: Schakal, en: Jackal}
            wikipedia: {en: Canis}
            ---
            """, to: "content/animals/jackal.md")
        try dir.write("""
            ---
            name: {de: Wolf, en: Wolf}
            wikipedia: {de: Wolf (Art), en: Wolf}
            ---
            """, to: "content/animals/wolf.md")
        let cache = WikipediaCache(root: dir.path)
        for file in ["de__Haushund.json", "en__Dog.json", "en__Canis.json"] {
            try cache.write(try CacheTests.entry(file))
        }

        let loaded = ContentLoader(root: dir.path).load()
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.items)")
        let catalog = try #require(loaded.catalog)
        let (summaries, warnings) = cache.load().summaries(for: catalog)

        #expect(summaries["dog"]?["de"]?.canonicalTitle == "Haushund")
        #expect(summaries["dog"]?["en"]?.canonicalTitle == "Dog")
        // No German article: the German page shows the English summary, marked.
        #expect(summaries["jackal"]?["de"]?.language == "en")
        #expect(summaries["jackal"]?["de"]?.isFallback == true)
        #expect(summaries["wolf"] == nil)
        #expect(warnings.map(\.location?.description).sorted { ($0 ?? "") < ($1 ?? "") } == [
            "content/animals/wolf.md:3:17", "content/animals/wolf.md:3:33",
        ])
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.stage == "enrich" })
    }
}
