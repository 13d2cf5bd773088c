import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

/// Collects the batches a watcher delivers, for tests.
final class BatchRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[ChangedPath]] = []

    func add(_ batch: [ChangedPath]) { lock.withLock { batches.append(batch) } }

    var all: [[ChangedPath]] { lock.withLock { batches } }

    /// Waits until `condition` holds for the batches so far.
    func wait(timeout: TimeInterval = 5, until condition: ([[ChangedPath]]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(all)
    }

    func reset() { lock.withLock { batches = [] } }
}

@Suite(.serialized) struct WatcherTests {
    static let strategies: [SiteWatcher.Strategy] = [.automatic, .polling(interval: .milliseconds(50))]

    func makeRoot() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("bestiary-watch")
        try dir.write("title: x\n", to: "content/site.yml")
        try dir.write("---\nname: {en: Fox}\n---\n", to: "content/animals/fox.md")
        try dir.write("<p>{{x}}</p>", to: "templates/layouts/page.html")
        return dir
    }

    /// The tests that count batches pass a longer quiet period: with 60 ms, a test process held up
    /// between two of its writes (every suite runs at once in `make test`) would see two batches.
    func start(
        _ dir: TemporaryDirectory, _ strategy: SiteWatcher.Strategy,
        quiet: Duration = .milliseconds(60), maxDelay: Duration = .milliseconds(400)
    ) -> (SiteWatcher, BatchRecorder) {
        let recorder = BatchRecorder()
        let watcher = SiteWatcher(root: dir.path, strategy: strategy, quiet: quiet, maxDelay: maxDelay) {
            recorder.add($0)
        }
        watcher.start()
        return (watcher, recorder)
    }

    @Test(arguments: strategies)
    func seesAWrite(strategy: SiteWatcher.Strategy) async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, strategy)
        defer { watcher.stop() }
        if strategy == .automatic { #expect(watcher.description == "inotify") }
        try await Task.sleep(for: .milliseconds(100))
        try dir.write("---\nname: {en: Red fox}\n---\n", to: "content/animals/fox.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains(ChangedPath(path: "content/animals/fox.md", kind: .record, event: .modified)) })
    }

    /// A new file whose name is not UTF-8 was taken for one that came and went: no rebuild, the
    /// preview green while `bestiary build` failed (found by a team of editors). With inotify it
    /// is a change of everything: the build looks and says what is wrong.
    @Test func aNameThatIsNotUTF8RebuildsEverything() async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, .automatic)
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(100))
        var path = Array(dir.appending("content/animals/zz").utf8CString.dropLast()).map { UInt8(bitPattern: $0) }
        path += [0xFE] + Array(".md".utf8) + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        close(fd)
        #expect(await recorder.wait { $0.flatMap { $0 }.contains(.everything) })
    }

    /// Editors write a temporary file and rename it over the original, and write swap files:
    /// one batch, one change, no junk.
    @Test(arguments: strategies)
    func foldsAnEditorSaveIntoOneChange(strategy: SiteWatcher.Strategy) async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, strategy, quiet: .milliseconds(300), maxDelay: .seconds(3))
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(100))
        try dir.write("swap", to: "content/animals/.fox.md.swp")
        try dir.write("---\nname: {en: Vixen}\n---\n", to: "content/animals/.fox.md.tmp-1-2")
        rename(dir.appending("content/animals/.fox.md.tmp-1-2"), dir.appending("content/animals/fox.md"))
        try dir.write("backup", to: "content/animals/fox.md~")
        try FileManager.default.removeItem(atPath: dir.appending("content/animals/fox.md~"))
        #expect(await recorder.wait { !$0.isEmpty })
        try await Task.sleep(for: .milliseconds(700))
        let batches = recorder.all
        #expect(batches.count == 1)
        #expect(batches.first?.map(\.path) == ["content/animals/fox.md"])
        #expect(batches.first?.first?.kind == .record)
    }

    /// Polling says a file changed once it stayed the same for one interval: one still being
    /// written (a slow copy to a network folder) was built half-written, with an error, and again
    /// once whole (found by an editor's audit). Scan by scan (a timed write was at the mercy of
    /// a busy machine's scheduling).
    @Test func pollingSaysAFileOnceItStoppedChanging() {
        typealias Stamp = PollingWatcher.Stamp
        let fox = Stamp(inode: 1, size: 10, modified: 100)
        var said: [String: Stamp] = ["fox.md": fox]
        var previous: [String: Stamp] = ["fox.md": fox]
        func scan(_ stamps: [String: Stamp]) -> [String] {
            var current = stamps
            defer { previous = current }
            return PollingWatcher.changes(previous: previous, current: &current, said: &said).map { "\($0.0) \($0.1.rawValue)" }
        }
        // Being written: it grows from scan to scan, and nothing is said.
        #expect(scan(["fox.md": fox, "slow.md": Stamp(inode: 2, size: 80, modified: 200)]) == [])
        #expect(scan(["fox.md": fox, "slow.md": Stamp(inode: 2, size: 160, modified: 300)]) == [])
        // Whole: the same in two scans, said once.
        #expect(scan(["fox.md": fox, "slow.md": Stamp(inode: 2, size: 200, modified: 400)]) == [])
        #expect(scan(["fox.md": fox, "slow.md": Stamp(inode: 2, size: 200, modified: 400)]) == ["slow.md created"])
        #expect(scan(["fox.md": fox, "slow.md": Stamp(inode: 2, size: 200, modified: 400)]) == [])
        // An edit in place, and a save by rename (another inode).
        let edited = Stamp(inode: 1, size: 12, modified: 500)
        #expect(scan(["fox.md": edited, "slow.md": Stamp(inode: 2, size: 200, modified: 400)]) == [])
        #expect(scan(["fox.md": edited, "slow.md": Stamp(inode: 2, size: 200, modified: 400)]) == ["fox.md modified"])
        let slow = Stamp(inode: 2, size: 200, modified: 400)
        let renamed = Stamp(inode: 3, size: 12, modified: 600)
        #expect(scan(["fox.md": renamed, "slow.md": slow]) == [])
        #expect(scan(["fox.md": renamed, "slow.md": slow]) == ["fox.md created"])
        // A file renamed: the old name gone from two scans, the new one the same in two, said
        // together (said at once, the removal made a build without the record, then another).
        #expect(scan(["vixen.md": renamed, "slow.md": slow]) == [])
        #expect(scan(["vixen.md": renamed, "slow.md": slow]) == ["vixen.md created", "fox.md removed"])
        // Gone: said once gone from two scans.
        #expect(scan(["vixen.md": renamed]) == [])
        #expect(scan(["vixen.md": renamed]) == ["slow.md removed"])
        // Written just before the scans (its bytes read), then again within a coarse clock's
        // tick: the same metadata, other bytes.
        var first = Stamp(inode: 4, size: 12, modified: 700), second = first
        (first.digest, second.digest) = ("1", "2")
        #expect(scan(["vixen.md": renamed, "wren.md": first]) == [])
        #expect(scan(["vixen.md": renamed, "wren.md": first]) == ["wren.md created"])
        #expect(scan(["vixen.md": renamed, "wren.md": second]) == [])
        #expect(scan(["vixen.md": renamed, "wren.md": second]) == ["wren.md modified"])
        // Written again within its tick, and read by one scan only before it settled: the bytes
        // that scan read stand for it, and the change is said.
        var third = first
        third.digest = "4"
        let settled = Stamp(inode: 4, size: 12, modified: 700)
        #expect(scan(["vixen.md": renamed, "wren.md": third]) == [])
        #expect(scan(["vixen.md": renamed, "wren.md": settled]) == ["wren.md modified"])
        // Settled: its bytes no longer read, and nothing said.
        #expect(scan(["vixen.md": renamed, "wren.md": settled]) == [])
        #expect(scan(["vixen.md": renamed, "wren.md": settled]) == [])
        // A stamp said without its bytes takes them from a scan that read them, and says nothing.
        var read = renamed
        read.digest = "3"
        #expect(scan(["vixen.md": read, "wren.md": settled]) == [])
        #expect(scan(["vixen.md": read, "wren.md": settled]) == [])
        #expect(said["vixen.md"]?.digest == "3")
    }

    /// A scan reads the bytes of a file changed just before it, not of one changed long before:
    /// a second write of the same length with the time of the first is another stamp.
    @Test func pollingReadsTheBytesOfAFileChangedJustBefore() throws {
        let dir = TemporaryDirectory()
        try dir.write("---\nname: Fox\n---\n", to: "content/animals/fox.md")
        try dir.write("---\nname: Owl\n---\n", to: "content/animals/owl.md")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: dir.appending("content/animals/owl.md"))
        try markJustChanged(dir.appending("content/animals/fox.md"))
        let watcher = PollingWatcher(root: dir.path, interval: .seconds(1)) { _ in }
        let before = watcher.scan()
        #expect(before["content/animals/fox.md"]?.digest != nil && before["content/animals/owl.md"]?.digest == nil)
        var st = stat()
        #expect(stat(dir.appending("content/animals/fox.md"), &st) == 0)
        try overwriteKeepingMetadata(dir.appending("content/animals/fox.md"), Data("---\nname: Fix\n---\n".utf8), as: st)
        let after = watcher.scan()
        #expect(after["content/animals/fox.md"] != before["content/animals/fox.md"])
        #expect(after["content/animals/owl.md"] == before["content/animals/owl.md"])
    }

    @Test(arguments: strategies)
    func watchesNewFoldersAndTemplates(strategy: SiteWatcher.Strategy) async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, strategy)
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(100))
        // A new folder with a file written at once (before a watch on it can exist) …
        try dir.write("---\nname: {en: Robin}\n---\n", to: "content/animals/birds/robin.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "content/animals/birds/robin.md" && $0.kind == .record } })
        recorder.reset()
        // … and a file written into it later.
        try await Task.sleep(for: .milliseconds(100))
        try dir.write("---\nname: {en: Wren}\n---\n", to: "content/animals/birds/wren.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "content/animals/birds/wren.md" && $0.event == .created } })
        recorder.reset()
        try dir.write("body{}", to: "templates/assets/css/extra.css")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "templates/assets/css/extra.css" && $0.kind == .asset } })
        recorder.reset()
        try FileManager.default.removeItem(atPath: dir.appending("content/animals/fox.md"))
        #expect(await recorder.wait { $0.flatMap { $0 }.contains(ChangedPath(path: "content/animals/fox.md", kind: .record, event: .removed)) })
    }

    @Test(arguments: strategies)
    func coalescesABurst(strategy: SiteWatcher.Strategy) async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, strategy, quiet: .milliseconds(300), maxDelay: .seconds(3))
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(100))
        for i in 0..<20 {
            try dir.write("---\nname: {en: A\(i)}\n---\n", to: "content/animals/a\(i).md")
        }
        #expect(await recorder.wait { $0.flatMap { $0 }.count >= 20 })
        try await Task.sleep(for: .milliseconds(700))
        #expect(recorder.all.count <= 2)
        #expect(Set(recorder.all.flatMap { $0 }.map(\.path)).count == 20)
    }

    /// A file in `templates/` that is a link to a file outside the site (a stylesheet several
    /// sites share): saving that file is a change of the link, whether the editor writes it in
    /// place or renames a new file over it, and also for a link made after the watch began.
    @Test(arguments: strategies)
    func seesEditsOfWhatALinkLeadsTo(strategy: SiteWatcher.Strategy) async throws {
        let dir = try makeRoot()
        let shared = TemporaryDirectory("bestiary-watch-shared")
        try shared.write("body{color:red}", to: "theme/shared.css")
        try shared.write("p{}", to: "theme/later.css")
        try FileManager.default.createDirectory(atPath: dir.appending("templates/assets/css"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appending("templates/assets/css/shared.css"), withDestinationPath: shared.appending("theme/shared.css"))
        let (watcher, recorder) = start(dir, strategy)
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(150))
        let link = ChangedPath(path: "templates/assets/css/shared.css", kind: .asset, event: .modified)
        // Written in place …
        try shared.write("body{color:blue}", to: "theme/shared.css")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains(link) })
        recorder.reset()
        // … and saved as editors save: a new file renamed over it.
        try await Task.sleep(for: .milliseconds(100))
        try shared.write("body{color:green;margin:0}", to: "theme/.shared.css.tmp")
        rename(shared.appending("theme/.shared.css.tmp"), shared.appending("theme/shared.css"))
        // (Polling sees a new file there: it compares inodes.)
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == link.path && $0.kind == .asset } })
        // A link made while watching: what it leads to is watched from then on.
        try FileManager.default.createSymbolicLink(atPath: dir.appending("templates/assets/css/later.css"), withDestinationPath: shared.appending("theme/later.css"))
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "templates/assets/css/later.css" } })
        try await Task.sleep(for: .milliseconds(200))
        recorder.reset()
        try shared.write("p{margin:1px}", to: "theme/later.css")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains(ChangedPath(path: "templates/assets/css/later.css", kind: .asset, event: .modified)) })
        // Files beside the shared one are not the site's.
        recorder.reset()
        try shared.write("x", to: "theme/unrelated.css")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!recorder.all.flatMap { $0 }.contains { $0.path.contains("unrelated") })
    }

    @Test func templatesFolderCreatedLaterIsWatched() async throws {
        let dir = TemporaryDirectory("bestiary-watch")
        try dir.write("title: x\n", to: "content/site.yml")
        let (watcher, recorder) = start(dir, .automatic)
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(100))
        try FileManager.default.createDirectory(atPath: dir.appending("templates/layouts"), withIntermediateDirectories: true)
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.kind == .everything } })
        recorder.reset()
        try await Task.sleep(for: .milliseconds(100))
        try dir.write("<p></p>", to: "templates/layouts/page.html")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "templates/layouts/page.html" && $0.kind == .template } })
    }

    @Test func deliversNothingAfterStop() async throws {
        let dir = try makeRoot()
        let (watcher, recorder) = start(dir, .automatic)
        watcher.stop()
        try dir.write("x", to: "content/animals/fox.md")
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.all.isEmpty)
    }
}

