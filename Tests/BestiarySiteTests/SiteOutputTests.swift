import BestiaryContent
import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// What a build produces for real catalogues: a page per animal per language, media copied with
/// content-hashed names and linked from the pages, nothing that could inject markup.
@Suite struct SiteOutputTests {
    @Test func tuxpaintCatalogHasAPagePerAnimalPerLanguageWithItsSound() throws {
        let work = TemporaryDirectory()
        let root = Fixtures.path("sites/tuxpaint")
        let report = try build(root: root, output: work.appending("out"))
        let catalog = try #require(ContentLoader(root: root).load().catalog)
        let out = try Tree(work.appending("out"))
        #expect(catalog.animals.count >= 60)
        var withSound = 0
        for animal in catalog.animals {
            for prefix in ["", "de/"] {  // English is this site's default language
                let page = try #require(out.files["\(prefix)animals/\(animal.id)/index.html"], "no \(prefix) page for \(animal.id)")
                let html = String(decoding: page, as: UTF8.self)
                guard let sound = animal.sound, case .file(let path) = sound.source else { continue }
                let original = try Data(contentsOf: URL(fileURLWithPath: root + "/content/" + path))
                let copied = try #require(out.files.first { $0.key.hasPrefix("media/") && $0.value == original })
                #expect(copied.key.hasSuffix(".ogg"))
                #expect(html.contains("<source src=\"\(prefix.isEmpty ? "../../" : "../../../")\(copied.key)\" type=\"audio/ogg\">"))
                #expect(html.contains("Tux Paint"))
                withSound += 1
            }
        }
        #expect(withSound >= 120)
        #expect(report.pages == out.files.keys.filter { $0.hasSuffix(".html") }.count)
    }

