import BestiaryContent
import Testing

/// What texts pasted from elsewhere bring: UTF-8 a spreadsheet read as Windows-1252, characters
/// a page does not show, and an article's address where its title belongs.
@Suite struct PastedTextTests {
    @Test func misreadUTF8IsFoundWithTheTextMeant() {
        for (misread, meant) in [
            ("GroÃŸer Brachvogel", "Großer Brachvogel"),
            ("Ã„sche", "Äsche"),
            ("Bei 20Â°C", "Bei 20°C"),
            ("Å‚abÄ™dÅº", "łabędź"),  // Polish: leads other than Ã and Â
            ("Ã\u{81}guila", "Águila"),  // a byte Windows-1252 leaves undefined comes through as U+0081
            ("10 â‚¬", "10 €"),
            ("â€œlautâ€\u{9D}", "“laut”"),
        ] {
            #expect(PastedText.misreadUTF8(misread) == meant, "\(misread)")
        }
        // Text written as meant, with the same letters: never taken for a misreading.
        for text in ["SÃO PAULO", "Ça coûte 20 €", "Việt Nam", "Ängstliche Äsche", "naïve café", "Â la carte", "Œuvre à ½ prix", "Ãœ"] {
            #expect(PastedText.misreadUTF8(text) == nil || text == "Ãœ", "\(text)")
        }
        #expect(PastedText.misreadWarning("Der GroÃŸe Brachvogel", what: "name.de")
            == "name.de looks like UTF-8 read as Windows-1252 (as a spreadsheet opens a CSV it was not told is UTF-8): 'GroÃŸe' was 'Große'; mend it here, and in the file it came from")
    }

    @Test func charactersAPageDoesNotShowAreNamedInAnExcerptOfOneLine() {
        let long = "A long first line of the description.\nThen a line with a zero\u{200B}width space in the middle of it, and more words after it.\nLast."
        #expect(PastedText.unseenWarning(long, what: "description.en")
            == "description.en '…n a line with a zero\\u{200B}width space in the …' holds U+200B (a zero-width space), which a page shows as nothing but search and typed answers see; remove it")
        #expect(PastedText.unseenWarning("Brach\tvogel", what: "name.de")?.contains("which a page shows as a space") == true)
        // Thai marks where a line may break with zero-width spaces: meant there.
        #expect(PastedText.unseenWarning("นก\u{200B}กระจอก", what: "name.th") == nil)
        #expect(PastedText.unseenWarning("نیم\u{200C}فاصله", what: "name.fa") == nil, "a zero-width non-joiner is Persian spelling")
        #expect(PastedText.unseenWarning("“Fox” – red", what: "name.en") == nil)
    }

    @Test func aWikipediaAddressGivesItsTitleInTheWikiTheLanguageReads() {
        #expect(PastedText.wikipediaArticle("https://pt.m.wikipedia.org/wiki/On%C3%A7a-pintada#Taxonomia")! == ("pt", "Onça-pintada"))
        #expect(PastedText.wikipediaArticle("https://example.org/wiki/Fox") == nil)
        #expect(PastedText.wikipediaAddressAdvice("https://pt.wikipedia.org/wiki/Onça-pintada", key: "wikipedia.pt-BR", language: "pt-BR")
            == "wikipedia.pt-BR: 'https://pt.wikipedia.org/wiki/Onça-pintada' is the article's web address; write its title instead: wikipedia: {pt-BR: Onça-pintada}")
        #expect(PastedText.wikipediaAddressAdvice("https://en.wikipedia.org/wiki/Jaguar", key: "wikipedia.pt-BR", language: "pt-BR")?
            .hasSuffix("is an article of the 'en' Wikipedia, not of the 'pt' one; write the title of the 'pt' article") == true)
        #expect(PastedText.wikipediaAddressAdvice("Red fox", key: "wikipedia.en", language: "en") == nil)
    }
}

