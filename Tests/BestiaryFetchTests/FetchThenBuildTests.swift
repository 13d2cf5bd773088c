import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// Fetch (from real recorded summaries on 127.0.0.1), then build: the animal pages show the
/// article's text in each language with its licence and link, the lead picture copied under a
/// content-hashed name with its author and licence, and the packs carry the same.
@Suite(.serialized)
struct FetchThenBuildTests {
    /// The enrich stage counts the pages that show a summary: a German page whose own German
    /// description comes before the English summary is not one of them (every page with any
    /// summary was counted: "900 of 900" on a site whose German pages showed descriptions).
    @Test func theEnrichCountIsOfPagesThatShowASummary() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\n", to: "content/site.yml")
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ndescription: {de: Ein Hund.}\nwikipedia: {en: Dog}\n---\n", to: "content/animals/hund.md")
        _ = await wiki.fetch([FakeWikipedia.animal("hund", ["en": "Dog"])])
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let built = try SiteBuilder(options: options).build()
        #expect(built.stages.first { $0.name == "enrich" }?.detail.hasPrefix("1 of 2 animal pages with a summary, ") == true)
        #expect(try wiki.dir.read("out/animals/hund/index.html").contains("Ein Hund."))
    }

    @Test func cachedSummariesAndPicturesAppearOnThePagesAndInThePacks() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\npacks: {id: t}\n", to: "content/site.yml")
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {de: Haushund, en: Dog}\n---\n", to: "content/animals/hund.md")
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Haushund", "en": "Dog"])])
        #expect(report.summaryLine == "fetched 2, unchanged 0, failed 0")

        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        let built = try builder.build()
        #expect(built.stages.first { $0.name == "enrich" }?.detail == "2 of 2 animal pages with a summary, 4 images")
        #expect(!builder.diagnostics.items.contains { $0.stage == "enrich" })

        let out = try Tree(wiki.dir.appending("out"))
        let de = String(decoding: try #require(out.files["animals/hund/index.html"]), as: UTF8.self)
        let en = String(decoding: try #require(out.files["en/animals/hund/index.html"]), as: UTF8.self)
        #expect(de.contains("Der Haushund ist ein Haustier"))
        #expect(de.contains("https://de.wikipedia.org/wiki/Haushund"))
        #expect(de.contains("CC BY-SA 4.0"))
        #expect(de.contains("Jörg Müller &amp; Co"))  // the picture's author, escaped
        #expect(en.contains("The dog is a member of the genus Canis"))
        // The summary stands alone: the record's description is not shown, nor an empty one
        // made of the page's meta description (a lookup outside the animal).
        for page in [de, en] {
            #expect(page.contains("<section class=\"summary\""))
            #expect(!page.contains("<section class=\"description\">"), "\(page)")
        }
        // The lead pictures are copied under content-hashed names and linked from the pages.
        let pictures = out.files.keys.filter { $0.hasPrefix("media/") && $0.hasSuffix(".png") }
        #expect(pictures.count == 4)
        for picture in pictures where de.contains(picture) || en.contains(picture) {
            #expect(out.files[picture]?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        }
        #expect(pictures.contains { de.contains($0) })
        // The pack record carries both texts with their licence and the picture by its hash.
        let manifest = String(decoding: try #require(out.files["packs/v/1.json"]), as: UTF8.self)
        #expect(manifest.contains("Der Haushund ist ein Haustier"))
        #expect(manifest.contains("\"license\":\"CC BY-SA 4.0\""))
        #expect(out.files.keys.contains { $0.hasPrefix("packs/media/") && $0.hasSuffix(".png") })
    }

    /// `image: {focus, alt}` without a picture of the record's own crops and describes the
    /// Wikipedia lead picture: its alt text is the record's in each language, not the animal's
    /// name, and the pack's picture carries both.
    @Test func theLeadPictureTakesTheRecordsFocusAndAltText() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\npacks: {id: t}\n", to: "content/site.yml")
        try wiki.dir.write(
            "---\nname: {de: Hund, en: Dog}\nwikipedia: {de: Haushund, en: Dog}\nimage:\n  focus: \"50% 0%\"\n  alt: {de: Ein Hund im Gras, en: A dog in the grass}\n---\n",
            to: "content/animals/hund.md")
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Haushund", "en": "Dog"])])
        #expect(report.summaryLine == "fetched 2, unchanged 0, failed 0")
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        _ = try SiteBuilder(options: options).build()
        let out = try Tree(wiki.dir.appending("out"))
        func leadPicture(_ path: String) throws -> String {
            let page = String(decoding: try #require(out.files[path]), as: UTF8.self)
            return try #require(page.components(separatedBy: "<img src=\"").dropFirst().first { $0.hasPrefix("../../media/") || $0.hasPrefix("../../../media/") })
        }
        #expect(try leadPicture("animals/hund/index.html").contains("alt=\"Ein Hund im Gras\""))
        #expect(try leadPicture("animals/hund/index.html").contains("object-position: 50% 0%"))
        #expect(try leadPicture("en/animals/hund/index.html").contains("alt=\"A dog in the grass\""))
        let manifest = String(decoding: try #require(out.files["packs/v/1.json"]), as: UTF8.self)
        // Each text's picture is its article's: the alt text in that article's language only.
        #expect(manifest.contains("\"alt\":{\"de\":\"Ein Hund im Gras\"}"), "\(manifest)")
        #expect(manifest.contains("\"alt\":{\"en\":\"A dog in the grass\"}"), "\(manifest)")
        #expect(manifest.contains("\"focus\":\"50% 0%\""))

        // Another language's article may lead with another picture: a page without the record's
        // alt text in its article's language gives the animal's name, not the other language's text.
        try wiki.dir.write(
            "---\nname: {de: Hund, en: Dog}\nwikipedia: {de: Haushund, en: Dog}\nimage: {alt: {en: A dog in the grass}}\n---\n",
            to: "content/animals/hund.md")
        _ = try SiteBuilder(options: options).build()
        let rebuilt = try Tree(wiki.dir.appending("out"))
        let german = String(decoding: try #require(rebuilt.files["animals/hund/index.html"]), as: UTF8.self)
        #expect(german.contains("alt=\"Hund\""), "\(german)")
        #expect(!german.contains("A dog in the grass"))
    }

    /// The author's own description in the page's language comes before a summary in another
    /// language (the German page showed the English summary over the German description);
    /// where the record has none, the other language's summary is still shown, marked.
    @Test func theRecordsOwnDescriptionComesBeforeAnotherLanguagesSummary() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en, fr]\npacks: {id: t}\n", to: "content/site.yml")
        try wiki.dir.write(
            "---\nname: {de: Hund, en: Dog, fr: Chien}\nwikipedia: {en: Dog}\ndescription: {de: Ein treuer Freund.}\n---\n",
            to: "content/animals/hund.md")
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["en": "Dog"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        _ = try SiteBuilder(options: options).build()
        let out = try Tree(wiki.dir.appending("out"))
        func page(_ path: String) throws -> String { String(decoding: try #require(out.files[path]), as: UTF8.self) }
        let de = try page("animals/hund/index.html"), en = try page("en/animals/hund/index.html"), fr = try page("fr/animals/hund/index.html")
        #expect(de.contains("Ein treuer Freund.") && !de.contains("The dog is a member of the genus Canis"), "\(de)")
        #expect(en.contains("The dog is a member of the genus Canis") && !en.contains("Ein treuer Freund."))
        // French has neither: the English summary, in its language, before the German description.
        #expect(fr.contains("The dog is a member of the genus Canis") && !fr.contains("Ein treuer Freund."))
        // The credits list the summary only where it is shown.
        #expect(!(try page("credits/index.html")).contains("en.wikipedia.org/wiki/Dog"))
        #expect((try page("en/credits/index.html")).contains("en.wikipedia.org/wiki/Dog"))
        // The pack's texts follow the pages: none for German, the English summary for English and French.
        let bytes = try #require(out.files["packs/v/1.json"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let record = try #require((manifest["records"] as? [[String: Any]])?.first)
        let texts = try #require((record["payload"] as? [String: Any])?["texts"] as? [String: Any])
        #expect(texts.keys.sorted() == ["en", "fr"], "\(texts)")
    }

    /// A lead picture Commons does not describe: the warning is at the record that names the
    /// article, and the page credits no one but links the article (it showed "no credit given"
    /// with no link at all, and the warning named no record: found by a user).
    @Test func aPictureWithoutADescriptionLinksTheArticle() async throws {
        let wiki = try await FakeWikipedia.start { request, _, _ in
            request.path == "/w/api.php" ? .json("{\"batchcomplete\":true,\"query\":{\"pages\":[{\"ns\":6,\"title\":\"File:X.jpg\",\"missing\":true}]}}") : nil
        }
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [en]\n", to: "content/site.yml")
        try wiki.dir.write("---\nname: {en: Dog}\nwikipedia: {en: Dog}\n---\n", to: "content/animals/dog.md")
        let report = await wiki.fetch([FakeWikipedia.animal("dog", ["en": "Dog"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        let warning = try #require(report.diagnostics.first { $0.message.contains("is not described at") })
        #expect(warning.location?.path == "content/animals/dog.md")
        #expect(warning.message.hasPrefix("wikipedia.en 'Dog': "), "\(warning.message)")
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        _ = try SiteBuilder(options: options).build()
        let page = String(decoding: try #require(try Tree(wiki.dir.appending("out")).files["animals/dog/index.html"]), as: UTF8.self)
        let caption = try #require(page.components(separatedBy: "<figcaption>").dropFirst().first?.components(separatedBy: "</figcaption>").first)
        #expect(caption.contains("no credit given, <a href=\"https://en.wikipedia.org/wiki/Dog\""), "\(caption)")
    }

    /// A cached picture whose bytes were changed after a build (same size, so only its hash
    /// tells) is neither copied into the site nor published in the pack; the build says which
    /// file and what to do.
    @Test func aDamagedPictureIsNotUsedAndIsNamed() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\npacks: {id: t}\n", to: "content/site.yml")
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {en: Dog}\n---\n", to: "content/animals/hund.md")
        let report = await wiki.fetch([FakeWikipedia.animal("hund", ["en": "Dog"])])
        #expect(report.summaryLine == "fetched 1, unchanged 0, failed 0")
        let images = wiki.dir.appending("content/wikipedia/images")
        let names = try FileManager.default.contentsOfDirectory(atPath: images).sorted()
        #expect(names.count == 2)
        let damaged = try #require(names.first)
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        // A build while the picture was intact keeps its check for the next build
        // (.out.bestiary-files), and the decoded entries whole (nothing changed just before it);
        // the file's change must still be seen.
        let cache = wiki.dir.appending("content/wikipedia")
        for file in try LocalFileSystem().walkFiles(in: cache) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: cache + "/" + file)
        }
        _ = try SiteBuilder(options: options).build()
        #expect(FileManager.default.fileExists(atPath: wiki.dir.appending(".out.bestiary-files")))
        // A rebuild (the first build was a full one) keeps the entries whole for the next.
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {en: Dog}\n---\nA puppy.\n", to: "content/animals/hund.md")
        _ = try SiteBuilder(options: options).build()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: images + "/" + damaged))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: images + "/" + damaged))
        // The no-op check trusts the content-addressed images folder as a whole; any edit makes
        // the build run, and the build must see the picture's change.
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {en: Dog}\n---\nA dog.\n", to: "content/animals/hund.md")

        let builder = SiteBuilder(options: options)
        let built = try builder.build()
        #expect(built.stages.first { $0.name == "enrich" }?.detail == "2 of 2 animal pages with a summary, 1 image")
        let warnings = builder.diagnostics.items.filter { $0.stage == "enrich" }
        #expect(warnings.count == 1, "one warning, not repeated: \(warnings)")
        #expect(warnings.first?.location?.path == "content/wikipedia/images/" + damaged)
        #expect(warnings.first?.message.contains("bestiary fetch") == true)
        let out = try Tree(wiki.dir.appending("out"))
        let hash = String(damaged.prefix(16))
        #expect(!out.files.keys.contains { $0.hasPrefix("media/" + hash) }, "the damaged picture is not in the site")
        #expect(!out.files.keys.contains { $0.hasPrefix("packs/media/" + damaged.prefix(64)) })
        // The German page shows the English summary, saying so in German.
        let de = String(decoding: try #require(out.files["animals/hund/index.html"]), as: UTF8.self)
        #expect(de.contains("Diese Zusammenfassung ist auf Englisch."))
    }

    /// A cached picture damaged in place (its folder's listing unchanged, so the walk sees no
    /// change) while only another animal's record was edited: the rebuild does not take the
    /// pictured animal's pages as unchanged, and its output is a build from nothing's.
    @Test func aPictureDamagedInPlaceBesideAnEditOfAnotherRecordIsSeen() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\npacks: {id: t}\n", to: "content/site.yml")
        try wiki.dir.write("---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {en: Dog}\n---\n", to: "content/animals/hund.md")
        try wiki.dir.write("---\nname: {de: Katze, en: Cat}\ngroup: mammal\n---\n", to: "content/animals/katze.md")
        _ = await wiki.fetch([FakeWikipedia.animal("hund", ["en": "Dog"])])
        let images = wiki.dir.appending("content/wikipedia/images")
        let cache = wiki.dir.appending("content/wikipedia")
        for file in try LocalFileSystem().walkFiles(in: cache) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: cache + "/" + file)
        }
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        _ = try SiteBuilder(options: options).build()
        try wiki.dir.write("---\nname: {de: Katze, en: Cat}\ngroup: mammal\n---\nA cat.\n", to: "content/animals/katze.md")
        _ = try SiteBuilder(options: options).build()
        let page = { try String(decoding: #require(try Tree(wiki.dir.appending("out")).files["animals/hund/index.html"]), as: UTF8.self) }
        #expect(try page().contains("<figure"), "the dog's page shows its picture while it is intact")
        for name in try FileManager.default.contentsOfDirectory(atPath: images) {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: images + "/" + name))
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: images + "/" + name))
        }
        try wiki.dir.write("---\nname: {de: Katze, en: Cat}\ngroup: mammal\n---\nA small cat.\n", to: "content/animals/katze.md")
        let rebuilt = try SiteBuilder(options: options).build()
        #expect(rebuilt.inputChanges?.modified == ["content/animals/katze.md"] && rebuilt.inputChanges?.count == 1)
        options.output = wiki.dir.appending("fresh")
        options.force = true
        _ = try SiteBuilder(options: options).build()
        let differences = try Tree(wiki.dir.appending("out")).differences(from: Tree(wiki.dir.appending("fresh")))
        #expect(differences == [], "\(differences)")
        #expect(try !page().contains("<figure"), "the damaged picture is no longer shown")
    }

    /// A rebuild takes the last build's decoded entries whole while the walk lists the cache as
    /// it was; an entry fetched again since is read, and its new text is on the page: the output
    /// is then a build from nothing's.
    @Test func aRebuildSeesAnEntryFetchedAgain() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let record = try await Self.fetchedDog(wiki)
        // Settled (written more than 2 s before the build), so the first build keeps them whole.
        let hourAgo = Date().addingTimeInterval(-3600)
        let cache = wiki.dir.appending("content/wikipedia")
        for file in try LocalFileSystem().walkFiles(in: cache) {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: cache + "/" + file)
        }
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        func page() throws -> String { try String(contentsOfFile: wiki.dir.appending("out/animals/hund/index.html"), encoding: .utf8) }
        var edits = 0
        /// The record edited, then a build (a rebuild after the first).
        func rebuild() throws {
            edits += 1
            try wiki.dir.write(record + "Edit \(edits).\n", to: "content/animals/hund.md")
            _ = try SiteBuilder(options: options).build()
        }
        _ = try SiteBuilder(options: options).build()
        try rebuild()  // reads each entry, and keeps them whole
        try rebuild()  // takes them whole
        #expect(try page().contains("Der Haushund ist ein Haustier"))

        let writer = WikipediaCache(root: wiki.dir.path)
        var entry = try #require(writer.load().entries[WikipediaSnapshot.Key(language: "de", title: "Haushund")])
        entry.extract = "Ein neuer Text über den Haushund."
        try writer.write(entry)
        try rebuild()
        #expect(try page().contains("Ein neuer Text über den Haushund."))
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: writer.entryPath(language: "de", canonicalTitle: "Haushund"))
        try rebuild()
        try rebuild()
        #expect(try page().contains("Ein neuer Text über den Haushund."), "taken whole again, the new entry with them")
        var fresh = options
        fresh.output = wiki.dir.appending("fresh")
        fresh.force = true
        _ = try SiteBuilder(options: fresh).build()
        #expect(try Tree(wiki.dir.appending("out")).differences(from: Tree(wiki.dir.appending("fresh"))) == [])
    }

    /// The preview's rebuilds (a memo kept between builds) read the Wikipedia cache beside load,
    /// from the walk's listing: an entry fetched again, a picture's bytes changed in place and an
    /// entry deleted each show in the next rebuild, whose output is then a build from nothing's.
    @Test func thePreviewsRebuildsSeeTheCacheChange() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        let record = try await Self.fetchedDog(wiki)
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let memo = BuildMemo()
        var fresh = 0
        /// The record edited (a picture changed in place changes no listing the no-op check
        /// compares), a preview rebuild, then a fresh build of the same inputs: the same files.
        func rebuildAndCompare(_ comment: Comment) throws {
            fresh += 1
            try wiki.dir.write(record + "Edit \(fresh).\n", to: "content/animals/hund.md")
            let builder = SiteBuilder(options: options, memo: memo)
            _ = try builder.build()
            var other = options
            let freshOutput = wiki.dir.appending("fresh-\(fresh)")
            other.output = freshOutput
            other.force = true
            _ = try SiteBuilder(options: other).build()
            let differences = try Tree(wiki.dir.appending("out")).differences(from: Tree(freshOutput))
            #expect(differences == [], "\(comment): \(differences)")
        }
        func page(_ path: String = "animals/hund/index.html") throws -> String {
            try String(contentsOfFile: wiki.dir.appending("out/" + path), encoding: .utf8)
        }
        _ = try SiteBuilder(options: options, memo: memo).build()
        try rebuildAndCompare("a record edited")
        #expect(try page().contains("Der Haushund ist ein Haustier"))

        let writer = WikipediaCache(root: wiki.dir.path)
        var entry = try #require(writer.load().entries[WikipediaSnapshot.Key(language: "de", title: "Haushund")])
        entry.extract = "Ein neuer Text über den Haushund."
        try writer.write(entry)
        try rebuildAndCompare("an entry fetched again")
        #expect(try page().contains("Ein neuer Text über den Haushund."))

        // A lead picture's bytes changed in place, its size kept: refused by its hash.
        let images = wiki.dir.appending("content/wikipedia/images")
        let picture = try #require(try FileManager.default.contentsOfDirectory(atPath: images).sorted().first)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: images + "/" + picture))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: images + "/" + picture))
        try rebuildAndCompare("a picture damaged")

        try FileManager.default.removeItem(atPath: writer.entryPath(language: "en", canonicalTitle: "Dog"))
        try rebuildAndCompare("an entry deleted")
        #expect(try !page("en/animals/hund/index.html").contains("The dog is a member of the genus Canis"))
    }

    /// A two-language site with one record, a dog, whose two articles are fetched; the record's text.
    static func fetchedDog(_ wiki: FakeWikipedia) async throws -> String {
        try wiki.dir.write("title: T\nbase_url: https://example.org/\nlanguages: [de, en]\npacks: {id: t}\n", to: "content/site.yml")
        let record = "---\nname: {de: Hund, en: Dog}\ngroup: mammal\nwikipedia: {de: Haushund, en: Dog}\n---\n"
        try wiki.dir.write(record, to: "content/animals/hund.md")
        #expect(await wiki.fetch([FakeWikipedia.animal("hund", ["de": "Haushund", "en": "Dog"])]).summaryLine == "fetched 2, unchanged 0, failed 0")
        return record
    }
}
