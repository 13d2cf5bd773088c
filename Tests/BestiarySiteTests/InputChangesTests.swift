import BestiaryStorage
import BestiaryTestSupport
@testable import BestiarySite
import Foundation
import Testing

/// What a build says changed since the output was built: the walk it was made from, kept beside
/// its fingerprint, against this build's.
struct InputChangesTests {
    static let settings = ["tool\tf 1 2 3 4 /usr/bin/bestiary", "base-url\t", "locked\tfalse", "source-date-epoch\t1767225600"]

    static func snapshot(_ entries: [String], settings: [String] = settings) -> [String] { settings + entries }

    @Test func aChangedAddedOrRemovedFileIsNamedByItsPath() {
        let old = Self.snapshot([
            "content\td 1", "content/animals\td 2", "content/animals/fox.md\tf 3", "content/animals/owl.md\tf 4",
            "content/site.yml\tf 5", "templates\t-",
        ])
        var new = old
        new[6] = "content/animals/fox.md\tf 9"
        #expect(InputChanges.between(old, new) == InputChanges(modified: ["content/animals/fox.md"]))
        new.remove(at: 7)
        new.insert("content/animals/lynx.md\tf 8", at: 7)
        new[5] = "content/animals\td 7"
        let changes = InputChanges.between(old, new)
        // The folder's new time is said through the entries below it.
        #expect(changes == InputChanges(modified: ["content/animals/fox.md"], added: ["content/animals/lynx.md"], removed: ["content/animals/owl.md"]))
        #expect(changes.summary() == "content/animals/fox.md, content/animals/lynx.md (new), content/animals/owl.md (removed)")
        #expect(InputChanges.between(old, old).isEmpty)
    }

    /// The files and links a walk found changed in the 2 s before its build began, or later, by
    /// the time in each line (not folders, not settings): the preview's next rebuild takes them
    /// as edited (``between(_:_:unsettled:)``, ``InputChanges/unsettled``), once and by their bytes, and
    /// says nothing of them.
    @Test func theFilesChangedJustBeforeAWalkAreTakenAsChangedNextTime() {
        let started: Int64 = 1_767_225_600_000_000_000
        func line(_ path: String, _ kind: FileKind, _ time: Int64) -> String {
            path + "\t" + BuildState.describe(FileInfo(kind: kind, size: 10, modificationTime: time, inode: 5, device: 6))
        }
        let walk = Self.snapshot([
            line("content", .directory, started), line("content/animals", .directory, started),
            line("content/animals/fox.md", .file, started - 2_000_000_001), line("content/animals/owl.md", .file, started - 1_999_999_999),
            line("content/animals/wren.md", .symlink, started + 5), line("content/site.yml", .file, started - 60_000_000_000),
            line("templates", .directory, started), line("templates/animal.html", .file, started - 1),
        ])
        let unsettled = InputChanges.unsettled(walk, before: started)
        #expect(unsettled == ["content/animals/owl.md", "content/animals/wren.md", "templates/animal.html"])
        var new = walk
        new[new.firstIndex { $0.hasPrefix("content/animals/wren.md\t") }!] = line("content/animals/wren.md", .symlink, started + 9)
        let changes = InputChanges.between(walk, new, unsettled: unsettled)
        #expect(changes.modified == ["content/animals/wren.md"] && changes.unsettled == ["content/animals/owl.md", "templates/animal.html"])
        #expect(changes == InputChanges(modified: ["content/animals/wren.md"], animalLinks: ["content/animals/wren.md"]) && changes.count == 1)
        #expect(changes.summary() == "content/animals/wren.md")
    }

    /// A folder whose own metadata changed with nothing below it changed (a file made and removed
    /// again) is named as the folder; its parents are not.
    @Test func aFolderIsNamedOnlyWhenNothingBelowItChanged() {
        let old = Self.snapshot(["content\td 1", "content/animals\td 2", "content/animals/fox.md\tf 3", "content/sounds\td 4"])
        var new = old
        new[5] = "content/animals\td 5"
        new[4] = "content\td 6"
        #expect(InputChanges.between(old, new) == InputChanges(folders: ["content", "content/animals"]))
        new[6] = "content/animals/fox.md\tf 7"
        #expect(InputChanges.between(old, new) == InputChanges(modified: ["content/animals/fox.md"]))
        // A file that became a folder is a change of the file.
        var replaced = old
        replaced[6] = "content/animals/fox.md\td 3"
        #expect(InputChanges.between(old, replaced).modified == ["content/animals/fox.md"])
    }

