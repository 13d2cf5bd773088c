import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiarySite

/// A rebuild whose spare (the output the last build replaced) still has every folder as it was
/// when it was complete does not walk it: it lists only its top folder and the folders that had
/// just changed then, and knows the rest from the record (where the spare differs from the
/// output). Whatever changed in the spare since is found by its folders' times, and the output is
/// always a build from nothing's.
@Suite struct SpareFolderTests {
    typealias Site = IncrementalBuildTests.Site

    /// The stamps of every folder below the output and the spare taken again once the clock's
    /// resolution has passed, as a build long past would have left them (a test's builds follow
    /// each other within the time a folder needs to count as settled). Setting the folders' times
    /// back would not do: that gives them a new change time.
    func settle(_ s: Site) throws {
        let writer = OutputWriter(fileSystem: LocalFileSystem(), output: s.output)
        for (top, stampsPath) in [(s.output, writer.foldersPath), (writer.sparePath, writer.spareFoldersPath)] {
            let folders = try Self.folders(below: top)
            Thread.sleep(forTimeInterval: FolderStampTesting.settling)
            let identity = try #require(OutputRecord.folderIdentity(of: top, LocalFileSystem()))
            let stamps = try #require(FolderStamps.take(below: top, folders: folders, fileSystem: LocalFileSystem()))
            #expect(stamps.recent.isEmpty && stamps.settled.count == folders.count)
            FolderStamps.save(stamps, stampsPath, folder: identity, fileSystem: LocalFileSystem())
        }
    }

