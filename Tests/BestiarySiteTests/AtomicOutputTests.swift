import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// A failed or interrupted build leaves the previous output/ exactly as it was (DESIGN.md §4).
@Suite struct AtomicOutputTests {
    /// The messages of a build that must fail (none, and an issue recorded, when it succeeds).
    func refusal(root: String, output: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String] {
        do {
            try build(root: root, output: output)
            Issue.record("the build should have failed", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    /// A site built once, then changed so the next build would differ.
    func builtSite() throws -> (TemporaryDirectory, root: String, output: String, before: Tree) {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let output = work.appending("out")
        try build(root: root, output: output)
        try work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
        return (work, root, output, try Tree(output))
    }

    func leftovers(_ work: TemporaryDirectory) throws -> [String] { try leftovers(work.path) }

    func leftovers(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("staging") }
    }

    /// Both ways a build writes: the whole output anew (`force`, or no record of the last build)
    /// and only what changed (the last build's record is there).
    @Test(arguments: [(0, false), (1, false), (10, false), (0, true), (10, true), (40, true)])
    func aDiskThatFillsUpLeavesTheOutputUntouched(_ failAfter: Int, _ force: Bool) throws {
        let (work, root, output, before) = try builtSite()
        #expect(throws: DiagnosticError.self) {
            try build(root: root, output: output, fileSystem: FailingFileSystem(failAfter: failAfter), force: force)
        }
        #expect(try Tree(output) == before)
        #expect(try leftovers(work) == [])
    }

    @Test func aWriteFailureIsReportedInTheWriteStage() throws {
        let (work, root, output, _) = try builtSite()
        defer { withExtendedLifetime(work) {} }
        do {
            try build(root: root, output: output, fileSystem: FailingFileSystem(failAfter: 3))
            Issue.record("the build should have failed")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.stage == "write")
            #expect(d.message.contains("No space left on device"))
            #expect(d.message.contains("is unchanged"))
        }
    }

    @Test func aBrokenTemplateFailsInRenderNamingTheFileAndKeepsTheOutput() throws {
        let (work, root, output, before) = try builtSite()
        try work.write("{{<layouts.base}}{{$main}}{{#animal}}<h1>{{name}}</h1>{{/main}}{{/layouts.base}}", to: "minimal/templates/layouts/animal.html")
        do {
            try build(root: root, output: output)
            Issue.record("the build should have failed")
        } catch {
            let text = error.diagnostics.map(DiagnosticFormatter.text)
            #expect(text.contains { $0.hasPrefix("templates/layouts/animal.html:1:") && $0.hasSuffix("[render]") }, "\(text)")
        }
        #expect(try Tree(output) == before)
    }

    @Test func aContentErrorFailsInLoadAndKeepsTheOutput() throws {
        let (work, root, output, before) = try builtSite()
        try work.write("---\nname: {de: Kaputt}\ndifficulty: 12\n---\n", to: "minimal/content/animals/broken.md")
        #expect(throws: DiagnosticError.self) { try build(root: root, output: output) }
        #expect(try Tree(output) == before)
    }

