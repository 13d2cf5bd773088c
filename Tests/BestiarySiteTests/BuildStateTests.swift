import BestiaryContent
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
@testable import BestiarySite
import Foundation
import Testing

/// The byte-level writer of file metadata agrees with the text form the build state and the
/// output record have always used, and the record reads back what it wrote.
struct BuildStateTests {
    static func text(_ info: FileInfo) -> String {
        let kind = ["f", "d", "l", "o"][[FileKind.file, .directory, .symlink, .other].firstIndex(of: info.kind)!]
        return kind + " " + String(info.size) + " " + String(info.modificationTime) + " " + String(info.inode) + " " + String(info.device)
    }

    @Test(arguments: [
        FileInfo(kind: .file, size: 0, modificationTime: 0, inode: 0, device: 0),
        FileInfo(kind: .directory, size: 4096, modificationTime: 1_767_225_600_123_456_789, inode: 1_234_567, device: 2049),
        FileInfo(kind: .symlink, size: 9, modificationTime: -1, inode: UInt64.max, device: UInt64.max),
        FileInfo(kind: .other, size: Int.max, modificationTime: Int64.min, inode: 10, device: 9),
        FileInfo(kind: .file, size: 99, modificationTime: 100, inode: 1, device: 1_000),
        FileInfo(kind: .file, size: 1_000_000_000_000_000_000, modificationTime: -99, inode: 10_000_000_000_000_000_000, device: 909),
    ])
    func describeWritesTheDecimalText(_ info: FileInfo) {
        #expect(BuildState.describe(info) == Self.text(info))
        var bytes: [UInt8] = Array("x".utf8)
        BuildState.describe(info, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + Self.text(info))
        #expect(BuildState.describe(nil) == "-")
    }

