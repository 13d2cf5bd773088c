@testable import BestiarySite
import BestiaryWikipedia
import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// What the preview's memo keeps of media files between builds: what the media stage read of a
/// file is taken again by the file's metadata, but not when the file changed in the 2 s before
/// the build began (on a file system with a coarse clock it could change again and keep its
/// metadata), and the load stage takes the file's format from it.
@Suite struct BuildMemoTests {
    /// A copy of the Tux Paint site whose sounds and pictures all have the time `changed`; its
    /// `content/` folder, with a slash.
    func siteWithSettledMedia(_ dir: TemporaryDirectory, changed: Date) throws -> String {
        let content = try copyOfFixture("tuxpaint", into: dir) + "/content/"
        for folder in ["sounds", "images"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: content + folder) {
                try FileManager.default.setAttributes([.modificationDate: changed], ofItemAtPath: content + folder + "/" + name)
            }
        }
        return content
    }

    @Test func mediaChangedJustBeforeABuildIsNotKept() throws {
        let dir = TemporaryDirectory()
        let content = try siteWithSettledMedia(dir, changed: Date().addingTimeInterval(-3600))
        let root = String(content.dropLast("/content/".count))
        let fm = FileManager.default
        // Changed just now: its bytes as they are, with a new time.
        try fm.setAttributes([.modificationDate: Date()], ofItemAtPath: content + "sounds/bear.ogg")
        let catalog = try #require(ContentLoader(root: root).load().catalog)
        let memo = BuildMemo()
        memo.begin(started: Date())
        let fs = LocalFileSystem()
        let plan = try MediaPlanner.plan(catalog, fileSystem: fs, memo: memo)
        #expect(plan["sounds/bear.ogg"] != nil && plan["images/bear.png"] != nil)

        let picture = try #require(fs.infoFollowingLinks(content + "images/bear.png"))
        #expect(memo.mediaRecord("images/bear.png", info: picture) == plan["images/bear.png"])
        #expect(memo.mediaFormat("images/bear.png", info: picture) == .png)
        let sound = try #require(fs.infoFollowingLinks(content + "sounds/bear.ogg"))
        #expect(memo.mediaRecord("sounds/bear.ogg", info: sound) == nil, "changed just before the build: not kept")
        #expect(memo.mediaFormat("sounds/bear.ogg", info: sound) == nil)

        // Another build more than 2 s after the change keeps it.
        try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: content + "sounds/bear.ogg")
        memo.begin(started: Date())
        _ = try MediaPlanner.plan(catalog, fileSystem: fs, memo: memo)
        let settled = try #require(fs.infoFollowingLinks(content + "sounds/bear.ogg"))
        #expect(memo.mediaFormat("sounds/bear.ogg", info: settled) == .ogg)
    }

    /// A file replaced between the load and media stages by one of another format, under a time
    /// it kept (`mv`, `rsync -t`): what the media stage read is not kept, neither by the memo nor
    /// in the file facts, so the next build looks at its bytes again.
    @Test func aFileThatChangedFormatMeanwhileIsNotKept() throws {
        let dir = TemporaryDirectory()
        let hourAgo = Date().addingTimeInterval(-3600)
        let content = try siteWithSettledMedia(dir, changed: hourAgo)
        let root = String(content.dropLast("/content/".count))
        let fm = FileManager.default
        let catalog = try #require(ContentLoader(root: root).load().catalog)
        #expect(catalog.mediaFiles["images/bear.png"]?.format == .png)
        // A GIF put in its place, with the time the PNG had.
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}\u{0};".utf8).write(to: URL(fileURLWithPath: content + "images/.bear.new"))
        #expect(rename(content + "images/.bear.new", content + "images/bear.png") == 0)
        try fm.setAttributes([.modificationDate: hourAgo], ofItemAtPath: content + "images/bear.png")

        let memo = BuildMemo()
        memo.begin(started: Date())
        let fs = LocalFileSystem()
        _ = try MediaPlanner.plan(catalog, fileSystem: fs, memo: memo)
        let replaced = try #require(fs.infoFollowingLinks(content + "images/bear.png"))
        #expect(memo.mediaFormat("images/bear.png", info: replaced) == nil)
        let other = try #require(fs.infoFollowingLinks(content + "images/badger.png"))
        #expect(memo.mediaFormat("images/badger.png", info: other) == .png)

        let facts = FileFacts(tool: "test", keyPrefix: "")
        _ = try MediaPlanner.plan(catalog, fileSystem: fs, facts: facts)
        let kept = facts.infos()
        #expect(kept[content + "images/bear.png"] == nil)
        #expect(kept[content + "images/badger.png"] == other)
    }

    /// A sound with bytes after its Ogg stream's end is whole (``MediaProblem/leavesWhole``): what
    /// the media stage read of it is kept like any file's, with its warning. One cut short never
    /// is, so every build reads it again and says so.
    @Test func aWholeSoundWithBytesAfterItIsKeptAndACutOneIsNot() throws {
        let dir = TemporaryDirectory()
        let hourAgo = Date().addingTimeInterval(-3600)
        let content = try siteWithSettledMedia(dir, changed: hourAgo)
        let root = String(content.dropLast("/content/".count))
        let fm = FileManager.default
        let bear = try Data(contentsOf: URL(fileURLWithPath: content + "sounds/bear.ogg"))
        try (bear + Data("\n".utf8)).write(to: URL(fileURLWithPath: content + "sounds/bear.ogg"))
        let badger = try Data(contentsOf: URL(fileURLWithPath: content + "sounds/badger.ogg"))
        try badger.prefix(badger.count / 2).write(to: URL(fileURLWithPath: content + "sounds/badger.ogg"))
        for name in ["bear", "badger"] { try fm.setAttributes([.modificationDate: hourAgo], ofItemAtPath: content + "sounds/\(name).ogg") }
        let catalog = try #require(ContentLoader(root: root).load().catalog)
        #expect(catalog.mediaFiles["sounds/bear.ogg"] != nil && catalog.mediaFiles["sounds/badger.ogg"] != nil)

        let facts = FileFacts(tool: "test", keyPrefix: "")
        let warnings = try MediaPlanner.planAndWarn(catalog, fileSystem: LocalFileSystem(), facts: facts).warnings
        let kept = facts.infos()
        #expect(kept[content + "sounds/bear.ogg"] != nil, "whole, with a byte after it: kept")
        #expect(kept[content + "sounds/badger.ogg"] == nil, "cut short: never kept")
        let said = warnings.map(\.message)
        #expect(said.contains { $0.hasPrefix("sound 'sounds/bear.ogg': the file has 1 byte after its last Ogg page") }, "\(said)")
        #expect(said.contains { $0.hasPrefix("sound 'sounds/badger.ogg': the file is cut short") }, "\(said)")
    }

    /// The preview's first build keeps the Wikipedia cache's entries whole in its memo (under the
    /// digest of its walk's listing of the cache), so that the first rebuild after an edit takes
    /// them as they are instead of reading every entry again; the rebuild's output is a fresh
    /// build's.
    @Test func thePreviewsFirstBuildKeepsTheWikipediaCacheWhole() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("tuxpaint", into: dir)
        try cacheHaushund(root: root, requested: "Haushund")
        // Every file settled (changed more than 2 s before the build).
        let hourAgo = Date().addingTimeInterval(-3600)
        let fm = FileManager.default
        let wikipedia = root + "/content/wikipedia"
        for name in try #require(fm.subpathsOfDirectory(atPath: wikipedia) as [String]?) {
            try fm.setAttributes([.modificationDate: hourAgo], ofItemAtPath: wikipedia + "/" + name)
        }
        var options = BuildOptions(root: root, output: dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let memo = BuildMemo()
        _ = try SiteBuilder(options: options, memo: memo).build()
        #expect(memo.wikipedia.keepsWhole, "kept whole by the first build")

        let record = root + "/content/animals/bear.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try (text + "\nEdited.\n").writeReplacing(toFile: record)
        _ = try SiteBuilder(options: options, memo: memo).build()
        #expect(memo.wikipedia.keepsWhole, "and by the rebuild, which took them")
        var fresh = options
        fresh.output = dir.appending("fresh")
        fresh.force = true
        _ = try SiteBuilder(options: fresh).build()
        #expect(try Tree(dir.appending("out")).differences(from: Tree(dir.appending("fresh"))) == [])
    }

    /// The preview's update takes the media links in a folder that kept its stamp from the walk's
    /// metadata of their media files, without looking at each (63,665 `lstat` calls per rebuild
    /// of the bench corpus); a link removed by hand is linked again all the same.
    @Test func thePreviewsLinksInAStampedFolderAreNotLookedAt() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("tuxpaint", into: dir)
        let output = dir.appending("out")
        let fs = CountingFileSystem(watching: "/out/media/")
        var options = BuildOptions(root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: fs)
        options.recordsPackVersions = false
        let memo = BuildMemo()
        let record = root + "/content/animals/bear.md"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        var edits = 0
        /// A record edited (each time another text), the clock's resolution waited out (a folder
        /// changed within it is not stamped), and a rebuild.
        func rebuild(settling: Bool = true) throws -> BuildReport {
            edits += 1
            try (text + "\nEdit \(edits).\n").writeReplacing(toFile: record)
            if settling { Thread.sleep(forTimeInterval: FolderStampTesting.settling) }
            return try SiteBuilder(options: options, memo: memo).build()
        }
        _ = try SiteBuilder(options: options, memo: memo).build()
        _ = try rebuild()  // the first update stamps the folder
        let before = fs.infos
        #expect(try rebuild().changedOutputs?.contains("animals/bear/index.html") == true)
        #expect(fs.infos == before, "no media link looked at")

        let link = try #require(try FileManager.default.contentsOfDirectory(atPath: output + "/media").first)
        // Removed by hand: the folder's time moves on (and is left so).
        try FileManager.default.removeItem(atPath: output + "/media/" + link)
        #expect(try rebuild(settling: false).changedOutputs?.contains("media/" + link) == true, "linked again")
        #expect(FileManager.default.fileExists(atPath: output + "/media/" + link))
    }

    /// A copy of the Tux Paint site built once by a one-shot build into `out`, and the options
    /// of a preview of it (its own base URL, no pack versions recorded).
    struct BuiltSite {
        let dir = TemporaryDirectory()
        let root: String
        var output: String { dir.appending("out") }

        init() throws {
            root = try copyOfFixture("tuxpaint", into: dir)
            try build(root: root, output: dir.appending("out"))
        }

        func previewOptions(fileSystem: any FileSystem = LocalFileSystem()) -> BuildOptions {
            var options = BuildOptions(
                root: root, output: output, baseURL: "http://127.0.0.1:8000/", environment: ["SOURCE_DATE_EPOCH": "1767225600"],
                fileSystem: fileSystem, time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
            options.recordsPackVersions = false
            return options
        }

        /// Whether the output is what the preview makes in an empty folder.
        func isAFreshPreviews() throws -> Bool {
            var options = previewOptions()
            options.output = dir.appending("fresh")
            _ = try SiteBuilder(options: options, memo: BuildMemo()).build()
            return try Tree(output).differences(from: Tree(dir.appending("fresh"))) == []
        }
    }

    /// A preview that starts on an output a one-shot build left (whose pages name the site's
    /// base_url, the preview's its own server) updates it in place from that build's record: no
    /// media file is linked again, a page changed by hand is made again, a file put at the top by
    /// hand stays, and the output is what the preview makes in an empty folder. The record no
    /// longer describes the output and is gone.
    @Test func thePreviewUpdatesABuildsOutputInPlace() throws {
        let site = try BuiltSite()
        let output = site.output
        let fm = FileManager.default
        let bear = output + "/animals/bear/index.html"
        try "changed by hand".writeReplacing(toFile: bear)
        // A file whose bytes are the same in a build's output and the preview's.
        let stylesheet = "assets/css/" + (try #require(try fm.contentsOfDirectory(atPath: output + "/assets/css").sorted().first))
        let styles = try Data(contentsOf: URL(fileURLWithPath: output + "/" + stylesheet))
        try "changed by hand".writeReplacing(toFile: output + "/" + stylesheet)
        try "quiz.example.org".writeReplacing(toFile: output + "/CNAME")
        // Links made anywhere in the test's folder (a staging folder beside the output included).
        let fs = CountingFileSystem(watching: String(output.dropLast("out".count)))
        let report = try SiteBuilder(options: site.previewOptions(fileSystem: fs), memo: BuildMemo()).build()
        #expect(fs.links == 0, "media files linked again: \(fs.links)")
        let changed = try #require(report.changedOutputs)
        #expect(changed.contains("animals/bear/index.html"))
        #expect(changed.contains(stylesheet))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/" + stylesheet)) == styles)
        #expect(!changed.contains { $0.hasPrefix("media/") || $0.hasPrefix("packs/media/") })
        #expect(try String(contentsOfFile: bear, encoding: .utf8).contains("http://127.0.0.1:8000/"))
        #expect(fm.fileExists(atPath: output + "/CNAME"))
        #expect(!fm.fileExists(atPath: OutputRecord.path(OutputWriter(fileSystem: LocalFileSystem(), output: output))))

        try fm.removeItem(atPath: output + "/CNAME")
        #expect(try site.isAFreshPreviews())
    }

    /// A one-shot build's output that the preview's first build cannot update in place (its
    /// folders read-only for a user who is not root: here, every write into it fails) is written
    /// anew with the swap, as before the build's record was read, and the build succeeds.
    @Test func aBuildsOutputThatCannotBeUpdatedInPlaceIsWrittenAnew() throws {
        let site = try BuiltSite()
        final class ReadOnlyOutput: PassingFileSystem, @unchecked Sendable {
            let output: String
            init(output: String) { self.output = output }
            override func writeNew(_ data: Data, to path: String) throws {
                if path.hasPrefix(output + "/") { throw FileSystemError(operation: "write", path: path, reason: "Permission denied", code: EACCES) }
                try base.writeNew(data, to: path)
            }
        }
        let report = try SiteBuilder(options: site.previewOptions(fileSystem: ReadOnlyOutput(output: site.output)), memo: BuildMemo()).build()
        #expect(report.changedOutputs == nil, "written whole")
        #expect(try site.isAFreshPreviews())
    }

    /// A preview session leaves the record of the output as it last wrote it: the one-shot
    /// build after it renders every page again (another base URL) but updates the output as a
    /// rebuild does (the output it replaced is kept as the spare: the full build's path deletes
    /// it), and makes what a build from nothing makes. A session that holds no output leaves none.
    @Test func theBuildAfterAPreviewUpdatesItsOutput() throws {
        let site = try BuiltSite()
        let (dir, root, output) = (site.dir, site.root, site.output)
        let options = site.previewOptions()
        let memo = BuildMemo()
        _ = try SiteBuilder(options: options, memo: memo).build()
        let bear = root + "/content/animals/bear.md"
        try (try String(contentsOfFile: bear, encoding: .utf8) + "\nSeen in the preview.\n").writeReplacing(toFile: bear)
        _ = try SiteBuilder(options: options, memo: memo).build()
        let writer = OutputWriter(fileSystem: LocalFileSystem(), output: output)
        let fm = FileManager.default
        #expect(!fm.fileExists(atPath: OutputRecord.path(writer)))

        SiteBuilder.recordPreviewOutput(BuildMemo(), options: options)
        #expect(!fm.fileExists(atPath: OutputRecord.path(writer)), "a session that wrote nothing leaves no record")
        SiteBuilder.recordPreviewOutput(memo, options: options)
        let record = try #require(OutputRecord.load(writer, tool: BuildState(options: options).tool))
        #expect(record.index.entries.count > 400 && record.digests.isEmpty && record.spare == nil)

        var oneShot = BuildOptions(
            root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        oneShot.recordsPackVersions = false
        let builder = SiteBuilder(options: oneShot)
        let report = try builder.build()
        #expect(report.pagesReused == 0)
        #expect(builder.diagnostics.items.filter { $0.stage == "write" }.isEmpty, "\(builder.diagnostics.items.filter { $0.stage == "write" })")
        #expect(fm.fileExists(atPath: writer.sparePath), "the preview's output kept as the spare")
        #expect(try String(contentsOfFile: output + "/animals/bear/index.html", encoding: .utf8).contains("Seen in the preview."))
        try build(root: root, output: dir.appending("fresh"), force: true)
        #expect(try Tree(output).differences(from: Tree(dir.appending("fresh"))) == [])
        // The next edit's rebuild takes the other pages as they are.
        try (try String(contentsOfFile: bear, encoding: .utf8) + "\nAnd after it.\n").writeReplacing(toFile: bear)
        #expect(try build(root: root, output: output).pagesReused > 100)

        // A record is for the folder the session wrote: not for one put in its place.
        let later = BuildMemo()
        _ = try SiteBuilder(options: options, memo: later).build()
        try fm.moveItem(atPath: output, toPath: dir.appending("moved"))
        try fm.copyItem(atPath: dir.appending("moved"), toPath: output)
        SiteBuilder.recordPreviewOutput(later, options: options)
        #expect(!fm.fileExists(atPath: OutputRecord.path(writer)), "no record for a copy put in the output's place")
    }

    /// The preview looks up the Wikipedia summaries of the animals an edit changed, and takes the
    /// others' from its last build while the cache is as it was. An entry changed makes it look up
    /// every animal again; a file in the cache changed just before a build (it could change again
    /// and keep its metadata) makes it keep nothing; an animal with a refused title is looked up
    /// each time (the refusal's file is read, and `.pending/` may be a link the walk does not go
    /// into). After each rebuild the output and the enrich stage's warnings are a fresh build's.
    @Test func thePreviewLooksUpOnlyTheEditedAnimalsSummaries() throws {
        let dir = TemporaryDirectory()
        let root = try copyOfFixture("tuxpaint", into: dir)
        let dog = root + "/content/animals/dog.md"
        let dogText = try String(contentsOfFile: dog, encoding: .utf8)
        func title(_ title: String, above: String = "") throws {
            try dogText.replacingOccurrences(of: "group: mammal\n", with: "group: mammal\n\(above)wikipedia: {de: \(title)}\n")
                .writeReplacing(toFile: dog)
        }
        try title("Haushund")
        try cacheHaushund(root: root, requested: "Haushund")
        let wikipedia = root + "/content/wikipedia"
        let elsewhere = dir.appending("pending")
        let fm = FileManager.default
        /// Every file in the cache (and in the folder `.pending` may lead to) changed an hour ago.
        func settle() throws {
            let hourAgo = Date().addingTimeInterval(-3600)
            for folder in [wikipedia, elsewhere] where fm.fileExists(atPath: folder) {
                for name in try fm.subpathsOfDirectory(atPath: folder) {
                    try fm.setAttributes([.modificationDate: hourAgo], ofItemAtPath: folder + "/" + name)
                    // A link's own time too (the walk sees the link).
                    var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
                    #expect(utimensat(AT_FDCWD, folder + "/" + name, &times, AT_SYMLINK_NOFOLLOW) == 0)
                }
            }
        }
        try settle()
        var options = BuildOptions(root: root, output: dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let memo = BuildMemo()
        let animals = try #require(ContentLoader(root: root).load().catalog).animals.count
        /// A rebuild with the memo; its enrich stage's warnings.
        func rebuild() throws -> [Diagnostic] {
            let builder = SiteBuilder(options: options, memo: memo)
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.stage == "enrich" }
        }
        /// Whether a build from nothing makes the same output and enrich warnings (byte for byte).
        func isFresh(_ warnings: [Diagnostic]) throws -> Bool {
            var fresh = options
            fresh.output = dir.appending("fresh")
            fresh.force = true
            let builder = SiteBuilder(options: fresh)
            _ = try builder.build()
            let bytes = { (d: [Diagnostic]) in d.map { Array(DiagnosticFormatter.text($0).utf8) } }
            return try Tree(dir.appending("out")).differences(from: Tree(dir.appending("fresh"))) == []
                && bytes(builder.diagnostics.items.filter { $0.stage == "enrich" }) == bytes(warnings)
        }
        let dogPage = dir.appending("out") + "/de/animals/dog/index.html"
        let bear = root + "/content/animals/bear.md"
        let bearText = try String(contentsOfFile: bear, encoding: .utf8)
        var bearEdits = 0
        func editBear() throws {
            bearEdits += 1
            try (bearText + "\nEdit \(bearEdits).\n").writeReplacing(toFile: bear)
        }
        _ = try rebuild()
        #expect(memo.enrich.lookedUp == animals && memo.enrich.holds)
        #expect(try String(contentsOfFile: dogPage, encoding: .utf8).contains("Haushund"))

        // Another record's text edited: no lookup reads it, so none is made again (the dog's
        // summary taken as it was).
        try editBear()
        var warnings = try rebuild()
        #expect(memo.enrich.lookedUp == 0)
        #expect(try isFresh(warnings))

        // The entry's text changed (and settled): every animal looked up again, the new text shown.
        let cache = WikipediaCache(root: root)
        var entry = try #require(cache.load().entry(language: "de", title: "Haushund"))
        entry.extract = "Der Haushund, neu gefasst."
        entry.extractHTML = "<p>Der Haushund, neu gefasst.</p>"
        try cache.write(entry)
        try settle()
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == animals)
        #expect(try String(contentsOfFile: dogPage, encoding: .utf8).contains("neu gefasst"))
        #expect(try isFresh(warnings))

        // A refusal a fetch wrote just before the build: nothing kept, then kept again once settled.
        cache.recordRefusal("the article was deleted", language: "de", title: "Wolf")
        let refusal = try #require(fm.subpathsOfDirectory(atPath: wikipedia).first { $0.hasSuffix(".refused") })
        try markJustChanged(wikipedia + "/" + refusal)
        _ = try rebuild()
        #expect(!memo.enrich.holds, "a cache file changed just before the build: nothing kept")
        try settle()
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == animals && memo.enrich.holds)
        #expect(try isFresh(warnings))

        // `.pending/de` made a link to a folder elsewhere, then a refusal of the dog's title written
        // through it, which no listing of the cache shows: the dog is looked up again all the same.
        try fm.moveItem(atPath: wikipedia + "/.pending/de", toPath: elsewhere)
        try fm.createSymbolicLink(atPath: wikipedia + "/.pending/de", withDestinationPath: elsewhere)
        try settle()
        _ = try rebuild()
        cache.recordRefusal("the article was deleted", language: "de", title: "Haushund")
        try editBear()
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == 1)
        #expect(warnings.contains { $0.message.contains("the article was deleted") })
        #expect(try isFresh(warnings))

        // The dog's title changed to one not cached: the dog looked up again, its summary gone.
        try title("Hund")
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == 1)
        #expect(try !String(contentsOfFile: dogPage, encoding: .utf8).contains("neu gefasst"))
        #expect(try isFresh(warnings))
        // A line put above the title: the warning names its new line.
        try title("Hund", above: "scientific: Canis familiaris\n")
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == 1)
        #expect(try isFresh(warnings))

        // The title respelled in another Unicode form (a decomposed ü, which Swift's `==` takes as
        // the same text): the warning that quotes it quotes it as it is written now.
        func warns(quoting spelling: String) throws -> Bool {
            try title(spelling)
            return try rebuild().contains { Data($0.message.utf8).range(of: Data("'\(spelling)'".utf8)) != nil }
        }
        #expect(try warns(quoting: "H\u{FC}nd"))
        #expect(memo.enrich.lookedUp == 1)
        #expect(try warns(quoting: "Hu\u{308}nd"))
        #expect(memo.enrich.lookedUp == 1)

        // Nothing looked up again, but the dog (and its warning) gone: the stage's result is made
        // again from the others' lookups, not taken whole.
        try fm.removeItem(atPath: dog)
        warnings = try rebuild()
        #expect(memo.enrich.lookedUp == 0)
        #expect(try isFresh(warnings))
        #expect(!warnings.contains { $0.message.contains("nd'") })
    }
}
