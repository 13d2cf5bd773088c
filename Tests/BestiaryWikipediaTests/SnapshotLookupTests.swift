import BestiaryContent
import BestiaryDiagnostics
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// The build-side API: which summary a page in a language shows, and what is warned about.
struct SnapshotLookupTests {
    let dir = TemporaryDirectory()
    let cache: WikipediaCache
    let config = SiteConfig(title: LocalizedText(["de": "T"]), baseURL: "https://example.org/", languages: ["de", "en"])

    init() throws {
        cache = WikipediaCache(root: dir.path)
        let png = TestImages.png(tag: "hund")
        let (path, sha) = try cache.storeImage(png, format: "png")
        let image = CachedImage(
            file: "File:Harzer_Fuchs_Hündin_2.jpg", original: ImageSource(url: "https://u/o.jpg", width: 864, height: 704),
            renditions: [
                ImageRendition(width: 864, height: 704, url: "https://u/o.jpg", path: "wikipedia/images/missing.png", sha256: "0", bytes: 9, format: "png"),
                ImageRendition(width: 330, height: 269, url: "https://u/330px-o.jpg", path: path, sha256: sha, bytes: png.count, format: "png"),
            ],
            attribution: ImageAttribution(
                artist: "Jane Doe", credit: "Own work", license: License(name: "CC BY-SA 3.0", url: "https://creativecommons.org/licenses/by-sa/3.0"),
                attributionRequired: true, descriptionURL: "https://commons.wikimedia.org/wiki/File:Harzer_Fuchs_H%C3%BCndin_2.jpg"))
        try cache.write(try CacheTests.entry("de__Haushund.json", requested: ["Haushund", "Hund"], image: image))
        try cache.write(try CacheTests.entry("en__Dog.json"))
    }

    func animal(_ wikipedia: [String: String]) -> Animal {
        var locations: [String: BestiaryDiagnostics.SourceLocation] = [:]
        for (i, lang) in wikipedia.keys.sorted().enumerated() {
            locations["wikipedia.\(lang)"] = BestiaryDiagnostics.SourceLocation(path: "content/animals/dog.md", line: 7 + i, column: 15)
        }
        return Animal(id: "dog", name: LocalizedText(["de": "Hund"]), wikipedia: wikipedia, sourcePath: "content/animals/dog.md", fieldLocations: locations)
    }

    @Test func pageLanguageSummaryWhenCached() throws {
        let lookup = cache.load().summary(for: animal(["de": "Hund", "en": "Dog"]), language: "de", fallback: config.fallback(for: "de"))
        let s = try #require(lookup.summary)
        #expect(lookup.diagnostics.isEmpty)
        #expect(s.language == "de")
        #expect(!s.isFallback)
        #expect(s.canonicalTitle == "Haushund")
        #expect(s.extract.hasPrefix("Der Haushund ist ein Haustier"))
        #expect(s.extractHTML.hasPrefix("<p>Der <b>Haushund</b>"))
        #expect(s.url == "https://de.wikipedia.org/wiki/Haushund")
        #expect(s.revision == "266236844")
        #expect(s.license == License(name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0/"))
        // The rendition whose file is missing is dropped; the other remains.
        let image = try #require(s.image)
        #expect(image.renditions.map(\.width) == [330])
        #expect(FileManager.default.fileExists(atPath: image.renditions[0].absolutePath))
        #expect(image.attribution?.artist == "Jane Doe")
        #expect(image.descriptionURL?.hasPrefix("https://commons.wikimedia.org/wiki/File:") == true)
    }

    /// The English article has no lead picture, the German one has: the English page shows the
    /// German article's picture with the English text, said to be that article's (its pages and
    /// the quiz had none: a curator's). The German page keeps its own.
    @Test func anArticleWithoutAPictureShowsAnotherLanguagesPicture() throws {
        let catalog = Catalog(root: dir.path, config: config, animals: [animal(["de": "Hund", "en": "Dog"])], pages: [], mediaFiles: [:])
        let pages = try #require(cache.load().summaries(for: catalog).summaries["dog"])
        let english = try #require(pages["en"]), german = try #require(pages["de"])
        #expect(english.language == "en" && english.extract.hasPrefix("The dog is"))
        #expect(english.image?.renditions.map(\.width) == [330])
        #expect(english.image?.borrowedFrom == ResolvedImage.Article(language: "de", url: "https://de.wikipedia.org/wiki/Haushund"))
        #expect(german.image?.borrowedFrom == nil && german.image?.renditions.map(\.width) == [330])
        // Without the German article, nothing to borrow.
        let alone = Catalog(root: dir.path, config: config, animals: [animal(["en": "Dog"])], pages: [], mediaFiles: [:])
        #expect(cache.load().summaries(for: alone).summaries["dog"]?.values.allSatisfy { $0.image == nil } == true)
    }

