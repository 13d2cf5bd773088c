import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary serve` as users run it: the built binary (`swift build` puts it in .build/debug).
@Suite(.serialized, .enabled(if: ServeProcess.binaryExists, "needs the built bestiary binary (swift build)"))
struct ServeBinaryTests {
    @Test func ctrlCStopsCleanlyWithExitStatusZero() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let serve = try ServeProcess(arguments: ["serve", "--root", root, "--port", "0"])
        let url = try #require(await serve.url(timeout: 120), "no URL in:\n\(serve.output)")
        let port = try #require(Int(url.split(separator: ":").last!.dropLast()))
        #expect(try await RawHTTPConnection.get(port: port, "/animals/bear/").status == 200)
        // An open page's event stream must not keep the server from stopping.
        let events = try await RawHTTPConnection.opened(port: port)
        try events.send("GET", "/__bestiary/events")
        _ = try await events.event(named: "hello")
        // A rebuild in flight when Ctrl-C comes is finished, not cut off.
        try dir.write("---\nname: {en: Brown bear, de: Braunbär}\n---\n", to: "site/content/animals/bear.md")
        try await Task.sleep(for: .milliseconds(60))
        serve.signal(SIGINT)
        let status = await serve.exitStatus(timeout: 30)
        #expect(status == 0, "output:\n\(serve.output)")
        #expect(serve.output.contains("stopped"))
        #expect(await events.closed(timeout: 5))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains("staging") }
        #expect(leftovers == [])
        #expect(FileManager.default.fileExists(atPath: root + "/output/index.html"))
    }

    @Test func sigtermStopsToo() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let serve = try ServeProcess(arguments: ["serve", "--root", root, "--port", "0"])
        _ = try #require(await serve.url(timeout: 120), "no URL in:\n\(serve.output)")
        serve.signal(SIGTERM)
        #expect(await serve.exitStatus(timeout: 30) == 0, "output:\n\(serve.output)")
    }

    /// A standard output or error that cannot be written (a full disk, a closed descriptor): the
    /// command does its work and says what it can, never a crash (Foundation's FileHandle trapped:
    /// a build with its messages sent to a full disk built nothing; found by an IT person).
    /// Results that never reached standard output are no success; messages that could not be
    /// shown are no failure.
    @Test func outputThatCannotBeWrittenIsNoCrash() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        func run(_ arguments: [String], stdout: String?, stderr: String?) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ServeProcess.binary)
            process.arguments = arguments
            process.standardOutput = stdout.map { FileHandle(forWritingAtPath: $0)! } ?? FileHandle.nullDevice
            process.standardError = stderr.map { FileHandle(forWritingAtPath: $0)! } ?? FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try run(["init", dir.appending("site")], stdout: nil, stderr: nil) == 0)
        #expect(try run(["build", "--root", dir.appending("site")], stdout: nil, stderr: "/dev/full") == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appending("site/output/index.html")))
        try "".write(toFile: dir.appending("err.txt"), atomically: false, encoding: .utf8)
        #expect(try run(["keys", "generate"], stdout: "/dev/full", stderr: dir.appending("err.txt")) == 1)
        #expect(try dir.read("err.txt") == "bestiary: error: cannot write to standard output: No space left on device\n")
    }

    /// Under a umask of 077 a build's pages were 0600 (a web server answered 403), and reused by
    /// later builds they stayed so after the umask was mended (found by an IT person): what a
    /// build writes is 0644, its folders 0755, whatever the umask.
    @Test func aBuildUnderUmask077IsReadableByOthers() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 077 && \"$0\" init \"$1\" >/dev/null 2>&1 && \"$0\" build --root \"$1\" >/dev/null 2>&1", ServeProcess.binary, dir.appending("site")]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        func mode(_ relative: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: dir.appending("site/" + relative))[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode("output") == 0o755)
        #expect(try mode("output/index.html") == 0o644)
        #expect(try mode("output/animals") == 0o755)
        #expect(try mode("content/animals/red-fox.md") == 0o644)
    }

    @Test func aTakenPortFailsWithAClearMessage() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        let root = dir.appending("site")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let blocker = try await LoopbackServer.start { _ in .text("busy") }
        defer { Task { await blocker.stop() } }
        let serve = try ServeProcess(arguments: ["serve", "--root", root, "--port", String(blocker.port)])
        let status = await serve.exitStatus(timeout: 30)
        #expect(status == 1)
        #expect(serve.output.contains("cannot listen on 127.0.0.1:\(blocker.port): the port is already in use"))
        #expect(!FileManager.default.fileExists(atPath: root + "/output"), "it must not build when it cannot serve")
    }

    /// The preview serves its output folder as it is: an --output folder of the user's own files
    /// is refused before anything listens, as a build refuses it, and so is a mistyped --root
    /// (found by a new user: such a folder was served, and a mistyped root's folders were made).
    @Test func aFolderOfOtherFilesOrARootThatIsNotASiteIsRefused() async throws {
        let dir = TemporaryDirectory("bestiary-binary")
        try dir.write("secret\n", to: "mine/thesis.txt")
        let root = dir.appending("site")
        try Fixtures.copy("sites/minimal", to: root)
        let foreign = try ServeProcess(arguments: ["serve", "--root", root, "--port", "0", "--output", dir.appending("mine")])
        #expect(await foreign.exitStatus(timeout: 30) == 1)
        #expect(foreign.output.contains("holds files that bestiary did not make; refusing to replace it"), "\(foreign.output)")
        #expect(!foreign.output.contains("http://"))
        let typo = try ServeProcess(arguments: ["serve", "--root", dir.appending("typo/site"), "--port", "0"])
        #expect(await typo.exitStatus(timeout: 30) == 1)
        #expect(typo.output.contains("is not a site root (no content/site.yml)"), "\(typo.output)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("typo")))
    }

    /// A full build over an output with a spare hands both trees it discards to a `bestiary
    /// remove-trash` of their own, which holds nothing of the build's: a script reading the
    /// build's output through a pipe reads to its end when the build ends, not when the trees
    /// are gone. They go soon after. `remove-trash` refuses a folder no build discarded.
    @Test func aFullBuildLeavesTheTreesItDiscardsToAProcessOfTheirOwn() async throws {
        let site = try DiscardingSite()
        let full = try site.run(["build", "--root", site.root, "--unsigned", "--force"])
        #expect(full.status == 0, "\(full.output)")
        #expect(full.output.contains("built "))
        #expect(FileManager.default.fileExists(atPath: site.root + "/output/animals/red-fox/index.html"))
        let deadline = Date().addingTimeInterval(60)
        while try !site.discarded().isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try site.discarded() == [])
        let refused = try site.run(["remove-trash", site.root + "/output"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("is not a folder a build discarded"), "\(refused.output)")
        #expect(FileManager.default.fileExists(atPath: site.root + "/output/index.html"))
    }

    /// `BESTIARY_DETACH=0` (a `docker build` step, whose processes end with it): the build removes
    /// what it discards before it ends, and leaves nothing behind for a layer to keep.
    @Test func withDetachOffAFullBuildRemovesWhatItDiscardsBeforeItEnds() async throws {
        let site = try DiscardingSite()
        for value in ["0", "no"] {
            // Enough in the output it replaces that a remover of its own would still be at work
            // when the build has ended.
            try site.fill("output/filler", files: 5_000)
            let full = try site.run(["build", "--root", site.root, "--unsigned", "--force"], environment: ["BESTIARY_DETACH": value])
            #expect(full.status == 0, "\(full.output)")
            #expect(try site.discarded() == [], "BESTIARY_DETACH=\(value)")
            #expect(FileManager.default.fileExists(atPath: site.root + "/output/animals/red-fox/index.html"))
        }
        // A value that is neither: an error before anything is touched, not a guess.
        let before = try FileManager.default.attributesOfItem(atPath: site.root + "/output")[.systemFileNumber] as? Int
        let wrong = try site.run(["build", "--root", site.root, "--unsigned", "--force"], environment: ["BESTIARY_DETACH": "later"])
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("BESTIARY_DETACH=later is neither 0 nor 1"), "\(wrong.output)")
        #expect(!wrong.output.contains("built "))
        #expect(try FileManager.default.attributesOfItem(atPath: site.root + "/output")[.systemFileNumber] as? Int == before)
    }
}

