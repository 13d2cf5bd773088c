import BestiaryContent
import BestiaryDiagnostics
@testable import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// Importing again: idempotence, updates that carry only what the source says, hand edits kept.
@Suite struct ImportUpdateTests {
    static let samples: [(String, ImportFormat)] = [
        ("nuthatch/species.json", .nuthatch), ("dogceo/breeds.json", .dogceo), ("wildsound/animals.json", .wildsound),
        ("csv/animals.csv", .csv),
    ]

    @Test(arguments: 0..<4)
    func theSameFileTwiceChangesNothingByteForByte(_ index: Int) throws {
        let (fixture, format) = Self.samples[index]
        let site = try TestSite(languages: ["en", "de"])
        let first = try site.importing(fixture, format)
        let before = try site.snapshot()
        let second = try site.importing(fixture, format)
        #expect(second.summary == "created 0, updated 0, unchanged \(first.created)")
        #expect(second.copies.isEmpty)
        #expect(try site.snapshot() == before)
    }

    @Test func aChangedDumpUpdatesOnlyWhatChangedAndAddsNewSpecies() throws {
        let site = try TestSite(languages: ["en"])
        try site.importing("nuthatch/species.json", .nuthatch)
        let crane = try site.read("content/animals/nuthatch-4.md")
        let plan = try site.importing("nuthatch/species-next-year.json", .nuthatch)
        #expect(plan.summary == "created 1, updated 2, unchanged 3")
        #expect(plan.records.filter { $0.action == .update }.map { "\($0.id): \($0.changedKeys)" } == [
            "nuthatch-1: [\"habitat\"]", "nuthatch-4: [\"conservation\"]",
        ])
        #expect(try site.read("content/animals/nuthatch-4.md") == crane.replacingOccurrences(of: "conservation: Endangered", with: "conservation: Endangered (EN)"))
        #expect(site.animal("nuthatch-6")?.name["en"] == "Eastern Bluebird")
    }

    /// A row deleted from the spreadsheet leaves its record as it is: said, with how to remove
    /// it. A first import into a site, naming none of its records, says nothing of them.
    @Test func aSpreadsheetWithoutSomeOfTheSitesRecordsSaysTheyStay() throws {
        let site = try TestSite(languages: ["en"])
        let first = try site.importing(try site.source("id,name.en\nfox,Fox\nowl,Owl\nbat,Bat\n", name: "list.csv"), .csv)
        #expect(first.warnings.isEmpty)
        let plan = try site.importing(try site.source("id,name.en\nfox,Fox\n", name: "list.csv"), .csv)
        #expect(plan.warnings.map(\.message) == [
            "2 of the site's records are not in this file and stay as they are (bat, owl): import never removes a record; `bestiary remove ID` does"
        ])
        #expect(site.animal("owl") != nil)
        let other = try site.importing(try site.source("id,name.en\nwren,Wren\n", name: "birds.csv"), .csv)
        #expect(other.warnings.isEmpty)
    }

    /// A site made from one spreadsheet per group: importing the birds again notes only the
    /// birds it no longer lists, said with the group, not the mammals of the other file.
    @Test func aSpreadsheetOfOneGroupSaysOnlyWhatItLeftOutOfThatGroup() throws {
        let site = try TestSite(languages: ["en"])
        try site.importing(try site.source("id,name.en,group\nwren,Wren,bird\nowl,Owl,bird\n", name: "birds.csv"), .csv)
        try site.importing(try site.source("id,name.en,group\nfox,Fox,mammal\nbat,Bat,mammal\n", name: "mammals.csv"), .csv)
        let again = try site.importing(try site.source("id,name.en,group\nwren,Wren,bird\nowl,Owl,bird\n", name: "birds.csv"), .csv)
        #expect(again.warnings.isEmpty)
        let fewer = try site.importing(try site.source("id,name.en,group\nwren,Wren,bird\n", name: "birds.csv"), .csv)
        #expect(fewer.warnings.map(\.message) == [
            "1 of the site's records of group 'bird' is not in this file and stays as it is (owl): import never removes a record; `bestiary remove ID` does"
        ])
        // A file of several groups speaks for the whole site: the last row of a group deleted
        // is still said.
        let mixed = try site.importing(try site.source("id,name.en,group\nwren,Wren,bird\nfox,Fox,mammal\n", name: "all.csv"), .csv)
        #expect(mixed.warnings.map(\.message) == [
            "2 of the site's records are not in this file and stay as they are (bat, owl): import never removes a record; `bestiary remove ID` does"
        ])
    }

    /// A user adds fields, comments, a body and a translation by hand; the app's catalogue then
    /// renames the animal. The import changes the name and nothing else.
    @Test func updatesKeepEverythingAddedByHand() throws {
        let site = try TestSite(languages: ["de", "en"])
        try site.importing("wildsound/animals.json", .wildsound)
        let handEdited = """
            ---
            # Checked against the field guide, May 2024.
            name: {de: Fuchs}
            scientific: Vulpes vulpes   # added by hand
            group: mammal
            tags: [wald, stadt]
            wikipedia: {de: Rotfuchs, en: Red fox}
            hint: {de: Er hat einen buschigen Schwanz.}
            sound:
              file: sounds/fuchs.mp3
              credit: xeno-canto
              license: CC BY-SA 4.0
            image:
              focus: "50% 0%"
            ---
            Der Rotfuchs lebt in Wäldern, auf Feldern und mitten in Städten.

            """
        try site.write(handEdited, to: "content/animals/fuchs.md")
        try site.write("The red fox lives in forests, fields and cities.\n", to: "content/animals/fuchs.en.md")

        let renamed = try String(contentsOfFile: Fixtures.path("import/wildsound/animals.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"name\": \"Fuchs\"", with: "\"name\": \"Rotfuchs\"")
        let file = try site.source(renamed, name: "animals.json")
        let plan = try site.importing(file, .wildsound, media: Fixtures.path("import/wildsound"))
        #expect(plan.summary == "created 0, updated 1, unchanged 3")
        #expect(try site.read("content/animals/fuchs.md") == handEdited.replacingOccurrences(of: "name: {de: Fuchs}", with: "name: {de: Rotfuchs}"))
        #expect(try site.read("content/animals/fuchs.en.md") == "The red fox lives in forests, fields and cities.\n")
        #expect(site.animal("fuchs")?.bodies["en"]?.markdown == "The red fox lives in forests, fields and cities.\n")
    }

    @Test func namesDerivedByTheImporterNeverOverwriteACorrectionByHand() throws {
        let site = try TestSite(languages: ["en"])
        try site.importing("dogceo/breeds.json", .dogceo)
        let corrected = "---\nname: {en: Boston terrier}\ngroup: dog\n---\n"
        try site.write(corrected, to: "content/animals/bulldog-boston.md")
        let plan = try site.importing("dogceo/breeds.json", .dogceo)
        #expect(plan.summary == "created 0, updated 0, unchanged 15")
        #expect(try site.read("content/animals/bulldog-boston.md") == corrected)
    }

    @Test func aChangedSoundIsReplacedAndAMovedOneIsFound() throws {
        let site = try TestSite(languages: ["de", "en"])
        try site.importing("wildsound/animals.json", .wildsound)
        // The app's bucket now has a new recording of the fox.
        let bucket = TemporaryDirectory("bucket")
        try bucket.write(try Fixtures.data("import/wildsound/sounds/Amsel.mp3"), to: "sounds/Fuchs.mp3")
        // (Other bytes than the fox's: a row bringing the same bytes would share the fox's new file.)
        try bucket.write(try Fixtures.data("import/wildsound/sounds/Rötelmaus.mp3"), to: "sounds/Kuckuck.mp3")
        let plan = try site.importing("wildsound/animals.json", .wildsound, media: bucket.path)
        #expect(plan.copies.map { "\($0.destination) \($0.replaces)" } == ["content/sounds/fuchs.mp3 true", "content/sounds/kuckuck.mp3 false"])
        // fuchs.md names the same file, now with new bytes: its text stays, but it is updated.
        #expect(plan.records.filter { $0.action == .update }.map(\.id) == ["fuchs", "kuckuck"])
        #expect(plan.records.first { $0.id == "fuchs" }?.changedKeys == ["sound.file (new bytes)"])
        #expect(plan.summary.hasPrefix("created 0, updated 2,"))
        #expect(site.animal("kuckuck")?.sound?.credit == "Freesound")
        #expect(plan.warnings.map(\.message) == [
            "2 of 4 sounds not found under '\(bucket.path)' (first: sounds/Amsel.mp3), so those records get no sound from this import (one they have stays). Put the app's storage files there, or pass --media DIR, and import again"
        ])
        #expect(site.animal("amsel")?.sound?.filePath == "sounds/amsel.mp3")
    }

    /// A file already at the name an import would give a new record's sound, that no record uses
    /// (copied there by hand, left by `remove --keep-media`): it may be the user's only copy. The
    /// import replaced it; now the new bytes go to `ID-2`, with a warning, and the file is kept.
    @Test func aFileNoRecordUsesIsNotReplacedByANewRecordsSound() throws {
        let site = try TestSite(languages: ["en"])
        let mine = try Fixtures.data("import/wildsound/sounds/Amsel.mp3")
        try site.directory.write(mine, to: "content/sounds/tiger.mp3")
        try site.directory.write(try Fixtures.data("import/wildsound/sounds/Fuchs.mp3"), to: "incoming/roar.mp3")
        let csv = try site.source("id,name.en,sound.file\ntiger,Tiger,\(site.directory.appending("incoming/roar.mp3"))\n", name: "tiger.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.copies.map { "\($0.destination) \($0.replaces)" } == ["content/sounds/tiger-2.mp3 false"])
        #expect(plan.warnings.map(\.message) == [
            "tiger: content/sounds/tiger.mp3 is kept as it is: no record uses it, but it holds other bytes (it may be yours); the new file is content/sounds/tiger-2.mp3"
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/sounds/tiger.mp3"))) == mine)
        #expect(site.animal("tiger")?.sound?.filePath == "sounds/tiger-2.mp3")
    }

    /// One import gives the fox the wolf's file (a path under content/) and the wolf a new
    /// recording: the wolf's new bytes replaced the file the fox now names, whatever the rows'
    /// order, and the howl was lost. A file a row gives its record is another record's now.
    @Test(arguments: [false, true])
    func aFileOneRowTakesIsNotReplacedByAnothersCopy(_ wolfFirst: Bool) throws {
        let site = try TestSite(languages: ["en"])
        let howl = try Fixtures.data("import/wildsound/sounds/Amsel.mp3"), bark = try Fixtures.data("import/wildsound/sounds/Fuchs.mp3")
        let miaow = try Fixtures.data("import/wildsound/sounds/Rötelmaus.mp3")
        try site.directory.write(howl, to: "incoming/howl.mp3")
        try site.directory.write(bark, to: "incoming/bark.mp3")
        try site.directory.write(miaow, to: "incoming/miaow.mp3")
        let incoming = site.directory.appending("incoming")
        try site.importing(try site.source("id,name.en,sound.file\nfox,Fox,\(incoming)/bark.mp3\nwolf,Wolf,\(incoming)/howl.mp3\n", name: "one.csv"), .csv)
        let rows = ["fox,Fox,sounds/wolf.mp3", "wolf,Wolf,\(incoming)/miaow.mp3"]
        let plan = try site.importing(try site.source("id,name.en,sound.file\n" + (wolfFirst ? rows.reversed() : rows).joined(separator: "\n") + "\n", name: "two.csv"), .csv)
        #expect(plan.copies.map { "\($0.destination) \($0.replaces)" } == ["content/sounds/wolf-2.mp3 false"])
        #expect(site.animal("fox")?.sound?.filePath == "sounds/wolf.mp3")
        #expect(site.animal("wolf")?.sound?.filePath == "sounds/wolf-2.mp3")
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/sounds/wolf.mp3"))) == howl)
    }

    /// The fox shared the dog's file, and one import gives the fox a sound of its own and the dog a
    /// new recording: the dog's file is its own again and is replaced in place. It went to
    /// `dog-2` with "kept as it is: fox uses it too", and then the old file was removed.
    @Test func aFileAnotherRowLeavesIsReplacedInPlace() throws {
        let site = try TestSite(languages: ["en"])
        let incoming = site.directory.appending("incoming")
        for (name, fixture) in [("bark", "Fuchs"), ("neigh", "Amsel"), ("quack", "Rötelmaus")] {
            try site.directory.write(try Fixtures.data("import/wildsound/sounds/\(fixture).mp3"), to: "incoming/\(name).mp3")
        }
        try site.importing(try site.source("id,name.en,sound.file\ndog,Dog,\(incoming)/bark.mp3\nfox,Fox,\(incoming)/bark.mp3\n", name: "one.csv"), .csv)
        #expect(site.animal("fox")?.sound?.filePath == "sounds/dog.mp3")
        let plan = try site.importing(try site.source("id,name.en,sound.file\ndog,Dog,\(incoming)/neigh.mp3\nfox,Fox,\(incoming)/quack.mp3\n", name: "two.csv"), .csv)
        #expect(plan.copies.map { "\($0.destination) \($0.replaces)" } == ["content/sounds/dog.mp3 true", "content/sounds/fox.mp3 false"])
        #expect(plan.warnings.isEmpty, "\(plan.warnings)")
        #expect(site.animal("dog")?.sound?.filePath == "sounds/dog.mp3")
        #expect(site.exists("content/sounds/dog.mp3") && !site.exists("content/sounds/dog-2.mp3"))
    }

    /// The spreadsheet's folder keeps its recordings in `sounds/`, and the first import copied
    /// `sounds/dog.mp3` to content/sounds/dog.mp3: a new recording there was then taken for the
    /// site's old copy ("unchanged"). The file next to the CSV wins, with a warning; a path with
    /// `\\` says to use `/`.
    @Test func aNewRecordingBesideTheCSVIsNotShadowedByTheSitesCopy() throws {
        let site = try TestSite(languages: ["en"])
        try site.directory.write(try Fixtures.data("import/wildsound/sounds/Amsel.mp3"), to: "incoming/sounds/dog.mp3")
        let csv = try site.source("id,name.en,sound.file\ndog,Dog,sounds/dog.mp3\n", name: "dogs.csv")
        try site.importing(csv, .csv)
        #expect(site.animal("dog")?.sound?.filePath == "sounds/dog.mp3")
        let better = try Fixtures.data("import/wildsound/sounds/Fuchs.mp3")
        try site.directory.write(better, to: "incoming/sounds/dog.mp3")
        let plan = try site.importing(csv, .csv)
        #expect(plan.summary == "created 0, updated 1, unchanged 0")
        #expect(plan.warnings.map(\.message) == [
            "row 2 (id dog): sound.file 'sounds/dog.mp3' is both under content/ and at \(site.directory.appending("incoming/sounds/dog.mp3")), with other bytes: the one next to the CSV (or under --media) is taken"
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.directory.appending("content/sounds/dog.mp3"))) == better)
        #expect(try site.plan(csv, .csv).summary == "created 0, updated 0, unchanged 1")

        let windows = try site.source("id,name.en,sound.file\ndog,Dog,sounds\\dog.mp3\n", name: "windows.csv")
        #expect(site.failure(windows, .csv).map(\.message).first?.hasSuffix("; use '/' in paths, not '\\'") == true)
    }

    /// A record does not say which source made it, so an import cannot tell a record from another
    /// format (or from a hand) by anything but its id: it merges into it, and says so: it is an
    /// update with the keys it changes (listed by the command, and by --dry-run before writing),
    /// never a silent "created" or "unchanged".
    @Test func aRecordMadeByAnotherSourceIsMergedIntoAndReportedAsAnUpdate() throws {
        let site = try TestSite(languages: ["de", "en"])
        let csv = try site.source("id,name.de,name.en,group,tags\nfuchs,Rotfuchs,Red fox,mammal,wald\n", name: "mine.csv")
        try site.importing(csv, .csv)
        let plan = try site.plan("wildsound/animals.json", .wildsound)
        #expect(plan.summary == "created 3, updated 1, unchanged 0")
        let fox = try #require(plan.records.first { $0.id == "fuchs" })
        #expect(fox.action == .update)
        #expect(fox.changedKeys == ["name", "wikipedia", "sound", "image"])
        try plan.apply(root: site.root, fileSystem: LocalFileSystem())
        let merged = try #require(site.animal("fuchs"))
        #expect(merged.name.values == ["de": "Fuchs", "en": "Red fox"])  // what the file carries replaces
        #expect(merged.group == "mammal" && merged.tags == ["wald"])  // the rest stays
    }

    @Test func aCSVWithSomeColumnsChangesOnlyThoseFields() throws {
        let site = try TestSite(languages: ["en", "de"])
        try site.importing("csv/animals.csv", .csv)
        let frog = try site.read("content/animals/common-frog.md")
        let csv = try site.source("id,tags,sound.credit,name.de\ncommon-frog,pond;europe;spring,\"J. Doe (XC123456)\",\nhedgehog,,,Westeuropäischer Igel\n", name: "fix.csv")
        let plan = try site.importing(csv, .csv)
        #expect(plan.summary == "created 0, updated 2, unchanged 0")
        #expect(try site.read("content/animals/common-frog.md") == frog
            .replacingOccurrences(of: "tags: [pond, europe]", with: "tags: [pond, europe, spring]")
            .replacingOccurrences(of: "credit: Jane Doe, XC123456", with: "credit: J. Doe (XC123456)"))
        #expect(site.animal("hedgehog")?.name.values == ["en": "Hedgehog", "de": "Westeuropäischer Igel"])
        #expect(site.animal("hedgehog")?.tags == ["garden"])  // an empty cell carries nothing
    }

    /// The names `add` and `import` give a record's files, which an import that replaces the
    /// file may remove; any other name is the author's, and the file is kept.
    @Test func namesBestiaryGivesARecordsFiles() {
        #expect(RecordPlanner.isNamedByBestiary("sounds/fox.mp3", kind: .sound, id: "fox"))
        #expect(RecordPlanner.isNamedByBestiary("sounds/fox-2.mp3", kind: .sound, id: "fox"))
        #expect(RecordPlanner.isNamedByBestiary("images/fox-12.webp", kind: .image, id: "fox"))
        for (path, kind) in [("images/fox.mp3", MediaKind.sound), ("sounds/fox-02.mp3", .sound), ("sounds/fox-1.mp3", .sound), ("sounds/fox-0.mp3", .sound), ("sounds/fox-cub.mp3", .sound),
                             ("sounds/foxes.mp3", .sound), ("sounds/birds/fox.mp3", .sound), ("sounds/fox-.mp3", .sound), ("sounds/fox", .sound)] {
            #expect(!RecordPlanner.isNamedByBestiary(path, kind: kind, id: "fox"), "\(path)")
        }
    }
}