    /// German page, no German article: the English summary, marked as English, no warning.
    @Test func fallsBackAlongTheSiteLanguages() throws {
        let lookup = cache.load().summary(for: animal(["en": "Dog"]), language: "de", fallback: config.fallback(for: "de"))
        let s = try #require(lookup.summary)
        #expect(lookup.diagnostics.isEmpty)
        #expect(s.language == "en")
        #expect(s.pageLanguage == "de")
        #expect(s.isFallback)
        #expect(s.extract.hasPrefix("The dog is"))
        #expect(s.image == nil)
    }

    /// A German title that was never fetched: a warning at the record's `wikipedia.de` line, and
    /// the English summary meanwhile.
    @Test func missingEntryWarnsAtTheRecordAndFallsBack() throws {
        let lookup = cache.load().summary(for: animal(["de": "Haushund (Tier)", "en": "Dog"]), language: "de", fallback: config.fallback(for: "de"))
        #expect(lookup.summary?.language == "en")
        #expect(lookup.diagnostics == [
            .warning(
                "wikipedia.de: 'Haushund (Tier)' is not in the Wikipedia cache; run `bestiary fetch` (until then its page in de shows the summary from en.wikipedia)",
                at: BestiaryDiagnostics.SourceLocation(path: "content/animals/dog.md", line: 7, column: 15), stage: "enrich")
        ])
    }

    /// The warning says what the page shows meanwhile, as the renderer chooses it: the record's
    /// description in the page's language over another language's summary, else that summary,
    /// else the record's description in another language (it said "another language's summary or
    /// the record's own description" whether there was one or not).
    @Test func theWarningSaysWhatThePageShowsMeanwhile() {
        let snapshot = cache.load()
        func meanwhile(_ wikipedia: [String: String], description: [String: String], page: String) -> [String] {
            var dog = animal(wikipedia)
            dog.description = LocalizedText(description)
            return snapshot.summary(for: dog, language: page, fallback: config.fallback(for: page)).diagnostics.map { d in
                d.message.range(of: "(until").map { String(d.message[$0.lowerBound...]) } ?? d.message
            }
        }
        #expect(meanwhile(["de": "Haushund (Tier)", "en": "Dog"], description: ["de": "Ein Hund."], page: "de")
            == ["(until then its page in de shows the record's description)"])
        #expect(meanwhile(["de": "Haushund (Tier)", "en": "Dog"], description: ["en": "A dog."], page: "de")
            == ["(until then its page in de shows the summary from en.wikipedia)"])
        #expect(meanwhile(["de": "Haushund (Tier)"], description: ["en": "A dog."], page: "de")
            == ["(until then its page in de shows the record's description in en)"])
        #expect(meanwhile(["de": "Haushund (Tier)"], description: [:], page: "de")
            == ["(until then its page in de shows no summary or description)"])
        // The English page shows its own summary: nothing to say there of the German title.
        #expect(meanwhile(["de": "Haushund (Tier)", "en": "Dog"], description: [:], page: "en").isEmpty)
    }

    @Test func nothingCachedMeansNoSummaryAndWarningsNotErrors() {
        let lookup = cache.load().summary(for: animal(["de": "Wolf", "en": "Wolf"]), language: "en", fallback: config.fallback(for: "en"))
        #expect(lookup.summary == nil)
        // The German title is the German page's to warn about.
        #expect(lookup.diagnostics.map(\.message) == [
            "wikipedia.en: 'Wolf' is not in the Wikipedia cache; run `bestiary fetch` (until then its page in en shows no summary or description)",
        ])
        #expect(lookup.diagnostics.allSatisfy { $0.severity == .warning && $0.stage == "enrich" })
        let noTitles = cache.load().summary(for: animal([:]), language: "de", fallback: config.fallback(for: "de"))
        #expect(noTitles.summary == nil && noTitles.diagnostics.isEmpty)
    }

    /// A summary (or a credit cached by an older version) with control characters in it: the page
    /// gets the text without them, and the cache keeps what Wikipedia sent.
    @Test func controlCharactersInCachedTextAreDropped() throws {
        var entry = try CacheTests.entry("en__Dog.json")
        entry.title = "Dog\u{1B}[31m"
        entry.description = "Domestic\u{7} animal"
        entry.extract = "The dog\u{0}\u{85} is\ta\u{7F} mammal.\n"
        entry.extractHTML = "<p>The dog\u{8} is</p>"
        entry.image = CachedImage(
            file: "File:Dog.jpg", original: ImageSource(url: "https://u/o.jpg", width: 10, height: 10), renditions: [],
            attribution: ImageAttribution(
                artist: "Jane\u{1F} Doe", credit: "Own\u{9B} work", license: License(name: "CC BY\u{1}", url: nil),
                attributionRequired: true, descriptionURL: nil))
        let s = cache.load().resolve(entry, pageLanguage: "en")
        #expect(s.title == "Dog[31m")
        #expect(s.description == "Domestic animal")
        #expect(s.extract == "The dog is\ta mammal.\n")
        #expect(s.extractHTML == "<p>The dog is</p>")
        #expect(s.image == nil, "no rendition of the picture is cached")
        // The same entry with a cached rendition keeps the picture, its credit cleaned.
        let png = TestImages.png(tag: "dog")
        let (path, sha) = try cache.storeImage(png, format: "png")
        entry.image?.renditions = [ImageRendition(width: 10, height: 10, url: "https://u/o.jpg", path: path, sha256: sha, bytes: png.count, format: "png")]
        let snapshot = WikipediaSnapshot(cache: cache, entries: [:])  // its pictures checked as resolved
        let attribution = try #require(snapshot.resolve(entry, pageLanguage: "en").image?.attribution)
        #expect(attribution.artist == "Jane Doe")
        #expect(attribution.credit == "Own work")
        #expect(attribution.license?.name == "CC BY")
        #expect(entry.extract.contains("\u{0}"), "the entry itself is as cached")
    }

    @Test func summariesForAWholeCatalog() {
        let animals = [animal(["de": "Hund", "en": "Dog"]), {
            var a = animal(["en": "Wolf"])
            a.id = "wolf"
            return a
        }()]
        let catalog = Catalog(root: dir.path, config: config, animals: animals, pages: [], mediaFiles: [:])
        let (summaries, diagnostics) = cache.load().summaries(for: catalog)
        #expect(summaries["dog"]?["de"]?.language == "de")
        #expect(summaries["dog"]?["en"]?.language == "en")
        #expect(summaries["wolf"] == nil)
        // One warning for wolf's en title, not one per page language, and one for the picture
        // the Haushund entry names but the cache does not hold.
        #expect(diagnostics.count == 2)
        #expect(diagnostics.filter { $0.message.contains("'Wolf'") }.count == 1)
        #expect(diagnostics.contains { $0.location?.path == "content/wikipedia/images/missing.png" && $0.message.contains("missing or damaged") })
    }

    /// After a rename (the record's title now redirects elsewhere), a refresh files the title
    /// under the new entry and the old one lists nothing: the title leads to the new one, not to
    /// the entry whose own title it still is (pages kept the old text: found by a tester).
    @Test func aRenamedArticleLeadsToWhereTheLastFetchFiledIt() throws {
        let old = try CacheTests.entry("de__Haushund.json", requested: ["Haushund"])
        var stale = old
        stale.requested = []
        var renamed = try CacheTests.entry("en__Dog.json")
        renamed.language = "de"
        renamed.requested = ["Haushund"]
        let snapshot = WikipediaSnapshot(
            cache: cache, entries: [.init(language: "de", title: old.canonicalTitle): stale, .init(language: "de", title: renamed.canonicalTitle): renamed])
        #expect(snapshot.entry(language: "de", title: "Haushund")?.canonicalTitle == renamed.canonicalTitle)
        // A title no entry lists still leads to the entry whose own title it is.
        #expect(snapshot.entry(language: "de", title: renamed.canonicalTitle)?.canonicalTitle == renamed.canonicalTitle)
        let alone = WikipediaSnapshot(cache: cache, entries: [.init(language: "de", title: old.canonicalTitle): stale])
        #expect(alone.entry(language: "de", title: "Haushund")?.canonicalTitle == "Haushund")
    }
}