    @Test func hostileTextNeverBecomesMarkupWithTheDefaultTheme() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")  // the default theme
        try build(root: root, output: work.appending("out"))
        let out = try Tree(work.appending("out"))
        for (path, data) in out.files where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains("<script>alert"), "\(path)")
            #expect(!html.contains("href=\"javascript:"), "\(path)")
            #expect(!html.contains("onerror="), "\(path)")
            #expect(!html.contains("<friends>"), "\(path)")
        }
        let bob = String(decoding: try #require(out.files["animals/bob/index.html"]), as: UTF8.self)
        #expect(bob.contains("<h1>*Bob* &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(bob.contains("raw HTML omitted"))
        // The catalogue JSON keeps the name as data, escaped so it cannot end a <script> element.
        let catalog = try #require(out.files.first { $0.key.hasPrefix("assets/catalog.") })
        #expect(String(decoding: catalog.value, as: UTF8.self).contains("*Bob* \\u003cscript\\u003ealert(1)\\u003c/script\\u003e"))
        // Named by its bytes (the name and the write stage's record take one SHA-256 of them).
        #expect(catalog.key == "assets/catalog.\(Hashing.shortHash(catalog.value)).json")
    }

    /// A sound with no credit, licence or source says so, as a picture without one does (with
    /// swift-mustache it opened an empty credit line).
    /// A sound that is a symbolic link to another file of content/ is published as that file's
    /// bytes: the link itself was hard-linked into the output, where its relative target led
    /// nowhere, and the sound was missing from the site and the pack (found by a security review).
    @Test func aMediaFileThatIsALinkIsPublishedAsWhatItLeadsTo() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: dir)
        let sounds = root + "/content/sounds"
        try FileManager.default.moveItem(atPath: sounds + "/tone.wav", toPath: sounds + "/tone-recorded.wav")
        try FileManager.default.createSymbolicLink(atPath: sounds + "/tone.wav", withDestinationPath: "tone-recorded.wav")
        let output = dir.appending("out")
        try build(root: root, output: output)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sounds + "/tone-recorded.wav"))
        for folder in ["media"] {
            let wavs = try FileManager.default.contentsOfDirectory(atPath: output + "/" + folder).filter { $0.hasSuffix(".wav") }
            #expect(wavs.count == 1, "\(folder): \(wavs)")
            for name in wavs {
                let path = output + "/" + folder + "/" + name
                let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
                #expect(type == .typeRegular, "\(path) is \(String(describing: type))")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            }
        }
    }

    @Test func aSoundWithNothingToCreditSaysNoCreditGiven() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        let toad = root + "/content/animals/toad.md"
        let text = try String(contentsOfFile: toad, encoding: .utf8)
        try text.replacingOccurrences(of: "difficulty: 2\n", with: "difficulty: 2\nsound: {file: sounds/tone.wav}\n")
            .writeReplacing(toFile: toad)
        try build(root: root, output: work.appending("out"))
        let page = String(decoding: try #require(try Tree(work.appending("out")).files["animals/common-toad/index.html"]), as: UTF8.self)
        #expect(page.contains("<figcaption>Aufnahme: ohne Quellenangabe</figcaption>"), "\(page)")
    }

    /// The facts list keeps the page's language while its names and a fallback habitat carry
    /// their own, and a body in another language is marked alone (not the facts above it).
    @Test func factsCarryTheirOwnLanguages() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        try """
            ---
            id: common-toad
            name: { de: Erdkröte, en: Common toad }
            group: amphibian
            difficulty: 2
            habitat: { de: Teiche und feuchte Wälder }
            ---
            Kröten laufen lieber, als zu hüpfen.
            """.writeReplacing(toFile: root + "/content/animals/toad.md")
        try build(root: root, output: work.appending("out"))
        let out = try Tree(work.appending("out"))
        // The English page: German habitat and body (the site's first language), English facts.
        let page = String(decoding: try #require(out.files["en/animals/common-toad/index.html"]), as: UTF8.self)
        #expect(page.contains("<dt><span lang=\"de\" dir=\"ltr\">Deutsch</span></dt><dd><span lang=\"de\" dir=\"ltr\">Erdkröte</span></dd>"), "\(page)")
        #expect(page.contains("<dt><span lang=\"en\" dir=\"ltr\">English</span></dt><dd><span lang=\"en\" dir=\"ltr\">Common toad</span></dd>"))
        #expect(page.contains("<dt>Habitat</dt><dd lang=\"de\" dir=\"ltr\">Teiche und feuchte Wälder</dd>"))
        #expect(page.contains("<h2 id=\"facts-title\">Facts</h2>"))
        let facts = try #require(page.range(of: "<section class=\"facts\""))
        let body = try #require(page.range(of: "<div class=\"animal-text\" lang=\"de\" dir=\"ltr\">"))
        #expect(facts.lowerBound < body.lowerBound)
        #expect(page[body.upperBound...].hasPrefix("\n    <p>Kröten laufen lieber, als zu hüpfen.</p>"))
        // Said above it in the page's language, as a description in another language is.
        #expect(page.contains("<p class=\"note\">This text is in German.</p>\n  <div class=\"animal-text\" lang=\"de\""))
        // The German page: nothing in another language but the English name.
        let german = String(decoding: try #require(out.files["animals/common-toad/index.html"]), as: UTF8.self)
        #expect(german.contains("<dt>Lebensraum</dt><dd>Teiche und feuchte Wälder</dd>"))
        #expect(german.contains("<div class=\"animal-text\">\n    <p>Kröten laufen"))
        #expect(!german.contains("Dieser Text ist auf"))
    }

    /// A record's tags show under site.yml's label in the page's language, and as written where
    /// that language has none (not another language's label).
    @Test func tagsShowTheirLabelsInThePagesLanguage() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        let siteYML = try String(contentsOfFile: root + "/content/site.yml", encoding: .utf8)
        try (siteYML + "tags:\n  north-america: {de: Nordamerika, en: North America}\n  wild: {de: Wildtier}\n").writeReplacing(
            toFile: root + "/content/site.yml")
        try "---\nname: { de: Waschbär, en: Raccoon }\ntags: [wild, north-america, night]\n---\n".writeReplacing(
            toFile: root + "/content/animals/raccoon.md")
        try build(root: root, output: work.appending("out"))
        let out = try Tree(work.appending("out"))
        let german = String(decoding: try #require(out.files["animals/raccoon/index.html"]), as: UTF8.self)
        #expect(german.contains("<dd><ul class=\"tag-list\"><li>Wildtier</li><li>Nordamerika</li><li>night</li></ul></dd>"), "\(german)")
        let english = String(decoding: try #require(out.files["en/animals/raccoon/index.html"]), as: UTF8.self)
        #expect(english.contains("<dd><ul class=\"tag-list\"><li>wild</li><li>North America</li><li>night</li></ul></dd>"), "\(english)")
    }

    /// A similar animal without a picture shows the placeholder on the page of one with a
    /// picture, not that animal's own picture (its card is rendered inside the page's animal).
    @Test func aSimilarAnimalWithoutAPictureShowsThePlaceholder() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        try "---\nname: { de: Amsel, en: Blackbird }\ngroup: bird\n---\n".writeReplacing(
            toFile: root + "/content/animals/blackbird.md")
        try build(root: root, output: work.appending("out"))
        let page = String(decoding: try #require(try Tree(work.appending("out")).files["animals/robin/index.html"]), as: UTF8.self)
        #expect(page.contains("<img src=\"../../media/"))  // the robin's own picture
        let card = try #require(page.range(of: "<li class=\"card\" data-id=\"blackbird\""))
        let end = try #require(page[card.upperBound...].range(of: "</li>"))
        let html = page[card.lowerBound..<end.upperBound]
        #expect(html.contains("<span class=\"card-placeholder\" aria-hidden=\"true\"></span>"), "\(html)")
        #expect(!html.contains("<img"), "\(html)")
    }

    /// A free page's title shown in another language (its fallback) carries that language in the
    /// menu, as on the page itself: a screen reader read the German title with English rules
    /// (found by a translator). Titles in the page's own language carry none.
    @Test func aMenuTitleInAnotherLanguageSaysWhichLanguage() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")
        try "---\ntitle: { de: Spielregeln }\n---\nSo wird gespielt.\n".writeReplacing(toFile: root + "/content/pages/rules.md")
        try build(root: root, output: work.appending("out"))
        let tree = try Tree(work.appending("out"))
        let english = String(decoding: try #require(tree.files["en/index.html"]), as: UTF8.self)
        #expect(english.contains("<a href=\"rules/\" lang=\"de\">Spielregeln</a>"), "\(english)")
        #expect(english.contains("<a href=\"about/\">About</a>"), "\(english)")
        let german = String(decoding: try #require(tree.files["index.html"]), as: UTF8.self)
        #expect(german.contains("<a href=\"rules/\">Spielregeln</a>"), "\(german)")
    }

    /// The home page links only the quiz modes the catalogue can play; the others say why not.
    @Test(arguments: ["no sound", "no picture", "no media", "too few names"])
    func homeOffersOnlyModesTheQuizCanPlay(site: String) throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.removeItem(atPath: root + "/templates")  // the default theme
        let robin = root + "/content/animals/robin.md"
        var text = try String(contentsOfFile: robin, encoding: .utf8)
        let sound = "sound:\n  file: sounds/tone.wav\n  credit: \"Generated test tone\"\n  license: CC0-1.0\n"
        let image = "image:\n  file: images/green.png\n  credit: \"Generated test picture\"\n  license: CC0-1.0\n  focus: \"50% 30%\"\n"
        #expect(text.contains(sound) && text.contains(image))
        if site == "no sound" || site == "no media" { text = text.replacingOccurrences(of: sound, with: "") }
        if site == "no picture" || site == "no media" { text = text.replacingOccurrences(of: image, with: "") }
        try text.writeReplacing(toFile: robin)
        if site == "too few names" {
            // Three animals, four choices a question.
            let config = root + "/content/site.yml"
            let yml = try String(contentsOfFile: config, encoding: .utf8)
            try yml.replacingOccurrences(of: "choices: 2", with: "choices: 4").writeReplacing(toFile: config)
        }
        try build(root: root, output: work.appending("out"))
        let out = try Tree(work.appending("out"))
        let expected = [
            "no sound": ["image", "daily", "learn"], "no picture": ["sound", "daily", "learn"], "no media": [], "too few names": [],
        ][site]!
        for (page, unavailable, tooFew) in [
            ("index.html", "Noch hat kein Tier, was diese Spielart braucht.", "Noch zu wenige Tiere mit verschiedenen Namen für eine Runde."),
            ("en/index.html", "No animal has what this mode needs yet.", "Too few animals with different names for a round yet."),
        ] {
            let html = String(decoding: try #require(out.files[page]), as: UTF8.self)
            let linked = ["sound", "image", "daily", "learn"].filter { html.contains("data-mode-link=\"\($0)\"") }
            #expect(linked == expected, "\(page)")
            let reason = site == "too few names" ? tooFew : unavailable
            #expect(html.components(separatedBy: "<span class=\"mode-text\">\(reason)</span>").count - 1 == 4 - expected.count, "\(page)")
        }
    }

    /// The 404 page's absolute links take the base URL's path as it is written: decoded, `%2F`
    /// was a folder and `%22%3E` ended the attribute (a museum's publisher). A URL that holds
    /// a quote, a user name or `..` is refused.
    @Test func theNotFoundPageTakesTheBaseURLsPathAsWritten() throws {
        let work = TemporaryDirectory()
        try build(root: Fixtures.repositoryRoot, output: work.appending("out"), baseURL: "https://museum.example/a%2Fb%22%3E/")
        let html = String(decoding: try Data(contentsOf: URL(fileURLWithPath: work.appending("out/404.html"))), as: UTF8.self)
        #expect(html.contains("href=\"/a%2Fb%22%3E/assets/css/site."), "\(html.prefix(1500))")
        #expect(!html.contains("/a/b") && !html.contains("\">/"))
        for (url, problem) in [
            ("https://museum.example/quiz/\"><script>", "holds '\"', which a URL cannot hold as it is; write it percent-encoded (%22)"),
            ("https://museum.example/quiz\u{A0}/", "holds U+00A0, which a URL cannot hold as it is; write it percent-encoded (%C2%A0)"),
            ("https://user:pw@museum.example/quiz/", "holds a user name or password (…@)"),
            ("https://museum.example/quiz//", "has an empty folder name (//)"),
            ("https://museum.example/a/../quiz/", "has '.' or '..' in its path"),
            ("https://museum.example/quiz/index.html", "names a page (index.html); give the folder it is in"),
        ] {
            #expect(URLCheck.problem(baseURL: url)?.contains(problem) == true, "\(url): \(URLCheck.problem(baseURL: url) ?? "nil")")
        }
        #expect(URLCheck.problem(baseURL: "https://museum.example/quiz/") == nil)
        #expect(URLCheck.problem(baseURL: "https://museum.example") == nil)
        // Other scripts, in the host and the path, as before.
        #expect(URLCheck.problem(baseURL: "https://münchen.museum/tiere/bär/") == nil)
    }

    /// Each language's pages link a web app manifest in their language (installed from an
    /// English page, the app was named in German and opened the German home: a translator's),
    /// each an app of its own (no id: its start URL is), all with the site's root as scope.
    @Test func eachLanguageHasAnAppManifestOfItsOwn() throws {
        let work = TemporaryDirectory()
        try build(root: Fixtures.repositoryRoot, output: work.appending("out"))
        func json(_ path: String) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work.appending("out/" + path)))) as? [String: Any])
        }
        let german = try json("manifest.webmanifest"), english = try json("en/manifest.webmanifest")
        #expect(german["lang"] as? String == "de" && german["name"] as? String == "Tierstimmen" && german["scope"] as? String == "./")
        #expect(english["lang"] as? String == "en" && english["name"] as? String == "Animal voices")
        #expect(english["start_url"] as? String == "./" && english["scope"] as? String == "../" && english["id"] == nil)
        let icon = try #require((english["icons"] as? [[String: Any]])?.first?["src"] as? String)
        #expect(icon.hasPrefix("../assets/icons/") && FileManager.default.fileExists(atPath: work.appending("out/en/" + icon)))
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: work.appending("out/en/animals/bison/index.html"))), as: UTF8.self)
        #expect(page.contains("<link rel=\"manifest\" href=\"../../../en/manifest.webmanifest\">"))
        #expect(english["theme_color"] as? String == "#2f6b4f" && english["background_color"] as? String == "#fbfaf7")
        #expect(page.contains("<meta name=\"theme-color\" content=\"#2f6b4f\">"))
        // The site's own colours (site.yml's app:) in every manifest and page.
        let site = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: site.path)
        try FileManager.default.copyItem(atPath: Fixtures.repositoryRoot + "/content", toPath: site.path + "/content")
        let yml = site.path + "/content/site.yml"
        try (String(contentsOfFile: yml, encoding: .utf8) + "app: {theme_color: \"#7a1f3d\", background_color: \"#FFF\", short_name: {de: Tiere}}\n").writeReplacing(toFile: yml)
        try build(root: site.path, output: work.appending("own"))
        let own = try json("../own/en/manifest.webmanifest")
        #expect(own["theme_color"] as? String == "#7a1f3d" && own["background_color"] as? String == "#ffffff")
        // The label under the icon, as site.yml's app.short_name gives it (its English falls back to German).
        #expect(try json("../own/manifest.webmanifest")["short_name"] as? String == "Tiere" && own["short_name"] as? String == "Tiere")
        #expect(english["short_name"] as? String == "Animal")
        let ownPage = String(decoding: try Data(contentsOf: URL(fileURLWithPath: work.appending("own/quiz/index.html"))), as: UTF8.self)
        #expect(ownPage.contains("<meta name=\"theme-color\" content=\"#7a1f3d\">"))
    }

    @Test func assetsAndMediaCarryContentHashesAndHTMLDoesNot() throws {
        let work = TemporaryDirectory()
        try build(root: Fixtures.repositoryRoot, output: work.appending("out"))
        let out = try Tree(work.appending("out"))
        for path in out.paths where path.hasPrefix("assets/") || path.hasPrefix("media/") {
            let name = path.split(separator: "/").last!
            #expect(name.split(separator: ".").contains { $0.count >= 10 && $0.allSatisfy(\.isHexDigit) }, "\(path) has no hash")
        }
        #expect(out.paths.contains("index.html") && out.paths.contains("en/index.html"))
        #expect(out.paths.contains("sitemap.xml") && out.paths.contains("404.html") && out.paths.contains("manifest.webmanifest"))
        // Every local URL in every page resolves to a file of the output.
        for (path, data) in out.files where path.hasSuffix(".html") && path != "404.html" {
            let html = String(decoding: data, as: UTF8.self)
            let directory = URL(fileURLWithPath: "/site/" + path).deletingLastPathComponent()
            for match in html.matches(of: /(?:href|src)="([^"#?]+)"/) {
                let url = String(match.1)
                if url.hasPrefix("http") || url.hasPrefix("mailto:") { continue }
                var target = directory.appendingPathComponent(url).standardizedFileURL.path
                if url.hasSuffix("/") || url == "." || url == "./" { target += "/index.html" }
                let relative = String(target.dropFirst("/site/".count)).replacingOccurrences(of: "//", with: "/")
                #expect(out.files[relative] != nil, "\(path) links to missing \(url)")
            }
        }
    }
}

