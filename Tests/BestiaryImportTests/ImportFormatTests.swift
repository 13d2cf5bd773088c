import BestiaryContent
import BestiaryDiagnostics
import BestiaryImport
import BestiaryTestSupport
import Foundation
import Testing

/// Each format from its small real-shaped sample (Tests/Fixtures/import/), into a fresh site.
@Suite struct ImportFormatTests {
    @Test func nuthatchSpeciesBecomeBirdsWithHabitatAndConservation() throws {
        let site = try TestSite(languages: ["en", "de"])
        let plan = try site.importing("nuthatch/species.json", .nuthatch)
        #expect(plan.summary == "created 5, updated 0, unchanged 0")
        #expect(plan.records.map(\.path) == (1...5).map { "content/animals/nuthatch-\($0).md" })

        let robin = try #require(site.animal("nuthatch-1"))
        #expect(robin.name.values == ["en": "American Robin"])
        #expect(robin.scientific == "Turdus migratorius")
        #expect(robin.group == "bird")
        #expect(robin.wikipedia == ["en": "Turdus migratorius"])
        #expect(robin.habitat.values == ["en": "Woodlands, gardens, parks and lawns across North America"])
        #expect(robin.conservation == "Least Concern")
        #expect(robin.description["en"]?.contains("\"cheerily, cheer up\"") == true)
        #expect(robin.image?.source == .url("https://images.example.org/birds/american-robin.jpg"))
        #expect(site.animal("nuthatch-4")?.conservation == "Endangered")
        #expect(site.animal("nuthatch-4")?.image == nil)  // image_url: null

        // A picture whose type the URL does not tell is left out, with a warning that says where.
        #expect(site.animal("nuthatch-2")?.image == nil)
        let warning = try #require(plan.warnings.first)
        #expect(warning.severity == .warning)
        #expect(warning.location == SourceLocation(path: Fixtures.path("import/nuthatch/species.json"), line: 15, column: 18))
        #expect(warning.message.hasPrefix("species 2 (id 2): cannot tell the picture type of 'https://images.example.org/photo/4711?w=800&fit=crop'"))
    }

    @Test func dogCEOBreedsAndSubBreedsBecomeDogsWithEnglishNames() throws {
        let site = try TestSite(languages: ["en"])
        let plan = try site.importing("dogceo/breeds.json", .dogceo)
        #expect(plan.summary == "created 15, updated 0, unchanged 0")
        #expect(plan.warnings.isEmpty)
        let names = Dictionary(uniqueKeysWithValues: plan.records.map { ($0.id, site.animal($0.id)?.name["en"] ?? "?") })
        // Breeds with sub-breeds are records only as their sub-breeds.
        #expect(plan.records.map(\.id).filter { !$0.contains("-") } == ["affenpinscher", "germanshepherd"])
        #expect(names["poodle-toy"] == "Toy poodle")
        #expect(names["australian-shepherd"] == "Australian shepherd")
        #expect(names["retriever-flatcoated"] == "Flat-coated retriever")
        #expect(names["germanshepherd"] == "German shepherd")
        #expect(site.animal("bulldog-french")?.group == "dog")
        #expect(site.animal("bulldog-french")?.wikipedia == [:])  // titles are for the user
        #expect(try site.read("content/animals/poodle-toy.md") == "---\nname: {en: Toy poodle}\ngroup: dog\n---\n")
    }