/// Running out of inotify watches (`fs.inotify.max_user_watches`) falls back to polling, at start
/// or later, and says so. The limit is simulated: the real one is system-wide.
@Suite(.serialized) struct WatchLimitTests {
    final class Notes: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.withLock { items.append(s) } }
        var all: [String] { lock.withLock { items } }
    }

    @Test func fallsBackToPollingAtStart() async throws {
        let dir = TemporaryDirectory("bestiary-watch")
        try dir.write("title: x\n", to: "content/site.yml")
        try dir.write("---\nname: {en: Fox}\n---\n", to: "content/animals/fox.md")
        let recorder = BatchRecorder()
        let notes = Notes()
        let watcher = SiteWatcher(root: dir.path, onNote: { notes.add($0) }) { recorder.add($0) }
        watcher.inotifyWatchLimit = 2  // the root and content/, not content/animals
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.description == "polling every 0.5 s")
        #expect(notes.all.contains { $0.contains("inotify watch limit") })
        try dir.write("---\nname: {en: Red fox}\n---\n", to: "content/animals/fox.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "content/animals/fox.md" } })
    }

    @Test func fallsBackToPollingWhenANewFolderExceedsTheLimit() async throws {
        let dir = TemporaryDirectory("bestiary-watch")
        try dir.write("title: x\n", to: "content/site.yml")
        try dir.write("---\nname: {en: Fox}\n---\n", to: "content/animals/fox.md")
        let recorder = BatchRecorder()
        let notes = Notes()
        let watcher = SiteWatcher(root: dir.path, onNote: { notes.add($0) }) { recorder.add($0) }
        watcher.inotifyWatchLimit = 3  // the root, content/, content/animals
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.description == "inotify")
        try dir.write("---\nname: {en: Robin}\n---\n", to: "content/animals/birds/robin.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.kind == .everything } })
        #expect(watcher.description == "polling every 0.5 s")
        #expect(notes.all.contains { $0.contains("watching by polling from now on") })
        recorder.reset()
        try dir.write("---\nname: {en: Wren}\n---\n", to: "content/animals/birds/wren.md")
        #expect(await recorder.wait { $0.flatMap { $0 }.contains { $0.path == "content/animals/birds/wren.md" } })
    }
}
