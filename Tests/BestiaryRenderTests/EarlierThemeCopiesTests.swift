import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
import BestiaryTheme
import Foundation
import Testing

@testable import BestiaryRender

/// `check` and the build say when a site's theme files are an earlier Bestiary's defaults, never
/// changed: they win over the built-in ones, so after an upgrade the site kept that version's
/// files, and bugs, without a word (found by a theme designer).
struct EarlierThemeCopiesTests {
    @Test func earlierDefaultsAreNamedAndTheOwnersChangesAreNot() throws {
        let worker = Data("// an earlier service worker\n".utf8)
        let style = Data("body { color: gray }\n".utf8)
        let earlier: [String: Set<String>] = [
            "service-worker/sw.js": [Hashing.sha256Hex(worker)], "assets/css/site.css": [Hashing.sha256Hex(style)],
        ]
        var theme = Theme.builtIn
        theme.files["service-worker/sw.js"] = Theme.File(data: worker, origin: "templates/service-worker/sw.js", isOverride: true)
        let one = PreparedTheme.earlierCopies(in: theme, earlier: earlier)
        #expect(one.count == 1)
        #expect(one.first?.location?.path == "templates/service-worker/sw.js")
        #expect(one.first?.message.hasPrefix("templates/service-worker/sw.js is the default theme's file as an earlier Bestiary made it, never changed since") == true)
        #expect(one.first?.message.contains("run `bestiary init --update-theme` in the site") == true)

        // The owner's change of an earlier file is theirs; this version's own file is no copy to warn about.
        theme.files["assets/css/site.css"] = Theme.File(data: Data("body { color: gray } /* museum */\n".utf8), origin: "templates/assets/css/site.css", isOverride: true)
        theme.files["layouts/base.html"] = Theme.File(data: DefaultTheme.files["layouts/base.html"]!, origin: "templates/layouts/base.html", isOverride: true)
        #expect(PreparedTheme.earlierCopies(in: theme, earlier: earlier).count == 1)
        // Several: one warning at templates/, naming them.
        theme.files["assets/css/site.css"] = Theme.File(data: style, origin: "templates/assets/css/site.css", isOverride: true)
        let two = PreparedTheme.earlierCopies(in: theme, earlier: earlier)
        #expect(two.map(\.location?.path) == ["templates"])
        #expect(two.first?.message.hasPrefix("2 files in templates/ are the default theme's as an earlier Bestiary made them, never changed since (assets/css/site.css, service-worker/sw.js)") == true)
    }

