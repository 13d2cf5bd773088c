import BestiaryContent
import BestiaryStorage
import BestiaryTestSupport
@testable import BestiarySite
import Foundation
import Testing

/// After an edit of record files alone, a rebuild takes what the last build digested of every
/// other animal (its pages' ``AnimalKey`` digest and its pack record's input digest) from the
/// record it left next to the output instead of digesting it again (docs/change-driven-rebuild.md,
/// step 2). `RandomEditTests` proves the outputs the same as a build from nothing's; these tests
/// prove the digests are taken, and only when they may be.
struct KeptAnimalDigestTests {
    static func animal(_ path: String) -> Animal {
        let id = String(path.split(separator: "/").last!.dropLast(3))
        return Animal(id: id, name: LocalizedText(["en": id]), sourcePath: path)
    }

    static let animals = ["content/animals/fox.md", "content/animals/owl.md", "content/animals/birds/owl2.md", "content/animals/birds/wren.md"]
        .map(animal)

    @Test func theAnimalsLeftAreThoseNoneOfWhoseFilesChanged() {
        func unchanged(_ changes: InputChanges) -> [String]? { changes.unchangedAnimals(Self.animals)?.sorted() }
        #expect(unchanged(InputChanges(modified: ["content/animals/fox.md"])) == ["owl", "owl2", "wren"])
        // A translation is its record's.
        #expect(unchanged(InputChanges(modified: ["content/animals/owl.de.md"])) == ["fox", "owl2", "wren"])
        // By folder: `birds/wren.md` is not `wren.md`.
        #expect(unchanged(InputChanges(modified: ["content/animals/wren.md", "content/animals/birds/owl2.md"])) == ["fox", "owl", "wren"])
        // An editor's leftover is no animal's.
        #expect(unchanged(InputChanges(modified: ["content/animals/.#fox.md"])) == ["fox", "owl", "owl2", "wren"])
        // Anything else changed: every animal may have.
        for changes in [
            InputChanges(),
            InputChanges(modified: ["content/animals/fox.md", "content/site.yml"]),
            InputChanges(modified: ["content/sounds/fox.ogg"]),
            InputChanges(modified: ["content/wikipedia/en/Fox.json"]),
            InputChanges(modified: ["templates/layouts/animal.html"]),
            InputChanges(modified: ["content/animals/fox.md"], added: ["content/animals/lynx.md"]),
            InputChanges(modified: ["content/animals/fox.md"], removed: ["content/animals/owl.md"]),
            InputChanges(modified: ["content/animals/fox.md"], folders: ["content/animals/birds"]),
            InputChanges(modified: ["content/animals/fox.md"], settings: ["--base-url"]),
            // A record read through a link changes under its target's name.
            InputChanges(modified: ["content/animals/fox.md"], animalLinks: ["content/animals/birds/wren.md"]),
        ] {
            #expect(unchanged(changes) == nil, "\(changes)")
        }
    }

    /// A record's stem is its path up to the first "." of its file's name: its translations'
    /// stems are its own; a dot in a folder's name does not count, nor non-ASCII letters before it.
    /// A "." that a combining mark follows (with it, one character other than ".") ends it too,
    /// so that paths with one stem by characters never have two.
    @Test(arguments: [
        ("content/animals/owl.md", "content/animals/owl"), ("content/animals/owl.de.md", "content/animals/owl"),
        ("content/animals/vögel/eule.md", "content/animals/vögel/eule"), ("content/animals/Äsche.fr.md", "content/animals/Äsche"),
        ("content/animals.old/owl.md", "content/animals.old/owl"), ("content/animals/owl", "content/animals/owl"),
        ("owl.md", "owl"), ("", ""), ("content/animals/.#owl.md", "content/animals/"),
        ("content/animals/a.\u{301}b.md", "content/animals/a"), ("content/animals/a.\u{301}b.de.md", "content/animals/a"),
    ])
    func aRecordsStemEndsAtItsNamesFirstDot(_ path: String, _ stem: String) {
        #expect(InputChanges.recordStem(path) == stem)
    }