    /// The inputs taken again after a build are compared with those before but for what the build
    /// itself wrote (the lock, and `content/`'s own line), which either snapshot may lack.
    @Test func snapshotsAreComparedButForTheBuildsOwnWrites() {
        let own: Set<String> = ["content", "content/packs.lock"]
        let before = ["tool\tx", "content\td 1", "content/animals\td 2", "content/animals/fox.md\tf 3", "templates\t-"]
        var after = before
        after[1] = "content\td 9"
        after.insert("content/packs.lock\tf 4", at: 4)
        #expect(BuildState.same(before, after, except: own))
        #expect(BuildState.same(after, before, except: own))
        var edited = after
        edited[3] = "content/animals/fox.md\tf 5"
        #expect(!BuildState.same(before, edited, except: own), "a record changed")
        #expect(!BuildState.same(before, Array(after.dropLast()), except: own), "a line is missing")
        #expect(!BuildState.same(before, after + ["content/sounds\td 6"], except: own), "a line more")
        #expect(!BuildState.same(["content/packs.lockx\tf 1"], [], except: own), "only whole keys are excepted")
        // The digest kept instead of the lines agrees with the comparison in every case above.
        let digest = { BuildState.digest($0, except: own) }
        #expect(digest(before) == digest(after))
        for other in [edited, Array(after.dropLast()), after + ["content/sounds\td 6"]] { #expect(digest(before) != digest(other)) }
        #expect(digest(["content/packs.lockx\tf 1"]) != digest([]))
    }

    /// The walk lists the regular files below content/ that it reached through real folders,
    /// with their `lstat`: not a link, nothing below a linked folder, not the Wikipedia cache.
    @Test func theWalkListsContentsFilesButNoLinks() throws {
        let dir = TemporaryDirectory()
        try dir.write("---\nname: Fox\n---\n", to: "content/animals/fox.md")
        try dir.write("ogg", to: "content/sounds/fox.ogg")
        try dir.write("{}", to: "content/wikipedia/en/Fox.json")
        try dir.write("notes", to: "content/wikipedia.md")
        try dir.write("elsewhere", to: "elsewhere/owl.ogg")
        try FileManager.default.createSymbolicLink(atPath: dir.appending("content/sounds/owl.ogg"), withDestinationPath: dir.appending("elsewhere/owl.ogg"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending("content/linked"), withDestinationPath: dir.appending("elsewhere"))
        try dir.write("<p>", to: "templates/layouts/animal.html")
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        let files = ListedFiles(try #require(state.snapshot(now: Date(), listing: true).listing?().files))
        let fs = LocalFileSystem()
        for path in ["content/animals/fox.md", "content/sounds/fox.ogg", "content/wikipedia.md"] {
            #expect(files.file(path) != nil && files.file(path) == fs.info(dir.appending(path)), "\(path)")
        }
        for path in ["content/sounds/owl.ogg", "content/linked/owl.ogg", "content/wikipedia/en/Fox.json", "templates/layouts/animal.html", "content/animals"] {
            #expect(files.file(path) == nil, "\(path)")
        }
        #expect(files.count == 3)
    }

    /// The walk names the files and links it found changed at the time asked or later (a link in
    /// templates/ by what it leads to too), not folders, not files changed before.
    @Test func theWalkNamesTheFilesChangedJustBeforeIt() throws {
        let dir = TemporaryDirectory()
        try dir.write("---\nname: Fox\n---\n", to: "content/animals/fox.md")
        try dir.write("---\nname: Owl\n---\n", to: "content/animals/owl.md")
        try dir.write("<p>", to: "templates/layouts/animal.html")
        try dir.write("<nav>", to: "shared/nav.html")
        try FileManager.default.createSymbolicLink(atPath: dir.appending("templates/nav.html"), withDestinationPath: dir.appending("shared/nav.html"))
        let hourAgo = Date().addingTimeInterval(-3600)
        for path in ["content/animals/owl.md", "templates/layouts/animal.html"] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir.appending(path))
        }
        var times = [timespec(tv_sec: Int(hourAgo.timeIntervalSince1970), tv_nsec: 0), timespec(tv_sec: Int(hourAgo.timeIntervalSince1970), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, dir.appending("templates/nav.html"), &times, AT_SYMLINK_NOFOLLOW) == 0, "the link itself is old")
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        let from = FileFacts.nanoseconds(Date()) - FileInfo.racyNanoseconds
        #expect(state.snapshot(now: Date(), listing: false, racyFrom: from).racy == ["content/animals/fox.md", "templates/nav.html"])
        #expect(state.snapshot(now: Date(), listing: false).racy == [], "none asked")
        // Their digests, and whether they still hold what they held.
        let digests = state.digests(of: ["content/animals/fox.md", "content/animals/gone.md"])
        #expect(digests.map(\.text) == [Hashing.sha256Hex(Data("---\nname: Fox\n---\n".utf8)), "-"])
        #expect(state.changedBytes(digests) == [])
        try dir.write("---\nname: Fix\n---\n", to: "content/animals/fox.md")
        #expect(state.changedBytes(digests) == ["content/animals/fox.md"])
    }

    /// A link to what is not a regular file is not read (a pipe's read would never end).
    @Test(.timeLimit(.minutes(1))) func aLinkToAPipeIsNotRead() throws {
        let dir = TemporaryDirectory()
        try dir.write("x", to: "content/animals/fox.md")
        #expect(mkfifo(dir.appending("pipe"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.appending("content/sounds.ogg"), withDestinationPath: dir.appending("pipe"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending("content/folder"), withDestinationPath: dir.appending("content/animals"))
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        #expect(state.digests(of: ["content/sounds.ogg", "content/folder"]).map(\.text) == ["-", "-"])
    }

    /// The state reads back the fingerprint and the racy files it recorded, whatever bytes their
    /// names hold; a state it cannot read is none (the next build is no "up to date").
    @Test func theStateReadsBackWhatItRecorded() throws {
        let dir = TemporaryDirectory()
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        #expect(state.recorded() == nil)
        let digest = Hashing.sha256Hex(Data("fox".utf8))
        let recorded = BuildState.Recorded(fingerprint: String(repeating: "a", count: 64), racy: [
            try #require(.init(path: "content/animals/fox.md", text: digest)),
            try #require(.init(path: "content/animals/tab\there,%41 line\nbreak\r.md", text: "-")),
            try #require(.init(path: "content/pages/ü.md", text: String(repeating: "0", count: 64))),
        ])
        #expect(recorded.racy.map(\.text) == [digest, "-", String(repeating: "0", count: 64)])
        #expect(BuildState.RacyFile(path: "x", text: "c") == nil && BuildState.RacyFile(path: "x", text: String(repeating: "G", count: 64)) == nil)
        state.record(recorded)
        #expect(state.recorded() == recorded)
        let text = try String(contentsOfFile: state.path, encoding: .utf8)
        #expect(text.contains("\tcontent/animals/tab%09here,%2541 line%0Abreak%0D.md\n"))
        state.record(.init(fingerprint: "f"))
        #expect(try String(contentsOfFile: state.path, encoding: .utf8) == "bestiary-build-state 1\nf\n")
        #expect(state.recorded() == .init(fingerprint: "f"))
        for broken in ["bestiary-build-state 1\n", "bestiary-build-state 1\nf\nno tab\n", "bestiary-build-state 1\nf\n-\tbad %4\n", "bestiary-build-state 1\nf\nd\tshort digest\n", "other\nf\n"] {
            try broken.writeReplacing(toFile: state.path)
            #expect(state.recorded() == nil, "\(broken)")
        }
    }

    /// The walk's lines come depth first, in the byte order of the names, whatever order the
    /// folders side by side were walked in: each folder's entries follow its own line, before
    /// its next sibling's. The content-addressed pictures' folder is one line.
    @Test func theWalkIsDepthFirstInNameOrder() throws {
        let dir = TemporaryDirectory()
        for file in [
            "content/b/z.md", "content/b/a/deep/x.md", "content/a.md", "content/c/y.md", "content/B/w.md", "content/b.md",
            "content/wikipedia/images/1.png", "content/wikipedia/en/Fox.json", "templates/z/a.html", "templates/a.html",
        ] {
            try dir.write("x", to: file)
        }
        for i in 0..<40 { try dir.write("x", to: "content/many/f\(i)/r.md") }
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        let lines = state.snapshot(now: Date())
        let paths = lines.map { String($0[..<$0.firstIndex(of: "\t")!]) }.filter { $0.hasPrefix("content/") || $0.hasPrefix("templates/") }
        let many = (0..<40).map { "f\($0)" }.sorted().flatMap { ["content/many/\($0)", "content/many/\($0)/r.md"] }
        #expect(paths == [
            "content/B", "content/B/w.md", "content/a.md", "content/b", "content/b/a", "content/b/a/deep", "content/b/a/deep/x.md",
            "content/b/z.md", "content/b.md", "content/c", "content/c/y.md", "content/many",
        ] + many + [
            "content/wikipedia", "content/wikipedia/en", "content/wikipedia/en/Fox.json", "content/wikipedia/images",
            "templates/a.html", "templates/z", "templates/z/a.html",
        ])
        // The same walk gives the same lines, sequential or not.
        #expect(state.snapshot(now: Date()) == lines)
    }

    /// The walk over the inputs lists the Wikipedia cache's folder as the cache would list it
    /// (language folders and their visible `.json` files, nothing deeper, not `images/`), and
    /// its digest changes with any entry file or picture added, removed or changed, and only then.
    @Test func theWalkListsTheWikipediaCacheAsTheCacheDoes() throws {
        let dir = TemporaryDirectory()
        for file in [
            "de/a.json", "de/b.json", "de/.hidden.json", "de/.\u{301}x.json", "de/notes.txt", "de/sub/c.json", ".git/y.json", "en/z.json",
            "images/x.png", "top.json",
        ] {
            try dir.write("{", to: "content/wikipedia/" + file)
        }
        try dir.write("---\nname: Fox\n---\n", to: "content/animals/fox.md")
        let state = BuildState(options: BuildOptions(root: dir.path, output: dir.appending("out")))
        func listing() -> WikipediaCache.Listing? { state.snapshot(now: Date(), listing: true).listing?().wikipedia }
        let listed = try #require(listing())
        #expect(state.snapshot(now: Date(), listing: false).listing == nil)
        #expect(state.snapshot(now: Date(), listing: true).lines == state.snapshot(now: Date()))
        #expect(listed.folders.map(\.name) == ["de", "en"])
        #expect(listed.folders.map { $0.files.map(\.name) } == [["a.json", "b.json"], ["z.json"]])
        let fs = LocalFileSystem()
        #expect(listed.folders[0].files[0].info == fs.info(dir.appending("content/wikipedia/de/a.json")))
        // The cache reads the same files either way (each damaged here: the same warnings).
        func warnings(_ listing: WikipediaCache.Listing?) -> [String?] {
            var cache = WikipediaCache(root: dir.path)
            cache.listing = listing
            return cache.load().diagnostics.map(\.location?.path)
        }
        #expect(warnings(listed) == warnings(nil))
        #expect(warnings(listed).count == 3)

        #expect(listing()?.stamp == listed.stamp, "nothing changed")
        try dir.write("---\nname: Red fox\n---\n", to: "content/animals/fox.md")
        #expect(listing()?.stamp == listed.stamp, "a record is not the cache")
        var stamps: Set<String> = [listed.stamp]
        for change in ["content/wikipedia/de/a.json", "content/wikipedia/images/y.png", "content/wikipedia/fr/new.json"] {
            try dir.write("{}", to: change)
            let stamp = try #require(listing()?.stamp)
            #expect(stamps.insert(stamp).inserted, "\(change) changes the digest")
        }

        // Not a folder (here a link to one): the cache lists it itself.
        try FileManager.default.moveItem(atPath: dir.appending("content/wikipedia"), toPath: dir.appending("cache"))
        try FileManager.default.createSymbolicLink(atPath: dir.appending("content/wikipedia"), withDestinationPath: dir.appending("cache"))
        #expect(listing() == nil)
    }
}
