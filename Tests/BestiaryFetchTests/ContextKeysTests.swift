import BestiaryDiagnostics
import BestiarySite
import BestiaryTemplate
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryRender

/// The theme check's list of the names page contexts hold (``ContextKeys``) is what the contexts
/// really hold: a site with every kind of page and value (a Wikipedia summary and picture, a
/// sound, a record's picture, a description, a hint, a body in two languages, a free page) is
/// built, and every key of every context rendered is collected.
@Suite(.serialized)
struct ContextKeysTests {
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var keys = Set<String>()

        func add(_ context: [String: TemplateValue]) {
            var found = Set<String>()
            func walk(_ value: TemplateValue) {
                switch value {
                case .object(let members):
                    for (key, member) in members {
                        found.insert(key)
                        // The interface texts are checked against the theme's tables, not this list.
                        if key != "t" { walk(member) }
                    }
                case .list(let items): items.forEach(walk)
                case .keyed(let list): list.items.forEach(walk)
                default: break
                }
            }
            walk(.object(context))
            lock.withLock { keys.formUnion(found) }
        }

        var all: Set<String> { lock.withLock { keys } }
    }

    @Test func theListOfContextKeysIsWhatThePagesContextsHold() async throws {
        let wiki = try await FakeWikipedia.start()
        defer { Task { await wiki.stop() } }
        _ = try await FetchThenBuildTests.fetchedDog(wiki)
        let tux = Fixtures.repositoryRoot + "/Tests/Fixtures/sites/tuxpaint/content"
        try wiki.dir.write(try Data(contentsOf: URL(fileURLWithPath: tux + "/sounds/badger.ogg")), to: "content/sounds/badger.ogg")
        try wiki.dir.write(try Data(contentsOf: URL(fileURLWithPath: tux + "/images/badger.png")), to: "content/images/badger.png")
        try wiki.dir.write("""
            ---
            name: {de: Dachs, en: Badger}
            scientific: Meles meles
            group: mammal
            difficulty: 2
            tags: [forest]
            habitat: {en: Woods}
            conservation: LC
            description: {de: Ein Marder., en: A marten.}
            hint: {en: It digs.}
            sound: {file: sounds/badger.ogg, credit: Tux Paint, license: GPL-2.0-or-later, source: "https://tuxpaint.org/"}
            image: {file: images/badger.png, credit: Tux Paint, license: GPL-2.0-or-later, source: "https://tuxpaint.org/", focus: "50% 20%"}
            ---
            Der Dachs gräbt.
            """, to: "content/animals/dachs.md")
        try wiki.dir.write("The badger digs.\n", to: "content/animals/dachs.en.md")
        try wiki.dir.write("---\ntitle: {de: Über, en: About}\n---\nText.\n", to: "content/pages/about.md")

        let collected = Collected()
        // Only this site's renders (other suites render at the same time): its theme has a probe.
        try wiki.dir.write("{{! only here }}\n", to: "templates/partials/context-keys-probe.html")
        Templates.observation.set { templates, _, context in
            if templates.names.contains("partials.context-keys-probe") { collected.add(context) }
        }
        defer { Templates.observation.set(nil) }
        var options = BuildOptions(root: wiki.dir.path, output: wiki.dir.appending("out"), environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        // The built-in theme names no value the contexts lack.
        let render = builder.diagnostics.items.filter { $0.stage == "render" }
        #expect(render.isEmpty, "\(render.map(DiagnosticFormatter.text))")

        let held = collected.all
        #expect(held.subtracting(ContextKeys.all.union(ContextKeys.markdownOnly)).sorted() == [], "a context holds a key the list lacks")
        #expect(ContextKeys.all.subtracting(held).sorted() == [], "the list names a key no context holds")
        #expect(held.isSuperset(of: ContextKeys.markdownOnly))
    }

    /// Every name of the list is in docs/theming.md, where theme authors look for them.
    @Test func everyContextKeyIsDocumented() throws {
        let docs = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/theming.md", encoding: .utf8)
        let undocumented = ContextKeys.all.union(ContextKeys.markdownOnly).filter { key in
            !docs.contains("`\(key)`") && !docs.contains("`\(key)[]`") && !docs.contains("{{{\(key)}}}")
        }
        #expect(undocumented.sorted() == [])
    }
}
