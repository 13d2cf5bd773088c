@testable import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@Suite struct ContentLoaderTests {
    /// Warnings raised after loading (build, fetch, packs) point at the key they are about: its
    /// own line, else its parent's, else the file's first line. Where keys are is not part of
    /// the config: the same settings on other lines are equal.
    @Test func siteYMLKeepsWhereEachKeyIsWritten() throws {
        let text = "# settings\ntitle: T\nbase_url: https://e.org/\nlanguages: [en]\nquiz:\n  questions: 5\npacks: {id: p, expires_days: 9}\n"
        let (parsed, problems) = SiteConfig.parse(SourceText(path: "content/site.yml", text: text))
        #expect(problems.isEmpty)
        let config = try #require(parsed)
        func at(_ key: String) -> String { let l = config.location(of: key); return "\(l.line):\(l.column)" }
        #expect(at("languages") == "4:1")
        #expect(at("quiz.questions") == "6:3")
        #expect(at("quiz.choices") == "5:1")  // a default: its parent
        #expect(at("packs.expires_days") == "7:16")
        #expect(at("packs.public_keys") == "7:1")
        #expect(at("wikipedia.contact") == "1:1")  // no such key nor parent
        #expect(config.location(of: "languages").path == "content/site.yml")
        let moved = try #require(SiteConfig.parse(SourceText(path: "content/site.yml", text: "\n\n" + text)).0)
        #expect(moved == config)
        #expect(moved.location(of: "languages").line == 6)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(moved) == encoder.encode(config))
    }

    /// `app:`'s colours (the installed app's bar and splash screen could not follow a museum's
    /// colours): taken as `#rrggbb` in lower case; an unquoted `#…`, which YAML reads as a
    /// comment, and a colour written otherwise are errors that say how to write it.
    @Test func siteYMLGivesTheAppsColours() throws {
        let head = "title: T\nbase_url: https://e.org/\nlanguages: [en]\n"
        func parse(_ text: String) -> (SiteConfig?, [String]) {
            let (config, problems) = SiteConfig.parse(SourceText(path: "content/site.yml", text: head + text))
            return (config, problems.map(DiagnosticFormatter.text))
        }
        let defaults = try #require(parse("").0)
        #expect(defaults.app.themeColor == "#2f6b4f" && defaults.app.backgroundColor == "#fbfaf7")
        let given = try #require(parse("app: {theme_color: \"#1A2B3C\", background_color: '#fff'}\n").0)
        #expect(given.app.themeColor == "#1a2b3c" && given.app.backgroundColor == "#ffffff")
        #expect(parse("app:\n  theme_color: #1a2b3c\n").1 == [
            "content/site.yml:5:15: error: app.theme_color is empty: in YAML a # starts a comment, so write the colour in quotes (theme_color: \"#2f6b4f\") [load]"
        ])
        #expect(parse("app: {theme_color: [a]}\n").1.first?.contains("app.theme_color must be a colour written #rrggbb (or #rgb), such as \"#2f6b4f\", in quotes; not a list or a mapping") == true)
        #expect(parse("app: {background_color: green}\n").1 == [
            "content/site.yml:4:25: error: app.background_color must be a colour written #rrggbb (or #rgb), such as \"#2f6b4f\", in quotes; not 'green' [load]"
        ])
    }

    /// An error in site.yml came alone, and the records' errors only in the next round, once it
    /// was mended (found by a teacher): while its languages are sound, the records and pages are
    /// checked against them in the same run. With languages that are not, they are not checked
    /// (every record would be said to lack the default language).
    @Test func anErrorInSiteYMLComesWithTheRecordsErrors() throws {
        let records = [
            "content/animals/fox.md": "---\nname: {de: Fuchs, en: Fox}\ndifficulty: 7\n---\n",
            "content/animals/owl.md": "---\nname: {en: Owl}\n---\n",
            "content/pages/about.md": "---\ntitle: {fr: À propos}\n---\n",
        ]
        let head = "title: { de: Test, en: Test }\nbase_url: https://example.org/\n"
        let colour = try TestSite(records, siteYML: head + "languages: [de, en]\napp: {theme_color: green}\n")
        let lines = colour.lines()
        #expect(colour.load().catalog == nil)
        #expect(lines.filter { $0.hasPrefix("content/site.yml:4:") && $0.contains("error: app.theme_color must be a colour") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/fox.md:3:13: error: difficulty") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/owl.md:2:7: error: name needs the default language 'de'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/pages/about.md:") && $0.contains("error:") }, "\(lines)")
        #expect(lines.count == Set(lines).count, "each once: \(lines)")

        let broken = try TestSite(records, siteYML: head + "languages: [de, english]\n")
        let brokenLines = broken.lines()
        #expect(brokenLines.contains { $0.contains("'english' is not a language code") }, "\(brokenLines)")
        #expect(brokenLines.allSatisfy { $0.hasPrefix("content/site.yml:") }, "\(brokenLines)")
    }

    @Test func loadsARecordCompletely() throws {
        let site = try TestSite([
            "content/animals/red-fox.md": """
                ---
                name: { en: Red fox, de: Rotfuchs }
                scientific: Vulpes vulpes
                group: mammal
                difficulty: 1
                tags: [forest, europe]
                wikipedia: { de: Rotfuchs, en: Red fox }
                description: { en: "A fox.", de: "Ein Fuchs." }
                hint: { en: Orange. }
                sound:
                  file: sounds/red-fox.ogg
                  credit: "Jane Doe, XC123456"
                  license: CC BY-SA 4.0
                  source: https://xeno-canto.org/123456
                image:
                  url: https://upload.example.org/fox.webp
                  credit: John Roe
                  focus: "50% 20%"
                  alt: { en: A fox in snow }
                ---
                Der Rotfuchs *lebt* überall.

                """,
            "content/animals/red-fox.en.md": "The red fox lives everywhere.\n",
        ], binary: ["content/sounds/red-fox.ogg": TestMedia.ogg])
        let result = site.load()
        #expect(site.lines() == [])
        let fox = try #require(result.catalog?.animals.first)
        #expect(fox.id == "red-fox")
        #expect(fox.name.values == ["en": "Red fox", "de": "Rotfuchs"])
        #expect(fox.scientific == "Vulpes vulpes" && fox.group == "mammal" && fox.difficulty == 1)
        #expect(fox.tags == ["forest", "europe"])
        #expect(fox.wikipedia == ["de": "Rotfuchs", "en": "Red fox"])
        #expect(fox.hint["en"] == "Orange.")
        #expect(fox.sound?.source == .file("sounds/red-fox.ogg"))
        #expect(fox.sound?.format == .ogg)
        #expect(fox.sound?.credit == "Jane Doe, XC123456")
        #expect(fox.sound?.sourceURL == "https://xeno-canto.org/123456")
        #expect(fox.image?.source == .url("https://upload.example.org/fox.webp"))
        #expect(fox.image?.focus == "50% 20%")
        #expect(fox.image?.alt["en"] == "A fox in snow")
        #expect(fox.bodies["de"]?.markdown == "Der Rotfuchs *lebt* überall.\n")
        #expect(fox.bodies["de"]?.location.line == 21)
        #expect(fox.bodies["en"]?.markdown == "The red fox lives everywhere.\n")
        #expect(fox.location(of: "wikipedia.de") == .init(path: "content/animals/red-fox.md", line: 7, column: 18))
        #expect(result.catalog?.mediaFiles["sounds/red-fox.ogg"]?.format == .ogg)
    }

    /// A picture named by a path in a record's, a page's or a translation's text would not be on
    /// the site: each is a warning where it is written; addresses and fragments are not.
    @Test func aPictureNamedByAPathInTheTextIsAWarningWhereItIs() throws {
        let site = try TestSite([
            "content/animals/fox.md": "---\nname: {de: Fuchs}\n---\nText.\n\n  ![Fuchs](images/fox.jpg) ![Web](https://e.org/a.jpg)\n",
            "content/animals/fox.en.md": "A [link](about.md) and ![by reference][p]\n\n[p]: ../images/p.png\n",
            "content/pages/about.md": "---\ntitle: {de: Über}\n---\n![Logo](/logo.png) ![Top](#top) ![Bild](bild.webp)\n",
        ])
        #expect(site.lines() == [
            "content/animals/fox.en.md:1:24: warning: image '../images/p.png' in the text will not show: files under content/ are published only as a record's sound and image; give the picture's https:// address instead",
            "content/animals/fox.md:6:3: warning: image 'images/fox.jpg' in the text will not show: files under content/ are published only as a record's sound and image; give the picture's https:// address instead",
            "content/pages/about.md:4:33: warning: image 'bild.webp' in the text will not show: files under content/ are published only as a record's sound and image; give the picture's https:// address instead",
        ])
    }

    /// A sound that is a symbolic link leading nowhere (its target moved, or links that go round)
    /// was "no such file under content/" while `ls` shows it (found by a tester).
    @Test func aMediaLinkThatLeadsNowhereIsSaidToBeOne() throws {
        let site = try TestSite([
            "content/animals/eule.md": "---\nname: {de: Eule}\nsound: {file: sounds/eule.ogg}\n---\n",
            "content/animals/kauz.md": "---\nname: {de: Kauz}\nsound: {file: sounds/a.ogg}\n---\n",
        ])
        try FileManager.default.createDirectory(atPath: site.root + "/content/sounds", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/sounds/eule.ogg", withDestinationPath: "eule-alt.ogg")
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/sounds/a.ogg", withDestinationPath: "b.ogg")
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/sounds/b.ogg", withDestinationPath: "a.ogg")
        let lines = site.lines()
        let nowhere = "is a symbolic link that leads nowhere (what it names is missing, or the links go round); link it to the file again, or name the file itself"
        #expect(lines.contains { $0.hasPrefix("content/animals/eule.md:3:") && $0.contains("sounds/eule.ogg") && $0.contains(nowhere) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/kauz.md:3:") && $0.contains(nowhere) }, "\(lines)")
    }

    /// A record that is such a link: the same words, at the link (it said "symbolic link points
    /// nowhere" for links that go round too).
    @Test func aRecordLinkThatLeadsNowhereIsSaidToBeOne() throws {
        let site = try TestSite(["content/animals/eule.md": "---\nname: {de: Eule}\n---\n"])
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/animals/a.md", withDestinationPath: "b.md")
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/animals/b.md", withDestinationPath: "a.md")
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/animals/gone.md", withDestinationPath: "moved.md")
        let lines = site.lines()
        let nowhere = "error: a symbolic link that leads nowhere (what it names is missing, or the links go round); link it to the file again, or put the file itself here"
        for name in ["a", "b", "gone"] {
            #expect(lines.contains("content/animals/\(name).md:0:0: \(nowhere)"), "\(lines)")
        }
    }

    /// A language code in another case than site.yml's (`pt-br` for `pt-BR`, `gato.PT-BR.md`) is
    /// pointed at the code meant (found by a tester: only the bare refusal).
    @Test func aLanguageCodeInAnotherCaseNamesTheOneMeant() throws {
        let site = try TestSite(
            [
                "content/animals/gato.md": "---\nname: {en: Cat, pt-br: Gato}\nwikipedia: {PT-BR: Gato}\n---\n",
                "content/animals/gato.PT-BR.md": "Texto.\n",
            ],
            siteYML: "title: { en: Test }\nbase_url: https://example.org/\nlanguages: [en, pt-BR]\n")
        let lines = site.lines()
        let hint = "(did you mean 'pt-BR'? codes are written as in site.yml)"
        #expect(lines.contains { $0.hasPrefix("content/animals/gato.md:2:") && $0.contains("language 'pt-br' is not in site.yml's languages (en, pt-BR) \(hint)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/gato.md:3:") && $0.contains("wikipedia: 'PT-BR' is not one of the site's languages (en, pt-BR) \(hint)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/gato.PT-BR.md:") && $0.contains("(did you mean gato.pt-BR.md? codes are written as in site.yml)") }, "\(lines)")
    }

    /// An opening '---' with spaces or a tab after it (an editor's trailing space) opens the front
    /// matter, as such a closing line closes it: it read as a record without front matter.
    @Test func anOpeningLineWithTrailingSpaceOpensTheFrontMatter() throws {
        let site = try TestSite([
            "content/animals/fuchs.md": "--- \nname: {de: Fuchs}\n--- \nText.\n",
            "content/animals/reh.md": "---\t\nname: {de: Reh}\n---\n",
            "content/pages/info.md": "---  \ntitle: {de: Info}\n---\n",
        ])
        let result = site.load()
        #expect(!result.diagnostics.hasErrors, "\(site.lines())")
        #expect(result.catalog?.animals.map(\.id) == ["fuchs", "reh"])
        #expect(result.catalog?.animals.first?.bodies["de"]?.markdown.contains("Text.") == true)
        #expect(result.catalog?.pages.map(\.slug) == ["info"])
    }

    /// site.yml's one error for a language the content uses is given only for a language code
    /// the list lacks, not for a wikipedia key that is no code, a code listed in another case, or
    /// a file name's last part (each said at its own place; the reviewer's cases).
    @Test func aLanguageToAddIsOnlyOneTheListLacks() throws {
        let site = try TestSite([
            "content/animals/fuchs.md": "---\nname: {de: Fuchs, EN: Fox}\nwikipedia: {english: Fox}\n---\n",
            "content/animals/fuchs.backup.md": "text",
            "content/animals/reh.md": "---\nname: {de: Reh, fr: Chevreuil}\n---\n",
        ])
        let atTheList = site.lines().filter { $0.hasPrefix("content/site.yml:") }
        #expect(atTheList == [
            "content/site.yml:3:1: error: the content is written in 'fr' (1 text in 1 file), which languages does not list (de, en): add 'fr' to it, or remove those texts (a record copied from a site in more languages), or write them under a listed code"
        ], "\(site.lines())")
    }

    /// Two animals the quiz cannot tell apart, and too few names for one question's choices, are
    /// warned about (the quiz would say "not enough animals" and blame the learner's filters).
    @Test func namesTheQuizCannotTellApartAreWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/fuchs.md": "---\nname: {de: Fuchs, en: Fox}\n---\n",
            "content/animals/fuchs2.md": "---\nname: {de: \" fuchs \"}\n---\n",
            "content/animals/reh.md": "---\nname: {de: Reh}\n---\n",
        ])
        #expect(site.lines() == [
            "content/animals/fuchs2.md:2:1: warning: name 'fuchs' is also fuchs's: the quiz never offers the two side by side, and the collection shows two cards named alike; give one another name"
        ])
        let catalog = try #require(site.load().catalog)
        #expect(ContentLoader.quizProblems(catalog).map(\.message) == [
            "each quiz question offers 4 answers, but the site has 2 animals with different names: no round can start until more are added, or until quiz.choices in site.yml is lowered (2 at least)"
        ])
        // A direction mark (U+200E, U+200F) shows nothing: the names read the same (found by a tester).
        let marked = try TestSite([
            "content/animals/hase.md": "---\nname: {de: Hase}\n---\n",
            "content/animals/hase2.md": "---\nname: {de: \"Hase\\u200E\"}\n---\n",
        ])
        #expect(marked.lines() == [
            "content/animals/hase2.md:2:1: warning: name 'Hase\u{200E}' is also hase's: the quiz never offers the two side by side, and the collection shows two cards named alike; give one another name"
        ])
        // Also beside another record's error, and a group written two ways (a teacher met them
        // only in a second round, after mending the error).
        let beside = try TestSite([
            "content/animals/fuchs.md": "---\nname: {de: Fuchs}\ngroup: mammal\n---\n",
            "content/animals/fuchs2.md": "---\nname: {de: Fuchs}\ngroup: Mammal\n---\n",
            "content/animals/reh.md": "---\nname: {de: Reh}\ngroop: mammal\n---\n",
        ])
        let lines = beside.lines()
        #expect(lines.contains { $0.hasPrefix("content/animals/reh.md:3:1: error: unknown key 'groop'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/fuchs2.md:2:1: warning: name 'Fuchs' is also fuchs's") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/animals/fuchs2.md:") && $0.contains("warning: group 'Mammal'") }, "\(lines)")
        let enough = try TestSite([
            "content/animals/a.md": "---\nname: {de: A}\n---\n", "content/animals/b.md": "---\nname: {de: B}\n---\n",
        ], siteYML: TestSite.siteYML + "quiz: {choices: 2}\n")
        #expect(enough.lines().isEmpty, "\(enough.lines())")
        #expect(ContentLoader.quizProblems(try #require(enough.load().catalog)).isEmpty)
    }

    /// Two records naming one recording (a spreadsheet's two rows naming one file, imported as
    /// one): a sound question with it cannot tell the two apart. Said at the second, by id.
    @Test func aRecordingTwoRecordsNameIsWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/katze.md": "---\nname: {de: Katze}\nsound: {file: sounds/katze.ogg}\n---\n",
            "content/animals/kater.md": "---\nname: {de: Kater}\nsound: {file: sounds/katze.ogg}\n---\n",
            "content/animals/hund.md": "---\nname: {de: Hund}\nsound: {file: sounds/hund.ogg}\n---\n",
        ], binary: ["content/sounds/katze.ogg": TestMedia.ogg, "content/sounds/hund.ogg": TestMedia.ogg])
        #expect(site.lines() == [
            "content/animals/katze.md:3:15: warning: sound 'sounds/katze.ogg' is also kater's: a question with it cannot tell the two apart (either answer is right); give each its own recording"
        ])
    }

    /// A group written in two ways that differ in case (`Mammal`, `mammal`) splits the
    /// collection's filter in two: the rarer spelling is warned about where it is written.
    @Test func aGroupWrittenTwoWaysIsWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/a.md": "---\nname: {de: A}\ngroup: mammal\n---\n",
            "content/animals/b.md": "---\nname: {de: B}\ngroup: mammal\n---\n",
            "content/animals/c.md": "---\nname: {de: C}\ngroup: Mammal\n---\n",
            "content/animals/d.md": "---\nname: {de: D}\ngroup: bird\n---\n",
        ])
        #expect(site.lines() == [
            "content/animals/c.md:3:1: warning: group 'Mammal' is written 'mammal' by 2 other records: the collection and the quiz's settings show them as two groups; write 'mammal'"
        ])
        // Lower case wins over the commoner spelling: the theme's labels are named so (a
        // volunteer's one `bird` was told to become `Bird`, which has no label).
        let fewer = try TestSite([
            "content/animals/a.md": "---\nname: {de: A}\ngroup: Bird\n---\n",
            "content/animals/b.md": "---\nname: {de: B}\ngroup: Bird\n---\n",
            "content/animals/c.md": "---\nname: {de: C}\ngroup: bird\n---\n",
        ])
        #expect(fewer.lines() == [
            "content/animals/a.md:3:1: warning: group 'Bird' is written 'bird' by 1 other record: the collection and the quiz's settings show them as two groups; write 'bird'",
            "content/animals/b.md:3:1: warning: group 'Bird' is written 'bird' by 1 other record: the collection and the quiz's settings show them as two groups; write 'bird'",
        ])
        // Another group: the commonest spelling (a German museum's 19 `Säugetier` were each told to
        // write the `säugetier` of one), lower case between equals.
        #expect(ContentLoader.preferredSpelling(["Sea Bird": 3, "sea bird": 1, "Sea bird": 2]) == "Sea Bird")
        #expect(ContentLoader.preferredSpelling(["Säugetier": 19, "säugetier": 1]) == "Säugetier")
        #expect(ContentLoader.preferredSpelling(["Vogel": 2, "vogel": 2]) == "vogel")
        #expect(ContentLoader.preferredSpelling(["Sea Bird": 1, "SeaBird": 2]) == "SeaBird")
        #expect(ContentLoader.preferredSpelling(["B": 1, "A": 1]) == "A")
        #expect(ContentLoader.preferredSpelling(["Mammal": 5, "MAMMAL": 1, "mammal": 1]) == "mammal")
    }

    /// Languages written without their colons under a localized key are one text in the default
    /// language: said so (found by a new user); a text that merely starts with a language code
    /// is not.
    @Test func languagesWithoutColonsAreWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/cat.md": "---\nname:\n  de Katze\n  en Cat\n---\n",
            "content/animals/owl.md": "---\nname: {de: Eule}\nhint: de facto nachtaktiv\n---\n",
        ])
        #expect(site.lines() == [
            "content/animals/cat.md:3:3: warning: name is read as one text, 'de Katze en Cat', in 'de': if these are languages, write a colon after each (de: Katze)",
        ])
    }

    /// site.yml's `tags` gives each tag a label per language; a label for a tag no record has
    /// is warned about where it is written, with the record's tag it likely means.
    @Test func tagLabelsAreReadAndUnusedOnesWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/a.md": "---\nname: {de: A}\ntags: [north-america, wild]\n---\n",
            "content/animals/b.md": "---\nname: {de: B}\ntags: [farm]\n---\n",
        ], siteYML: TestSite.siteYML + """
            tags:
              north-america: {de: Nordamerika, en: North America}
              farm: Nutztier
              nort-america: {en: North America}
              desert: {de: Wüste}

            """)
        let config = try #require(site.load().catalog?.config)
        #expect(config.tags["north-america"] == LocalizedText(["de": "Nordamerika", "en": "North America"]))
        #expect(config.tagLabel("north-america", language: "en") == "North America")
        // A label only in the default language; a tag with none: as written, never another language's.
        #expect(config.tagLabel("farm", language: "de") == "Nutztier")
        #expect(config.tagLabel("farm", language: "en") == "farm")
        #expect(config.tagLabel("wild", language: "de") == "wild")
        #expect(site.lines() == [
            "content/site.yml:7:3: warning: tags: no record has the tag 'nort-america', so this label is never shown; did you mean 'north-america'?",
            "content/site.yml:8:3: warning: tags: no record has the tag 'desert', so this label is never shown",
        ])
    }

    /// A group of one record spelt almost like a group of several is likely a typo; a group of
    /// one far from the others (a new group) is not warned about.
    @Test func aLoneGroupSpeltLikeAnotherIsWarnedAbout() throws {
        let site = try TestSite([
            "content/animals/a.md": "---\nname: {de: A}\ngroup: mammal\n---\n",
            "content/animals/b.md": "---\nname: {de: B}\ngroup: mammal\n---\n",
            "content/animals/c.md": "---\nname: {de: C}\ngroup: mamal\n---\n",
            "content/animals/d.md": "---\nname: {de: D}\ngroup: bird\n---\n",
        ])
        #expect(site.lines() == [
            "content/animals/c.md:3:1: warning: group 'mamal' is this record's alone, and 'mammal' is that of 2 others: if it is the same group, write 'mammal'"
        ])
        // Short groups one letter apart are often other animals; a plural is likely the same group.
        for (lone, shared, typo) in [("bat", "cat", false), ("owl", "fowl", false), ("goat", "boat", false), ("ant", "ants", true),
                                     ("fishes", "fish", true), ("reptil", "reptile", true), ("amphibain", "amphibian", true), ("bird", "birch", false)] {
            #expect(ContentLoader.likelyTypo(lone, of: shared) == typo, "\(lone), \(shared)")
        }
    }

    /// A sound round asks only the animals with a sound: fewer of them than half a round's
    /// questions is warned about (one alone would be asked ten times in a row); enough of them,
    /// or none (the home page then offers no sound quiz), is not.
    @Test func tooFewSoundsForASoundRoundAreWarnedAbout() throws {
        let ogg = Data(Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 22) + Array("\u{1}vorbis".utf8) + Array(repeating: 0, count: 40))
        var files: [String: String] = [:]
        for name in ["a", "b", "c", "d"] {
            let sound = name == "a" ? "sound: {file: sounds/a.ogg}\n" : ""
            files["content/animals/\(name).md"] = "---\nname: {de: \(name.uppercased())}\n\(sound)---\n"
        }
        let one = try TestSite(files, binary: ["content/sounds/a.ogg": ogg], siteYML: TestSite.siteYML + "quiz: {questions: 10, choices: 4}\n")
        #expect(ContentLoader.quizProblems(try #require(one.load().catalog)).map(DiagnosticFormatter.text) == [
            "content/site.yml:4:8: warning: only 1 animal has a sound, and a quiz round has 10 questions: each sound round asks it 10 times in a row; add sounds (sound.file) to more records, or lower quiz.questions in site.yml [validate]"
        ])
        // Five for ten questions: each asked twice, not warned about; four for ten: warned about.
        var five = files
        for name in ["b", "c", "d", "e"] {
            five["content/animals/\(name).md"] = "---\nname: {de: \(name.uppercased())}\nsound: {file: sounds/a.ogg}\n---\n"
        }
        let enough = try TestSite(five, binary: ["content/sounds/a.ogg": ogg], siteYML: TestSite.siteYML + "quiz: {questions: 10, choices: 4}\n")
        #expect(ContentLoader.quizProblems(try #require(enough.load().catalog)).isEmpty)
        five.removeValue(forKey: "content/animals/e.md")
        let four = try TestSite(five, binary: ["content/sounds/a.ogg": ogg], siteYML: TestSite.siteYML + "quiz: {questions: 10, choices: 4}\n")
        #expect(ContentLoader.quizProblems(try #require(four.load().catalog)).map(\.message).first?.hasPrefix("only 4 animals have a sound") == true)
        files["content/animals/a.md"] = "---\nname: {de: A}\n---\n"
        let none = try TestSite(files, siteYML: TestSite.siteYML + "quiz: {questions: 10, choices: 4}\n")
        #expect(ContentLoader.quizProblems(try #require(none.load().catalog)).isEmpty)
    }

    /// questions.js's countDistinctNames: greedy in id order, a name taken in any language (with
    /// the site's fallbacks, case and spaces aside) takes the animal out.
    @Test func differentNamesAreCountedAsTheQuizCountsThem() {
        let animals = [
            ("cow", ["de": "Kuh", "en": "Cow"]),
            ("highland-cow", ["de": "Hochlandrind", "en": " COW "]),  // the same English name
            ("horse", ["de": "Pferd", "en": "Horse"]),
            ("pony", ["de": "Pony"]),  // English falls back to German: "pony"
            ("pony2", ["en": "PONY"]),  // German falls back to English: clashes with pony
            ("zebra", ["de": "Zebra", "en": "Zebra"]),
            ("a", [:]), ("b", [:]),  // by id when unnamed
        ].map { Animal(id: $0.0, name: LocalizedText($0.1), sourcePath: "content/animals/\($0.0).md") }
        let languages = ["de", "en"]
        #expect(Catalog.distinctNames(animals, languages: languages) == 6)
        #expect(Catalog.distinctNames(animals, languages: languages, atLeast: 2) == 2)
        #expect(Catalog.distinctNames([], languages: languages) == 0)
        #expect(Catalog.nameKeys(animals[1], languages: languages).map(\.key) == ["de\u{0}hochlandrind", "en\u{0}cow"])
    }

    /// ASCII names and groups take a byte path (`Catalog.asciiKey`, `folded`): the same keys as
    /// the `Character` path, here written out again, on generated names (white space of every
    /// kind, \r\n, upper case, punctuation) and on a few with non-ASCII letters and marks.
    @Test func asciiNamesAreKeyedAsTheCharacterPathKeysThem() {
        func characterKey(_ lang: String, _ name: String) -> String {
            let marks: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{061C}"]
            let shown = String(String.UnicodeScalarView(name.unicodeScalars.filter { !marks.contains($0) }))
            return lang + "\u{0}" + shown.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        }
        func characterFolded(_ group: String) -> String {
            group.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" }
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "Kuh", "COW", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "-", "_", "'", "9", "Ä", "ß", "\u{200E}", "İ", "\u{00A0}", "\u{2003}"]
        var names = ["", " ", "Cow", " COW ", "Highland\t\tcow\r\n", "Große Rohrdommel", "Hare\u{200E}", "İguana"]
        for _ in 0..<500 {
            names.append((0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for name in names {
            let animal = Animal(id: "x", name: LocalizedText(["en": name]), sourcePath: "content/animals/x.md")
            #expect(Catalog.nameKeys(animal, languages: ["en"]).map(\.key) == [characterKey("en", name)], "\(name.debugDescription)")
            #expect(ContentLoader.folded(name) == characterFolded(name), "\(name.debugDescription)")
        }
    }

    @Test func idFromFrontMatterWinsOverTheFileName() throws {
        let site = try TestSite(["content/animals/Fuchs.md": "---\nid: red-fox\nname: {de: Fuchs}\n---\n"])
        #expect(site.load().catalog?.animals.map(\.id) == ["red-fox"])
        #expect(site.lines() == [])
    }

    @Test func animalsAreSortedByIDAndPagesByWeight() throws {
        let site = try TestSite([
            "content/animals/zebra.md": "---\nname: {de: Zebra}\n---\n",
            "content/animals/birds/ant.md": "---\nname: {de: Ameise}\n---\n",
            "content/pages/b.md": "---\ntitle: B\nweight: 2\n---\n",
            "content/pages/a.md": "---\ntitle: A\nweight: 5\n---\n",
            "content/pages/c.md": "---\ntitle: C\nweight: 2\n---\n",
        ])
        let catalog = try #require(site.load().catalog)
        #expect(catalog.animals.map(\.id) == ["ant", "zebra"])
        #expect(catalog.pages.map(\.slug) == ["b", "c", "a"])
    }

    @Test func emptySiteWarnsButDoesNotFail() throws {
        let site = try TestSite()
        let result = site.load()
        #expect(!result.diagnostics.hasErrors)
        #expect(site.lines() == ["content/animals:0:0: warning: no animals yet: add one with `bestiary add ID --name de=Name`"])
        // The command it gives works: a new record needs a name in the default language (found by a tester).
        let english = try TestSite(siteYML: "title: { en: Test }\nbase_url: https://example.org/\nlanguages: [en, de]\n")
        #expect(english.lines() == ["content/animals:0:0: warning: no animals yet: add one with `bestiary add ID --name en=Name`"])
    }

    /// `languages: [de, eng]` over texts in `en`: one error says to write `en`, where each text
    /// gave one (120 errors on the example site, and the cause among them as a warning).
    @Test func aMisspeltLanguageCodeIsOneErrorNotOneForEachText() throws {
        let records = [
            "content/animals/cat.md": "---\nname: { de: Katze, en: Cat }\n---\n",
            "content/animals/dog.md": "---\nname: { de: Hund, en: Dog }\ndescription: { en: A dog. }\n---\n",
        ]
        let texts = try TestSite(records, siteYML: "title: { de: Test, en: Test }\nbase_url: https://example.org/\nlanguages: [de, eng]\n")
        #expect(texts.lines() == [
            "content/site.yml:3:17: error: 'eng' is written 'en' in the codes browsers, screen readers and Wikipedia use; write 'en' (site.yml's texts are written in 'en' already: 1)"
        ])
        let recordsOnly = try TestSite(records, siteYML: "title: { de: Test }\nbase_url: https://example.org/\nlanguages: [de, eng]\n")
        #expect(recordsOnly.lines().filter { $0.contains("error") } == [
            "content/site.yml:3:1: error: the content is written in 'en' (3 texts in 2 files), and languages lists 'eng', which is written 'en' in the codes browsers, screen readers and Wikipedia use: write 'en' in languages"
        ])
        // A code that is no misspelling of the texts' stays said text by text, with the summary.
        let other = try TestSite(records, siteYML: "title: { de: Test }\nbase_url: https://example.org/\nlanguages: [de, fr]\n")
        #expect(other.lines().filter { $0.contains("error") }.count == 4)
    }

    @Test func otherFilesInAnimalsAreIgnoredWithAWarning() throws {
        let site = try TestSite(["content/animals/a.md": "---\nname: {de: A}\n---\n", "content/animals/notes.txt": "x"])
        #expect(site.lines() == ["content/animals/notes.txt:0:0: warning: not a Markdown file (.md); ignored"])
        let upper = try TestSite(["content/animals/a.md": "---\nname: {de: A}\n---\n", "content/animals/eule.MD": "---\nname: {de: Eule}\n---\n"])
        #expect(upper.lines() == ["content/animals/eule.MD:0:0: warning: ignored: a record's file name ends in '.md', in lower case; rename it to eule.md"])
    }

    /// The real sites load without a problem; the minimal fixture's hostile record (bob.md) is
    /// told what the page leaves out of its text.
    @Test(arguments: ["content", "Tests/Fixtures/sites/tuxpaint", "Tests/Fixtures/sites/minimal"])
    func realSitesLoadWithoutProblems(_ relative: String) throws {
        let root = relative == "content" ? Fixtures.repositoryRoot : Fixtures.repositoryRoot + "/" + relative
        let result = ContentLoader(root: root).load()
        let expected = relative.hasSuffix("minimal") ? [
            "content/animals/bob.md:8:22: warning: HTML in the text is left out of the page, for safety (3 pieces, the first here); write Markdown instead (**bold**, *italic*, [a link](https://…), a blank line between paragraphs) [load]",
            "content/animals/bob.md:10:1: warning: the address 'javascript:alert(1)' is removed from the page, for safety (javascript:, vbscript:, file: and data: addresses are); give an https:// address [load]",
        ] : []
        #expect(result.diagnostics.items.filter { $0.severity != .note }.map(\.description) == expected)
        #expect((result.catalog?.animals.count ?? 0) >= 3)
    }

    @Test func tuxpaintCatalogHasSixtyAnimalsWithSounds() throws {
        let catalog = try #require(ContentLoader(root: Fixtures.path("sites/tuxpaint")).load().catalog)
        #expect(catalog.animals.count >= 60)
        #expect(catalog.animals.filter { $0.sound != nil }.count >= 60)
        #expect(catalog.animals.allSatisfy { $0.name["en"] != nil && $0.name["de"] != nil })
    }
}

