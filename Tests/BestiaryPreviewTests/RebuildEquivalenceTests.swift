import BestiaryDiagnostics
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview
@testable import BestiarySite

/// What the preview's rebuilder leaves in the output after each of a series of edits, additions,
/// deletions, media, template and configuration changes is byte for byte what a fresh full build
/// of the same inputs makes, and a one-record edit renders and writes only what shows the record.
@Suite struct RebuildEquivalenceTests {
    static let environment = ["SOURCE_DATE_EPOCH": "1767225600"]

    final class Session {
        let dir = TemporaryDirectory("bestiary-equivalence")
        let root: String
        let rebuilder: SiteRebuilder
        var fresh = 0

        /// `onStage`: called after each stage of every rebuild (the rebuilder's progress line).
        init(onStage: (@Sendable (BuildReport.Stage, Int, Int) -> Void)? = nil) throws {
            root = dir.appending("site")
            try Fixtures.copy("sites/tuxpaint", to: root)
            rebuilder = SiteRebuilder(
                options: BuildOptions(root: root, output: dir.appending("preview"), environment: environment), onStage: onStage)
            _ = try rebuilder.rebuild(changes: [.everything])
        }

        func read(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }
        func write(_ text: String, _ path: String) throws { try dir.write(text, to: "site/" + path) }
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let text = try read(path)
            #expect(text.contains(old), "\(path) has no '\(old)'")
            try write(text.replacingOccurrences(of: old, with: new), path)
        }
        func defaultTheme(_ path: String) throws -> String {
            try String(contentsOfFile: Fixtures.repositoryRoot + "/templates/" + path, encoding: .utf8)
        }

        /// Applies a change, rebuilds, and compares the preview's output with a fresh build's.
        @discardableResult
        func step(_ paths: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> RebuildResult {
            try change()
            let result = try rebuilder.rebuild(changes: paths.map { ChangedPath(classifying: $0) })
            fresh += 1
            var options = BuildOptions(root: root, output: dir.appending("fresh-\(fresh)"), environment: RebuildEquivalenceTests.environment)
            options.recordsPackVersions = false
            options.force = true
            _ = try SiteBuilder(options: options).build()
            let preview = try Tree(dir.appending("preview")), full = try Tree(dir.appending("fresh-\(fresh)"))
            #expect(preview.differences(from: full) == [], "after changing \(paths)", sourceLocation: sourceLocation)
            return result
        }
    }

