import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiarySite

/// Records, in order, the renames that put files in place in the output and the removals.
final class OrderingFileSystem: PassingFileSystem, @unchecked Sendable {
    let output: String
    private let lock = NSLock()
    private var recorded: [String] = []

    init(output: String) { self.output = output }

    var events: [String] { lock.withLock { recorded } }
    func reset() { lock.withLock { recorded = [] } }

    private func note(_ what: String, _ path: String) {
        guard path.hasPrefix(output + "/") else { return }
        lock.withLock { recorded.append(what + " " + path.dropFirst(output.count + 1)) }
    }

    override func move(_ source: String, to destination: String) throws {
        try base.move(source, to: destination)
        note("put", destination)
    }

    override func remove(_ path: String) throws {
        try base.remove(path)
        note("remove", path)
    }
}

/// The preview's update in place (``OutputWriter/update(_:previous:unchanged:)``).
@Suite struct InPlaceUpdateTests {
    /// What a file names is there before it: new content-hashed assets before the pages that
    /// name them, new pages before the pages that link them, the old asset removed last. A page
    /// naming a stylesheet not written yet came back unstyled during the preview's rebuilds, and
    /// stayed so after a second Ctrl-C (found by a tester).
    @Test func whatAFileNamesIsThereBeforeIt() throws {
        let work = TemporaryDirectory()
        let output = work.appending("out")
        let fs = OrderingFileSystem(output: output)
        let writer = OutputWriter(fileSystem: fs, output: output)
        let first = try writer.write([
            OutputFile(path: "index.html", text: "<link href=assets/site.1.css>"),
            OutputFile(path: "about/index.html", text: "<link href=../assets/site.1.css>"),
            OutputFile(path: "assets/site.1.css", text: "a"),
            OutputFile(path: "sw.js", text: "assets/site.1.css"),
        ])
        fs.reset()
        let (_, changed) = try writer.update([
            OutputFile(path: "index.html", text: "<link href=assets/site.2.css><a href=new/>"),
            OutputFile(path: "about/index.html", text: "<link href=../assets/site.2.css>"),
            OutputFile(path: "new/index.html", text: "<link href=../assets/site.2.css>"),
            OutputFile(path: "assets/site.2.css", text: "b"),
            OutputFile(path: "sw.js", text: "assets/site.2.css"),
        ], previous: first)
        #expect(changed == ["index.html", "about/index.html", "new/index.html", "assets/site.1.css", "assets/site.2.css", "sw.js"])
        let events = fs.events
        func at(_ event: String) throws -> Int { try #require(events.firstIndex(of: event), "\(event) in \(events)") }
        let asset = try at("put assets/site.2.css"), newPage = try at("put new/index.html"), removal = try at("remove assets/site.1.css")
        for existing in ["put index.html", "put about/index.html", "put sw.js"] {
            let i = try at(existing)
            #expect(asset < i && newPage < i && i < removal, "\(events)")
        }
        #expect(asset < newPage, "\(events)")
        #expect(try work.read("out/about/index.html") == "<link href=../assets/site.2.css>")
        #expect(!work.exists("out/assets/site.1.css"))
    }
    /// The update takes over the previous index and sets only what changed in it: what it
    /// returns is still every file's entry as written, so a link removed or replaced by hand
    /// after one update is linked again by the next, and a file no longer built goes.
    @Test func theIndexTakenOverStaysTrue() throws {
        let work = TemporaryDirectory()
        let output = work.appending("out")
        try work.write("first recording", to: "src/a.ogg")
        try work.write("second recording", to: "src/b.ogg")
        func files(_ page: String, extra: Bool = false) -> [OutputFile] {
            [
                OutputFile(path: "index.html", text: page),
                OutputFile(path: "media/a.ogg", linking: work.appending("src/a.ogg")),
                OutputFile(path: "media/b.ogg", linking: work.appending("src/b.ogg")),
            ] + (extra ? [OutputFile(path: "extra/index.html", text: "extra")] : [])
        }
        let writer = OutputWriter(fileSystem: LocalFileSystem(), output: output)
        let first = try writer.write(files("1"))
        let (second, added) = try writer.update(files("2", extra: true), previous: first)
        #expect(added == ["index.html", "extra/index.html"])
        let (third, removed) = try writer.update(files("3"), previous: second)
        #expect(removed == ["index.html", "extra/index.html"])
        #expect(Set(third.entries.keys) == ["index.html", "media/a.ogg", "media/b.ogg"])
        #expect(!work.exists("out/extra"))

        // By hand: one link removed, the other replaced by a file of other bytes.
        try FileManager.default.removeItem(atPath: output + "/media/a.ogg")
        try FileManager.default.removeItem(atPath: output + "/media/b.ogg")
        try work.write("tampered", to: "out/media/b.ogg")
        let (fourth, repaired) = try writer.update(files("4"), previous: third)
        #expect(repaired == ["index.html", "media/a.ogg", "media/b.ogg"])
        #expect(try work.read("out/media/a.ogg") == "first recording")
        #expect(try work.read("out/media/b.ogg") == "second recording")
        let link = try #require(LocalFileSystem().info(output + "/media/b.ogg")), source = try #require(LocalFileSystem().info(work.appending("src/b.ogg")))
        #expect(link.inode == source.inode, "linked again, not copied")
        // Each entry is the file as it is now: nothing changed, nothing written.
        for (path, entry) in fourth.entries { #expect(LocalFileSystem().info(output + "/" + path) == entry.written, "\(path)") }
        let (_, none) = try writer.update(files("4"), previous: fourth)
        #expect(none == [])
    }

    /// With the walk's metadata of the media files, a link in a folder that kept the stamp the
    /// last update took is not looked at (63,665 `lstat` calls per rebuild of the bench corpus);
    /// a link replaced by hand (the folder's time moves) and a media file written into in place
    /// (its link's bytes with it) are found all the same.
    @Test func linksInAFolderThatKeptItsStampAreNotLookedAt() throws {
        let work = TemporaryDirectory()
        let output = work.appending("out")
        try work.write("first recording", to: "src/a.ogg")
        try work.write("second recording", to: "src/b.ogg")
        func files(_ page: String) -> [OutputFile] {
            [
                OutputFile(path: "index.html", text: page),
                OutputFile(path: "media/a.ogg", linking: work.appending("src/a.ogg")),
                OutputFile(path: "media/b.ogg", linking: work.appending("src/b.ogg")),
            ]
        }
        let fs = CountingFileSystem(watching: "/out/media/")
        let writer = OutputWriter(fileSystem: fs, output: output)
        let walk = { @Sendable (source: String) in LocalFileSystem().info(source) }
        // The clock's resolution waited out (a folder changed within it is not stamped).
        func settleFolder() { Thread.sleep(forTimeInterval: FolderStampTesting.settling) }
        var index = try writer.write(files("1"))
        settleFolder()
        (index, _) = try writer.update(files("2"), previous: index, sources: walk)
        #expect(fs.infos > 0, "no stamp yet: each link looked at")
        let before = fs.infos
        var changed: Set<String>
        (index, changed) = try writer.update(files("3"), previous: index, sources: walk)
        #expect(changed == ["index.html"])
        #expect(fs.infos == before, "the folder kept its stamp: no link looked at")

        // A link replaced by hand by a file of other bytes: the folder has another time.
        try FileManager.default.removeItem(atPath: output + "/media/b.ogg")
        try work.write("tampered", to: "out/media/b.ogg")
        settleFolder()
        (index, changed) = try writer.update(files("4"), previous: index, sources: walk)
        #expect(changed == ["index.html", "media/b.ogg"])
        #expect(try work.read("out/media/b.ogg") == "second recording")

        // Stamped again, then the media file written into in place: its link is the same inode.
        settleFolder()
        (index, _) = try writer.update(files("5"), previous: index, sources: walk)
        (index, changed) = try writer.update(files("6"), previous: index, sources: walk)
        #expect(changed == ["index.html"], "stamped and unchanged")
        let handle = try #require(FileHandle(forWritingAtPath: work.appending("src/a.ogg")))
        try handle.write(contentsOf: Data("FIRST recording, again".utf8))
        try handle.close()
        (index, changed) = try writer.update(files("7"), previous: index, sources: walk)
        #expect(changed == ["index.html", "media/a.ogg"])
        #expect(index.entries["media/a.ogg"]?.written == LocalFileSystem().info(output + "/media/a.ogg"))
        // Stamped again, then a link replaced by a file of other bytes and the folder's time set
        // back, as `rsync -a` or `tar -x` into the output do: its change time moved all the same.
        settleFolder()
        (index, _) = try writer.update(files("8"), previous: index, sources: walk)
        (index, changed) = try writer.update(files("9"), previous: index, sources: walk)
        #expect(changed == ["index.html"], "stamped and unchanged")
        var then = stat()
        #expect(stat(output + "/media", &then) == 0)
        try FileManager.default.removeItem(atPath: output + "/media/b.ogg")
        try work.write("tampered again", to: "out/media/b.ogg")
        #expect(utimensat(AT_FDCWD, output + "/media", [then.st_atim, then.st_mtim], 0) == 0)
        (index, changed) = try writer.update(files("10"), previous: index, sources: walk)
        #expect(changed == ["index.html", "media/b.ogg"])
        #expect(try work.read("out/media/b.ogg") == "second recording")
        // Each entry is the file as it is now.
        for (path, entry) in index.entries { #expect(LocalFileSystem().info(output + "/" + path) == entry.written, "\(path)") }
    }
}
