import BestiaryCLI
import BestiaryTestSupport
import Foundation
import Testing

@Suite struct AddCommandTests {
    let run = SiteCommandRun.bestiary
    let sound = Fixtures.path("import/wildsound/sounds/Fuchs.mp3")
    let picture = Fixtures.path("import/csv/media/frog.png")

    @Test func writesTheRecordAndCopiesItsMedia() async throws {
        let dir = try await SiteCommandRun.newSite(languages: "[en, de]")
        let site = dir.appending("site")
        let result = await run(
            "add", "--root", site, "red-fox", "--name", "en=Red fox", "--name", "de=Rotfuchs", "--wikipedia", "de=Rotfuchs",
            "--scientific", "Vulpes vulpes", "--group", "mammal", "--difficulty", "2", "--sound", sound, "--image", picture,
            "--set", "sound.credit=Jane Doe, XC123456", "--set", "tags=forest; europe", "--force")
        #expect(result.status == 0, "\(result.stderr)")
        // --force: the starter record red-fox.md is changed, its body and other fields kept.
        #expect(result.stdout == """
            copied \(picture) to content/images/red-fox.png
            copied \(sound) to content/sounds/red-fox.mp3
            updated content/animals/red-fox.md: name, difficulty, wikipedia, sound, image
            """)
        let text = try dir.read("site/content/animals/red-fox.md")
        #expect(text.hasPrefix("""
            ---
            name: {en: Red fox, de: Rotfuchs}
            scientific: Vulpes vulpes
            group: mammal
            difficulty: 2
            tags: [forest, europe]
            wikipedia: {en: Red fox, de: Rotfuchs}
            description: {en: "The most widespread wild dog on Earth, at home in forests, fields and cities."}
            hint: {en: It has a bushy tail with a white tip.}
            sound:
              file: sounds/red-fox.mp3
              credit: Jane Doe, XC123456
            image:
              file: images/red-fox.png
            ---
            <!-- This is the starter record
            """))
        #expect(FileManager.default.contents(atPath: site + "/content/sounds/red-fox.mp3") == (try Fixtures.data("import/wildsound/sounds/Fuchs.mp3")))
        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// A group spelt as others are in another case is said at once, as `check` would say it (it
    /// was taken without a word; a museum's volunteer), for `add` and for `import`'s rows.
    @Test func aGroupSpeltAnotherWayIsSaidAtOnce() async throws {
        let dir = try await SiteCommandRun.newSite(languages: "[en]")
        let site = dir.appending("site")
        #expect(await run("add", "--root", site, "owl", "--name", "en=Owl", "--group", "bird").status == 0)
        let duck = await run("add", "--root", site, "duck", "--name", "en=Duck", "--group", "Bird")
        #expect(duck.status == 0)
        #expect(duck.stderr.contains("content/animals/duck.md:1:1: warning: group 'Bird' is written 'bird' by 1 other record: the collection and the quiz's settings show them as two groups; write 'bird' [add]"), "\(duck.stderr)")
        let csv = dir.appending("birds.csv")
        try "id,name.en,group\nswan,Swan,BIRD\nwren,Wren,bird\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = await run("import", "--root", site, csv, "--format", "csv")
        #expect(imported.status == 0)
        #expect(imported.stderr.contains("birds.csv:2:1: warning: row 2 (id swan): group 'BIRD' is written 'bird' by 2 other records"), "\(imported.stderr)")
        #expect(!imported.stderr.contains("wren"), "\(imported.stderr)")
    }

    @Test func aNewRecordAndItsUnchangedRepeat() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let first = await run("add", "--root", site, "badger", "--name", "en=Badger", "--sound", sound)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "copied \(sound) to content/sounds/badger.mp3\ncreated content/animals/badger.md")
        #expect(try dir.read("site/content/animals/badger.md") == "---\nname: {en: Badger}\nsound:\n  file: sounds/badger.mp3\n---\n")
        let again = await run("add", "--root", site, "badger", "--name", "en=Badger", "--sound", sound, "--force")
        #expect(again.status == 0)
        #expect(again.stdout == "content/animals/badger.md is unchanged")
    }

    /// A recording named in another case than its file (typed by hand): the file meant is named,
    /// as `import` and `check` name it.
    @Test func aSoundWrittenInAnotherCaseIsNamed() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try FileManager.default.createDirectory(atPath: dir.appending("rec"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sound, toPath: dir.appending("rec/Hund bellt.mp3"))
        let result = await run("add", "--root", site, "hund", "--name", "en=Dog", "--sound", dir.appending("rec/hund bellt.mp3"))
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            "cannot read \(dir.appending("rec/hund bellt.mp3")): no such file; did you mean 'Hund bellt.mp3' (\(dir.appending("rec/Hund bellt.mp3")))?"),
            "\(result.stderr)")
    }

    /// A name typed as a keyboard types it (`Käfer.mp3`) for a file a Mac named with the letter
    /// and its accent apart: the same name to the eye, and the file is copied under a name of
    /// its own, so it is taken (found by a teacher: "did you mean" named it back, looking the
    /// same, and typing it again never helped).
    @Test func aSoundNamedLikeAMacNamesItIsTaken() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        try FileManager.default.createDirectory(atPath: dir.appending("rec"), withIntermediateDirectories: true)
        let decomposed = "Ka\u{0308}fer.mp3", composed = "K\u{00E4}fer.mp3"
        try FileManager.default.copyItem(atPath: sound, toPath: dir.appending("rec/" + decomposed))
        let result = await run("add", "--root", site, "kaefer", "--name", "en=Beetle", "--sound", dir.appending("rec/" + composed))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try dir.read("site/content/animals/kaefer.md").contains("file: sounds/kaefer.mp3"))
    }

    /// A web address given as the file (a volunteer's mistake): said so, with the option that
    /// takes it, not "no such file"; nothing is written.
    @Test func aWebAddressForASoundSaysWhereItGoes() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let before = try SiteFilesSnapshot(site)
        let result = await run("add", "--root", site, "wren", "--name", "en=Wren", "--sound", "https://example.org/wren.mp3")
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            "--sound takes a file on this computer, not a web address: give it with --set sound.url=https://example.org/wren.mp3 (the record then names that address), or download the file and pass its path"),
            "\(result.stderr)")
        #expect(try SiteFilesSnapshot(site) == before)
        let set = await run("add", "--root", site, "wren", "--name", "en=Wren", "--set", "sound.url=https://example.org/wren.mp3")
        #expect(set.status == 0, "\(set.stderr)")
    }

    /// `add --force` with a new sound never replaces a file another record plays: the new one goes
    /// next to it, and the credit of the old one is not silently kept for the new one.
    @Test func aSoundAnotherRecordUsesIsNeverReplaced() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let first = await run("add", "--root", site, "badger", "--name", "en=Badger", "--sound", sound, "--set", "sound.credit=Jane Doe")
        #expect(first.status == 0, "\(first.stderr)")
        // red-fox plays the same file.
        let fox = site + "/content/animals/red-fox.md"
        // Written as a record may write it: the same file as sounds/badger.mp3.
        let text = try String(contentsOfFile: fox, encoding: .utf8).replacingOccurrences(of: "group: mammal\n", with: "group: mammal\nsound: {file: ./sounds//badger.mp3}\n")
        try text.writeReplacing(toFile: fox)
        let other = Fixtures.path("import/wildsound/sounds/Amsel.mp3")
        let result = await run("add", "--root", site, "badger", "--force", "--sound", other)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "copied \(other) to content/sounds/badger-2.mp3\nupdated content/animals/badger.md: sound")
        #expect(result.stderr == """
            bestiary: warning: badger: content/sounds/badger.mp3 is kept as it is: red-fox uses it too; the new file is content/sounds/badger-2.mp3 [add]
            bestiary: warning: badger: the sound is replaced, but its credit, license and source are still those of the old file; set sound.credit, .license and .source for the new one [add]
            """)
        #expect(FileManager.default.contents(atPath: site + "/content/sounds/badger.mp3") == (try Fixtures.data("import/wildsound/sounds/Fuchs.mp3")))
        #expect(FileManager.default.contents(atPath: site + "/content/sounds/badger-2.mp3") == (try Fixtures.data("import/wildsound/sounds/Amsel.mp3")))
        #expect(try String(contentsOfFile: fox, encoding: .utf8).contains("sound: {file: ./sounds//badger.mp3}"))
        // A credit given with the new file: no warning about it.
        let third = Fixtures.path("import/wildsound/sounds/Rötelmaus.mp3")
        let credited = await run("add", "--root", site, "badger", "--force", "--sound", third, "--set", "sound.credit=Max Muster")
        #expect(credited.status == 0, "\(credited.stderr)")
        #expect(credited.stderr.isEmpty, "\(credited.stderr)")
        #expect(credited.stdout.hasPrefix("copied \(third) to content/sounds/badger-2.mp3 (replacing it)"), "\(credited.stdout)")
        let check = await run("check", "--root", site)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func refusesToOverwriteWithoutForce() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let before = try dir.read("site/content/animals/red-fox.md")
        let result = await run("add", "--root", site, "red-fox", "--name", "en=Fox")
        #expect(result.status == 1)
        #expect(result.stderr == "bestiary: error: content/animals/red-fox.md already exists; use --force to change it (fields you do not give are kept) [add]")
        #expect(try dir.read("site/content/animals/red-fox.md") == before)
    }

    @Test(arguments: [
        (["Red Fox", "--name", "en=Red fox"], 2, "Error: 'Red Fox' is not a valid id: use 1–64 characters of a-z, 0-9, '_' and '-', e.g. red-fox"),
        (["fox", "--name", "Fox"], 2, "Error: 'Fox' must be KEY=VALUE, e.g. en=\"Red fox\""),
        (["fox", "--name", "en=Fox", "--difficulty", "7"], 2, "Error: --difficulty must be 1, 2 or 3, not 7"),
        (["fox", "--name", "fr=Renard"], 1, "bestiary: error: 'name.fr': language 'fr' is not in content/site.yml's languages (en); add it there first [add]"),
        (["fuchs", "--wikipedia", "en=Red fox"], 1, "bestiary: error: a new record needs a name in the site's default language 'en': add --name en=… [add]"),
        (["fox", "--name", "en=Fox", "--set", "colour=red"], 1, "bestiary: error: 'colour' is not a record field [add]"),
        (["fox", "--name", "en=Fox", "--set", "id=zzz"], 1, "bestiary: error: the id is the first argument (`bestiary add ID …`), not a field to set [add]"),
        (["fox", "--name", "en=Fox", "--name", "en=Vixen"], 2, "Error: --name en=… is given twice; give each once"),
        (["fox", "--name", "en=Fox", "--set", "tags=a", "--set", " tags=b"], 2, "Error: --set tags=… is given twice; give each once"),
        (["fox", "--name", "en=Fox", "--set", "name.en=Vixen"], 2, "Error: --set name.en=… and --name en=… give the same field; give it once"),
        (["fox", "--name", "en=Fox", "--group", "mammal", "--set", "group=bird"], 2, "Error: --group and --set group=… give the same field; give it once"),
    ] as [([String], Int32, String)])
    func explainsWhatIsWrong(_ arguments: [String], _ status: Int32, _ message: String) async throws {
        let dir = try await SiteCommandRun.newSite()
        let before = try SiteFilesSnapshot(dir.appending("site"))
        let (console, captured) = Console.capturing()
        let code = await Console.$current.withValue(console) {
            await BestiaryCommand.run(arguments: ["add", "--root", dir.appending("site")] + arguments)
        }
        #expect(code == status)
        #expect(captured.stderr.hasPrefix(message), "\(captured.stderr)")
        #expect(try SiteFilesSnapshot(dir.appending("site")) == before)
    }

    @Test func checksMediaByTheirBytes() async throws {
        let dir = try await SiteCommandRun.newSite()
        let result = await run("add", "--root", dir.appending("site"), "frog", "--name", "en=Frog", "--sound", picture)
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("\(picture) is a picture (png), not a sound [add]"))
        #expect(!dir.exists("site/content/animals/frog.md"))
        #expect(!dir.exists("site/content/sounds/frog.png"))
    }

    /// A sound of another format (`.ogg` for a `.wav`) is copied beside the old one, and the old
    /// one, which no record names any more, is removed (it was left behind: found by a new user);
    /// one another record names is kept.
    @Test func aSoundReplacedByAnotherFormatLeavesNoFileBehind() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let mp3 = Fixtures.path("import/wildsound/sounds/Fuchs.mp3")
        let ogg = Fixtures.path("sites/tuxpaint/content/sounds/badger.ogg")
        #expect(await run("add", "--root", site, "fox", "--name", "en=Fox", "--sound", mp3).status == 0)
        let replaced = await run("add", "--root", site, "fox", "--force", "--sound", ogg)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout.hasSuffix("removed content/sounds/fox.mp3: no record uses it any more"), "\(replaced.stdout)")
        #expect(!dir.exists("site/content/sounds/fox.mp3"))
        #expect(dir.exists("site/content/sounds/fox.ogg"))
        #expect(await run("check", "--root", site).status == 0)

        try dir.write("---\nname: {en: Vixen}\nsound: {file: ./sounds/fox.ogg}\n---\n", to: "site/content/animals/vixen.md")
        let shared = await run("add", "--root", site, "fox", "--force", "--sound", mp3)
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(!shared.stdout.contains("removed"), "\(shared.stdout)")
        #expect(dir.exists("site/content/sounds/fox.ogg"))
        #expect(dir.exists("site/content/sounds/fox.mp3"))

        // A record that stops naming its file for another reason (a file already under content/,
        // named by an import) leaves it where it is: only a file it was given replaces one.
        try dir.write("id,sound.file\nfox,sounds/fox.ogg\n", to: "other.csv")
        let other = await run("import", "--root", site, dir.appending("other.csv"), "--format", "csv")
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains("updated content/animals/fox.md"), "\(other.stdout)")
        #expect(!other.stdout.contains("removed"), "\(other.stdout)")
        #expect(dir.exists("site/content/sounds/fox.mp3"))
    }

    /// A record's file under a name its author gave it (`my-recording.mp3`), replaced by an
    /// import's sound, is kept and reported, not removed: it may be the author's only copy
    /// (found by a tester). Files `add` and `import` named for the record (`fox.mp3`,
    /// `fox-2.mp3`) still go.
    @Test func aReplacedFileNamedByItsAuthorIsKept() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let mp3 = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("import/wildsound/sounds/Fuchs.mp3")))
        try dir.write(mp3, to: "site/content/sounds/my-recording.mp3")
        try dir.write("---\nname: {en: Fox}\nsound: {file: sounds/my-recording.mp3, credit: Me}\n---\n", to: "site/content/animals/fox.md")
        try dir.write("id,sound.file\nfox,\(Fixtures.path("sites/tuxpaint/content/sounds/badger.ogg"))\n", to: "new.csv")
        let imported = await run("import", "--root", site, dir.appending("new.csv"), "--format", "csv")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("copied") && imported.stdout.contains("to content/sounds/fox.ogg"), "\(imported.stdout)")
        #expect(imported.stdout.hasSuffix(
            "kept content/sounds/my-recording.mp3: no record uses it any more, but its name is not one bestiary gives the record's files (it may be yours); delete it if you no longer need it"),
            "\(imported.stdout)")
        #expect(!imported.stdout.contains("removed"), "\(imported.stdout)")
        #expect(dir.exists("site/content/sounds/my-recording.mp3"))
        #expect(dir.exists("site/content/sounds/fox.ogg"))
    }

    /// A file one import shared between two records, both given new sounds of another format
    /// by the next: removed once, by the name of either record, and not also called kept (it
    /// was both: found in review).
    @Test func aSharedFileReplacedForBothRecordsIsRemovedOnce() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let mp3 = Fixtures.path("import/wildsound/sounds/Fuchs.mp3")
        try dir.write("id,name.en,sound.file\nfox,Fox,\(mp3)\nvixen,Vixen,\(mp3)\n", to: "first.csv")
        let first = await run("import", "--root", site, dir.appending("first.csv"), "--format", "csv")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try dir.read("site/content/animals/vixen.md").contains("sounds/fox.mp3"))
        let ogg = { (name: String) in Fixtures.path("sites/tuxpaint/content/sounds/\(name).ogg") }
        try dir.write("id,sound.file\nfox,\(ogg("badger"))\nvixen,\(ogg("bee"))\n", to: "second.csv")
        let second = await run("import", "--root", site, dir.appending("second.csv"), "--format", "csv")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.components(separatedBy: "removed content/sounds/fox.mp3: no record uses it any more").count == 2, "\(second.stdout)")
        #expect(!second.stdout.contains("kept"), "\(second.stdout)")
        #expect(!dir.exists("site/content/sounds/fox.mp3"))
    }

    /// A sound cut short is copied (`check` and `build` take it too) with the warning `check`
    /// would give: `add` said nothing (found by a new user).
    @Test func aSoundCutShortIsCopiedWithAWarning() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let ogg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("sites/tuxpaint/content/sounds/badger.ogg")))
        try dir.write(ogg.prefix(ogg.count / 2), to: "cut.ogg")
        let result = await run("add", "--root", site, "badger", "--name", "en=Badger", "--sound", dir.appending("cut.ogg"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: badger: \(dir.appending("cut.ogg")): the file is cut short (its last Ogg page needs"), "\(result.stderr)")
        #expect(dir.exists("site/content/sounds/badger.ogg"))
    }

    /// A device is refused before a byte is read (`/dev/zero` was read without end, a gigabyte a
    /// second: found by a new user), and nothing is written.
    @Test func aSoundThatIsNotARegularFileIsRefused() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let before = try SiteFilesSnapshot(site)
        let result = await run("add", "--root", site, "zero", "--name", "en=Zero", "--sound", "/dev/zero")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read /dev/zero: is not a regular file (a device, a pipe or a socket)"), "\(result.stderr)")
        #expect(try SiteFilesSnapshot(site) == before)
    }

    @Test func outsideASiteRootSaysHowToMakeOne() async throws {
        let dir = TemporaryDirectory("nosite")
        let result = await run("add", "--root", dir.path, "fox", "--name", "en=Fox")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a site root (no content/site.yml); create one with `bestiary init DIR` or pass --root"))
    }
}

@Suite struct RemoveCommandTests {
    let run = SiteCommandRun.bestiary
    let sound = Fixtures.path("import/wildsound/sounds/Fuchs.mp3")

    /// Two records share one sound; the fox has a translation and a picture of its own.
    func makeSite() async throws -> TemporaryDirectory {
        let dir = try await SiteCommandRun.newSite(languages: "[en, de]")
        let site = dir.appending("site")
        #expect(await run("add", "--root", site, "fox", "--name", "en=Fox", "--sound", sound, "--image", Fixtures.path("import/csv/media/frog.png")).status == 0)
        try dir.write("---\nname: {en: Vixen}\nsound: {file: sounds/fox.mp3}\n---\n", to: "site/content/animals/vixen.md")
        try dir.write("Der Fuchs.\n", to: "site/content/animals/fox.de.md")
        return dir
    }

    /// Links in other texts to a removed animal's page lead nowhere from then on: `remove` says
    /// so at each (it listed only the files it deleted; six records linked to the bird).
    @Test func linksToARemovedAnimalsPageAreNamed() async throws {
        let dir = try await makeSite()
        try dir.write("---\nname: {en: Vixen}\nsound: {file: sounds/fox.mp3}\n---\nHer mate is the [fox](../fox/), see [its sound](../fox/#sound).\n", to: "site/content/animals/vixen.md")
        let result = await run("remove", "--root", dir.appending("site"), "fox", "--dry-run")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "content/animals/vixen.md:5:17: warning: the link '../fox/' leads to fox's page, which goes with the record: remove the link or point it elsewhere [remove]",
            "content/animals/vixen.md:5:37: warning: the link '../fox/#sound' leads to fox's page, which goes with the record: remove the link or point it elsewhere [remove]",
        ], "\(result.stderr)")
        let other = await run("remove", "--root", dir.appending("site"), "vixen", "--dry-run")
        #expect(!other.stderr.contains("warning"), "\(other.stderr)")
    }

    @Test func removesTheRecordItsTranslationsAndMediaNoOtherRecordUses() async throws {
        let dir = try await makeSite()
        let result = await run("remove", "--root", dir.appending("site"), "fox")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            removed content/animals/fox.md
            removed content/animals/fox.de.md
            removed content/images/fox.png
            kept content/sounds/fox.mp3: still used by vixen
            """)
        #expect(!dir.exists("site/content/animals/fox.md"))
        #expect(!dir.exists("site/content/animals/fox.de.md"))
        #expect(!dir.exists("site/content/images/fox.png"))
        #expect(dir.exists("site/content/sounds/fox.mp3"))
        #expect(await run("check", "--root", dir.appending("site")).status == 0)