    /// The two walks are merged in the walk's order (depth first, names by their bytes): a
    /// folder's entries come before a file whose name only extends the folder's.
    @Test func theWalksAreMergedInTheWalksOrder() {
        #expect(InputChanges.compare("content/animals/z.md", "content/animals.md") < 0)
        #expect(InputChanges.compare("content/animals", "content/animals/a") < 0)
        #expect(InputChanges.compare("content/a-b", "content/a/b") > 0)
        #expect(InputChanges.compare("content/Zebra.md", "content/apple.md") < 0)
        #expect(InputChanges.compare("templates", "content/x") > 0)
        let old = Self.snapshot(["content\td 1", "content/animals\td 2", "content/animals/z.md\tf 3", "content/animals.md\tf 4", "templates\td 5"])
        let new = Self.snapshot([
            "content\td 1", "content/animals\td 2", "content/animals/a.md\tf 6", "content/animals/z.md\tf 3", "content/animals.md\tf 4",
            "templates\td 5", "templates/layouts\td 7",
        ])
        #expect(InputChanges.between(old, new) == InputChanges(added: ["content/animals/a.md", "templates/layouts"]))
        #expect(InputChanges.between(new, old) == InputChanges(removed: ["content/animals/a.md", "templates/layouts"]))
    }

    @Test func settingsAreNamedAsTheUserGivesThem() {
        let entries = ["content\td 1"]
        let old = Self.snapshot(entries)
        var settings = Self.settings
        settings[1] = "base-url\thttps://birds.example/"
        settings[3] = "day\t20454"
        #expect(InputChanges.between(old, Self.snapshot(entries, settings: settings)).settings == ["--base-url", "SOURCE_DATE_EPOCH"])
        #expect(InputChanges.between(Self.snapshot(entries, settings: settings), old).settings == ["--base-url", "SOURCE_DATE_EPOCH"])
        var nextDay = settings
        nextDay[3] = "day\t20455"
        let changes = InputChanges.between(Self.snapshot(entries, settings: settings), Self.snapshot(entries, settings: nextDay))
        #expect(changes.summary() == "the day (without SOURCE_DATE_EPOCH, a build renews the packs' expiry each day)")
        var tool = Self.settings
        tool[0] = "tool\tf 1 2 3 5 /usr/bin/bestiary"
        #expect(InputChanges.between(old, Self.snapshot(entries, settings: tool)).settings == ["the bestiary binary (or a library it runs with)"])
    }

    /// A file's name with an escape or a line break is said as escapes: a stray file cannot
    /// colour the terminal or split the line.
    @Test func controlCharactersInANameAreEscaped() {
        let changes = InputChanges(added: ["content/notes-\u{1B}[31mred.txt", "content/two\nlines.md"])
        #expect(changes.summary() == "content/notes-\\u{1b}[31mred.txt (new), content/two\\nlines.md (new)")
    }

    /// A file renamed from one spelling of an accented letter to the other (composed, decomposed)
    /// keeps its metadata: its bytes tell, not `==`, which takes the two as one.
    @Test func twoSpellingsOfOneNameAreTwoPaths() {
        let old = Self.snapshot(["content\td 1", "content/caf\u{E9}.md\tf 2"])
        let new = Self.snapshot(["content\td 1", "content/cafe\u{301}.md\tf 2"])
        #expect(old == new, "Swift's == takes them as one")
        let changes = InputChanges.between(old, new)
        #expect(changes.added == ["content/cafe\u{301}.md"] && changes.removed == ["content/caf\u{E9}.md"])
    }

    /// The signing key's path may hold a tab: a setting's key ends at the first.
    @Test func aSettingsValueMayHoldATab() {
        let entries = ["content\td 1"]
        var settings = Self.settings
        settings.append("signing-key-file\t/keys/a\tb.key f 1 2 3 4")
        #expect(InputChanges.between(Self.snapshot(entries, settings: settings), Self.snapshot(entries, settings: settings)).isEmpty)
        var other = settings
        other[other.count - 1] = "signing-key-file\t/keys/a\tb.key f 9 2 3 4"
        #expect(InputChanges.between(Self.snapshot(entries, settings: settings), Self.snapshot(entries, settings: other)).settings == ["--signing-key"])
    }

    @Test func aLongListIsCut() {
        let changes = InputChanges(modified: (1...7).map { "content/animals/\($0).md" })
        #expect(changes.summary(limit: 3) == "content/animals/1.md, content/animals/2.md, content/animals/3.md and 4 more")
        #expect(changes.count == 7)
    }

    /// The kept walk reads back line for line, a path with a line break or a tab too; a damaged
    /// or foreign file is no walk.
    @Test func theLedgerReadsBackWhatItKept() throws {
        let dir = TemporaryDirectory()
        let fs = LocalFileSystem()
        let path = dir.appending(".output.bestiary-inputs")
        let lines = Self.snapshot(["content\td 1", "content/odd\nname.md\tf 2", "content/tab\there.md\tf 3", "content/é.md\tf 4"])
        InputLedger.save(lines, to: path, fileSystem: fs)
        #expect(InputLedger.load(path, fileSystem: fs) == lines)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        try bytes.dropLast().write(to: URL(fileURLWithPath: path))
        #expect(InputLedger.load(path, fileSystem: fs) == nil, "cut short")
        try Data("bestiary-inputs 2\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(InputLedger.load(path, fileSystem: fs) == nil, "another format")
        #expect(InputLedger.load(dir.appending("missing"), fileSystem: fs) == nil)
        // A tab in a path: the metadata after the last one.
        let old = Self.snapshot(["content\td 1", "content/tab\there.md\tf 3"])
        let new = Self.snapshot(["content\td 1", "content/tab\there.md\tf 4"])
        #expect(InputChanges.between(old, new).modified == ["content/tab\there.md"])
    }

    /// A build names what changed since the output was built, and nothing when it has no record
    /// of that build's inputs (the first build), builds everything (`--force`), or is up to date.
    @Test func aBuildSaysWhatChangedSinceTheOutputWasBuilt() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: dir)
        let output = dir.appending("out")
        #expect(try build(root: root, output: output).inputChanges == nil, "the first build")
        let ledger = dir.appending(".out.bestiary-inputs")
        #expect(FileManager.default.fileExists(atPath: ledger))
        #expect(try build(root: root, output: output).upToDate)