@Suite struct MediaSnifferTests {
    @Test(arguments: [
        (Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 22) + Array("\u{1}vorbis".utf8), MediaFormat.ogg),
        (Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 22) + Array("OpusHead".utf8), MediaFormat.opus),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8), MediaFormat.wav),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8), MediaFormat.webp),
        (Array("ID3".utf8) + [4, 0, 0], MediaFormat.mp3),
        ([0xFF, 0xFB, 0x90, 0x00], MediaFormat.mp3),
        ([0xFF, 0xF1, 0x50, 0x80], MediaFormat.aac),
        ([0, 0, 0, 0x20] + Array("ftypM4A ".utf8), MediaFormat.m4a),
        ([0xFF, 0xD8, 0xFF, 0xE0], MediaFormat.jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], MediaFormat.png),
        (Array("GIF89a".utf8), MediaFormat.gif),
        (Array("  <?xml version=\"1.0\"?><svg".utf8), MediaFormat.svg),
    ] as [([UInt8], MediaFormat)])
    func recognisesFormatsByTheirBytes(_ bytes: [UInt8], _ format: MediaFormat) {
        #expect(MediaSniffer.sniff(bytes) == format)
    }

    @Test(arguments: [Array("hello".utf8), [], Array("<html>".utf8), Array("PK\u{3}\u{4}".utf8)])
    func refusesEverythingElse(_ bytes: [UInt8]) {
        #expect(MediaSniffer.sniff(bytes) == nil)
    }

    @Test func readsPictureSizes() throws {
        let png = try Fixtures.data("sites/minimal/content/images/green.png")
        #expect(ImageSize.of(png, format: .png)! == (4, 3))
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 48\"></svg>".utf8)
        #expect(ImageSize.of(svg, format: .svg)! == (64, 48))
        let webp = try Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/content/images/horse.webp"))
        #expect(ImageSize.of(webp, format: .webp)! == (1024, 664))
    }

    /// A media file's extension is the last part of its name between dots, as the record's own
    /// check reads it: dots at the end are passed over (`fox.OGG.` is an Ogg file's name), and the
    /// part is compared without case.
    @Test func aMediaFilesExtensionIsItsNamesLastPartBetweenDots() throws {
        for (name, problem) in [("fox.OGG.", nil), ("fox.ogg..", nil), ("fox.wav.", "not what '.wav' says")] as [(String, String?)] {
            let record = "---\nname: {de: Fuchs}\nsound: {file: \"sounds/\(name)\"}\n---\n"
            let site = try TestSite(["content/animals/fox.md": record], binary: ["content/sounds/\(name)": TestMedia.ogg])
            let messages = ContentLoader(root: site.root).load().diagnostics.sorted.map(\.message)
            if let problem {
                #expect(messages.contains { $0.contains(problem) }, "\(name): \(messages)")
            } else {
                #expect(messages.isEmpty, "\(name): \(messages)")
            }
        }
    }

    /// `ContentPath.mediaExtension` reads a path as the record's check always did (the last of
    /// its non-empty parts between dots when it has two or more), on every path of up to five
    /// characters from `a`, `B`, `.` and `/`.
    @Test func aMediaPathsExtensionIsReadAsTheRecordsCheckReadIt() {
        var paths = [""]
        for _ in 0..<5 { paths += paths.suffix(paths.count).flatMap { p in ["a", "B", ".", "/"].map { p + $0 } } }
        for path in Set(paths) {
            let parts = path.split(separator: ".")
            let expected = parts.count > 1 ? String(parts.last!).lowercased() : ""
            #expect(ContentPath.mediaExtension(path) == expected, "'\(path)'")
        }
        #expect(ContentPath.mediaExtension("sounds/cat.OGG.") == "ogg")
    }

    /// With the walk's listing and the formats the last build read, the loader takes a listed
    /// media file's metadata and format from them (a listing that says the file is empty, or a
    /// remembered format its name does not allow, shows they were used), but always inspects a
    /// drawing (SVG) whole, and checks an unlisted file on the file system.
    @Test func listedMediaAndKnownFormatsAreTakenAsGiven() throws {
        let record = "---\nname: {de: Fuchs}\nsound: {file: sounds/fox.ogg}\nimage: {file: images/fox.svg}\n---\n"
        let site = try TestSite(
            ["content/animals/fox.md": record, "content/images/fox.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"></svg>"],
            binary: ["content/sounds/fox.ogg": TestMedia.ogg])
        func messages(listing: [String: FileInfo] = [:], known: MediaFormat? = nil) -> [String] {
            var loader = ContentLoader(root: site.root)
            loader.listed = ListedFiles(listing.map { ($0.key, $0.value) })
            loader.knownFormat = { _, _ in known }
            return loader.load().diagnostics.sorted.map(\.message)
        }
        let svgRefused = "image.file 'images/fox.svg': SVG"
        let plain = messages()
        #expect(plain.contains { $0.hasPrefix(svgRefused) } && plain.count == 1, "\(plain)")
        // Listed as empty: the listing is what the loader goes by.
        let info = try #require(LocalFileSystem().info(site.root + "/content/sounds/fox.ogg"))
        var empty = info
        empty.size = 0
        #expect(messages(listing: ["content/sounds/fox.ogg": empty]).contains("sound.file 'sounds/fox.ogg': file is empty"))
        // A remembered format: no header read (WAV is not what .ogg says); never for the drawing.
        let known = messages(listing: ["content/sounds/fox.ogg": info], known: .wav)
        #expect(known.contains { $0.contains("holds wav data, not what '.ogg' says") }, "\(known)")
        #expect(messages(known: .svg).contains { $0.hasPrefix(svgRefused) })
        let listedSVG = try #require(LocalFileSystem().info(site.root + "/content/images/fox.svg"))
        #expect(messages(listing: ["content/images/fox.svg": listedSVG], known: .svg).contains { $0.hasPrefix(svgRefused) })
    }

    /// A published site's addresses and a fetch's contact must not stay on a domain reserved for
    /// examples; any other is taken as it is.
    @Test func placeholdersAreNamedAndRealAddressesAreNot() {
        func problems(_ baseURL: String, _ contact: String?) -> [String] {
            var config = SiteConfig(title: LocalizedText(["en": "T"]), baseURL: baseURL, languages: ["en"])
            config.wikipedia.contact = contact
            return ContentLoader.placeholderProblems(config).map(\.message)
        }
        #expect(problems("https://birds.example.org/quiz/", "you@example.org").map { String($0.prefix(40)) } == [
            "base_url 'https://birds.example.org/quiz",
            "wikipedia.contact 'you@example.org' is o",
        ])
        #expect(problems("https://EXAMPLE.com/", nil).first?.contains(" is on example.com, a domain") == true)
        #expect(problems("https://quiz.invalid/", "https://me.example/").map { $0.contains(" is on .invalid,") || $0.contains(" is on .example,") } == [true, true])
        #expect(problems("https://birds.nabu.de/quiz/", "ada@nabu.de").isEmpty)
        #expect(problems("https://examples.org/", "https://notexample.com/contact").isEmpty)
        #expect(problems("https://example.org.uk/", "").isEmpty)
    }

}