    /// The list the warning goes by is this repository's history: every path in it is a theme
    /// file's, and none is the version built in now (scripts/theme_history.py; its test checks
    /// the list against git).
    @Test func theListHoldsOnlyEarlierVersions() {
        #expect(!DefaultTheme.earlierDigests.isEmpty)
        for (path, digests) in DefaultTheme.earlierDigests {
            if let now = DefaultTheme.files[path] { #expect(!digests.contains(Hashing.sha256Hex(now)), "\(path)") }
            #expect(digests.allSatisfy { $0.count == 64 })
        }
    }

    /// A `base.html` whose `<body>` lost the attributes the scripts read is warned about, naming
    /// them; the default theme's, and one that keeps them, are not.
    @Test func aBodyWithoutTheScriptsAttributesIsNamed() throws {
        var theme = Theme.builtIn
        #expect(PreparedTheme.bodyHooksProblems(in: theme).isEmpty)
        let base = String(decoding: DefaultTheme.files["layouts/base.html"]!, as: UTF8.self)
        let body = try #require(base.range(of: "<body")).lowerBound
        let end = try #require(base[body...].range(of: ">")).upperBound
        theme.files["layouts/base.html"] = Theme.File(
            data: Data(base.replacingCharacters(in: body..<end, with: "<body class=\"museum\">").utf8), origin: "templates/layouts/base.html", isOverride: true)
        let problem = try #require(PreparedTheme.bodyHooksProblems(in: theme).first)
        #expect(problem.message.hasPrefix("the page's <body> lacks data-page, data-lang, data-languages, data-root, data-lang-root, data-site-id, data-catalog, data-sw, which the web app's scripts read"))
        #expect(problem.location?.path == "templates/layouts/base.html")
        theme.files["layouts/base.html"] = Theme.File(data: Data(("<!-- museum -->\n" + base).utf8), origin: "templates/layouts/base.html", isOverride: true)
        #expect(PreparedTheme.bodyHooksProblems(in: theme).isEmpty)
        // data-site-title may be left out (a base.html an earlier init copied has none).
        let noTitle = base.replacingOccurrences(of: " data-site-title=\"{{site_title}}\"", with: "")
        #expect(noTitle != base)
        theme.files["layouts/base.html"] = Theme.File(data: Data(noTitle.utf8), origin: "templates/layouts/base.html", isOverride: true)
        #expect(PreparedTheme.bodyHooksProblems(in: theme).isEmpty)
        // A layout of its own <html>, not extending base, is said at that layout; an empty one
        // (its pages were empty files) as empty; one that extends base passes.
        theme.files["layouts/home.html"] = Theme.File(
            data: Data("<!doctype html><html><body><h1>{{site_title}}</h1></body></html>\n".utf8), origin: "templates/layouts/home.html", isOverride: true)
        theme.files["layouts/page.html"] = Theme.File(data: Data("\n".utf8), origin: "templates/layouts/page.html", isOverride: true)
        theme.files["layouts/animal.html"] = Theme.File(data: Data("{{< layouts.base }}{{$main}}<p>museum</p>{{/main}}{{/layouts.base}}\n".utf8), origin: "templates/layouts/animal.html", isOverride: true)
        // Through a layout of the site's own that extends base.
        theme.files["layouts/museum.html"] = Theme.File(data: Data("{{<layouts.base}}{{$main}}<div class=\"museum\">{{$inner}}{{/inner}}</div>{{/main}}{{/layouts.base}}\n".utf8), origin: "templates/layouts/museum.html", isOverride: true)
        theme.files["layouts/credits.html"] = Theme.File(data: Data("{{<layouts.museum}}{{$inner}}<p>credits</p>{{/inner}}{{/layouts.museum}}\n".utf8), origin: "templates/layouts/credits.html", isOverride: true)
        #expect(PreparedTheme.bodyHooksProblems(in: theme).map(DiagnosticFormatter.text) == [
            "templates/layouts/home.html:1:1: warning: this layout does not extend layouts.base ({{<layouts.base}} … {{/layouts.base}}), and its <body> lacks data-page, data-lang, data-languages, data-root, data-lang-root, data-site-id, data-catalog, data-sw, which the web app's scripts read (the quiz and the collection cannot load the animals without them); start it with {{<layouts.base}} and fill its blocks, as the default theme's layouts do, or keep the default theme's <body> attributes (docs/theming.md, \"Your own look\") [render]",
            "templates/layouts/page.html:1:1: error: this layout is empty, so every page it makes would be an empty file; write it, or delete it to use the default theme's [render]",
        ])
    }

    /// An empty layout stops the build (its pages would be empty files): a designer's build
    /// published 48 of them, and the open preview went blank without a word.
    @Test func anEmptyLayoutStopsTheBuild() throws {
        let work = TemporaryDirectory()
        try work.write("\n", to: "templates/layouts/animal.html")
        #expect {
            _ = try PreparedTheme.load(root: work.path, fileSystem: LocalFileSystem(), languages: ["en"], config: nil)
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.map(DiagnosticFormatter.text).contains(
                "templates/layouts/animal.html:1:1: error: this layout is empty, so every page it makes would be an empty file; write it, or delete it to use the default theme's [render]") == true
        }
    }
}
