import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// `bestiary init --update-theme` in a site an earlier version made: a theme file that is an
/// earlier Bestiary's default, never changed, is brought up to date (it kept the site on that
/// version's theme without a word: found by a theme designer). Nothing else is written: a file
/// its owner changed is kept and named, a deleted one stays deleted, a link stays a link.
struct SiteScaffoldTests {
    @Test func anUpgradeReplacesUnchangedEarlierDefaultsOnly() throws {
        let dir = TemporaryDirectory("scaffold")
        let theme: [String: Data] = [
            "service-worker/sw.js": Data("// this version\n".utf8),
            "assets/css/site.css": Data("body { color: black }\n".utf8),
            "layouts/base.html": Data("<html>now</html>\n".utf8),
            "layouts/page.html": Data("<main>now</main>\n".utf8),
            "partials/card.html": Data("<li>now</li>\n".utf8),
        ]
        let earlierWorker = Data("// an earlier version\n".utf8)
        let earlierStyle = Data("body { color: gray }\n".utf8)
        let earlierCard = Data("<li>then</li>\n".utf8)
        let earlier: [String: Set<String>] = [
            "service-worker/sw.js": [Hashing.sha256Hex(earlierWorker)], "assets/css/site.css": [Hashing.sha256Hex(earlierStyle)],
            "partials/card.html": [Hashing.sha256Hex(earlierCard)],
        ]
        try dir.write("title: Mine\n", to: "content/site.yml")
        try dir.write(earlierWorker, to: "templates/service-worker/sw.js")
        // The owner's change of an earlier default: theirs.
        try dir.write("body { color: gray } /* museum */\n", to: "templates/assets/css/site.css")
        // Already this version's.
        try dir.write("<html>now</html>\n", to: "templates/layouts/base.html")
        // A link to a file shared by several sites, with an earlier default's bytes: left a link.
        try dir.write(earlierCard, to: "shared/card.html")
        try FileManager.default.createDirectory(atPath: dir.appending("templates/partials"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appending("templates/partials/card.html"), withDestinationPath: dir.appending("shared/card.html"))

        let result = try SiteScaffold.updateTheme(at: dir.path, theme: theme, earlier: earlier)
        #expect(result.updated == ["templates/service-worker/sw.js"])
        #expect(result.changed == ["templates/assets/css/site.css"])
        #expect(try dir.read("templates/service-worker/sw.js") == "// this version\n")
        #expect(try dir.read("templates/assets/css/site.css") == "body { color: gray } /* museum */\n")
        #expect(!dir.exists("templates/layouts/page.html"), "a deleted theme file stays deleted")
        #expect(!dir.exists("content/animals/red-fox.md"), "no starter record comes back")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appending("templates/partials/card.html")) == dir.appending("shared/card.html"))
        #expect(try dir.read("shared/card.html") == "<li>then</li>\n")
    }

    @Test func aFolderThatIsNoSiteIsRefused() {
        let dir = TemporaryDirectory("scaffold")
        #expect(throws: (any Error).self) { try SiteScaffold.updateTheme(at: dir.path, theme: [:], earlier: [:]) }
    }
}