@Suite struct EnrichWarningsTests {
    /// The example site was never fetched: 48 articles are missing, but the build names three and
    /// counts the rest instead of printing 48 warnings.
    @Test func aNeverFetchedSiteGetsAFewWarningsAndACount() throws {
        let work = TemporaryDirectory()
        var options = BuildOptions(root: Fixtures.repositoryRoot, output: work.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        let enrich = builder.diagnostics.items.filter { $0.stage == "enrich" }
        #expect(enrich.count == 4, "\(enrich.map(\.message))")
        #expect(enrich.filter { $0.message.contains("is not in the Wikipedia cache") && $0.location?.path.hasPrefix("content/animals/") == true }.count == 3)
        #expect(enrich.last?.message.hasPrefix("45 more Wikipedia articles named by records are not in the cache") == true, "\(enrich.last?.message ?? "")")
    }
}

/// What the service worker precaches: the app shell, but no page over a mebibyte (a catalogue of
/// 10,000 animals made collection and sightings pages of 3–5 MB in every language, all downloaded
/// again by every install after a content change).
@Suite struct PrecacheTests {
    static func precache(_ output: String) throws -> (paths: [String], version: String, later: [String]) {
        let worker = try String(contentsOfFile: output + "/sw.js", encoding: .utf8)
        let start = try #require(worker.range(of: "/* bestiary:config */")), end = try #require(worker.range(of: "/* bestiary:end */"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(worker[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        return (try #require(json["precache"] as? [String]), try #require(json["version"] as? String), try #require(json["later"] as? [String]))
    }