    /// In the real list a key with sub-breeds groups them and is often no breed at all
    /// (`"mountain": ["bernese", "swiss"]`, `"frise": ["bichon"]`): only its sub-breeds become
    /// animals. A key with an empty list is a breed.
    @Test func dogCEOKeysWithSubBreedsBecomeTheirSubBreedsOnly() throws {
        let site = try TestSite(languages: ["en"])
        let file = try site.source(
            #"{"message": {"frise": ["bichon"], "mountain": ["bernese", "swiss"], "pug": [], "dane": ["great"], "hound": ["afghan", "blood"]}, "status": "success"}"#,
            name: "breeds.json")
        let plan = try site.importing(file, .dogceo)
        #expect(plan.records.map(\.id) == ["dane-great", "frise-bichon", "hound-afghan", "hound-blood", "mountain-bernese", "mountain-swiss", "pug"])
        #expect(plan.records.map { site.animal($0.id)?.name["en"] ?? "?" } == [
            "Great Dane", "Bichon frise", "Afghan hound", "Bloodhound", "Bernese mountain dog", "Greater Swiss mountain dog", "Pug",
        ])
        #expect(!site.exists("content/animals/mountain.md") && !site.exists("content/animals/frise.md"))
    }

    @Test func wildsoundAnimalsKeepTheirStoragePathIDsCropsAndSounds() throws {
        let site = try TestSite(languages: ["de", "en"])
        let plan = try site.importing("wildsound/animals.json", .wildsound)
        #expect(plan.summary == "created 4, updated 0, unchanged 0")
        #expect(plan.records.map(\.id) == ["amsel", "fuchs", "kuckuck", "roetelmaus"])
        #expect(plan.copies.map(\.destination) == ["content/sounds/amsel.mp3", "content/sounds/fuchs.mp3", "content/sounds/roetelmaus.mp3"])

        let fox = try #require(site.animal("fuchs"))
        #expect(fox.name.values == ["de": "Fuchs"])  // German is the default: nothing derived
        #expect(fox.wikipedia == ["de": "Rotfuchs", "en": "Red fox"])
        #expect(fox.leadImageFocus == "50% 0%")
        #expect(fox.sound?.filePath == "sounds/fuchs.mp3")
        #expect(fox.sound?.format == .mp3)
        #expect(fox.sound?.credit == "xeno-canto")
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.root + "/content/sounds/fuchs.mp3"))
            == Fixtures.data("import/wildsound/sounds/Fuchs.mp3"))
        // The app's own spellings, and a file name with an umlaut.
        #expect(site.animal("roetelmaus")?.leadImageFocus == "50% 100%")
        #expect(site.animal("roetelmaus")?.sound?.credit == "Freesound")

        // No Kuckuck.mp3 in the bucket: the record comes without sound, and the user is told.
        #expect(site.animal("kuckuck")?.sound == nil)
        #expect(plan.warnings.map(\.message) == [
            "1 of 4 sounds not found under '\(Fixtures.path("import/wildsound"))' (first: sounds/Kuckuck.mp3), so those records get no sound from this import (one they have stays). Put the app's storage files there, or pass --media DIR, and import again"
        ])
    }

    @Test func wildsoundIntoAnEnglishFirstSiteTakesEnglishNamesFromWikipediaTitles() throws {
        let site = try TestSite(languages: ["en", "de"])
        try site.importing("wildsound/animals.json", .wildsound)
        #expect(site.animal("fuchs")?.name.values == ["en": "Red fox", "de": "Fuchs"])
        #expect(site.animal("amsel")?.name.values == ["en": "Common blackbird", "de": "Amsel"])
    }

    @Test func wildsoundNeedsGermanAmongTheSitesLanguages() throws {
        let site = try TestSite(languages: ["en"])
        let diagnostics = site.failure("wildsound/animals.json", .wildsound)
        #expect(diagnostics.map(\.message) == [
            "wildsound names are German ('de'), but content/site.yml's languages are [en]: add de to languages (or pass --language if this file's names are in another language)"
        ])
        #expect(diagnostics.first?.location?.path == Fixtures.path("import/wildsound/animals.json"))
        #expect(!site.exists("content/animals"))
    }

    @Test func csvRowsBecomeRecordsWithQuotingLineBreaksTagsAndCopiedMedia() throws {
        let site = try TestSite(languages: ["en", "de"])
        let plan = try site.importing("csv/animals.csv", .csv)
        #expect(plan.summary == "created 3, updated 0, unchanged 0")
        #expect(plan.copies.map(\.destination) == ["content/images/common-frog.png", "content/sounds/common-frog.mp3"])

        let frog = try #require(site.animal("common-frog"))
        #expect(frog.name.values == ["en": "Common frog", "de": "Grasfrosch"])
        #expect(frog.difficulty == 2)
        #expect(frog.tags == ["pond", "europe"])
        #expect(frog.description["en"] == "Lays its eggs in \"clumps\" in early spring.\nIt spends the winter in mud at the bottom of ponds.")
        #expect(frog.sound?.filePath == "sounds/common-frog.mp3")
        #expect(frog.sound?.credit == "Jane Doe, XC123456")
        #expect(frog.sound?.license == "CC BY-SA 4.0")
        #expect(frog.image?.filePath == "images/common-frog.png")
        #expect(frog.image?.focus == "50% 30%")
        #expect(site.animal("hedgehog")?.description["en"] == "Yes: it eats snails.")
        #expect(site.animal("barn-owl")?.tags == ["night", "europe", "farm"])
        #expect(site.animal("barn-owl")?.difficulty == nil)  // an empty cell sets nothing
        #expect(try site.read("content/animals/hedgehog.md").contains("description: {en: \"Yes: it eats snails.\"}"))
    }

    @Test func csvFilesAlreadyUnderContentAreUsedWhereTheyAre() throws {
        let site = try TestSite(languages: ["en"])
        try site.directory.write(try Fixtures.data("import/csv/media/frog.png"), to: "content/images/shared/frog.png")
        let csv = try site.source("id,name.en,image.file\nfrog,Frog,images/shared/frog.png\n", name: "frogs.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.copies.isEmpty)
        #expect(site.animal("frog")?.image?.filePath == "images/shared/frog.png")
    }

    /// `image.focus` and `image.alt.LANG` without a picture of the record's own crop and describe
    /// the Wikipedia picture (`image: {focus, alt}`); a picture given later takes both over.
    /// A cell with a line break inside a name (a spreadsheet's Alt+Enter) is imported as it is,
    /// and warned of at the cell, as `check` warns of it in the record (it went without a word).
    @Test func csvNameOnTwoLinesIsWarnedOfAtItsCell() throws {
        let site = try TestSite()
        let csv = try site.source("id,name.en,scientific\ncat,\"Cat\",\"Felis\ncatus\"\n", name: "cats.csv")
        let plan = try site.plan(csv, .csv)
        #expect(plan.warnings.map(DiagnosticFormatter.text) == [
            "\(csv):2:11: warning: row 2 (id cat): scientific is on more than one line (a line break in a spreadsheet's cell?); pages, cards, the quiz and the packs show the break: write it on one line ('Felis catus') [import]"
        ])
    }

    @Test func csvCropsAndDescribesTheWikipediaPictureWithoutAPictureOfItsOwn() throws {
        let site = try TestSite(languages: ["en", "de"])
        let csv = try site.source("id,name.en,image.focus,image.alt.en\nlynx,Lynx,50% 0%,A lynx on a rock\n", name: "cats.csv")
        try site.importing(csv, .csv)
        let record = try site.read("content/animals/lynx.md")
        #expect(record.contains("image:\n  focus: \"50% 0%\"\n  alt: {en: A lynx on a rock}\n"), "\(record)")
        #expect(site.animal("lynx")?.leadImageAlt == LocalizedText(["en": "A lynx on a rock"]))
        #expect(try site.plan(csv, .csv).summary == "created 0, updated 0, unchanged 1")

        let own = try site.source("id,image.url\nlynx,https://example.org/lynx.png\n", name: "own.csv")
        try site.importing(own, .csv)
        let lynx = try #require(site.animal("lynx"))
        #expect(lynx.image?.alt == LocalizedText(["en": "A lynx on a rock"]))
        #expect(lynx.image?.focus == "50% 0%")
        #expect(lynx.leadImageAlt.isEmpty && lynx.leadImageFocus == nil)
    }

    /// `--language` says which language a column without one (`name`, `description`) is in, and
    /// must be one of the site's (it was ignored: found by a new user).
    @Test func csvColumnsWithoutALanguageAreInTheLanguageGiven() throws {
        let site = try TestSite(languages: ["en", "de"])
        let csv = try site.source("id,name.en,name,description\nlynx,Lynx,Luchs,Ein Luchs.\n", name: "cats.csv")
        try site.importing(csv, .csv, language: "de")
        let record = try site.read("content/animals/lynx.md")
        #expect(record.contains("de: Luchs"), "\(record)")
        #expect(record.contains("en: Lynx"), "\(record)")
        #expect(record.contains("Ein Luchs."), "\(record)")
        let plain = try site.source("id,name\nlynx,Lynx\n", name: "plain.csv")
        #expect(site.failure(plain, .csv, language: "fr").map(\.message) == [
            "csv names are French ('fr'), but content/site.yml's languages are [en, de]: add fr to languages",
        ])
        // A site's language in other capitals is that language, misspelt (--language EN was told
        // to add EN to the languages).
        #expect(site.failure(plain, .csv, language: "DE").map(\.message) == [
            "--language 'DE': content/site.yml's languages [en, de] write it 'de'; did you mean --language de?",
        ])
        let regional = try TestSite(languages: ["en", "pt-BR"])
        let brazilian = try regional.source("id,name\nlynx,Lince\n", name: "plain.csv")
        #expect(regional.failure(brazilian, .csv, language: "pt-br").map(\.message) == [
            "--language 'pt-br': content/site.yml's languages [en, pt-BR] write it 'pt-BR'; did you mean --language pt-BR?",
        ])
        // A language's name or a code with a mistake is no code to add to site.yml (`--language
        // english` was told to add `english` to the languages, which made site.yml wrong too).
        #expect(site.failure(plain, .csv, language: "english").map(\.message) == ["--language 'english' is not a language code; did you mean --language en?"])
        #expect(site.failure(plain, .csv, language: "eng").map(\.message) == ["--language 'eng' is not a language code; did you mean --language en?"])
        #expect(site.failure(plain, .csv, language: "sp").map(\.message) == [
            "--language 'sp' is not a language code; did you mean 'es'? (site.yml's languages are [en, de])",
        ])
        // In capitals, or with the region everyone guesses (review).
        #expect(site.failure(plain, .csv, language: "SP").map(\.message) == [
            "--language 'SP' is not a language code; did you mean 'es'? (site.yml's languages are [en, de])",
        ])
        #expect(site.failure(plain, .csv, language: "ENG").map(\.message) == ["--language 'ENG' is not a language code; did you mean --language en?"])
        #expect(site.failure(plain, .csv, language: "en-UK").map(\.message) == ["--language 'en-UK' is not a language code; did you mean --language en?"])
        #expect(site.failure(plain, .csv, language: "x!").map(\.message) == [
            "--language 'x!' is not a language code: give a language code as site.yml's languages are written [en, de]",
        ])
    }

    /// What spreadsheets write around the data: a header ending in a separator (its column
    /// empty in every row) and rows of empty cells are no records and no errors.
    @Test func csvEmptyRowsAndATrailingEmptyColumnAreLeftOut() throws {
        let site = try TestSite(languages: ["en"])
        let csv = try site.source("id,name.en,\nlynx,Lynx,\n,,\nbobcat,Bobcat,\n,,\n", name: "cats.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.records.map(\.id).sorted() == ["bobcat", "lynx"])
        #expect(plan.warnings.isEmpty)
        // Several such columns (one per column once used there: Excel's `id;name.en;;`), which
        // were "column '' appears twice"; an unnamed column with a value is still an error.
        let wide = try site.source("id;name.en;;\nlynx;Lynx;;\nbobcat;Bobcat;;\n", name: "wide.csv")
        #expect(try site.plan(wide, .csv).records.count == 2)
        let filled = try site.source("id;name.en;;\nlynx;Lynx;;big\n", name: "filled.csv")
        #expect(site.failure(filled, .csv).map(\.message) == ["column 4 has no name in the header but has values; name it after a record field such as name.en, or delete it from the copy you import if it is no record field (notes, say)"])
    }

    /// What a spreadsheet writes that is meant as something else: a number with a decimal
    /// (`2,0`), an article's address for its title, a column's name with a comma in a file
    /// separated by `;`, and text it misread (UTF-8 opened as Windows-1252), which is warned of.
    @Test func csvSpreadsheetHabitsAreReadAsMeant() throws {
        let site = try TestSite(languages: ["en", "de"])
        let csv = try site.source(
            "id;name.en;name.de;difficulty;wikipedia.de\nlynx;Lynx;Luchs;2,0;https://de.m.wikipedia.org/wiki/Eurasischer_Luchs#Merkmale\n"
                + "grayling;Grayling;Ã„sche;3.0;\n",
            name: "sheet.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.records.map(\.id).sorted() == ["grayling", "lynx"])
        #expect(site.animal("lynx")?.difficulty == 2)
        #expect(site.animal("grayling")?.difficulty == 3)
        #expect(site.animal("lynx")?.wikipedia["de"] == "Eurasischer Luchs")
        #expect(plan.warnings.map(\.message) == [
            "row 3 (id grayling): name.de looks like UTF-8 read as Windows-1252 (as a spreadsheet opens a CSV it was not told is UTF-8): 'Ã„sche' was 'Äsche'; mend it here, and in the file it came from"
        ])
        let table = try CSVParser.parse(Array("id;name.en;Notiz, intern\nlynx;Lynx;x\n".utf8))
        #expect(table.separator == ";")
        #expect(table.header.map(\.text) == ["id", "name.en", "Notiz, intern"])
    }

    /// Excel's `sep=;` first line names the separator and is no header; lines keep their numbers.
    @Test func csvSepLineNamesTheSeparator() throws {
        let site = try TestSite(languages: ["en"])
        let csv = try site.source("sep=;\nid;name.en\nlynx;Lynx, the cat\n", name: "excel.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.records.map(\.id) == ["lynx"])
        #expect(site.animal("lynx")?.name.values["en"] == "Lynx, the cat")
        let bad = try site.source("sep=;\nid;colour\nlynx;red\n", name: "bad.csv")
        let problems = site.failure(bad, .csv).map(\.description)
        #expect(problems.first?.contains(":2:4: error: header: 'colour' is not a record field") == true, "\(problems)")
    }

    /// A spreadsheet made on the same machine may name its files by absolute paths: copied in.
    @Test func csvFilesByAbsolutePathsAreCopiedIn() throws {
        let site = try TestSite(languages: ["en"])
        let frog = Fixtures.repositoryRoot + "/Tests/Fixtures/import/csv/media/frog.png"
        let csv = try site.source("id,name.en,image.file\nfrog,Frog,\(frog)\n", name: "frogs.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.copies.count == 1)
        #expect(site.animal("frog")?.image?.filePath == "images/frog.png")
    }

    @Test func rowsBringingTheSameBytesShareOneCopy() throws {
        let site = try TestSite(languages: ["en"])
        let frog = try Fixtures.data("import/csv/media/frog.png")
        try site.directory.write(frog, to: "incoming/frog.png")
        try site.directory.write(frog, to: "incoming/frog-again.png")
        let csv = try site.source(
            "id,name.en,image.file,image.credit\nfrog,Frog,frog.png,A\ntoad,Toad,frog-again.png,B\nnewt,Newt,frog.png,C\n", name: "frogs.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.copies.map(\.destination) == ["content/images/frog.png"])
        #expect(["frog", "toad", "newt"].map { site.animal($0)?.image?.filePath } == Array(repeating: "images/frog.png", count: 3))
        #expect(site.animal("toad")?.image?.credit == "B")
        #expect(site.errors().isEmpty)
    }

    /// Records that have a sound of their own get the new bytes in place, each warned that the old
    /// credit stays (sharing would leave their old files unused and hide the warning).
    @Test func rowsBringingTheSameBytesToRecordsWithSoundsReplaceEachInPlace() throws {
        let site = try TestSite(languages: ["en"])
        let old = try Fixtures.data("import/wildsound/sounds/Fuchs.mp3")
        let new = try Fixtures.data("import/wildsound/sounds/Amsel.mp3")
        try site.directory.write(old, to: "incoming/old-robin.mp3")
        try site.directory.write(old + Data([0]), to: "incoming/old-fox.mp3")
        try site.directory.write(new, to: "incoming/new.mp3")
        let first = try site.source(
            "id,name.en,sound.file,sound.credit\nrobin,Robin,old-robin.mp3,Old robin recordist\nfox,Fox,old-fox.mp3,Old fox recordist\n", name: "first.csv")
        try site.importing(first, .csv)
        let second = try site.source("id,sound.file\nrobin,new.mp3\nfox,new.mp3\n", name: "second.csv")
        let plan = try site.importing(second, .csv)
        #expect(plan.copies.map { "\($0.destination) \($0.replaces)" } == ["content/sounds/fox.mp3 true", "content/sounds/robin.mp3 true"])
        #expect(site.animal("fox")?.sound?.filePath == "sounds/fox.mp3")
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/sounds/fox.mp3"))) == new)
        #expect(plan.warnings.filter { $0.message.contains("credit, license and source are still those of the old file") }.count == 2)
    }

    /// An address in place of the record's file: the old credit is warned about, as for a new
    /// file (it was not: found by a user); the old file stays (the author may keep it). Both at
    /// once is an error (the address was dropped without a word).
    @Test func anAddressReplacingAFileIsWarnedAboutAndTheFileRemoved() throws {
        let site = try TestSite(languages: ["en"])
        try site.directory.write(try Fixtures.data("import/wildsound/sounds/Amsel.mp3"), to: "incoming/owl.mp3")
        try site.importing(try site.source("id,name.en,sound.file,sound.credit\nowl,Owl,owl.mp3,Jane Doe\n", name: "first.csv"), .csv)
        #expect(site.animal("owl")?.sound?.filePath == "sounds/owl.mp3")
        let plan = try site.importing(try site.source("id,sound.url\nowl,https://example.org/owl.mp3\n", name: "second.csv"), .csv)
        #expect(site.animal("owl")?.sound?.source == .url("https://example.org/owl.mp3"))
        #expect(plan.warnings.map(\.message) == [
            "owl: the sound is replaced, but its credit, license and source are still those of the old one; set sound.credit, .license and .source for the new one",
        ])
        #expect(plan.removals.isEmpty)
        #expect(FileManager.default.fileExists(atPath: site.directory.appending("content/sounds/owl.mp3")))

        let both = try site.source("id,sound.file,sound.url\nowl,owl.mp3,https://example.org/owl.mp3\n", name: "both.csv")
        #expect {
            try site.importing(both, .csv)
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.contains { $0.message.contains("sound.file and sound.url are both given") } == true
        }
    }

    /// A record removed and imported again, whose file others share with the very same bytes,
    /// shares it again (a byte-identical copy went to `ID-2`: found by a user).
    @Test func aRecordImportedAgainSharesTheIdenticalFileItHad() throws {
        let site = try TestSite(languages: ["en"])
        try site.directory.write(try Fixtures.data("import/wildsound/sounds/Amsel.mp3"), to: "incoming/cat.mp3")
        let csv = try site.source("id,name.en,sound.file\ncat-a,Cat A,cat.mp3\ncat-b,Cat B,cat.mp3\n", name: "cats.csv")
        try site.importing(csv, .csv)
        #expect(site.animal("cat-b")?.sound?.filePath == "sounds/cat-a.mp3")
        try FileManager.default.removeItem(atPath: site.directory.appending("content/animals/cat-a.md"))
        let again = try site.importing(csv, .csv)
        #expect(again.copies.isEmpty)
        #expect(again.warnings.isEmpty, "\(again.warnings)")
        #expect(site.animal("cat-a")?.sound?.filePath == "sounds/cat-a.mp3")
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending("content/sounds/cat-a-2.mp3")))
    }

    @Test func everyFormatGivesASiteThatChecks() throws {
        let site = try TestSite(languages: ["en", "de"])
        try site.importing("nuthatch/species.json", .nuthatch)
        try site.importing("dogceo/breeds.json", .dogceo)
        try site.importing("wildsound/animals.json", .wildsound)
        try site.importing("csv/animals.csv", .csv)
        #expect(site.errors().isEmpty)
        #expect(ContentLoader(root: site.root).load().catalog?.animals.count == 27)  // 5 birds, 15 dogs, 4 WildSound animals, 3 CSV rows
    }
}

@Suite struct EmptySourceTests {
    @Test(arguments: [("id,name.en\n", ImportFormat.csv), ("[]", .nuthatch), ("{\"message\": {}, \"status\": \"success\"}", .dogceo)])
    func anEmptyExportIsAWarningNotAFailure(_ text: String, _ format: ImportFormat) throws {
        let site = try TestSite()
        let file = try site.source(text, name: "empty")
        let plan = try site.plan(file, format)
        #expect(plan.summary == "created 0, updated 0, unchanged 0")
        #expect(plan.warnings.map(\.message) == ["the file holds no records to import"])
    }
}