/// A site built twice by the binary (its output and a spare next to it), for the trees a full
/// build discards.
private struct DiscardingSite {
    let dir = TemporaryDirectory("bestiary-binary")
    var root: String { dir.appending("site") }

    init() throws {
        #expect(try run(["init", root]).status == 0)
        #expect(try run(["build", "--root", root, "--unsigned"]).status == 0)
        try dir.write("---\nname: {en: Red fox}\ngroup: mammal\ndifficulty: 2\n---\n", to: "site/content/animals/red-fox.md")
        #expect(try run(["build", "--root", root, "--unsigned"]).status == 0)
        #expect(try discarded() == [".output.bestiary-spare"])
    }

    /// Runs the binary to its end, with `environment` added to this process's.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServeProcess.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // To the pipe's end: every process holding its writing end has closed it.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Puts `files` empty files into the folder `relative` (made) below the site's root.
    func fill(_ relative: String, files: Int) throws {
        let folder = root + "/" + relative
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in 0..<files { FileManager.default.createFile(atPath: folder + "/\(n)", contents: nil) }
    }

    /// The trees a build discarded that are still there, and the spare.
    func discarded() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains(".bestiary-trash-") || $0 == ".output.bestiary-spare" }
    }
}

/// A running `bestiary` process whose standard error (and output) is collected.
final class ServeProcess: @unchecked Sendable {
    static let binary = Fixtures.repositoryRoot + "/.build/debug/bestiary"
    static var binaryExists: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    private let process = Process()
    private let lock = NSLock()
    private var collected = Data()

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.collected.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// The URL from the `serving … at URL` line, once printed.
    func waitForURL(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let match = output.firstMatch(of: /at (http:\/\/127\.0\.0\.1:\d+\/)/) { return String(match.1) }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    func url(timeout: TimeInterval) async -> String? {
        (try? await offPool { self.waitForURL(timeout: timeout) }) ?? nil
    }

    func exitStatus(timeout: TimeInterval) async -> Int32? {
        (try? await offPool { self.wait(timeout: timeout) }) ?? nil
    }

    /// The exit status, or nil if it did not exit in time.
    func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { return nil }
        Thread.sleep(forTimeInterval: 0.1)  // let the last output arrive
        return process.terminationStatus
    }
}