    @Test func aPageOverAMebibyteIsLeftToBeCachedWhenVisited() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        // 303 KB of Markdown, 1.5 MB of HTML: each `&` is written `&amp;`.
        let paragraph = "Ampersands: " + String(repeating: "&", count: 100) + "\n\n"
        try ("---\ntitle: { de: Lang, en: Long }\n---\n" + String(repeating: paragraph, count: 2_700))
            .write(toFile: root + "/content/pages/long.md", atomically: true, encoding: .utf8)
        try build(root: root, output: work.appending("out"))
        let long = try #require(FileManager.default.attributesOfItem(atPath: work.appending("out/long/index.html"))[.size] as? Int)
        #expect(long > 1 << 20)
        let (paths, version, later) = try Self.precache(work.appending("out"))
        #expect(!paths.contains("long/") && !paths.contains("en/long/"))
        // Named apart: a new build's install fetches again the ones an earlier build's cache held.
        #expect(later == ["long/", "en/long/"])
        #expect(paths.contains("about/") && paths.contains("en/about/") && paths.contains("collection/") && paths.contains("./"))

        // A change to it still makes a new version: a learner's visited copy is not kept stale.
        try ("---\ntitle: { de: Lang, en: Long }\n---\nChanged.\n\n" + String(repeating: paragraph, count: 2_700))
            .write(toFile: root + "/content/pages/long.md", atomically: true, encoding: .utf8)
        try build(root: root, output: work.appending("out"))
        #expect(try Self.precache(work.appending("out")).version != version)
    }