/// What a translator has left to do, one note per language (`bestiary check`).
@Suite struct TranslationCheckTests {
    @Test func eachLanguageGetsANoteOfWhatIsNotYetInIt() throws {
        let site = try TestSite(
            [
                "content/animals/fox.md": "---\nname: {de: Fuchs, en: Fox, fr: Renard}\nhint: {de: Er bellt}\n---\nDer Fuchs.\n",
                "content/animals/fox.fr.md": "Le renard.\n",
                "content/animals/cow.md": "---\nname: {de: Kuh, en: Cow}\ndescription: {de: Eine Kuh.}\n---\n",
                "content/pages/about.md": "---\ntitle: {de: Über, en: About, fr: À propos}\n---\nText.\n",
            ],
            siteYML: "title: {de: Tiere, en: Animals}\nbase_url: https://example.org/\nlanguages: [de, en, fr]\ntags: {farm: {de: Hof}}\n")
        let catalog = try #require(site.load().catalog)
        #expect(TranslationCheck.notes(of: catalog).map(\.message) == [
            "not yet in 'en': 2 of 2 records (cow: description; fox: hint, body), 1 of 1 pages (about: body), 1 tag label (farm); its pages in 'en' show those texts in 'de'",
            "not yet in 'fr': 2 of 2 records (cow: name, description; fox: hint), 1 of 1 pages (about: body), 1 tag label (farm), the site's title; its pages in 'fr' show those texts in 'de'",
        ])
        // A page that shows a Wikipedia summary in its language does not show the description.
        #expect(TranslationCheck.notes(of: catalog) { id, language in id == "cow" && language == "en" }.first?.message.hasPrefix(
            "not yet in 'en': 1 of 2 records (fox: hint, body),") == true)
        #expect(TranslationCheck.notes(of: catalog).allSatisfy { $0.severity == .note && $0.location?.path == "content/site.yml" })
        // A site whose default language became French (a teacher's): what is still German only.
        let switched = try TestSite(
            ["content/animals/fox.md": "---\nname: {fr: Renard, de: Fuchs}\ndescription: {de: Ein Fuchs.}\nhabitat: {de: Wald, fr: Forêt}\n---\nLe renard.\n"],
            siteYML: "title: {fr: Animaux}\nbase_url: https://example.org/\nlanguages: [fr, de]\n")
        #expect(TranslationCheck.notes(of: try #require(switched.load().catalog)).map(\.message) == [
            "not yet in 'fr' (the default language): 1 of 1 records (fox: description); its pages in 'fr' show those texts in 'de'",
            "not yet in 'de': 1 of 1 records (fox: body); its pages in 'de' show those texts in 'fr'",
        ])
        // A translator's: a picture's alt text in one language only, and the default language's
        // body not written yet beside the old one moved to ID.de.md; neither was listed.
        let moved = try TestSite(
            [
                "content/animals/owl.md": "---\nname: {es: Cárabo, de: Waldkauz}\nimage: {alt: {es: Un cárabo en una rama}}\n---\n",
                "content/animals/owl.de.md": "Der Waldkauz.\n",
            ],
            siteYML: "title: {es: Animales}\nbase_url: https://example.org/\nlanguages: [es, de]\n")
        #expect(TranslationCheck.notes(of: try #require(moved.load().catalog)).map(\.message) == [
            "not yet in 'es' (the default language): 1 of 1 records (owl: body); its pages in 'es' show those texts in 'de'",
            "not yet in 'de': 1 of 1 records (owl: alt); its pages in 'de' show those texts in 'es'",
        ])
        // A title in the default language alone is the site's name in every language.
        let named = try TestSite(siteYML: "title: Tiere\nbase_url: https://example.org/\nlanguages: [de, en]\n")
        #expect(TranslationCheck.notes(of: try #require(named.load().catalog)).isEmpty)
    }

    /// A translator with many records left wants them all (a teacher found "…" even with
    /// `--all-warnings`), and which language the pages show instead.
    @Test func everyRecordIsListedWhenAskedAndTheLanguagesShownInsteadAreNamed() throws {
        var files: [String: String] = [:]
        for n in 1...5 { files["content/animals/a\(n).md"] = "---\nname: {de: Tier \(n), fr: Bête \(n)}\nhint: {en: Hint \(n)}\n---\n" }
        let site = try TestSite(files, siteYML: "title: Tiere\nbase_url: https://example.org/\nlanguages: [de, en, fr]\n")
        let catalog = try #require(site.load().catalog)
        let short = TranslationCheck.notes(of: catalog).map(\.message)
        #expect(short.first == "not yet in 'de' (the default language): 5 of 5 records (a1: hint; a2: hint; a3: hint; … 2 more); its pages in 'de' show those texts in 'en' (--all-warnings lists every one)")
        #expect(short.dropFirst().first == "not yet in 'en': 5 of 5 records (a1: name; a2: name; a3: name; … 2 more); its pages in 'en' show those texts in 'de' (--all-warnings lists every one)")
        let all = TranslationCheck.notes(of: catalog, listing: nil).map(\.message)
        #expect(all.first == "not yet in 'de' (the default language): 5 of 5 records (a1: hint; a2: hint; a3: hint; a4: hint; a5: hint); its pages in 'de' show those texts in 'en'")
        // French lacks the German description of one record and the English hints: both named, in the site's order.
        let mixed = try TestSite(
            files.merging(["content/animals/a1.md": "---\nname: {de: Tier 1, fr: Bête 1}\nhint: {en: Hint 1}\ndescription: {de: Ein Tier.}\n---\n"]) { $1 },
            siteYML: "title: Tiere\nbase_url: https://example.org/\nlanguages: [de, en, fr]\n")
        #expect(TranslationCheck.notes(of: try #require(mixed.load().catalog), listing: nil).last?.message.hasSuffix("its pages in 'fr' show those texts in 'de' or 'en'") == true)
    }
}

/// `tags: garden, forest` is one tag nobody meant (an error); in quotes it is one tag meant.
@Suite struct RecordTagsTests {
    @Test func aQuotedTagWithACommaIsOneTag() throws {
        let site = try TestSite(["content/animals/fox.md": "---\nname: {de: Fuchs}\ntags: \"Europe, North\"\n---\n"])
        let result = site.load()
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.items)")
        #expect(result.catalog?.animals.first?.tags == ["Europe, North"])
    }
}