    /// The walk names the links below `content/animals/`, changed or not.
    @Test func theWalksLinksBelowTheAnimalsAreNamed() {
        let settings = ["tool\tf 1 2 3 4 /usr/bin/bestiary"]
        let old = settings + [
            "content\td 1", "content/animals\td 2", "content/animals/fox.md\tf 3", "content/animals/hound.md\tl 4",
            "content/sounds\td 5", "content/sounds/fox.ogg\tl 6",
        ]
        var new = old
        new[3] = "content/animals/fox.md\tf 7"
        let changes = InputChanges.between(old, new)
        #expect(changes.modified == ["content/animals/fox.md"] && changes.animalLinks == ["content/animals/hound.md"])
        #expect(changes.unchangedAnimals(Self.animals) == nil)
    }

    /// Each line of the kept record's `animals` and `packrecords` sections, as the build wrote it,
    /// given to `visit` with its section and its id's and digest's places among its fields (an
    /// animal's line is `a ID DIGEST GROUP DIFFICULTY`, a pack record's `ID DIGEST OFFSET LENGTH`);
    /// the record is written back with what `visit` changed.
    static func eachDigest(in record: String, _ visit: (_ section: String, _ fields: inout [String], _ id: Int, _ digest: Int) -> Void) throws {
        var section = "", left = 0
        var out: [String] = []
        for line in try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if left > 0 {
                left -= 1
                if section == "animals" { visit(section, &fields, 1, 2) } else if section == "packrecords" { visit(section, &fields, 0, 1) }
            } else if fields.count == 5, ["animals", "packrecords", "fragments", "spare"].contains(fields[0]) {
                section = fields[0]
                left = Int(fields[fields[0] == "fragments" ? 3 : 2]) ?? 0
            }
            out.append(fields.joined(separator: "\t"))
        }
        try out.joined(separator: "\n").writeReplacing(toFile: record)
    }

    /// The kept digests: each animal's (`animals`) and each pack record's input digest (`packrecords`), by id.
    static func keptDigests(_ record: String) throws -> (animals: [String: String], packs: [String: String]) {
        var animals: [String: String] = [:], packs: [String: String] = [:]
        try eachDigest(in: record) { section, fields, id, digest in
            if section == "animals" { animals[fields[id]] = fields[digest] } else { packs[fields[id]] = fields[digest] }
        }
        return (animals, packs)
    }

    /// Replaces `id`'s digest in the kept record's `animals` and `packrecords` sections.
    static func plant(_ digest: String, for id: String, in record: String) throws {
        try eachDigest(in: record) { _, fields, idField, digestField in
            if fields[idField] == id { fields[digestField] = digest }
        }
    }

    /// A copy of the Tux Paint site whose files were all last changed an hour ago, as a site's
    /// files are when a build begins (a copied fixture's were all written just now: every one
    /// would be digested by each build, and by the preview taken as edited,
    /// ``InputChanges/unsettled``).
    static func settledFixture(into dir: TemporaryDirectory) throws -> String {
        let root = try copyOfFixture("tuxpaint", into: dir)
        let hourAgo = Date().addingTimeInterval(-3600)
        for file in try LocalFileSystem().walkFiles(in: root) {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: root + "/" + file)
        }
        return root
    }

    /// A planted digest shows whether the rebuild took it: taken, it stays in the next record
    /// (and the animal's pages, whose digests no longer match, are rendered again); digested
    /// again, the true one is back.
    @Test func aRecordsOnlyEditTakesTheOtherAnimalsDigests() throws {
        let dir = TemporaryDirectory()
        // The files a build's walk found changed in the 2 s before it began are digested, and
        // read again by the next (tested below).
        let root = try Self.settledFixture(into: dir)
        let output = dir.appending("out")
        let record = dir.appending(".out.bestiary-index")
        try build(root: root, output: output)
        let first = try Self.keptDigests(record)
        #expect(first.animals.count == 66 && first.packs.count == 66, "66 records and 2 translations")
        let planted = String(repeating: "0", count: 64)

        // Only bear's record edited: beaver's digests are taken as kept, bear's made again.
        try Self.plant(planted, for: "beaver", in: record)
        try Self.plant(planted, for: "bear", in: record)
        let bear = root + "/content/animals/bear.md"
        try (String(contentsOfFile: bear, encoding: .utf8) + "\nBears sleep through the winter.\n").writeReplacing(toFile: bear)
        let edited = try build(root: root, output: output)
        #expect(edited.inputChanges == InputChanges(modified: ["content/animals/bear.md"]))
        let second = try Self.keptDigests(record)
        #expect(second.animals["beaver"] == planted && second.packs["beaver"] == planted)
        #expect(second.animals["bear"] != planted && second.animals["bear"] != first.animals["bear"])
        #expect(second.packs["bear"] != planted && second.packs["bear"] != first.packs["bear"])
        #expect(second.animals["bison"] == first.animals["bison"] && second.packs["bison"] == first.packs["bison"])

        // bear.md, written just before the last build's walk, still holds the bytes that build
        // digested right after its walk: taken as kept, as bison is.
        try Self.plant(planted, for: "bear", in: record)
        try Self.plant(planted, for: "bison", in: record)
        let crow = root + "/content/animals/crow.md"
        try (String(contentsOfFile: crow, encoding: .utf8) + "\nCrows remember faces.\n").writeReplacing(toFile: crow)
        try markJustChanged(crow)
        let crowEdited = try build(root: root, output: output)
        #expect(crowEdited.inputChanges == InputChanges(modified: ["content/animals/crow.md"]))
        let kept = try Self.keptDigests(record)
        #expect(kept.animals["bear"] == planted && kept.packs["bear"] == planted, "bear taken as kept")
        #expect(kept.animals["bison"] == planted && kept.packs["bison"] == planted)
        #expect(kept.animals["crow"] != first.animals["crow"] && kept.animals["crow"] != planted)

        // crow.md, written just before that build's walk, changed again within its clock's
        // resolution (its metadata as that walk found it): named, and digested again.
        try Self.plant(planted, for: "crow", in: record)
        var before = stat()
        #expect(stat(crow, &before) == 0)
        let text = try String(contentsOfFile: crow, encoding: .utf8)
        putBack(crow, Data(text.replacingOccurrences(of: "remember faces", with: "remember fakes").utf8), as: before)
        let changedAgain = try build(root: root, output: output)
        #expect(changedAgain.inputChanges == InputChanges(modified: ["content/animals/crow.md"]))
        let again = try Self.keptDigests(record)
        #expect(again.animals["crow"] != planted && again.animals["crow"] != kept.animals["crow"], "digested again")
        #expect(again.animals["bison"] == planted, "the others still taken")

        // A change beside the records (a file in content/): every animal is digested again.
        try Self.plant(planted, for: "bison", in: record)
        try (String(contentsOfFile: bear, encoding: .utf8) + "\nAnd wake hungry.\n").writeReplacing(toFile: bear)
        try "notes".writeReplacing(toFile: root + "/content/notes.txt")
        #expect(try build(root: root, output: output).inputChanges?.added == ["content/notes.txt"])
        let third = try Self.keptDigests(record)
        #expect(third.animals["bison"] == first.animals["bison"] && third.packs["bison"] == first.packs["bison"])
        #expect(third.animals["beaver"] == first.animals["beaver"] && third.packs["beaver"] == first.packs["beaver"])

        // A record that is a link to another's file: it changes when that file does.
        try FileManager.default.createSymbolicLink(atPath: root + "/content/animals/bruin.md", withDestinationPath: "bear.md")
        try markJustChanged(root + "/content/animals/bruin.md")
        try build(root: root, output: output)
        let linked = try Self.keptDigests(record)
        #expect(linked.animals["bruin"] != nil)
        try Self.plant(planted, for: "bruin", in: record)
        try (String(contentsOfFile: bear, encoding: .utf8) + "\nAnd climb trees.\n").writeReplacing(toFile: bear)
        let relinkedChanges = try build(root: root, output: output).inputChanges
        // (bruin.md, made just before the last build, read again: through it, bear.md changed.)
        #expect(relinkedChanges?.modified == ["content/animals/bear.md", "content/animals/bruin.md"], "\(String(describing: relinkedChanges))")
        let relinked = try Self.keptDigests(record)
        #expect(relinked.animals["bruin"] != planted && relinked.animals["bruin"] != linked.animals["bruin"])
        #expect(relinked.packs["bruin"] != planted && relinked.packs["bruin"] != linked.packs["bruin"])
    }

    /// The preview keeps the same in its memo (the walk its output was made from, and what it kept
    /// of each animal): after an edit of record files alone it takes the other animals' digests
    /// from there. An input the walk found changed just before its build began is read again by
    /// the next rebuild, though its line did not change (its metadata could have stayed the same
    /// through another change): taken as it was when its bytes held, as changed when not.
    @Test func thePreviewTakesTheOtherAnimalsDigestsFromItsMemo() throws {
        let dir = TemporaryDirectory()
        let root = try Self.settledFixture(into: dir)
        var options = BuildOptions(
            root: root, output: dir.appending("preview"), environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: LocalFileSystem(),
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        options.signsPacks = false
        let memo = BuildMemo()
        func rebuild() throws -> BuildReport { try SiteBuilder(options: options, memo: memo).build() }
        func plant(_ ids: [String]) throws -> BuildMemo.Walk {
            var walk = try #require(memo.takeWalk(), "the memo holds the walk its output was made from")
            for id in ids { walk.animals[id]?.digest = planted }
            memo.keepWalk(walk)
            return walk
        }
        let planted = String(repeating: "0", count: 64)
        let bear = root + "/content/animals/bear.md", beaver = root + "/content/animals/beaver.md"

        #expect(try rebuild().inputChanges == nil, "the memo's first build")
        let first = try plant(["beaver", "bear"])
        try (String(contentsOfFile: bear, encoding: .utf8) + "\nBears sleep through the winter.\n").writeReplacing(toFile: bear)
        #expect(try rebuild().inputChanges == InputChanges(modified: ["content/animals/bear.md"]))
        let second = try plant([])
        #expect(second.animals["beaver"]?.digest == planted, "taken as the memo kept it")
        #expect(second.animals["bear"]?.digest != planted && second.animals["bear"]?.digest != first.animals["bear"]?.digest)

        // bear.md, just written when the last rebuild walked it, still holds the bytes that rebuild
        // digested right after its walk: taken as the memo kept it.
        _ = try plant(["bear", "bison"])
        try (String(contentsOfFile: beaver, encoding: .utf8) + "\nBeavers build dams.\n").writeReplacing(toFile: beaver)
        try markJustChanged(beaver)
        let beaverEdited = try rebuild().inputChanges
        #expect(beaverEdited == InputChanges(modified: ["content/animals/beaver.md"]) && beaverEdited?.unsettled == [])
        let third = try plant([])
        #expect(third.animals["bear"]?.digest == planted, "taken as kept")
        #expect(third.animals["bison"]?.digest == planted)
        #expect(third.animals["beaver"]?.digest != first.animals["beaver"]?.digest && third.animals["beaver"]?.digest != planted)

        // beaver.md, just written when that rebuild walked it, changed again within its clock's
        // resolution (its metadata as the walk found it): named, and digested again.
        _ = try plant(["beaver"])
        var before = stat()
        #expect(stat(beaver, &before) == 0)
        let text = try String(contentsOfFile: beaver, encoding: .utf8)
        putBack(beaver, Data(text.replacingOccurrences(of: "build dams", with: "build huts").utf8), as: before)
        #expect(try rebuild().inputChanges == InputChanges(modified: ["content/animals/beaver.md"]))
        let fourth = try plant([])
        #expect(fourth.animals["beaver"]?.digest != planted && fourth.animals["beaver"]?.digest != third.animals["beaver"]?.digest)
        #expect(fourth.animals["bison"]?.digest == planted)
    }
}