    static func folders(below top: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: top))
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: top + "/" + path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// Folders below `top` that hold nothing (a build from nothing makes none).
    static func emptyFolders(below top: String) throws -> [String] {
        try folders(below: top).filter { try FileManager.default.contentsOfDirectory(atPath: top + "/" + $0).isEmpty }
    }

    /// Builds with a file system that counts what is asked of the staging folder.
    func countedStep(_ s: Site, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> CountingFileSystem {
        let counting = CountingFileSystem(watching: ".out.bestiary-staging-")
        try s.step(sourceLocation: sourceLocation) {
            try change()
            #expect(try build(root: s.root, output: s.output, fileSystem: counting).pagesReused > 0, sourceLocation: sourceLocation)
        }
        return counting
    }

    @Test func aSpareWhoseFoldersHoldIsNotWalked() throws {
        let s = try Site()
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        let folders = try Self.folders(below: s.output).count
        #expect(folders > 100)

        try settle(s)
        let known = try countedStep(s) { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        #expect(known.listings == 1, "only the top folder is listed: \(known.listings)")

        // The same, with an animal gone (its folders go) and one added (new folders).
        try settle(s)
        let removal = try countedStep(s) { try FileManager.default.removeItem(atPath: s.path("content/animals/zebra.md")) }
        #expect(removal.listings == 1)
        #expect(!FileManager.default.fileExists(atPath: s.output + "/animals/zebra"))
        try settle(s)
        try s.step { try s.write("---\nname: {en: Okapi, de: Okapi}\ngroup: mammal\n---\n\nA forest giraffe.\n", "content/animals/okapi.md") }
        try settle(s)
        try s.step { try FileManager.default.removeItem(atPath: s.path("content/animals/okapi.md")) }
        #expect(!FileManager.default.fileExists(atPath: s.output + "/animals/okapi"))
        try settle(s)
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(try Self.emptyFolders(below: s.output) == [])
    }

    /// The stamps a build leaves are what the next-but-one build goes by: once the folders have
    /// settled (each build here takes longer than the stamps' margin), a rebuild lists only the
    /// top folder and the few folders the build before the last changed at its end.
    @Test func theStampsABuildLeavesAreUsed() throws {
        let s = try Site()
        let tags = ["tags: [bears]", "tags: [bears, big]"]
        for i in 0..<4 {
            Thread.sleep(forTimeInterval: 0.15)
            try s.step { try s.edit("content/animals/bear.md", tags[i % 2], tags[(i + 1) % 2]) }
        }
        Thread.sleep(forTimeInterval: 0.15)
        let counting = try countedStep(s) { try s.edit("content/animals/bear.md", tags[0], tags[1]) }
        let folders = try Self.folders(below: s.output).count
        #expect(counting.listings * 4 < folders, "\(counting.listings) of \(folders) folders listed")
        #expect(try Self.emptyFolders(below: s.output) == [])
    }

    /// A stray file put into a folder of the spare changes that folder's time: the spare is then
    /// walked whole, and the stray never reaches the output. A folder listed as recently changed
    /// is listed by the build, which removes what it holds that is not the output's.
    @Test func whatChangedInTheSpareIsFound() throws {
        let s = try Site()
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        let writer = OutputWriter(fileSystem: LocalFileSystem(), output: s.output)

        try settle(s)
        try "stray".write(toFile: writer.sparePath + "/animals/crow/stray.txt", atomically: false, encoding: .utf8)
        let walked = try countedStep(s) { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(walked.listings > 100, "the spare is walked whole: \(walked.listings) listings")

        // Now the crow's folder is recorded as just changed: it is listed, and a stray there goes.
        try settle(s)
        let spareIdentity = try #require(OutputRecord.folderIdentity(of: writer.sparePath, LocalFileSystem()))
        var stamps = try #require(FolderStamps.load(writer.spareFoldersPath, folder: spareIdentity, fileSystem: LocalFileSystem()))
        stamps.settled["animals/crow"] = nil
        stamps.recent = ["animals/crow"]
        try "stray".write(toFile: writer.sparePath + "/animals/crow/stray.txt", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: writer.sparePath + "/animals/crow/index.html")
        FolderStamps.save(stamps, writer.spareFoldersPath, folder: spareIdentity, fileSystem: LocalFileSystem())
        let listed = try countedStep(s) { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        #expect(listed.listings == 2, "the top folder and the crow's: \(listed.listings)")
        #expect(!FileManager.default.fileExists(atPath: s.output + "/animals/crow/stray.txt"))

        // Stamps of another folder than the spare (the spare replaced by hand) are not used.
        try settle(s)
        let spare = writer.sparePath
        try FileManager.default.moveItem(atPath: spare, toPath: spare + "-moved")
        try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: false)
        try "stray".write(toFile: spare + "/stray.txt", atomically: false, encoding: .utf8)
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(!FileManager.default.fileExists(atPath: s.output + "/stray.txt"))
    }

    /// The stamps' files: what was saved for a folder is read back for that folder only, and a
    /// folder changed just before the stamps were taken is recorded as such.
    @Test func stampsAreKeptForTheirFolder() throws {
        let dir = TemporaryDirectory()
        try dir.write("x", to: "top/a/b/file")
        try dir.write("x", to: "top/c/file")
        let top = dir.appending("top")
        let fs = LocalFileSystem()
        #expect(FolderStamps.folders(of: ["a/b/file", "c/file", "index.html"]) == ["a", "a/b", "c"])
        Thread.sleep(forTimeInterval: FolderStampTesting.settling)
        // Changed "now" whatever the test's pace: a time ahead of the clock.
        for folder in ["a/b", "c"] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: top + "/" + folder)
        }
        let stamps = try #require(FolderStamps.take(below: top, folders: ["a", "a/b", "c"], fileSystem: fs, waitingFor: nil))
        #expect(stamps.settled.keys.sorted() == ["a"])
        #expect(stamps.recent == ["a/b", "c"])
        // Most folders just changed: the clock's resolution is waited out once, and they settle.
        #expect(try #require(FolderStamps.take(below: top, folders: ["a", "a/b", "c"], fileSystem: fs)).recent.count == 2, "too few to wait for")
        for folder in ["a/b", "c"] { try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: top + "/" + folder) }
        let waited = try #require(FolderStamps.take(below: top, folders: ["a", "a/b", "c"], fileSystem: fs, waitingFor: 1))
        #expect(waited.settled.keys.sorted() == ["a", "a/b", "c"] && waited.recent.isEmpty)
        #expect(FolderStamps.take(below: top, folders: ["a", "missing"], fileSystem: fs) == nil)
        let file = dir.appending("stamps")
        FolderStamps.save(stamps, file, folder: "1 2", fileSystem: fs)
        #expect(FolderStamps.load(file, folder: "1 2", fileSystem: fs) == stamps)
        #expect(FolderStamps.load(file, folder: "1 3", fileSystem: fs) == nil)
        #expect(stamps.hold(below: top, fileSystem: fs))
        try dir.write("stray", to: "top/a/stray")
        #expect(!stamps.hold(below: top, fileSystem: fs))
        try FileManager.default.removeItem(atPath: top + "/a/stray")
        #expect(!stamps.hold(below: top, fileSystem: fs), "the stray file went, but the folder changed")
        FolderStamps.save(nil, file, folder: "1 2", fileSystem: fs)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// A new output's folders are the old output's and those of the files the build wrote, unless
    /// a file went from a folder no written file is in (it may have gone with it): then they are
    /// those of all the new output's files.
    @Test func theFoldersOfANewOutput() {
        let info = FolderInfo(info: FileInfo(kind: .directory, size: 0, modificationTime: 1), changeTime: 1)
        let stamps = FolderStamps(settled: ["assets": info, "animals": info, "animals/bear": info, "animals/zebra": info], recent: [])
        let files = ["assets/catalog.b.json", "animals/bear/index.html", "animals/owl/index.html", "animals/zebra/index.html", "index.html"]
        func folders(written: [String], removed: [String], previous: FolderStamps? = stamps) -> [String] {
            // The new output's files: those it had but what went.
            let new = files.filter { !removed.contains($0) }
            return OutputFolders(previous: previous, files: new, written: written, removed: removed).all.sorted()
        }
        // The catalogue renamed beside the new one, a top file and a new animal's page.
        #expect(folders(written: ["assets/catalog.b.json"], removed: ["assets/catalog.a.json"])
            == ["animals", "animals/bear", "animals/zebra", "assets"])
        #expect(folders(written: ["animals/owl/index.html"], removed: ["sitemap.xml"]) == ["animals", "animals/bear", "animals/owl", "animals/zebra", "assets"])
        // An animal gone: its folder with it.
        #expect(folders(written: ["assets/catalog.b.json"], removed: ["assets/catalog.a.json", "animals/zebra/index.html"])
            == ["animals", "animals/bear", "animals/owl", "assets"])
        #expect(folders(written: [], removed: [], previous: nil) == ["animals", "animals/bear", "animals/owl", "animals/zebra", "assets"])
    }

    /// A tool that changes a folder and then sets its modification time back (`rsync -a`,
    /// `tar -x`, `touch -d`) cannot set its change time: the stamp no longer holds.
    @Test func aFolderWhoseTimeWasSetBackIsNotTrusted() throws {
        let dir = TemporaryDirectory()
        try dir.write("x", to: "top/a/file")
        let top = dir.appending("top")
        let fs = LocalFileSystem()
        Thread.sleep(forTimeInterval: FolderStampTesting.settling)
        let stamps = try #require(FolderStamps.take(below: top, folders: ["a"], fileSystem: fs, waitingFor: nil))
        #expect(stamps.settled.keys.sorted() == ["a"])
        var then = stat()
        #expect(stat(top + "/a", &then) == 0)
        // A file swapped for a stray one of a name as long: the folder's size stays as it was on
        // file systems that count its entries or their names' lengths (tmpfs, btrfs, XFS).
        try FileManager.default.removeItem(atPath: top + "/a/file")
        try dir.write("stray", to: "top/a/filx")
        #expect(utimensat(AT_FDCWD, top + "/a", [then.st_atim, then.st_mtim], 0) == 0)
        #expect(fs.info(top + "/a") == stamps.settled["a"]?.info, "the folder's lstat is as stamped")
        #expect(!stamps.hold(below: top, fileSystem: fs), "its change time is not")
        let again = try #require(FolderStamps.take(below: top, folders: ["a"], fileSystem: fs, waitingFor: nil))
        #expect(again.recent == ["a"], "changed just now, whatever its modification time says")
    }
}
