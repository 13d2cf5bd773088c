import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// What a build read from files, kept for the next build by file metadata (`.NAME.bestiary-files`):
/// a fact is given back only for the same file, metadata and question; only facts a build used
/// are kept; a file that does not fit, or was written by another binary, is not used at all; and
/// a file changed just before the build began is not vouched for.
@Suite struct FileFactsTests {
    let dir = TemporaryDirectory()
    var factsFile: String { dir.appending(".out.bestiary-files") }
    let fs = LocalFileSystem()
    /// Two files changed an hour before the builds begin.
    let hourAgo = Date().addingTimeInterval(-3600)

    init() throws {
        for name in ["a.ogg", "b.png"] {
            try dir.write("bytes of \(name)", to: name)
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir.appending(name))
        }
    }

    func info(_ name: String) throws -> FileInfo { try #require(fs.info(dir.appending(name))) }

    @Test func aFactComesBackForTheSameFileMetadataAndQuestion() throws {
        let first = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(first.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == nil)
        first.keep(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg", values: ["sha", "11"])
        first.keep(dir.appending("b.png"), info: try info("b.png"), kind: "image png sha", values: ["intact"])
        first.save(factsFile, fileSystem: fs)

        let second = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(second.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == ["sha", "11"])
        #expect(second.lookup(dir.appending("b.png"), info: try info("b.png"), kind: "image png other") == nil, "another question")
        var moved = try info("b.png")
        moved.inode += 1
        #expect(second.lookup(dir.appending("b.png"), info: moved, kind: "image png sha") == nil, "another file")
        #expect(second.hits == 1)
        second.save(factsFile, fileSystem: fs)

        // Only what the second build used is kept.
        let third = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(third.lookup(dir.appending("b.png"), info: try info("b.png"), kind: "image png sha") == nil)
        #expect(third.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == ["sha", "11"])
    }

    /// A rebuild that read no file (every fact from the file, all of them used) leaves the file
    /// as it is; one that learned anything writes it anew.
    @Test func aFileThatWouldNotChangeIsNotWrittenAgain() throws {
        let first = FileFacts(tool: "tool 1", keyPrefix: "")
        first.keep(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg", values: ["sha"])
        first.save(factsFile, fileSystem: fs)
        let written = try #require(fs.info(factsFile))

        let same = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(same.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == ["sha"])
        same.save(factsFile, fileSystem: fs)
        #expect(fs.info(factsFile) == written, "not written again")

        let more = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(more.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == ["sha"])
        more.keep(dir.appending("b.png"), info: try info("b.png"), kind: "media png", values: ["sha"])
        more.save(factsFile, fileSystem: fs)
        #expect(fs.info(factsFile) != written)
        let last = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(last.lookup(dir.appending("b.png"), info: try info("b.png"), kind: "media png") == ["sha"])
    }

    /// The facts about a folder's files, kept as a whole for a caller whose checks of them stand:
    /// only those with the metadata listed now, only in that folder, counted; a fact this build
    /// learned already is not replaced by the older one.
    @Test func factsAboutAFoldersFilesAreKeptAsAWhole() throws {
        for (name, text) in [("sub/c.png", "other"), ("sub2/d.png", "next door")] {
            try dir.write(text, to: name)
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir.appending(name))
        }
        let first = FileFacts(tool: "tool 1", keyPrefix: "")
        for name in ["a.ogg", "b.png", "sub/c.png", "sub2/d.png"] {
            first.keep(dir.appending(name), info: try info(name), kind: "image png sha", values: ["intact"])
        }
        first.save(factsFile, fileSystem: fs)
        func listed(_ folder: String) throws -> [(entry: DirectoryEntry, info: FileInfo?)] {
            try fs.entriesWithInfo(in: folder.isEmpty ? dir.path : dir.appending(folder))
        }

        let second = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        var listing = try listed("")
        // b.png listed with other metadata: its fact is not for that file.
        let b = try #require(listing.firstIndex { $0.entry.name == "b.png" })
        listing[b].info?.inode += 1
        #expect(second.useAll(in: dir.path + "/", listed: listing) == 1, "a.ogg only (the folders have no fact)")
        #expect(second.useAll(in: dir.appending("sub") + "/", listed: try listed("sub")) == 1)
        // Learned anew by this build (another answer): counted, and kept as learned.
        second.keep(dir.appending("sub2/d.png"), info: try info("sub2/d.png"), kind: "image png sha", values: ["damaged"])
        #expect(second.useAll(in: dir.appending("sub2") + "/", listed: try listed("sub2")) == 1)
        #expect(second.hits == 2)
        second.save(factsFile, fileSystem: fs)

        let third = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(third.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "image png sha") == ["intact"])
        #expect(third.lookup(dir.appending("sub/c.png"), info: try info("sub/c.png"), kind: "image png sha") == ["intact"])
        #expect(third.lookup(dir.appending("sub2/d.png"), info: try info("sub2/d.png"), kind: "image png sha") == ["damaged"])
        #expect(third.lookup(dir.appending("b.png"), info: try info("b.png"), kind: "image png sha") == nil, "not kept")
    }

    /// Kept by the path below the site root: a build that spells the root another way (`site`,
    /// then `/home/me/site`, or `.` from inside it) finds them. A path not below the root is not
    /// kept, and the file does not hold the root's spelling.
    @Test func factsAreKeptByThePathBelowTheRoot() throws {
        let spelled = dir.path + "/", other = dir.appending(".") + "/"
        let first = FileFacts(tool: "tool 1", keyPrefix: spelled)
        first.keep(spelled + "a.ogg", info: try info("a.ogg"), kind: "media ogg", values: ["sha"])
        first.keep("/elsewhere/b.png", info: try info("b.png"), kind: "media png", values: ["sha"])
        first.save(factsFile, fileSystem: fs)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: factsFile))
        #expect(bytes.range(of: Data(dir.path.utf8)) == nil, "the root's spelling is not in the file")
        #expect(bytes.range(of: Data("a.ogg".utf8)) != nil)

        let second = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: other, fileSystem: fs)
        #expect(second.lookup(other + "a.ogg", info: try info("a.ogg"), kind: "media ogg") == ["sha"], "the root spelled another way")
        #expect(second.lookup("/elsewhere/b.png", info: try info("b.png"), kind: "media png") == nil, "not below the root: not kept")
        // Kept as learned by the second build (saved under its own spelling), found by the first's.
        second.keep(other + "b.png", info: try info("b.png"), kind: "media png", values: ["sha 2"])
        second.save(factsFile, fileSystem: fs)
        let third = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: spelled, fileSystem: fs)
        #expect(third.lookup(spelled + "b.png", info: try info("b.png"), kind: "media png") == ["sha 2"])
        #expect(third.lookup(spelled + "a.ogg", info: try info("a.ogg"), kind: "media ogg") == ["sha"])
        let current = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(current.lookup("a.ogg", info: try info("a.ogg"), kind: "media ogg") == ["sha"], "the root as the current folder: no prefix")
    }

    @Test func aFileThatDoesNotFitIsNotUsed() throws {
        func saved() throws {
            let facts = FileFacts(tool: "tool 1", keyPrefix: "")
            facts.keep(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg", values: ["sha"])
            facts.save(factsFile, fileSystem: fs)
        }
        func hit(tool: String = "tool 1") throws -> Bool {
            FileFacts.load(factsFile, tool: tool, keyPrefix: "", fileSystem: fs).lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") != nil
        }
        try saved()
        #expect(try hit())
        #expect(try !hit(tool: "tool 2"), "another binary")
        let data = try Data(contentsOf: URL(fileURLWithPath: factsFile))
        try data.prefix(data.count - 1).write(to: URL(fileURLWithPath: factsFile))
        #expect(try !hit(), "cut short")
        try saved()
        try (data + [0]).write(to: URL(fileURLWithPath: factsFile))
        #expect(try !hit(), "bytes after the end")
        try "not a facts file".writeReplacing(toFile: factsFile)
        #expect(try !hit())
    }

    /// A file changed within 2 s of the build's start could change again without its metadata
    /// showing it (coarse file clocks): what the build read of it is not kept.
    @Test func aFileChangedJustBeforeTheBuildIsReadAgain() throws {
        try dir.write("new bytes", to: "a.ogg")
        let facts = FileFacts(tool: "tool 1", keyPrefix: "", started: Date().addingTimeInterval(1))
        facts.keep(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg", values: ["sha"])
        facts.keep(dir.appending("b.png"), info: try info("b.png"), kind: "media png", values: ["sha"])
        facts.save(factsFile, fileSystem: fs)
        let next = FileFacts.load(factsFile, tool: "tool 1", keyPrefix: "", fileSystem: fs)
        #expect(next.lookup(dir.appending("a.ogg"), info: try info("a.ogg"), kind: "media ogg") == nil)
        #expect(next.lookup(dir.appending("b.png"), info: try info("b.png"), kind: "media png") == ["sha"])
    }
}