    @Test func eachRebuildEqualsAFreshBuild() throws {
        let s = try Session()
        let pages = s.rebuilder.memo.pagesRendered + s.rebuilder.memo.pagesReused

        // One record: its pages, the lists, the cards that show it; not the other animals' pages.
        let bear = try s.step(["content/animals/bear.md"]) {
            try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        }
        let changed = bear.changedOutputs ?? []
        #expect(changed.contains("animals/bear/index.html"))
        #expect(changed.contains("collection/index.html"))
        #expect(!changed.contains("animals/crow/index.html"))
        #expect(!changed.contains("offline/index.html"))
        // Bear is a "similar" card on six mammal pages; those are rendered again, the birds' are not.
        #expect(s.rebuilder.memo.pagesRendered < pages * 3 / 4, "\(s.rebuilder.memo.pagesRendered) of \(pages) pages rendered")

        // In each language: its page, the six that list every animal or load the quiz catalogue
        // (home, quiz, collection, sightings, credits, settings) and the six that show it as a card;
        // and the rest of the app shell (the offline pages and the 404 page), which is always
        // rendered, as in a one-shot rebuild: the service worker's version digests its bytes.
        try s.step(["content/animals/zebra.md"]) { try s.edit("content/animals/zebra.md", "name: {en: Zebra,", "name: {en: Plains zebra,") }
        #expect(s.rebuilder.memo.pagesRendered == 29, "\(s.rebuilder.memo.pagesRendered) of \(pages) pages rendered")

        try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "group: mammal", "group: bird\ndifficulty: 3") }
        try s.step(["content/animals/bear.de.md"]) { try s.write("Ein großer Bär.\n", "content/animals/bear.de.md") }
        try s.step(["content/animals/okapi.md"]) { try s.write("---\nname: {en: Okapi, de: Okapi}\ngroup: mammal\n---\n\nA forest giraffe.\n", "content/animals/okapi.md") }
        try s.step(["content/animals/zebra.md"]) { try FileManager.default.removeItem(atPath: s.root + "/content/animals/zebra.md") }
        // The same media path with other bytes.
        try s.step(["content/sounds/bear.ogg"]) {
            try FileManager.default.removeItem(atPath: s.root + "/content/sounds/bear.ogg")
            try FileManager.default.copyItem(atPath: s.root + "/content/sounds/badger.ogg", toPath: s.root + "/content/sounds/bear.ogg")
        }
        try s.step(["content/pages/about.md"]) { try s.write("---\ntitle: {en: About, de: Über}\n---\n\nHello.\n", "content/pages/about.md") }
        try s.step(["content/pages/about.md"]) { try s.edit("content/pages/about.md", "Hello.", "Hello again.") }
        try s.step(["content/pages/about.md"]) { try s.edit("content/pages/about.md", "en: About", "en: About us") }

        // A layout: the pages made with it, and no others.
        let layout = try s.step(["templates/layouts/animal.html"]) {
            try s.write(s.defaultTheme("layouts/animal.html") + "<!-- custom animal layout -->\n", "templates/layouts/animal.html")
        }
        #expect(layout.changedOutputs?.contains("animals/crow/index.html") == true)
        #expect(layout.changedOutputs?.contains("index.html") == false)
        try s.step(["templates/markdown/animal.md"]) {
            try s.write(s.defaultTheme("markdown/animal.md") + "\n*Made here.*\n", "templates/markdown/animal.md")
        }
        try s.step(["templates/assets/css/site.css"]) { try s.write("body { color: teal; }\n", "templates/assets/css/site.css") }
        try s.step(["templates/partials/footer.html"]) {
            try s.write("<footer class=\"custom\">{{site_title}}</footer>\n", "templates/partials/footer.html")
        }
        try s.step(["content/site.yml"]) {
            try s.edit("content/site.yml", "title: {en: Tux Paint animals, de: Tux-Paint-Tiere}", "title: {en: Our animals, de: Unsere Tiere}")
        }
        try s.step(["content/animals/okapi.md"]) { try FileManager.default.removeItem(atPath: s.root + "/content/animals/okapi.md") }

        let unchanged = try s.rebuilder.rebuild(changes: [])  // nothing changed: no stage runs
        #expect(unchanged.upToDate && unchanged.changedOutputs == [])
        let preview = try Tree(s.dir.appending("preview"))
        #expect(String(decoding: preview.files["animals/bear/index.html"] ?? Data(), as: UTF8.self).contains("Brown bear"))
        #expect(String(decoding: preview.files["index.html"] ?? Data(), as: UTF8.self).contains("<footer class=\"custom\">"))
        #expect(!preview.files.keys.contains("animals/zebra/index.html"))
    }

    /// A text that changes only its Unicode form (a composed `ä` written as `a` and a combining
    /// diaeresis, as an editor that normalises on save does) is another page: the output's bytes
    /// change although Swift's `==` takes the two texts as one. A preview that reused what it
    /// digested for keys that were `==` kept the old pages (found by a reviewer, stop 78).
    @Test func aTextInAnotherUnicodeFormIsAnotherPage() throws {
        let s = try Session()
        let composed = "de: B\u{E4}r", decomposed = "de: Ba\u{308}r"
        #expect(composed == decomposed)  // the trap: equal as Swift strings, not as bytes
        // Replaced as bytes (Foundation's string search may match either form).
        func respell(_ old: String, _ new: String) throws {
            let path = s.root + "/content/animals/bear.md"
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let from = Array(old.utf8), to = Array(new.utf8)
            let at = try #require(bytes.indices.first { bytes[$0...].starts(with: from) }, "bear.md has no '\(old)' in these bytes")
            bytes.replaceSubrange(at..<at + from.count, with: to)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        try s.step(["content/animals/bear.md"]) { try respell(composed, decomposed) }
        let page = try Data(contentsOf: URL(fileURLWithPath: s.dir.appending("preview/de/animals/bear/index.html")))
        #expect(page.range(of: Data("Ba\u{308}r".utf8)) != nil, "the German page shows the name as the record now spells it")
        try s.step(["content/animals/bear.md"]) { try respell(decomposed, composed) }
    }

    /// A file of the output changed by hand is put back by the next rebuild, even when its page
    /// did not change.
    @Test func aTouchedOutputFileIsRepaired() throws {
        let s = try Session()
        try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        try s.dir.write("defaced", to: "preview/animals/crow/index.html")
        try FileManager.default.removeItem(atPath: s.dir.appending("preview/animals/owl/index.html"))
        let result = try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        #expect(result.changedOutputs?.contains("animals/crow/index.html") == true)
    }

    /// A record edited while a rebuild runs, after the rebuild walked the inputs: the rebuild
    /// records the walk it was made from, which that file no longer matches, so the rebuild the
    /// watcher asks for next is not "up to date" and makes what a build from nothing makes.
    @Test func aRecordEditedWhileARebuildRunsIsFoundByTheNext() throws {
        final class Hook: @unchecked Sendable {
            private let lock = NSLock()
            private var action: (() -> Void)?
            /// Sets the action run once, after the next load stage.
            func arm(_ run: @escaping () -> Void) { lock.withLock { action = run } }
            func fire() { lock.withLock { () -> (() -> Void)? in defer { action = nil }; return action }?() }
        }
        let hook = Hook()
        let s = try Session(onStage: { stage, _, _ in if stage.name == "load" { hook.fire() } })
        let crow = s.root + "/content/animals/crow.md"
        var edited = false
        hook.arm { edited = (try? (String(contentsOfFile: crow, encoding: .utf8) + "\nSeen on the roof.\n").writeReplacing(toFile: crow)) != nil }
        try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        let racing = try s.rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/bear.md")])
        #expect(edited && !racing.upToDate, "a rebuild, with the edit made during it")
        #expect(!(try String(contentsOfFile: s.dir.appending("preview/animals/crow/index.html"), encoding: .utf8).contains("Seen on the roof")))
        let next = try s.step(["content/animals/crow.md"]) {}
        #expect(!next.upToDate)
        #expect(try String(contentsOfFile: s.dir.appending("preview/animals/crow/index.html"), encoding: .utf8).contains("Seen on the roof"))
        #expect(try s.rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/crow.md")]).upToDate)
    }

    /// A record changed again within its clock's resolution after a rebuild read it keeps the
    /// metadata that rebuild's walk found: the rebuild the watcher asks for next finds its bytes
    /// other than those the walk's build recorded, and is no "up to date".
    @Test func aRecordChangedAgainWithTheMetadataTheWalkFoundIsRebuilt() throws {
        let s = try Session()
        try s.step(["content/animals/crow.md"]) {
            try s.edit("content/animals/crow.md", "name: {en: Crow,", "name: {en: Crows,")
            try markJustChanged(s.root + "/content/animals/crow.md")
        }
        let crow = s.root + "/content/animals/crow.md"
        var before = stat()
        #expect(stat(crow, &before) == 0)
        try overwriteKeepingMetadata(crow, Data(try s.read("content/animals/crow.md").replacingOccurrences(of: "en: Crows,", with: "en: Crowz,").utf8), as: before)
        let next = try s.step(["content/animals/crow.md"]) {}
        #expect(!next.upToDate)
        #expect(try String(contentsOfFile: s.dir.appending("preview/animals/crow/index.html"), encoding: .utf8).contains("Crowz"))
        #expect(try s.rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/crow.md")]).upToDate)
    }

    /// A rebuild that fails after render (here in the packs stage: a damaged pack history) leaves
    /// the output as it was; the next one, once the history is repaired, writes every page the
    /// failed one had rendered again (the render memo is forgotten: it described pages the output
    /// never got, so the bear's page would have stayed the old one).
    @Test func aRebuildThatFailsAfterRenderLeavesNoPageBehind() throws {
        let s = try Session()
        try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        try s.write("damaged\n", "content/packs.lock")
        #expect(throws: DiagnosticError.self) {
            try s.rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/bear.md"), ChangedPath(classifying: "content/packs.lock")])
        }
        #expect(try !String(contentsOfFile: s.dir.appending("preview/animals/bear/index.html"), encoding: .utf8).contains("Brown bear"))
        try s.step(["content/packs.lock"]) { try FileManager.default.removeItem(atPath: s.root + "/content/packs.lock") }
        #expect(try String(contentsOfFile: s.dir.appending("preview/animals/bear/index.html"), encoding: .utf8).contains("Brown bear"))
    }

    /// The pack history one rebuild replayed is taken by the next while `content/packs.lock`
    /// holds the same bytes (the preview never writes it); a history changed by another hand is
    /// read again: one damaged in place, same size, fails the rebuild as it fails a build.
    @Test func thePackHistoryIsReplayedAgainWhenItsBytesChanged() throws {
        let s = try Session()
        // Versions recorded, as a one-shot build records them.
        for tags in ["tags: [bears, big]", "tags: [bears]"] {
            try s.edit("content/animals/bear.md", tags == "tags: [bears]" ? "tags: [bears, big]" : "tags: [bears]", tags)
            _ = try SiteBuilder(options: BuildOptions(root: s.root, output: s.dir.appending("out"), environment: Self.environment)).build()
        }
        let path = s.root + "/content/packs.lock"
        let recorded = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recorded.components(separatedBy: "\nversion ").count >= 3, "versions recorded: \(recorded)")
        try s.step(["content/packs.lock", "content/animals/bear.md"]) {}
        let memo = s.rebuilder.memo
        #expect(memo.packHistoryKept(Data(recorded.utf8)), "the replayed history is kept")
        try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }

        // The newest version's digest changed, one hex digit for another.
        let digest = try #require(recorded.range(of: "digest ", options: .backwards))
        var damaged = recorded
        let at = damaged.index(digest.upperBound, offsetBy: 3)
        damaged.replaceSubrange(at...at, with: damaged[at] == "0" ? "1" : "0")
        try damaged.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: DiagnosticError.self) {
            try s.rebuilder.rebuild(changes: [ChangedPath(classifying: "content/packs.lock")])
        }
        try recorded.write(toFile: path, atomically: false, encoding: .utf8)
        try s.step(["content/packs.lock"]) {}
    }

    /// An output folder deleted while the preview runs is written anew by the next rebuild (not
    /// refused as "not the output this preview wrote").
    @Test func aDeletedOutputFolderIsWrittenAnew() throws {
        let s = try Session()
        try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        try FileManager.default.removeItem(atPath: s.dir.appending("preview"))
        let result = try s.step(["content/animals/bear.md"]) { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        #expect(result.changedOutputs == nil, "a whole new output, so every open page reloads")
    }
}
