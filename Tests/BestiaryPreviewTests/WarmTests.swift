import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

/// A preview that starts on an output an earlier session left up to date serves it at once (its
/// first build stops at the no-op check). `warm()` then builds the site in memory and, while the
/// output holds exactly those files, writes nothing, so that the first edit rebuilds only what it
/// changes, and leaves what a fresh build makes.
@Suite struct WarmTests {
    static let environment = ["SOURCE_DATE_EPOCH": "1767225600"]

    /// Every file below `folder` by path, with its inode: what was written again shows.
    static func inodes(_ folder: String) throws -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        let fs = LocalFileSystem()
        for path in try Tree(folder).paths { result[path] = fs.info(folder + "/" + path)?.inode }
        return result
    }

    /// A session builds the site into `output`; a second one (a new rebuilder, its memo empty)
    /// starts on it: its first build finds it up to date.
    static func secondSession(root: String, output: String) throws -> SiteRebuilder {
        try Fixtures.copy("sites/tuxpaint", to: root)
        _ = try SiteRebuilder(options: BuildOptions(root: root, output: output, environment: environment)).rebuild(changes: [.everything])
        let rebuilder = SiteRebuilder(options: BuildOptions(root: root, output: output, environment: environment))
        #expect(try rebuilder.rebuild(changes: [.everything]).upToDate)
        #expect(!rebuilder.memo.holdsOutput(of: output))
        return rebuilder
    }

    static func expectFresh(_ dir: TemporaryDirectory, root: String, output: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var options = BuildOptions(root: root, output: dir.appending("fresh"), environment: environment)
        options.recordsPackVersions = false
        options.force = true
        _ = try SiteBuilder(options: options).build()
        #expect(try Tree(output).differences(from: Tree(dir.appending("fresh"))) == [], sourceLocation: sourceLocation)
    }

    /// A session's end (``SiteRebuilder/finish()``) leaves the record of its output beside it,
    /// which the `bestiary build` after it reads.
    @Test func aFinishedSessionLeavesARecordOfItsOutput() throws {
        let dir = TemporaryDirectory("bestiary-warm")
        let root = dir.appending("site"), output = dir.appending("out")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let rebuilder = SiteRebuilder(options: BuildOptions(root: root, output: output, environment: Self.environment))
        _ = try rebuilder.rebuild(changes: [.everything])
        let record = dir.appending(".out.bestiary-index")
        #expect(!FileManager.default.fileExists(atPath: record))
        rebuilder.finish()
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.hasPrefix("bestiary-output-index ") && text.contains("\nanimals/bear/index.html\t"))
    }

    @Test func theFirstEditAfterStartingOnAnUpToDateOutputRebuildsOnlyWhatItChanges() throws {
        let dir = TemporaryDirectory("bestiary-warm")
        let root = dir.appending("site"), output = dir.appending("out")
        let rebuilder = try Self.secondSession(root: root, output: output)
        let before = try Self.inodes(output)

        let warmed = try #require(try rebuilder.warm())
        #expect(warmed.changedOutputs == [], "the output was written: \(warmed.changedOutputs.map { "\($0.count) files" } ?? "all")")
        #expect(try Self.inodes(output) == before)
        #expect(rebuilder.memo.holdsOutput(of: output))
        #expect(try rebuilder.warm() == nil)
        // The state still says the output is up to date: a third session starts on it as this one did.
        #expect(try SiteRebuilder(options: BuildOptions(root: root, output: output, environment: Self.environment)).rebuild(changes: [.everything]).upToDate)

        let bear = root + "/content/animals/bear.md"
        let text = try String(contentsOfFile: bear, encoding: .utf8)
        try text.replacingOccurrences(of: "name: {en: Bear, de: Bär}", with: "name: {en: Brown bear, de: Braunbär}")
            .writeReplacing(toFile: bear)
        let edited = try rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/bear.md")])
        let changed = try #require(edited.changedOutputs)
        #expect(changed.contains("animals/bear/index.html"))
        #expect(!changed.contains("animals/crow/index.html"))
        #expect(changed.count < before.count / 4, "\(changed.count) of \(before.count) files written")
        #expect(rebuilder.memo.pagesReused > 0)
        try Self.expectFresh(dir, root: root, output: output)
    }

    /// Without SOURCE_DATE_EPOCH too, as a user runs it: the packs' times came from the clock, so
    /// the output never held what the second session makes and was written anew on every start
    /// ("rebuilt … after changes everywhere"), and every rebuild rewrote latest.json. The two
    /// sessions three hours apart on one day (a clock of their own: no midnight in between).
    @Test func aSecondSessionTakesTheOutputAsItIsWithoutAFixedTime() throws {
        let dir = TemporaryDirectory("bestiary-warm")
        let root = dir.appending("site"), output = dir.appending("out")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let noon = Date(timeIntervalSince1970: 1_767_268_800)  // 2026-01-01 12:00 UTC
        func session(at time: Date) -> SiteRebuilder {
            SiteRebuilder(options: BuildOptions(root: root, output: output, environment: [:], time: FixedTimeSource(time)))
        }
        _ = try session(at: noon).rebuild(changes: [.everything])
        let rebuilder = session(at: noon.addingTimeInterval(3 * 3600))
        #expect(try rebuilder.rebuild(changes: [.everything]).upToDate)
        let before = try Self.inodes(output)
        let warmed = try #require(try rebuilder.warm())
        #expect(warmed.changedOutputs == [], "the output was written: \(warmed.changedOutputs.map { "\($0.count) files" } ?? "all")")
        #expect(try Self.inodes(output) == before)
    }

    /// An output changed by hand since (a page, a file added) is not taken as it is: it is
    /// written anew, as the preview's first build does, and then holds what a fresh build makes.
    @Test(arguments: ["a page changed", "a page changed, same size", "a file added"])
    func anOutputChangedByHandIsWrittenAnew(change: String) throws {
        let dir = TemporaryDirectory("bestiary-warm")
        let root = dir.appending("site"), output = dir.appending("out")
        let rebuilder = try Self.secondSession(root: root, output: output)
        // Not an input: the no-op check does not see it, the warm-up's comparison does.
        let crow = output + "/animals/crow/index.html"
        if change == "a page changed" {
            try "defaced".write(toFile: crow, atomically: false, encoding: .utf8)
        } else if change == "a page changed, same size" {
            let page = try String(contentsOfFile: crow, encoding: .utf8)
            #expect(page.contains("<html"))
            try page.replacingOccurrences(of: "<html", with: "<HTML").write(toFile: crow, atomically: false, encoding: .utf8)
        } else {
            try "stray".write(toFile: output + "/animals/crow/notes.txt", atomically: false, encoding: .utf8)
        }
        let warmed = try #require(try rebuilder.warm())
        #expect(warmed.changedOutputs != [])
        #expect(rebuilder.memo.holdsOutput(of: output))
        try Self.expectFresh(dir, root: root, output: output)
    }
}