        let robin = root + "/content/animals/robin.md"
        try (String(contentsOfFile: robin, encoding: .utf8) + "\nMore about robins.\n").writeReplacing(toFile: robin)
        try "notes".writeReplacing(toFile: root + "/content/notes.txt")
        let report = try build(root: root, output: output)
        #expect(report.inputChanges == InputChanges(modified: ["content/animals/robin.md"], added: ["content/notes.txt"]))

        try FileManager.default.removeItem(atPath: root + "/content/notes.txt")
        #expect(try build(root: root, output: output, baseURL: "https://birds.example/").inputChanges
            == InputChanges(removed: ["content/notes.txt"], settings: ["--base-url"]))
        // Nothing changed since, and the build goes on only because it is told to.
        #expect(try build(root: root, output: output, baseURL: "https://birds.example/", force: true).inputChanges == nil)
        try (String(contentsOfFile: robin, encoding: .utf8) + "\nAnd more.\n").writeReplacing(toFile: robin)
        #expect(try build(root: root, output: output, baseURL: "https://birds.example/").inputChanges == InputChanges(modified: ["content/animals/robin.md"]))
    }

    /// A kept walk that is not the one the recorded fingerprint was made from, with the output as
    /// it is now, names nothing: a build killed after its swap leaves the last build's
    /// fingerprint and walk beside its own output, and an older binary records a fingerprint
    /// without a walk. Either would name changes the output already has.
    @Test func aWalkThatIsNotTheOutputsNamesNothing() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: dir)
        let output = dir.appending("out")
        try build(root: root, output: output)
        let state = dir.appending(".out.bestiary-state"), walk = dir.appending(".out.bestiary-inputs")
        let (oldState, oldWalk) = (try Data(contentsOf: URL(fileURLWithPath: state)), try Data(contentsOf: URL(fileURLWithPath: walk)))
        let robin = root + "/content/animals/robin.md", toad = root + "/content/animals/toad.md"
        try (String(contentsOfFile: robin, encoding: .utf8) + "\nMore.\n").writeReplacing(toFile: robin)
        #expect(try build(root: root, output: output).inputChanges == InputChanges(modified: ["content/animals/robin.md"]))
        // Killed after the swap: the first build's fingerprint and walk beside the second's output.
        try oldState.write(to: URL(fileURLWithPath: state))
        try oldWalk.write(to: URL(fileURLWithPath: walk))
        try (String(contentsOfFile: toad, encoding: .utf8) + "\nMore.\n").writeReplacing(toFile: toad)
        let afterKill = try build(root: root, output: output)
        #expect(!afterKill.upToDate && afterKill.inputChanges == nil, "\(String(describing: afterKill.inputChanges))")
        // A fingerprint recorded beside the walk of another build.
        try oldWalk.write(to: URL(fileURLWithPath: walk))
        try (String(contentsOfFile: toad, encoding: .utf8) + "\nAgain.\n").writeReplacing(toFile: toad)
        #expect(try build(root: root, output: output).inputChanges == nil)
        // And the next build, with both its own again, names what changed.
        try (String(contentsOfFile: robin, encoding: .utf8) + "\nAgain.\n").writeReplacing(toFile: robin)
        #expect(try build(root: root, output: output).inputChanges == InputChanges(modified: ["content/animals/robin.md"]))
    }

    /// A failed build leaves the record of the output's own build: the next one names everything
    /// changed since, not since the failure.
    @Test func aFailedBuildKeepsTheChangesSinceTheOutputsBuild() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: dir)
        let output = dir.appending("out")
        try build(root: root, output: output)
        let toad = root + "/content/animals/toad.md", robin = root + "/content/animals/robin.md"
        let text = try String(contentsOfFile: toad, encoding: .utf8)
        try "---\nname: [broken\n---\n".writeReplacing(toFile: toad)
        #expect(throws: (any Error).self) { try build(root: root, output: output) }
        try text.writeReplacing(toFile: toad)
        try (String(contentsOfFile: robin, encoding: .utf8) + "\nMore.\n").writeReplacing(toFile: robin)
        #expect(try build(root: root, output: output).inputChanges == InputChanges(modified: ["content/animals/robin.md", "content/animals/toad.md"]))
    }
}