    /// A rebuild writes a list page whose cards it kept in parts (runs of the previous file's
    /// bytes): over a mebibyte, it is still left out of the precache, as a build from nothing
    /// leaves it (the worker looked only at a page in one piece).
    @Test func aListPageOverAMebibyteWrittenInPartsIsLeftOutToo() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        // Eight cards of about 150 KB each: each name's `&` is written `&amp;`.
        for i in 1...8 {
            let name = "Big\(i) " + String(repeating: "&", count: 30_000)
            try "---\nname: { de: \"\(name)\", en: \"\(name)\" }\ngroup: bird\ndifficulty: 1\n---\n"
                .write(toFile: root + "/content/animals/big\(i).md", atomically: true, encoding: .utf8)
        }
        let output = work.appending("out")
        try build(root: root, output: output)
        let size = try #require(FileManager.default.attributesOfItem(atPath: output + "/collection/index.html")[.size] as? Int)
        #expect(size > 1 << 20)
        #expect(try Self.precache(output).later.contains("collection/"))
        // One record edited: the other cards are kept, and the page is written in parts.
        try "---\nname: { de: Krötchen, en: Toadlet }\ngroup: amphibian\ndifficulty: 2\n---\n"
            .write(toFile: root + "/content/animals/toad.md", atomically: true, encoding: .utf8)
        let report = try build(root: root, output: output)
        #expect(report.pagesReused > 0, "a rebuild that kept pages")
        let fresh = work.appending("fresh")
        try build(root: root, output: fresh)
        let (paths, version, later) = try Self.precache(output)
        #expect(later.contains("collection/") && !paths.contains("collection/"), "\(later)")
        #expect(try Self.precache(fresh) == (paths, version, later))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/collection/index.html")) == Data(contentsOf: URL(fileURLWithPath: fresh + "/collection/index.html")))
    }

    /// The animals' texts are a file per language: 3–4 MB each at 10,000 animals, and an install
    /// downloaded every language's. One over a mebibyte is kept when the quiz first reads it.
    @Test func aLanguagesTextsOverAMebibyteAreKeptWhenFirstRead() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        // 250 animals with 4,400 characters of English text each: 1.1 MB of English texts.
        let text = String(repeating: "A long text about this animal. ", count: 142)
        for i in 0..<250 {
            try "---\nname: { de: Tier \(i), en: Animal \(i) }\ndescription: { en: \"\(text)\" }\n---\n"
                .write(toFile: root + "/content/animals/big-\(i).md", atomically: true, encoding: .utf8)
        }
        try build(root: root, output: work.appending("out"))
        let worker = try String(contentsOfFile: work.appending("out/sw.js"), encoding: .utf8)
        let start = try #require(worker.range(of: "/* bestiary:config */")), end = try #require(worker.range(of: "/* bestiary:end */"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(worker[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let precache = try #require(json["precache"] as? [String]), onUse = try #require(json["onUse"] as? [String])
        let assets = try FileManager.default.contentsOfDirectory(atPath: work.appending("out/assets"))
        let english = try #require(assets.first { $0.hasPrefix("descriptions.en.") }), german = assets.first { $0.hasPrefix("descriptions.de.") }
        #expect(try #require(FileManager.default.attributesOfItem(atPath: work.appending("out/assets/" + english))[.size] as? Int) > 1 << 20)
        #expect(onUse == ["assets/" + english])
        #expect(!precache.contains("assets/" + english))
        // The catalogue, whatever its size, and a small language's texts are precached.
        #expect(precache.contains(try #require(json["catalog"] as? String)))
        if let german { #expect(precache.contains("assets/" + german)) }
    }
}