    @Test func aKilledBuildLeavesTheOutputUntouchedAndTheNextBuildCleansUp() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("tuxpaint", into: work)
        let output = work.appending("out")
        try build(root: root, output: output)
        let before = try Tree(output)
        try work.write("---\nname: {en: New, de: Neu}\n---\n", to: "tuxpaint/content/animals/new.md")
        let expected = work.appending("expected")
        try build(root: root, output: expected, force: true)
        let after = try Tree(expected)
        // Kill builds at increasing moments; whatever moment, the output is the old one or the new
        // one. These builds use the first one's record (unchanged pages linked from the output).
        var sawOld = false
        for delay in [0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["build", "--root", root, "--output", output]
            process.environment = ProcessInfo.processInfo.environment.merging(["SOURCE_DATE_EPOCH": "1767225600"]) { $1 }
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A blocking sleep: the test's task must not wait for a busy cooperative pool.
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Tree(output)
            let isOld = now == before
            let isNew = now.differences(from: after) == []
            #expect(isOld || isNew, "output is a mix after a kill at \(delay) s")
            if isOld { sawOld = true } else { break }
        }
        #expect(sawOld)
        try build(root: root, output: output)
        #expect(try leftovers(work) == [])
        #expect(try Tree(output).files.keys.contains("animals/new/index.html"))
    }

    /// An output made read-only (`chmod -R a-w output`) becomes the next build's spare, and the
    /// build after that would write into it: it failed, naming its internal staging folder, and
    /// left that read-only folder behind for good. A read-only spare now goes and the build
    /// stages anew; a read-only leftover is removed too. Run as `nobody` (root may write into a
    /// read-only folder), with the built binary.
    @Test func aReadOnlyOutputIsNotWrittenIntoByTheBuildsAfterIt() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        func run(_ arguments: [String]) throws -> Binary.Result { try Binary.run(arguments, as: "nobody") }
        func ownedByTheUser() throws {
            guard getuid() == 0 else { return }
            let chown = try Process.run(URL(fileURLWithPath: "/bin/chown"), arguments: ["-R", "nobody:nogroup", work.path])
            chown.waitUntilExit()
        }
        try ownedByTheUser()
        func readOnly(_ path: String) throws {
            let chmod = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a-w", path])
            chmod.waitUntilExit()
        }
        let build = ["build", "--root", root]
        let first = try run(build)
        try #require(first.status == 0, "\(first.stderr)")
        // A leftover of a killed build, made read-only.
        let leftover = work.appending("minimal/.output.bestiary-staging-999999")
        try FileManager.default.createDirectory(atPath: leftover + "/animals", withIntermediateDirectories: true)
        try ownedByTheUser()
        try readOnly(leftover)
        #expect(try leftovers(work.appending("minimal")) == [".output.bestiary-staging-999999"])
        try readOnly(work.appending("minimal/output"))
        for difficulty in [3, 1, 2] {
            try work.write("---\nname: {de: Neu, en: New}\ndifficulty: \(difficulty)\n---\n", to: "minimal/content/animals/new.md")
            let rebuild = try run(build)
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            #expect(!rebuild.stderr.contains("staging"), "\(rebuild.stderr)")
            // The user's own read-only spare goes by itself: nothing to do by hand.
            #expect(!rebuild.stderr.contains("cannot remove"), "\(rebuild.stderr)")
        }
        #expect(try leftovers(work.appending("minimal")) == [])
        #expect(FileManager.default.fileExists(atPath: work.appending("minimal/output/animals/new/index.html")))
    }

    /// A build as root, then builds as another user (a `sudo bestiary build` once, then the
    /// usual ones): root's spare output could not be written into, and every other build failed
    /// on it, leaving another folder that user could not remove. Each build now stages anew and
    /// succeeds, and names what it cannot remove. (As root only: it needs two users.)
    @Test func buildsAsAnotherUserAfterOneAsRootSucceedAndNameWhatTheyCannotRemove() throws {
        guard getuid() == 0 else { return }
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let build = ["build", "--root", root]
        for difficulty in [1, 2] {
            try work.write("---\nname: {de: Neu, en: New}\ndifficulty: \(difficulty)\n---\n", to: "minimal/content/animals/new.md")
            #expect(try Binary.run(build).status == 0)
        }
        let chown = try Process.run(URL(fileURLWithPath: "/bin/chown"), arguments: ["nobody:nogroup", work.path, root, root + "/content", root + "/content/packs.lock"])
        chown.waitUntilExit()
        for difficulty in [3, 1, 2] {
            try work.write("---\nname: {de: Neu, en: New}\ndifficulty: \(difficulty)\n---\n", to: "minimal/content/animals/new.md")
            let rebuild = try Binary.run(build, as: "nobody")
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            #expect(rebuild.stderr.contains(
                "warning: cannot remove \(work.path)/minimal/.output.bestiary-spare, which a build left next to \(root)/output: it is another user's (a build run as root?); remove it as that user (sudo rm -rf …) [write]"),
                "\(rebuild.stderr)")
        }
        #expect(try leftovers(root).count == 1)  // root's output, which the first build replaced
        #expect(try String(contentsOfFile: root + "/output/animals/new/index.html", encoding: .utf8).contains("Neu"))
    }

    /// A read-only checkout where only output/ is writable (a CI runner as another user): the
    /// build cannot make the new output next to the old one, and says why and what to do.
    @Test func aFolderHoldingTheOutputThatIsNotWritableIsNamedWithWhatToDo() throws {
        guard getuid() == 0 else { return }
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try FileManager.default.createDirectory(atPath: root + "/output", withIntermediateDirectories: true)
        let chown = try Process.run(URL(fileURLWithPath: "/bin/chown"), arguments: ["nobody:nogroup", root + "/output"])
        chown.waitUntilExit()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work.path)
        let result = try Binary.run(["build", "--root", root], as: "nobody")
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            ": Permission denied (a build makes the new output next to \(root)/output and swaps the two, so \(root) must be writable; or build elsewhere with --output); \(root)/output is unchanged [write]"),
            "\(result.stderr)")
    }

    /// Files put at the top of the output by hand (a `CNAME` for GitHub Pages, a folder) are
    /// kept by every rebuild, with a warning; they were deleted without a word (found by a new
    /// user). A page the site no longer has is still removed, folder and all.
    @Test func filesPutIntoTheOutputByHandAreKeptByARebuild() throws {
        let (work, root, output, _) = try builtSite()
        try build(root: root, output: output)
        try work.write("quiz.example.org\n", to: "out/CNAME")
        try work.write("mine\n", to: "out/mine/notes/a.txt")
        // A folder is kept as it is: its empty folders and symbolic links too (a `.git` checkout).
        try FileManager.default.createDirectory(atPath: output + "/mine/refs/heads", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output + "/mine/latest", withDestinationPath: "notes/a.txt")
        #expect(work.exists("out/about/index.html"))
        try FileManager.default.removeItem(atPath: root + "/content/pages/about.md")
        try FileManager.default.removeItem(atPath: root + "/content/pages/about.en.md")
        var options = BuildOptions(
            root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"],
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        let warnings = builder.diagnostics.items.filter { $0.severity == .warning }.map(\.message)
        #expect(warnings.contains { $0.hasPrefix("\(output)/CNAME and 1 more (mine): not made by bestiary; kept in the new output") }, "\(warnings)")
        #expect(try work.read("out/CNAME") == "quiz.example.org\n")
        #expect(try work.read("out/mine/notes/a.txt") == "mine\n")
        #expect(LocalFileSystem().info(output + "/mine/refs/heads")?.kind == .directory)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output + "/mine/latest") == "notes/a.txt")
        #expect(!work.exists("out/about"))
        // And the next rebuild, which starts from the output the last one replaced.
        try work.write("---\nname: {de: Neuer, en: Newer}\n---\n", to: "minimal/content/animals/new.md")
        try build(root: root, output: output)
        #expect(try work.read("out/CNAME") == "quiz.example.org\n")
        #expect(try work.read("out/mine/notes/a.txt") == "mine\n")
    }

    /// An --output below a file says so, not "cannot create directory …/.sub.bestiary-staging-PID:
    /// Not a directory" (found by a new user).
    @Test func anOutputBelowAFileIsRefusedWithItsName() throws {
        let work = TemporaryDirectory()
        try work.write("notes\n", to: "f")
        #expect(refusal(root: Fixtures.path("sites/minimal"), output: work.appending("f/sub/site")) == [
            "--output \(work.appending("f/sub/site")) is below \(work.appending("f")), which is a file, not a folder; choose another --output",
        ])
        #expect(try work.read("f") == "notes\n")
    }

    /// An output that is a symbolic link to a folder is refused as a link, not as "not a
    /// folder" (found by a tester); where it leads is left alone.
    @Test func anOutputThatIsALinkIsRefusedAsOne() throws {
        let work = TemporaryDirectory()
        try work.write("kept\n", to: "real/a.txt")
        try FileManager.default.createSymbolicLink(atPath: work.appending("out"), withDestinationPath: "real")
        #expect(refusal(root: Fixtures.path("sites/minimal"), output: work.appending("out")) == [
            "\(work.appending("out")) is a symbolic link (to \(try LocalFileSystem().realPath(work.appending("real")))); bestiary replaces its output folder whole and does not follow links: give --output the folder itself, or remove the link",
        ])
        #expect(try work.read("real/a.txt") == "kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["out", "real"])
    }

    /// While `bestiary serve` previews an output, a one-shot build of it refuses: the preview's
    /// next rebuild (which the build's own content/packs.lock write set off at once) overwrote it
    /// with local addresses and unsigned packs (found by a tester). A second preview of the same
    /// output is refused too; once the preview ends, the build goes on.
    @Test func aBuildRefusesAnOutputThatIsBeingPreviewed() throws {
        let work = TemporaryDirectory()
        let output = work.appending("out")
        try build(root: Fixtures.path("sites/minimal"), output: output)
        // A build only looks for the preview's lock: it leaves no file of it behind.
        #expect(!FileManager.default.fileExists(atPath: work.appending(".out.bestiary-serving")))
        let before = try Tree(output)
        let previewing = SiteBuilder(options: BuildOptions(root: Fixtures.path("sites/minimal"), output: output))
        var serving = try previewing.holdForPreview()
        #expect(serving != nil)
        #expect(refusal(root: Fixtures.path("sites/minimal"), output: output) == [
            "\(output) is being previewed by `bestiary serve`, which would overwrite this build at its next rebuild with the preview's files (local addresses, unsigned packs); stop the preview (Ctrl-C) and build again, or build into another folder with --output",
        ])
        #expect(try Tree(output) == before)
        #expect(throws: DiagnosticError.self) { _ = try previewing.holdForPreview() }
        serving = nil
        _ = serving
        try build(root: Fixtures.path("sites/minimal"), output: output)
    }

    @Test func refusesToReplaceAFolderItDidNotMake() throws {
        let work = TemporaryDirectory()
        try work.write("precious", to: "mine/notes.txt")
        #expect(refusal(root: Fixtures.path("sites/minimal"), output: work.appending("mine")).first?.contains("holds files that bestiary did not make") == true)
        #expect(try work.read("mine/notes.txt") == "precious")
        // Refused before anything was left next to it (the lock, the kept files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["mine"])
    }

    /// A mistyped root fails with the message `check` gives, and makes nothing: not the output's
    /// folder, nor the lock beside it (found by a new user: `--root /tmp/a/b/c` made all three).
    @Test func aRootThatIsNotASiteMakesNothing() throws {
        let work = TemporaryDirectory()
        #expect(refusal(root: work.appending("a/b"), output: work.appending("a/b/output")) == [
            "'\(work.appending("a/b"))' is not a site root (no content/site.yml); create one with `bestiary init DIR` or pass --root",
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == [])
    }

    /// `--output site/` (as tab completion writes it) is `site`: it failed with "holds files that
    /// bestiary did not make" (its own kept files, put inside it), and `.` crashed (found by an author).
    @Test func anOutputWithATrailingSlashOrDotsIsTheFolderItNames() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        try build(root: root, output: work.appending("site/"))
        try build(root: root, output: work.appending("./site/."), force: true)
        #expect(FileManager.default.fileExists(atPath: work.appending("site/index.html")))
        let beside = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".site.") }
        #expect(beside.contains(".site.bestiary-state"), "\(beside)")
        let inside = try FileManager.default.contentsOfDirectory(atPath: work.appending("site"))
        #expect(!inside.contains { $0.hasPrefix(".site.") }, "\(inside)")

        #expect(BuildOptions.outputPath("site/") == "site")
        #expect(BuildOptions.outputPath("./site//x/.") == "site/x")
        #expect(BuildOptions.outputPath("/srv/www/") == "/srv/www")
        #expect(BuildOptions.outputPath("../out") == "../out")
        #expect(BuildOptions.outputPath(".", currentDirectory: { "/home/ann/zoo" }) == "/home/ann/zoo")
        #expect(BuildOptions.outputPath("./", currentDirectory: { "/home/ann/zoo" }) == "/home/ann/zoo")
        #expect(BuildOptions.outputPath("x/..", currentDirectory: { "/home/ann" }) == "/home/ann")
        #expect(BuildOptions.outputPath("../..", currentDirectory: { "/home/ann/zoo" }) == "/home")
        #expect(BuildOptions.outputPath("/a/b/..") == "/a")
        #expect(BuildOptions.outputPath("/") == "/")
    }

    @Test(arguments: ["content", "content/out", "templates", ".", "./", "content/", "templates/.", "content/.."])
    func refusesAnOutputThatWouldOverwriteTheSources(_ relative: String) throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let before = try Tree(root)
        #expect(throws: DiagnosticError.self) { try build(root: root, output: root + "/" + relative) }
        #expect(try Tree(root) == before)
    }
}

