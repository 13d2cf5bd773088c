import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary init --force` in a site an earlier version made: a theme file that is an earlier
/// Bestiary's default, never changed, is brought up to date (it kept the site on that version's
/// theme without a word: found by a theme designer); a file its owner changed is kept, and named.
struct SiteScaffoldTests {
    @Test func anUpgradeReplacesUnchangedEarlierDefaultsAndKeepsTheOwnersChanges() throws {
        let dir = TemporaryDirectory("scaffold")
        let theme: [String: Data] = [
            "service-worker/sw.js": Data("// this version\n".utf8),
            "assets/css/site.css": Data("body { color: black }\n".utf8),
            "layouts/base.html": Data("<html>now</html>\n".utf8),
        ]
        let earlierWorker = Data("// an earlier version\n".utf8)
        let earlierStyle = Data("body { color: gray }\n".utf8)
        let earlier: [String: Set<String>] = [
            "service-worker/sw.js": [Hashing.sha256Hex(earlierWorker)],
            "assets/css/site.css": [Hashing.sha256Hex(earlierStyle)],
        ]
        try dir.write("title: Mine\n", to: "content/site.yml")
        try dir.write(String(decoding: earlierWorker, as: UTF8.self), to: "templates/service-worker/sw.js")
        // The owner's change of an earlier default: theirs.
        try dir.write("body { color: gray } /* museum */\n", to: "templates/assets/css/site.css")
        // Already this version's.
        try dir.write("<html>now</html>\n", to: "templates/layouts/base.html")

        let result = try SiteScaffold.create(at: dir.path, theme: theme, earlier: earlier, force: true)
        #expect(result.updated == ["templates/service-worker/sw.js"])
        #expect(result.changedTheme == ["templates/assets/css/site.css"])
        #expect(try dir.read("templates/service-worker/sw.js") == "// this version\n")
        #expect(try dir.read("templates/assets/css/site.css") == "body { color: gray } /* museum */\n")
        #expect(try dir.read("content/site.yml") == "title: Mine\n")
        #expect(result.kept.contains("templates/layouts/base.html") && result.kept.contains("content/site.yml"))
    }
}