        let second = await run("remove", "--root", dir.appending("site"), "vixen")
        #expect(second.stdout == "removed content/animals/vixen.md\nremoved content/sounds/fox.mp3")
    }

    /// `./sounds/fox.mp3` and `sounds//fox.mp3` name the file `check` finds at `sounds/fox.mp3`:
    /// removing the record that spells it plainly keeps it for the others (found by a new user:
    /// it was deleted).
    @Test(arguments: ["./sounds/fox.mp3", "sounds//fox.mp3", "sounds/./fox.mp3"])
    func aSoundSpeltAnotherWayIsStillInUse(_ spelling: String) async throws {
        let dir = try await makeSite()
        try dir.write("---\nname: {en: Vixen}\nsound: {file: \(spelling)}\n---\n", to: "site/content/animals/vixen.md")
        #expect(await run("check", "--root", dir.appending("site")).status == 0)
        let result = await run("remove", "--root", dir.appending("site"), "fox")
        #expect(result.stdout.hasSuffix("kept content/sounds/fox.mp3: still used by vixen"), "\(result.stdout)")
        #expect(dir.exists("site/content/sounds/fox.mp3"))
        #expect(await run("check", "--root", dir.appending("site")).status == 0)
    }

    /// A sound hundreds of generated records share: the line names a few of them and counts the
    /// rest (a tester's 599 ids made one line of 6 KB).
    @Test func aFileManyRecordsShareNamesAFewOfThem() async throws {
        let dir = try await makeSite()
        for i in 1...8 {
            try dir.write("---\nname: {en: Fox \(i)}\nsound: {file: sounds/fox.mp3}\n---\n", to: "site/content/animals/fox-\(i).md")
        }
        let result = await run("remove", "--root", dir.appending("site"), "--dry-run", "vixen")
        #expect(result.stdout.hasSuffix("kept content/sounds/fox.mp3: still used by fox, fox-1, fox-2, fox-3, fox-4 and 4 more"), "\(result.stdout)")
    }

    @Test func keepMediaKeepsEveryMediaFile() async throws {
        let dir = try await makeSite()
        let result = await run("remove", "--root", dir.appending("site"), "--keep-media", "fox", "vixen")
        #expect(result.stdout == "removed content/animals/fox.md\nremoved content/animals/fox.de.md\nremoved content/animals/vixen.md")
        #expect(dir.exists("site/content/images/fox.png"))
        #expect(dir.exists("site/content/sounds/fox.mp3"))
    }

    /// A record file named otherwise than its id (`fox-renamed.md` with `id: renard`): removing it
    /// by the file's name removed the two .md files and left its picture behind, unknown (found
    /// by a site's admin). It is refused, naming the id to use; nothing is removed.
    @Test func aFileNameThatIsNotTheIDIsRefused() async throws {
        let dir = try await makeSite()
        let site = dir.appending("site")
        try FileManager.default.moveItem(atPath: dir.appending("site/content/animals/fox.md"), toPath: dir.appending("site/content/animals/fox-renamed.md"))
        let text = try dir.read("site/content/animals/fox-renamed.md")
        try text.replacingOccurrences(of: "---\nname:", with: "---\nid: renard\nname:").writeReplacing(toFile: dir.appending("site/content/animals/fox-renamed.md"))
        try FileManager.default.moveItem(atPath: dir.appending("site/content/animals/fox.de.md"), toPath: dir.appending("site/content/animals/fox-renamed.de.md"))
        let before = try SiteFilesSnapshot(site)
        let result = await run("remove", "--root", site, "fox-renamed")
        #expect(result.status == 1)
        #expect(result.stderr == "bestiary: error: content/animals/fox-renamed.md holds the record 'renard' (its id: line), not 'fox-renamed': remove it by its id, `bestiary remove renard`, which removes its sound and picture too [remove]", "\(result.stderr)")
        #expect(try SiteFilesSnapshot(site) == before)
        let byID = await run("remove", "--root", site, "renard")
        #expect(byID.stdout.contains("removed content/images/fox.png"), "\(byID.stdout)\(byID.stderr)")
    }

    /// A record file that cannot be read goes, but its media cannot be known: said, with the
    /// media files its text names, which stay (they stayed without a word: found by a tester).
    @Test func anUnreadableRecordGoesAndItsMediaAreSaidToStay() async throws {
        let dir = try await makeSite()
        let text = try dir.read("site/content/animals/fox.md")
        try text.replacingOccurrences(of: "---\nname:", with: "---\nscientific: [Vulpes\nname:").writeReplacing(toFile: dir.appending("site/content/animals/fox.md"))
        let result = await run("remove", "--root", dir.appending("site"), "fox")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "removed content/animals/fox.md\nremoved content/animals/fox.de.md")
        #expect(result.stderr.contains(
            "content/animals/fox.md:1:1: note: content/animals/fox.md cannot be read as a record (`bestiary check` says why), so the media files it names stay (content/sounds/fox.mp3, content/images/fox.png): remove them by hand if no other record uses them"),
            "\(result.stderr)")
        #expect(dir.exists("site/content/images/fox.png") && dir.exists("site/content/sounds/fox.mp3"))
    }

    @Test func anUnknownIDRemovesNothingAndSuggestsTheNearestOne() async throws {
        let dir = try await makeSite()
        let before = try SiteFilesSnapshot(dir.appending("site"))
        let result = await run("remove", "--root", dir.appending("site"), "vixen", "foxx")
        #expect(result.status == 1)
        #expect(result.stderr == "bestiary: error: there is no record 'foxx' (did you mean 'fox'?) [remove]")
        #expect(try SiteFilesSnapshot(dir.appending("site")) == before)
    }

    @Test func dryRunOnlySays() async throws {
        let dir = try await makeSite()
        let result = await run("remove", "--root", dir.appending("site"), "--dry-run", "vixen")
        #expect(result.stdout == "would remove content/animals/vixen.md\nkept content/sounds/fox.mp3: still used by fox")
        #expect(dir.exists("site/content/animals/vixen.md"))
    }
}