/// A build with nothing changed since the last one skips every stage; any change to what a
/// build reads makes it build again.
@Suite struct UpToDateTests {
    func options(_ root: String, _ output: String, epoch: String = "1767225600") -> BuildOptions {
        var options = BuildOptions(root: root, output: output, environment: ["SOURCE_DATE_EPOCH": epoch])
        options.recordsPackVersions = false
        return options
    }

    @Test func anUnchangedSiteIsNotBuiltAgainAndAnyChangeIsNoticed() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("minimal", into: work)
        let output = work.appending("out")
        let first = try SiteBuilder(options: options(root, output)).build()
        #expect(!first.upToDate)
        #expect(FileManager.default.fileExists(atPath: work.appending(".out.bestiary-state")))
        let built = try Tree(output)

        // A build stopped by Ctrl-C left its staging folder (its process is gone: pid 0 is none).
        try work.write("x", to: ".out.bestiary-staging-0/index.html")
        let again = try SiteBuilder(options: options(root, output)).build()
        #expect(again.upToDate)
        #expect(again.stages.map(\.name) == ["check"])
        #expect(try Tree(output) == built)
        #expect(!work.exists(".out.bestiary-staging-0"), "an up-to-date build removes what a stopped one left")

        // Each of these is a change the output depends on.
        var forced = options(root, output)
        forced.force = true
        #expect(try !SiteBuilder(options: forced).build().upToDate)
        #expect(try !SiteBuilder(options: options(root, output, epoch: "1767312000")).build().upToDate)
        #expect(try !SiteBuilder(options: options(root, output)).build().upToDate)  // back to the first epoch
        try work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
        let added = try SiteBuilder(options: options(root, output)).build()
        #expect(!added.upToDate)
        #expect(try Tree(output).files.keys.contains("animals/new/index.html"))
        #expect(try SiteBuilder(options: options(root, output)).build().upToDate)
        try work.write("body { color: teal; }\n", to: "minimal/templates/assets/css/extra.css")
        #expect(try !SiteBuilder(options: options(root, output)).build().upToDate)

        // An output deleted or replaced by hand is built again.
        try FileManager.default.removeItem(atPath: output)
        #expect(try !SiteBuilder(options: options(root, output)).build().upToDate)
        #expect(FileManager.default.fileExists(atPath: output + "/index.html"))
    }
}
