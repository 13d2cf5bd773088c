import BestiaryDiagnostics
import Foundation
import Testing

@testable import BestiaryRender

/// A broken theme template is reported at its file, line and column, with a sentence.
struct TemplateDiagnosticsTests {
    /// The texts a theme names, read from its templates' text (for a theme one of whose
    /// templates does not compile), are those its compiled templates look up.
    @Test func theTextsReadFromTheTemplatesAreThoseTheyLookUp() throws {
        let templates = try Templates.compile(Theme.builtIn)
        let compiled = Set(templates.lookups.compactMap { $0.name.hasPrefix("t.") ? String($0.name.dropFirst(2)) : nil })
        #expect(compiled.count > 100)
        #expect(PreparedTheme.textNamesWritten(in: Theme.builtIn) == compiled)
    }

    func diagnostics(_ path: String, _ text: String) -> [String] {
        var theme = Theme.builtIn
        theme.files[path] = Theme.File(data: Data(text.utf8), origin: "templates/\(path)", isOverride: true)
        do {
            _ = try Templates.compile(theme)
            return []
        } catch {
            return error.diagnostics.map(DiagnosticFormatter.text)
        }
    }

    /// The built-in theme's interface texts with `files` (path below templates/ → JSON) put in,
    /// loaded: each problem as the command prints it; none when they load.
    /// The errors of the theme's assets with `file` (bytes) at `path`, as text; none when they build.
    func assetErrors(_ path: String, _ data: Data) -> [String] {
        var theme = Theme.builtIn
        theme.files[path] = Theme.File(data: data, origin: "templates/" + path, isOverride: true)
        do {
            _ = try AssetPipeline.build(theme)
            return []
        } catch {
            return error.diagnostics.map(DiagnosticFormatter.text)
        }
    }

    func textProblems(_ files: [String: String]) -> [String] {
        var theme = Theme.builtIn
        for (path, json) in files {
            theme.files[path] = Theme.File(data: Data(json.utf8), origin: "templates/\(path)", isOverride: true)
        }
        do {
            _ = try UIStrings.load(theme)
            return []
        } catch {
            return error.diagnostics.map(DiagnosticFormatter.text)
        }
    }

    /// The warnings about names no context holds, for the built-in theme with `path` replaced.
    func unknownNames(_ path: String, _ text: String) throws -> [String] {
        var theme = Theme.builtIn
        theme.files[path] = Theme.File(data: Data(text.utf8), origin: "templates/\(path)", isOverride: true)
        return ContextKeys.unknownNames(in: try Templates.compile(theme), strings: try UIStrings.load(theme)).map(DiagnosticFormatter.text)
    }

    @Test func theBuiltInThemeNamesOnlyValuesPagesHave() throws {
        #expect(ContextKeys.unknownNames(in: try Templates.compile(.builtIn), strings: try UIStrings.load(.builtIn)).isEmpty)
    }

    /// A misspelt name would render as nothing; it is warned about at its first tag in each file,
    /// with the closest name, inside sections and dotted names too; an interface text the tables
    /// lack likewise. Names of every depth and texts that are sections pass.
    @Test func aNameNoContextHoldsIsWarnedAboutAtItsTag() throws {
        let card = "<a href=\"{{href}}\">{{nmae}}</a>\n{{#image}}{{scr}}{{/image}} {{nmae}}\n{{{stats.with_sond}}} {{>*sound}}\n"
            + "{{t.nav.qiuz}} {{t.nav.quiz}} {{#t.nav}}{{/t.nav}} {{^animal.hint.text}}{{/animal.hint.text}} {{.}}\n"
        let warnings = try unknownNames("partials/card.html", card)
        #expect(warnings == [
            "templates/partials/card.html:1:20: warning: 'nmae' (in '{{nmae}}') is not a value Bestiary gives templates, so it renders as nothing; did you mean 'name'? (docs/theming.md lists the values) [render]",
            "templates/partials/card.html:2:11: warning: 'scr' (in '{{scr}}') is not a value Bestiary gives templates, so it renders as nothing; did you mean 'src'? (docs/theming.md lists the values) [render]",
            "templates/partials/card.html:3:1: warning: 'with_sond' (in '{{stats.with_sond}}') is not a value Bestiary gives templates, so it renders as nothing; did you mean 'with_sound'? (docs/theming.md lists the values) [render]",
            "templates/partials/card.html:4:1: warning: '{{t.nav.qiuz}}' names no interface text of the theme's i18n/ tables, so it renders as nothing; did you mean 't.nav.quiz'? [render]",
        ], "\(warnings)")
        // Inside a section of the texts, a name may be one of them (`{{#t.nav}}{{credits}}`), also
        // nested; a name that is neither a text there nor a value is still warned about.
        let texts = "{{#t.nav}}<a>{{credits}}</a> {{lang}} {{qiuz}}{{/t.nav}} {{#t}}{{site.madeWith}}{{#nav}}{{quiz}}{{/nav}}{{/t}}\n"
        let inTexts = try unknownNames("partials/footer.html", texts)
        #expect(inTexts == [
            "templates/partials/footer.html:1:39: warning: 'qiuz' (in '{{qiuz}}') is not a value Bestiary gives templates, so it renders as nothing (docs/theming.md lists the values) [render]",
        ], "\(inTexts)")
        // A Markdown template's columns on its first line are its own (the added pragma left out).
        #expect(try unknownNames("markdown/page.md", "# {{titel}}\n\n{{{body}}}\n") == [
            "templates/markdown/page.md:1:3: warning: 'titel' (in '{{titel}}') is not a value Bestiary gives templates, so it renders as nothing; did you mean 'title'? (docs/theming.md lists the values) [render]",
        ])
    }

    /// CSS's `@import "x.css"` and JS's `import("./x.js")` name assets as `url()` and static
    /// imports do: rewritten to the hashed names (the published site would 404 otherwise), and a
    /// missing one is an error at its line. JSDoc's `import("./x.js")` types in comments are left.
    @Test func stringImportsAndDynamicImportsNameHashedAssets() throws {
        var theme = Theme.builtIn
        func put(_ path: String, _ text: String) {
            theme.files[path] = Theme.File(data: Data(text.utf8), origin: "templates/\(path)", isOverride: true)
        }
        put("assets/css/extra.css", "@import \"fonts.css\";\n@import 'sub/more.css' screen;\nbody{}\n")
        put("assets/css/fonts.css", "b{}\n")
        put("assets/css/sub/more.css", "i{}\n")
        put("assets/js/extra.js", "/** @param {import(\"./later.js\").T} t */\nconst m = await import(\"./later.js\"); import('./later.js');\n")
        put("assets/js/later.js", "export const x = 1;\n")
        let pipeline = try AssetPipeline.build(theme)
        func text(_ logical: String, of built: AssetPipeline? = nil) throws -> String {
            let built = built ?? pipeline
            let path = try #require(built.urls[logical])
            guard case .data(let data)? = built.files.first(where: { $0.path == path })?.content else { return "" }
            return String(decoding: data, as: UTF8.self)
        }
        let fonts = try #require(pipeline.urls["css/fonts.css"]), more = try #require(pipeline.urls["css/sub/more.css"])
        let later = try #require(pipeline.urls["js/later.js"])
        #expect(try text("css/extra.css") == "@import \"./\(fonts.dropFirst("assets/css/".count))\";\n@import './\(more.dropFirst("assets/css/".count))' screen;\nbody{}\n")
        let js = try text("js/extra.js")
        #expect(js.hasPrefix("/** @param {import(\"./later.js\").T} t */\n"))
        #expect(js.hasSuffix("const m = await import(\"./\(later.dropFirst("assets/js/".count))\"); import('./\(later.dropFirst("assets/js/".count))');\n"), "\(js)")

        // Comments (at a line's end, inside a block, in CSS), other names ending in import and
        // computed names are not imports: left as written, no error.
        put("assets/js/notes.js", "export function later() {} // was: import(\"./old.js\")\n/*\n const d = await import(\"./dev.js\");\n*/\nx.import(\"./y.js\"); reimport('./z.js'); import(`./lang/${c}.js`);\n")
        put("assets/css/notes.css", "/* @import \"legacy.css\"; */\n/*\n@import 'old.css';\n*/\nb{}\n")
        // So are `url()` and static imports in comments; one in code on the same line is still one.
        put("assets/css/urls.css", "/* was: url(gone.png) */ i{background:url(\"sub/more.css\")}\n/*\n b{background:url(old.png)}\n*/\n")
        put("assets/js/static.js", "/*\nimport { x } from \"./gone.js\";\n*/\nimport \"./later.js\"; // not: import \"./gone.js\"\n")
        let quiet = try AssetPipeline.build(theme)
        #expect(quiet.urls["js/notes.js"] != nil && quiet.urls["css/notes.css"] != nil)
        #expect(try text("css/urls.css", of: quiet) == "/* was: url(gone.png) */ i{background:url(\"./\(more.dropFirst("assets/css/".count))\")}\n/*\n b{background:url(old.png)}\n*/\n")
        // A regular expression holding `/*` or `//` opens no comment; a CRLF file's lines are
        // lines (each import rewritten, each "\r\n" kept); an `@import` and a `url()` on one line.
        put("assets/js/regex.js", "const t = s.replace(/\\/*$/, \"\").split(/[/]/); const u = /\\/\\//;\nexport { x } from \"./later.js\";\n")
        put("assets/js/crlf.js", "import { x } from \"./later.js\";\r\nimport \"./later.js\";\r\n")
        put("assets/css/both.css", "@import \"fonts.css\"; i{background:url(sub/more.css)}\n")
        let others = try AssetPipeline.build(theme)
        let hashedLater = "./" + later.dropFirst("assets/js/".count)
        #expect(try text("js/regex.js", of: others) == "const t = s.replace(/\\/*$/, \"\").split(/[/]/); const u = /\\/\\//;\nexport { x } from \"\(hashedLater)\";\n")
        #expect(try text("js/crlf.js", of: others) == "import { x } from \"\(hashedLater)\";\r\nimport \"\(hashedLater)\";\r\n")
        #expect(try text("css/both.css", of: others) == "@import \"./\(fonts.dropFirst("assets/css/".count))\"; i{background:url(./\(more.dropFirst("assets/css/".count)))}\n")
        #expect(try text("js/static.js", of: quiet) == "/*\nimport { x } from \"./gone.js\";\n*/\nimport \"./\(later.dropFirst("assets/js/".count))\"; // not: import \"./gone.js\"\n")

        // A fragment or a query stays as written (an SVG sprite's symbol, a filter); `url(` inside
        // a string is text (it failed the build as a missing asset).
        put("assets/icons/icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><symbol id=\"paw\"/></svg>\n")
        put("assets/css/sprites.css", "i{background:url(\"../icons/icon.svg#paw\");filter:url(../icons/icon.svg?v=2#drop)}\nb::after{content:\"use url(…) here\"}\n")
        let sprites = try AssetPipeline.build(theme)
        let icon = try #require(sprites.urls["icons/icon.svg"]).dropFirst("assets/".count)
        #expect(try text("css/sprites.css", of: sprites) == "i{background:url(\"../\(icon)#paw\");filter:url(../\(icon)?v=2#drop)}\nb::after{content:\"use url(…) here\"}\n")

        put("assets/js/broken.js", "\nif (x) import(\"./nothere.js\");\n")
        put("assets/css/broken.css", "@import \"gone.css\";\r\nbody { background-image: url(\"../img/wave.svg\"); }\r\n@import \"site.css\";.x{background:url(bg.png)}\r\n")
        #expect(throws: DiagnosticError.self) { _ = try AssetPipeline.build(theme) }
        do { _ = try AssetPipeline.build(theme) } catch {
            #expect(error.diagnostics.map(DiagnosticFormatter.text).sorted() == [
                "templates/assets/css/broken.css:1:10: error: imports 'css/gone.css', which is not in the theme's assets (templates/assets/css/gone.css) [render]",
                "templates/assets/css/broken.css:2:31: error: refers to 'img/wave.svg', which is not in the theme's assets (templates/assets/img/wave.svg) [render]",
                "templates/assets/css/broken.css:3:38: error: refers to 'css/bg.png', which is not in the theme's assets (templates/assets/css/bg.png) [render]",
                "templates/assets/js/broken.js:2:16: error: imports 'js/nothere.js', which is not in the theme's assets (templates/assets/js/nothere.js) [render]",
            ])
        }
    }

    /// Hugo's Go template tags (`{{ range … }}`, `{{ partial "x" . }}`, `{{- … -}}`) fail to parse;
    /// the error says what they are and what Bestiary's templates are instead (found by a theme
    /// designer who knew Hugo). A Mustache mistake gets no such words.
    @Test func aGoTemplateTagIsNamedAsOne() throws {
        for tag in ["{{ range .Site.Menus.main }}", "{{ partial \"footer.html\" . }}", "{{- if .IsHome -}}"] {
            let lines = diagnostics("partials/footer.html", "<footer>\n  \(tag)<a>x</a>\n</footer>\n")
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.hasPrefix("templates/partials/footer.html:2:") == true, "\(lines)")
            #expect(lines.first?.contains("'\(tag)' is a Go template tag, as Hugo writes them: Bestiary's templates are Mustache") == true, "\(lines)")
        }
        let mustache = diagnostics("partials/footer.html", "<footer>{{#nav}}</footer>\n")
        #expect(mustache.count == 1 && mustache.first?.contains("Go template") == false, "\(mustache)")
        // Mustache's own forms on the line of an error are no Go tags: a block, the current item.
        let block = diagnostics("layouts/page.html", "{{<layouts.base}}{{$main}}{{.}}\n")
        #expect(block.count >= 1 && block.allSatisfy { !$0.contains("Go template") }, "\(block)")
    }

    /// A child's `{{$name}}` that fills no block of its parent shows nothing: warned about at its
    /// tag, with the parent's blocks (also those of what it includes) and the closest one.
    @Test func anOverrideOfNoBlockIsWarnedAbout() throws {
        #expect(try Templates.compile(.builtIn).unknownBlocks.isEmpty)
        var theme = Theme.builtIn
        theme.files["layouts/page.html"] = Theme.File(
            data: Data("{{<layouts.base}}\n{{$mian}}{{{content_html}}}{{/mian}}\n{{$head}}{{/head}}\n{{/layouts.base}}\n".utf8),
            origin: "templates/layouts/page.html", isOverride: true)
        #expect(try Templates.compile(theme).unknownBlocks.map(DiagnosticFormatter.text) == [
            "templates/layouts/page.html:2:1: warning: '{{$mian}}' fills no block of layouts.base (its blocks: head, main, scripts), so what it holds is never shown; did you mean 'main'? [render]"
        ])
    }

    /// A comment whose `}}` was left out runs on to the next tag's end and hides the markup
    /// between on every page (the spec's reading): a comment that holds `{{` is warned about.
    @Test func aCommentThatHoldsATagIsWarnedAbout() throws {
        var theme = Theme.builtIn
        theme.files["partials/footer.html"] = Theme.File(
            data: Data("<p>{{! the credits link\n<a href=\"{{credits_href}}\">Credits</a></p>\n{{! a closed note }}\n{{=| |=}}|! a note in other delimiters |\n".utf8),
            origin: "templates/partials/footer.html", isOverride: true)
        #expect(try Templates.compile(theme).unknownBlocks.map(DiagnosticFormatter.text).filter { $0.contains("comment") } == [
            "templates/partials/footer.html:1:4: warning: this comment ('{{!') holds a '{{' before its '}}', so it hides everything up to the first '}}' after it, tags and markup too; if it was meant to end earlier, close it there with '}}' [render]"
        ])
    }

    /// A template saved as Latin-1 is its one error: the templates that include it are not also
    /// told it is an unknown partial.
    @Test func aTemplateThatIsNoUTF8IsItsOnlyError() {
        var theme = Theme.builtIn
        theme.files["partials/footer.html"] = Theme.File(data: Data([0x3C, 0x70, 0x3E, 0xA9, 0x20, 0x4D, 0x75, 0x73, 0x65, 0x75, 0x6D, 0x3C, 0x2F, 0x70, 0x3E, 0x0A]), origin: "templates/partials/footer.html", isOverride: true)
        // Where, and what to do (it said "not valid UTF-8" at 1:1, whatever the file held).
        #expect(throws: DiagnosticError([.error(
            "file is not valid UTF-8 (byte 0xA9 at offset 3); save it as UTF-8", at: SourceLocation(path: "templates/partials/footer.html", line: 1, column: 4),
            stage: "render")])) {
            try Templates.compile(theme)
        }
        theme.files["partials/footer.html"] = Theme.File(data: "<p>© Museum</p>\n".data(using: .utf16)!, origin: "templates/partials/footer.html", isOverride: true)
        #expect(throws: DiagnosticError([.error("file is UTF-16; save it as UTF-8", at: SourceLocation(path: "templates/partials/footer.html", line: 1, column: 1), stage: "render")])) {
            try Templates.compile(theme)
        }
    }

    /// A theme file named by the address it has in templates/ (`/assets/img/paper.png`,
    /// `{{root}}assets/img/paper.png`), not the one the build gives it: a 404 and a broken picture
    /// on every page, without a word (a designer's).
    @Test func aThemeFileNamedByItsUnhashedAddressIsWarnedOf() throws {
        var theme = Theme.builtIn
        theme.files["assets/img/paper.png"] = Theme.File(data: Data([0x89, 0x50, 0x4E, 0x47]), origin: "templates/assets/img/paper.png", isOverride: true)
        theme.files["assets/css/museum.css"] = Theme.File(
            data: Data(".hero { background: url(/assets/img/paper.png); }\n.ok { background: url(../img/paper.png); }\n".utf8),
            origin: "templates/assets/css/museum.css", isOverride: true)
        theme.files["partials/footer.html"] = Theme.File(
            data: Data("<footer>\n  <img src=\"{{root}}assets/img/paper.png\" alt=\"\"><img src=\"{{#asset}}img/paper.png{{/asset}}\" alt=\"\">\n</footer>\n".utf8),
            origin: "templates/partials/footer.html", isOverride: true)
        let assets = try AssetPipeline.build(theme)
        #expect(assets.warnings.map(DiagnosticFormatter.text) == [
            "templates/assets/css/museum.css:1:25: warning: '/assets/img/paper.png' names templates/assets/img/paper.png by an address the site does not have: the build names theme files by their content (assets/img/paper.HASH.png); write it relative to this file (../img/paper.png), and the build rewrites it [render]"
        ])
        #expect(PreparedTheme.unhashedAssetLinks(in: theme, assets: assets).map(DiagnosticFormatter.text) == [
            "templates/partials/footer.html:2:13: warning: '{{root}}assets/img/paper.png' names templates/assets/img/paper.png by an address the site does not have: the build names theme files by their content; write {{#asset}}img/paper.png{{/asset}} [render]"
        ])
    }

    /// A `{` never closed takes every rule after it into its block: a designer's whole site lost its
    /// look without a word. Braces in comments and strings are no blocks.
    @Test func aStylesheetBlockNeverClosedIsAnError() throws {
        let css = "/* a { in a comment */\na::before { content: \"{\"; }\nmain:focus { outline: none;\n.designer-broken { color: red }\nbody { margin: 0 }\n"
        #expect(assetErrors("assets/css/site.css", Data(css.utf8)) == [
            "templates/assets/css/site.css:3:12: error: this '{' is never closed with '}', so the rules after it are read as part of its block and do not apply as written; close it [render]"
        ])
        let closed = "/* a { in a comment */\na::before { content: \"{\"; }\n@media (min-width: 40em) { main:focus { outline: none; } }\n"
        #expect(assetErrors("assets/css/site.css", Data(closed.utf8)) == [])
        // Minified: a rule for every element right after a comment (`*/*{…}`), a quote escaped in a
        // selector (a reviewer's), and nesting.
        let minified = "@media print{/*! x */*{display:none}}/* y */.sm\\:font-\\[\\'Inter\\'\\]{font-family:'Inter'}main{a{color:red}}\n"
        #expect(assetErrors("assets/css/site.css", Data(minified.utf8)) == [])
        // Saved on Windows: the line is counted all the same.
        #expect(assetErrors("assets/css/site.css", Data("a { color: red; }\r\nmain:focus { outline: none;\r\n".utf8)) == [
            "templates/assets/css/site.css:2:12: error: this '{' is never closed with '}', so the rules after it are read as part of its block and do not apply as written; close it [render]"
        ])
    }

    /// The default theme's stylesheets and modules, which builds no longer check (only a site's own):
    /// UTF-8, and every stylesheet block closed.
    @Test func theDefaultThemesAssetsAreUTF8AndClosed() throws {
        let assets = Theme.builtIn.files.filter { path, _ in path.hasPrefix("assets/") && [".css", ".js", ".mjs"].contains { path.hasSuffix($0) } }
        #expect(assets.count > 10)
        for (path, file) in assets {
            #expect(file.encodingProblem == nil, "\(path)")
            if path.hasSuffix(".css") { #expect(AssetPipeline.unclosedBlock(in: String(decoding: file.data, as: UTF8.self), origin: path) == nil, "\(path)") }
        }
    }

    /// A stylesheet or module not saved as UTF-8, which browsers read it as: one saved as UTF-16
    /// left a designer's whole site unstyled, and a Windows-1252 `©` showed as `�`, both without
    /// a word from the preview, `check` or the build.
    @Test func aStylesheetOrModuleThatIsNoUTF8IsAnError() {
        #expect(assetErrors("assets/css/site.css", "body { color: red }\n".data(using: .utf16)!) == [
            "templates/assets/css/site.css:1:1: error: file is UTF-16; save it as UTF-8 [render]"
        ])
        #expect(assetErrors("assets/css/site.css", "a::after { content: \" © \" }\n".data(using: .windowsCP1252)!) == [
            "templates/assets/css/site.css:1:23: error: file is not valid UTF-8 (byte 0xA9 at offset 22); save it as UTF-8 [render]"
        ])
        #expect(assetErrors("assets/js/site.js", "export const c = \"©\";\n".data(using: .windowsCP1252)!) == [
            "templates/assets/js/site.js:1:19: error: file is not valid UTF-8 (byte 0xA9 at offset 18); save it as UTF-8 [render]"
        ])
        // A byte-order mark of UTF-8 is no problem.
        #expect(assetErrors("assets/css/site.css", Data([0xEF, 0xBB, 0xBF]) + Data("body { color: red }\n".utf8)) == [])
    }

    /// An unfinished tag is said as what it is: three braces closed with two, a slash in a
    /// name, a tag never closed (it was one sentence about dots in names for all).
    @Test(arguments: [
        ("<article>{{{content_html}}</article>", "a tag opened with three braces ('{{{', which leaves HTML as it is) must close with three ('}}}'); this one closes with two"),
        ("<p>{{site/title}}</p>", "a tag's name cannot hold '/': template names use dots ({{> partials.header}} for partials/header.html)"),
        ("<p>{{title</p>", "a tag is not closed with '}}' on its line"),
    ])
    func anUnfinishedTagIsSaidAsWhatItIs(_ markup: String, _ said: String) {
        for end in ["\n", "\r\n"] {
            var theme = Theme.builtIn
            theme.files["layouts/page.html"] = Theme.File(
                data: Data("{{<layouts.base}}{{$main}}\(end)\(markup)\(end){{/main}}{{/layouts.base}}\(end)".utf8), origin: "templates/layouts/page.html", isOverride: true)
            do {
                _ = try Templates.compile(theme)
                Issue.record("it should not compile")
            } catch {
                #expect(error.diagnostics.map(\.message) == ["template error: " + said], "\(error.diagnostics)")
            }
        }
    }

    /// The page's HTML named with two braces is escaped: said at the tag, with the three it needs.
    @Test func escapedPageHTMLIsWarnedAbout() {
        var theme = Theme.builtIn
        #expect(PreparedTheme.escapedMarkup(in: theme).isEmpty)
        theme.files["layouts/page.html"] = Theme.File(
            data: Data("{{<layouts.base}}{{$main}}\n<article>{{ content_html }}</article>{{{content_html}}}{{&content_html}}\n{{/main}}{{/layouts.base}}\n".utf8),
            origin: "templates/layouts/page.html", isOverride: true)
        var crlf = theme
        crlf.files["layouts/page.html"] = Theme.File(
            data: Data(String(decoding: theme.files["layouts/page.html"]!.data, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8),
            origin: "templates/layouts/page.html", isOverride: true)
        #expect(PreparedTheme.escapedMarkup(in: crlf).map(\.location?.description) == ["templates/layouts/page.html:2:10"])
        #expect(PreparedTheme.escapedMarkup(in: theme).map(DiagnosticFormatter.text) == [
            "templates/layouts/page.html:2:10: warning: '{{content_html}}' escapes the HTML it holds, so the page shows the text's markup as text (<p>, <a href=…>); write '{{{content_html}}}' (three braces), as the default theme does [render]"
        ])
    }

    /// A text file named after a language, not its code, is never used: said, with the code.
    @Test func aTextFileNamedForItsLanguageIsToldItsCode() throws {
        var theme = Theme.builtIn
        theme.files["i18n/English.json"] = Theme.File(data: Data("{\"nav.quiz\": \"Quiz\"}\n".utf8), origin: "templates/i18n/English.json", isOverride: true)
        theme.files["i18n/klingon.json"] = Theme.File(data: Data("{\"nav.quiz\": \"Quiz\"}\n".utf8), origin: "templates/i18n/klingon.json", isOverride: true)
        let warnings = try PreparedTheme.prepare(theme, languages: ["en"], config: nil).warnings.map(DiagnosticFormatter.text).filter { $0.contains("is not used") }
        #expect(warnings == [
            "templates/i18n/English.json:1:1: warning: templates/i18n/English.json is not used: 'English' is no language code, and each page's texts are found by its language's code; rename it to i18n/en.json [render]",
            "templates/i18n/klingon.json:1:1: warning: templates/i18n/klingon.json is not used: 'klingon' is no language code, and each page's texts are found by its language's code (i18n/de.json, i18n/pt-BR.json) [render]",
        ])
        #expect(PreparedTheme.languageCode(named: "Deutsch") == "de")
    }

    /// An emptied base.html: each layout that fills its blocks is told once that it has none
    /// (it was told of each block, with an empty list of the parent's).
    @Test func anEmptyBaseIsSaidOncePerLayout() throws {
        var theme = Theme.builtIn
        theme.files["layouts/base.html"] = Theme.File(data: Data("\n".utf8), origin: "templates/layouts/base.html", isOverride: true)
        let said = try Templates.compile(theme).unknownBlocks.map(DiagnosticFormatter.text)
        #expect(said.count == theme.paths(under: "layouts/").count - 1, "\(said)")
        #expect(said.contains { $0.hasPrefix("(default theme)/layouts/page.html:2:1: warning: layouts.base has no blocks ({{$main}}…{{/main}}), so what this file fills in it ('{{$main}}' and the others) is never shown") }, "\(said)")
    }

    /// A text's problem is said where that text is: in the key's last mention, the one JSON keeps,
    /// and at a column counted in Unicode scalars, as every column is ("é" written as "e" and an
    /// accent is one character but two scalars; found by a reviewer).
    /// A site's English text spelt like a theme's that no template names (`animal.favourite`) was
    /// kept without a word while the pages showed the theme's (a designer's); a text of the site's
    /// own that no theme's text is like, or one a template names, is its own business.
    @Test func aSitesEnglishTextSpeltLikeAThemesIsNamed() throws {
        var theme = Theme.builtIn
        let json = "{\"animal.favourite\": \"Love it\", \"museum.opening\": \"Open daily\", \"my.own\": \"Mine\"}\n"
        theme.files["i18n/en.json"] = Theme.File(data: Data(json.utf8), origin: "templates/i18n/en.json", isOverride: true)
        let strings = try UIStrings.load(theme)
        #expect(UIStrings.translationProblems(strings, theme: theme, used: ["animal.favorite", "museum.opening"]).map(DiagnosticFormatter.text) == [
            "templates/i18n/en.json:1:2: warning: string 'animal.favourite' is none of the theme's texts and no template names it, so no page shows it; did you mean 'animal.favorite'? [render]"
        ])
        #expect(UIStrings.translationProblems(strings, theme: theme, used: ["animal.favourite"]).isEmpty)
        // A group's label, looked up by the pages' code and named by no template: no such warning
        // (`quiz.group.pet` was "did you mean 'quiz.group.bird'?": a reviewer's).
        var groups = Theme.builtIn
        groups.files["i18n/en.json"] = Theme.File(data: Data("{\"quiz.group.pet\": \"Pets\", \"quiz.group.dog\": \"Dogs\"}\n".utf8), origin: "templates/i18n/en.json", isOverride: true)
        #expect(UIStrings.translationProblems(try UIStrings.load(groups), theme: groups, used: ["animal.favorite"]).isEmpty)
    }

    @Test func aTextsProblemIsSaidAtTheTextUsed() throws {
        var theme = Theme.builtIn
        let json = "{\n \"quiz.questionOf\": \"Question {n} sur {total}\",\n \"quiz.questionOf\": \"Que\u{301}stion {k} sur {total}\"\n}\n"
        theme.files["i18n/fr.json"] = Theme.File(data: Data(json.utf8), origin: "templates/i18n/fr.json", isOverride: true)
        let said = UIStrings.translationProblems(try UIStrings.load(theme), theme: theme).map(DiagnosticFormatter.text)
        #expect(said == [
            "templates/i18n/fr.json:3:32: warning: string 'quiz.questionOf' has {k}, which the English text has not (it shows as written), and no {n}, which the English text fills in; placeholders are filled by their English names [render]",
            "templates/i18n/fr.json:3:2: warning: string 'quiz.questionOf' is given twice in this file; the second one is used [render]",
        ])
    }

    /// A translator's mistakes that do not break the file are warned about at the key: a key
    /// English lacks (with the closest), a renamed placeholder, a key given twice, a comma before
    /// the closing brace. A plural form English needs not (`.few`) and the built-in German pass.
    /// A key given twice is found at its second mention as a key, not at a value that reads the same.
    /// Each is said at its column: the key, the placeholder, the comma (a translator's trial found
    /// them all at column 1, the placeholder's a long line away).
    @Test func aTranslationsSilentMistakesAreWarnedAbout() throws {
        // The default theme's own translations, which a build does not check (their keys are the
        // built-in English's, so what they would be told is this, whatever the site).
        let builtIn = UIStrings.read(.builtIn, checkingBuiltIn: true)
        #expect(builtIn.1.items.isEmpty)
        #expect(UIStrings.translationProblems(builtIn.0, theme: .builtIn, checkingBuiltIn: true).isEmpty)
        var theme = Theme.builtIn
        let json = "{\n \"animal.favourite\": \"Favori\",\n \"collection.countAll.other\": \"{nombre} animaux\",\n"
            + " \"collection.countAll.few\": \"{count} animaux\",\n \"nav.home\": \"Accueil\",\n \"nav.quiz\": \"nav.home\",\n \"nav.home\": \"Maison\",\n}\n"
        theme.files["i18n/fr.json"] = Theme.File(data: Data(json.utf8), origin: "templates/i18n/fr.json", isOverride: true)
        let said = UIStrings.translationProblems(try UIStrings.load(theme), theme: theme).map(DiagnosticFormatter.text)
        #expect(said == [
            "templates/i18n/fr.json:2:2: warning: string 'animal.favourite' is not one of the theme's English texts (i18n/en.json), so no page shows it; did you mean 'animal.favorite'? [render]",
            "templates/i18n/fr.json:3:32: warning: string 'collection.countAll.other' has {nombre}, which the English text has not (it shows as written); placeholders are filled by their English names [render]",
            "templates/i18n/fr.json:7:2: warning: string 'nav.home' is given twice in this file; the second one is used [render]",
            "templates/i18n/fr.json:7:22: warning: a comma before the closing brace is not JSON: editors and translation tools refuse the file; remove it [render]",
        ])
        // A site's English texts: a placeholder the code does not fill is said at en.json (it
        // showed as written, warned about at de.json, which has no such key), as are a key given
        // twice and a trailing comma; a text of the site's own has nothing to compare with, and
        // the German texts are compared with the names the code fills in.
        var site = Theme.builtIn
        site.files["i18n/en.json"] = Theme.File(
            data: Data("{\n \"collection.countAll.other\": \"{cnt} animals in the museum\",\n \"quiz.questionOf\": \"Question {k}\",\n \"museum.banner\": \"A {x}\",\n \"museum.banner\": \"C\",\n}\n".utf8),
            origin: "templates/i18n/en.json", isOverride: true)
        site.files["i18n/de.json"] = Theme.File(data: Data("{\"museum.banner\": \"B\"}\n".utf8), origin: "templates/i18n/de.json", isOverride: true)
        #expect(UIStrings.translationProblems(try UIStrings.load(site), theme: site).map(DiagnosticFormatter.text) == [
            "templates/i18n/en.json:2:32: warning: string 'collection.countAll.other' has {cnt}, which the default theme's English text has not (it shows as written); placeholders are filled by the default theme's names ({count}) [render]",
            "templates/i18n/en.json:3:31: warning: string 'quiz.questionOf' has {k}, which the default theme's English text has not (it shows as written), and no {n}, {total}, which the default theme's English text fills in; placeholders are filled by the default theme's names ({n}, {total}) [render]",
            "templates/i18n/en.json:5:2: warning: string 'museum.banner' is given twice in this file; the second one is used [render]",
            "templates/i18n/en.json:5:22: warning: a comma before the closing brace is not JSON: editors and translation tools refuse the file; remove it [render]",
        ])
        // An empty text (a translation tool's export of what is not translated yet) is left
        // out: the page shows the English text, not a button without words (found by a translator).
        var blank = Theme.builtIn
        blank.files["i18n/nl.json"] = Theme.File(
            data: Data("{\n \"nav.home\": \"Startpagina\",\n \"quiz.next\": \"\",\n \"nav.quiz\": \"  \"\n}\n".utf8), origin: "templates/i18n/nl.json", isOverride: true)
        let blankStrings = try UIStrings.load(blank)
        #expect(blankStrings.table(for: "nl")["quiz.next"] == "Next question")
        #expect(blankStrings.table(for: "nl")["nav.quiz"] == "Quiz")
        #expect(blankStrings.table(for: "nl")["nav.home"] == "Startpagina")
        #expect(UIStrings.translationProblems(blankStrings, theme: blank).map(DiagnosticFormatter.text) == [
            "templates/i18n/nl.json:4:14: warning: string 'nav.quiz' is empty, so its pages show the text it falls back to (\"Quiz\"); translate it, or remove the line [render]",
            "templates/i18n/nl.json:3:15: warning: string 'quiz.next' is empty, so its pages show the text it falls back to (\"Next question\"); translate it, or remove the line [render]",
        ])
        // In a language the default theme speaks, an empty text shows the theme's own text in it.
        var french = Theme.builtIn
        french.files["i18n/fr.json"] = Theme.File(data: Data("{\n \"quiz.next\": \"\"\n}\n".utf8), origin: "templates/i18n/fr.json", isOverride: true)
        let frenchStrings = try UIStrings.load(french)
        #expect(frenchStrings.table(for: "fr")["quiz.next"] == "Question suivante")
        #expect(UIStrings.translationProblems(frenchStrings, theme: french).map(DiagnosticFormatter.text) == [
            "templates/i18n/fr.json:2:15: warning: string 'quiz.next' is empty, so its pages show the text it falls back to (\"Question suivante\"); translate it, or remove the line [render]",
        ])
        // A text the theme's own templates name is no misspelling: said only when a site
        // language lacks it.
        var own = Theme.builtIn
        own.files["i18n/de.json"] = Theme.File(data: Data("{\"impressum\": \"Impressum\"}\n".utf8), origin: "templates/i18n/de.json", isOverride: true)
        let used: Set<String> = ["impressum"]
        #expect(UIStrings.translationProblems(try UIStrings.load(own), theme: own, used: used, languages: ["de"]).isEmpty)
        #expect(UIStrings.translationProblems(try UIStrings.load(own), theme: own, used: used, languages: ["de", "en"]).map(DiagnosticFormatter.text) == [
            "templates/i18n/de.json:1:2: warning: string 'impressum' is the theme's own, but the texts in en lack it, so those pages show 'impressum' itself; add it to i18n/en.json (the fallback of every language) [render]"
        ])
        // And they do (they showed nothing): a text a template names is its key where missing,
        // but never a name that holds others (`nav` over `nav.quiz`).
        var strings = try UIStrings.load(own)
        strings.keysShownWhenMissing = ["impressum", "nav", "nav.quiz.more"]
        #expect(strings.table(for: "en")["impressum"] == "impressum")
        #expect(strings.table(for: "de")["impressum"] != "impressum")
        #expect(strings.table(for: "en")["nav"] == nil)
        #expect(strings.table(for: "en")["nav.quiz.more"] == nil, "the text nav.quiz stays a text")
        // Only a theme's own text is shown as its key: a name no table has (a misspelling,
        // `t.animal.facts.note`) is ContextKeys' warning, and renders as nothing.
        var footer = own
        footer.files["partials/footer.html"] = Theme.File(data: Data("<p>{{t.impressum}} {{t.animal.facts.note}}</p>\n".utf8), origin: "templates/partials/footer.html", isOverride: true)
        let prepared = try PreparedTheme.prepare(footer, languages: ["en", "de"], config: nil)
        #expect(prepared.strings.keysShownWhenMissing == ["impressum"])
        #expect(prepared.strings.table(for: "en")["animal.facts"] == "Facts")
    }

    /// A theme file in a place no build reads (a folder or an extension misspelt) does nothing:
    /// warned about, with the closest file of the default theme; hidden files and a README pass.
    @Test func aThemeFileNoBuildReadsIsWarnedAbout() {
        #expect(PreparedTheme.unusedFiles(in: .builtIn).isEmpty)
        var theme = Theme.builtIn
        for path in [
            "layout/animal.html", "partials/card.htm", ".DS_Store", "partials/.card.html.swp", "README.md", "i18n/old/de.json",
            "package.json", "CHANGELOG.md", "node_modules/a/index.js", "node_modules/b/index.js", "animal.html", "i18n/fr.jsn",
        ] {
            theme.files[path] = Theme.File(data: Data("x".utf8), origin: "templates/\(path)", isOverride: true)
        }
        #expect(PreparedTheme.unusedFiles(in: theme).map(DiagnosticFormatter.text) == [
            "templates/animal.html:1:1: warning: templates/animal.html is not where a theme's files go, so no build reads it (layouts/*.html, partials/*.html, markdown/*.md, assets/…, i18n/LANG.json, service-worker/sw.js) [render]",
            "templates/i18n/fr.jsn:1:1: warning: templates/i18n/fr.jsn is not where a theme's files go, so no build reads it (layouts/*.html, partials/*.html, markdown/*.md, assets/…, i18n/LANG.json, service-worker/sw.js); did you mean templates/i18n/fr.json? [render]",
            "templates/i18n/old/de.json:1:1: warning: templates/i18n/old/de.json is not where a theme's files go, so no build reads it (layouts/*.html, partials/*.html, markdown/*.md, assets/…, i18n/LANG.json, service-worker/sw.js); did you mean templates/i18n/de.json? [render]",
            "templates/partials/card.htm:1:1: warning: templates/partials/card.htm is not where a theme's files go, so no build reads it (layouts/*.html, partials/*.html, markdown/*.md, assets/…, i18n/LANG.json, service-worker/sw.js); did you mean templates/partials/card.html? [render]",
            "templates/layout:1:1: warning: templates/layout/ is not a folder of a theme, so no build reads its 1 file (layouts/, partials/, markdown/, assets/, i18n/, service-worker/); did you mean templates/layouts/? [render]",
            "templates/node_modules:1:1: warning: templates/node_modules/ is not a folder of a theme, so no build reads its 2 files (layouts/, partials/, markdown/, assets/, i18n/, service-worker/) [render]",
        ])
    }

    @Test func theBuiltInThemeCompiles() throws {
        #expect(try Templates.compile(.builtIn).names.contains("layouts.animal"))
    }

    /// A template is found by the path-like name pages use, as by its library name, also when its
    /// file name is not ASCII; a name without a slash is the library's name as it is.
    @Test func templatesAreFoundByTheirPathLikeNames() throws {
        #expect(Templates.libraryName("partials/card") == "partials.card")
        #expect(Templates.libraryName("markdown/sub/animal") == "markdown.sub.animal")
        #expect(Templates.libraryName("layouts.animal") == "layouts.animal")
        #expect(Templates.libraryName("partials/çard/🦉") == "partials.çard.🦉")
        var theme = Theme.builtIn
        theme.files["partials/çard.html"] = Theme.File(data: Data("<b>{{name}}</b>".utf8), origin: "templates/partials/çard.html", isOverride: true)
        let templates = try Templates.compile(theme)
        #expect(templates.render("partials/çard", ["name": "Owl"]) == "<b>Owl</b>")
        #expect(templates.render("partials.çard", ["name": "Owl"]) == "<b>Owl</b>")
        #expect(!templates.digest("partials/çard").isEmpty)
        #expect(templates.digest("partials/çard") == templates.digest("partials.çard"))
    }

    @Test func aClosingTagThatDoesNotMatchIsReportedWhereItIs() {
        let text = diagnostics("layouts/page.html", "{{<layouts.base}}\n{{$main}}\n  {{#body_lang}}x\n{{/main}}\n{{/layouts.base}}\n")
        #expect(text == [
            "templates/layouts/page.html:4:1: error: template error: a closing tag {{/main}} does not match the section it should close, 'body_lang' (opened on line 3) [render]"
        ])
    }

    @Test func anUnclosedSectionIsReportedAtItsOpeningTag() {
        let text = diagnostics("partials/footer.html", "<footer>\n  {{#body_lang}}x\n</footer>\n")
        #expect(text.contains { $0.hasPrefix("templates/partials/footer.html:2:3: error: template error: a section {{#body_lang}} is never closed") }, "\(text)")
    }

    @Test func aMarkdownTemplateKeepsItsOwnColumnsOnTheFirstLine() {
        let text = diagnostics("markdown/page.md", "# {{title}} {{uppercased(title)}}\n")
        #expect(text.contains { $0.hasPrefix("templates/markdown/page.md:1:13: error: template error: 'uppercased(title)': transforms") }, "\(text)")
    }

    /// The parser's own list of partials decides: a tag in a comment or written with other
    /// delimiters is what it is, and the position is the tag's.
    @Test func anUnknownPartialIsReportedAtItsTag() {
        let text = diagnostics("partials/footer.html", "<footer>{{! {{>partials.none}} }}\n  {{=<% %>=}}<%>partials.missing%>\n</footer>\n")
        #expect(text.count == 1, "\(text)")
        #expect(text.first?.hasPrefix("templates/partials/footer.html:2:14: error: unknown partial 'partials.missing' (theme templates: layouts.404") == true, "\(text)")
        let near = diagnostics("partials/footer.html", "{{>partials.credits}}\n")
        #expect(near.first?.hasPrefix("templates/partials/footer.html:1:1: error: unknown partial 'partials.credits' (did you mean 'partials.credit'? theme templates: ") == true, "\(near)")
        let markdown = diagnostics("markdown/page.md", "{{>partials.gone}}\n")
        #expect(markdown.first?.hasPrefix("templates/markdown/page.md:1:1: error: unknown partial 'partials.gone'") == true, "\(markdown)")
    }

    /// A page's template digest covers the partials it reaches, through parents too.
    @Test func aTemplateDigestFollowsItsPartials() throws {
        let before = try Templates.compile(.builtIn)
        var theme = Theme.builtIn
        let card = try #require(theme.files["partials/card.html"])
        theme.files["partials/card.html"] = Theme.File(data: card.data + Data("<!-- x -->".utf8), origin: card.origin, isOverride: true)
        let after = try Templates.compile(theme)
        #expect(before.digest("layouts/collection") != after.digest("layouts/collection"))
        #expect(before.digest("layouts/animal") != after.digest("layouts/animal"))
        #expect(before.digest("layouts/quiz") == after.digest("layouts/quiz"))
    }

    /// A template that includes itself would never finish a page (it crashed the build with a
    /// stack overflow): refused at the tag that closes the loop, directly or through others,
    /// each loop once.
    @Test func aTemplateThatIncludesItselfIsRefused() {
        let direct = diagnostics("partials/card.html", "<li>\n  {{>partials.card}}\n</li>\n")
        #expect(direct == [
            "templates/partials/card.html:2:3: error: template 'partials.card' includes itself (partials.card → partials.card), so a page would never finish; remove one of these {{>…}} or {{<…}} tags [render]"
        ])
        var theme = Theme.builtIn
        theme.files["partials/a.html"] = Theme.File(data: Data("{{#x}}{{>partials.b}}{{/x}}".utf8), origin: "templates/partials/a.html", isOverride: true)
        theme.files["partials/b.html"] = Theme.File(data: Data("b\n{{>partials.c}}".utf8), origin: "templates/partials/b.html", isOverride: true)
        theme.files["partials/c.html"] = Theme.File(data: Data("{{>partials.a}}".utf8), origin: "templates/partials/c.html", isOverride: true)
        do {
            _ = try Templates.compile(theme)
            Issue.record("a loop of three partials compiled")
        } catch {
            #expect(error.diagnostics.map(DiagnosticFormatter.text) == [
                "templates/partials/c.html:1:1: error: template 'partials.a' includes itself (partials.a → partials.b → partials.c → partials.a), so a page would never finish; remove one of these {{>…}} or {{<…}} tags [render]"
            ])
        }
    }

    /// A theme whose pages name an asset it does not have is refused at the name (its pages
    /// would link to `#missing-asset:…`); a name made by a tag is left to render.
    @Test func anUnknownAssetIsReportedWhereItIsNamed() throws {
        var theme = Theme.builtIn
        let base = try #require(theme.text("layouts/base.html"))
        #expect(base.contains("{{#asset}}css/site.css{{/asset}}"))
        let changed = base.replacingOccurrences(of: "{{#asset}}css/site.css{{/asset}}", with: "{{#asset}} css/stie.css {{/asset}}{{#asset}}{{name}}{{/asset}}")
        theme.files["layouts/base.html"] = Theme.File(data: Data(changed.utf8), origin: "templates/layouts/base.html", isOverride: true)
        let assets = try AssetPipeline.build(theme)
        #expect(PreparedTheme.unknownAssets(in: .builtIn, assets: assets).isEmpty)
        let problems = PreparedTheme.unknownAssets(in: theme, assets: assets).map(DiagnosticFormatter.text)
        // Where the tag's text begins: just after `{{#asset}}`, on its space.
        let before = changed.components(separatedBy: "css/stie.css")[0]
        let line = before.filter { $0 == "\n" }.count + 1
        let column = before.components(separatedBy: "\n").last!.count
        #expect(problems == [
            "templates/layouts/base.html:\(line):\(column): error: unknown asset 'css/stie.css': the theme's assets/ has no such file (its pages would link to nothing); did you mean 'css/site.css'? [render]"
        ])
        // Named from the theme's folder: the name below assets/.
        let fromFolder = base.replacingOccurrences(of: "{{#asset}}css/site.css{{/asset}}", with: "{{#asset}}assets/css/site.css{{/asset}}")
        theme.files["layouts/base.html"] = Theme.File(data: Data(fromFolder.utf8), origin: "templates/layouts/base.html", isOverride: true)
        #expect(PreparedTheme.unknownAssets(in: theme, assets: assets).map(\.message) == [
            "unknown asset 'assets/css/site.css': the theme's assets/ has no such file (its pages would link to nothing); did you mean 'css/site.css'?"
        ])
    }

    /// Broken interface texts are reported where the JSON goes wrong, not at 1:1.
    @Test func brokenInterfaceTextsAreReportedWhereTheyBreak() {
        #expect(textProblems(["i18n/en.json": "{\n  \"nav.quiz\": \"Quiz\",\n  \"nav.hörst\": Home\n}\n"]) == [
            "templates/i18n/en.json:3:16: error: strings are not valid JSON (invalid value); the file is one object of \"key\": \"text\" pairs [render]"
        ])
        // A file cut short is reported where it ends (it was 1:1, in Foundation's words).
        #expect(textProblems(["i18n/en.json": "{\n  \"nav.quiz\": \"Quiz\",\n  \"nav.home\": \"Home\"\n"]) == [
            "templates/i18n/en.json:3:21: error: strings are not valid JSON (it ends before the object is closed); the file is one object of \"key\": \"text\" pairs [render]"
        ])
        // A comma too many on one line is no quote inside a text.
        #expect(textProblems(["i18n/en.json": "{\"nav.quiz\": \"Quiz\", \"nav.home\": \"Home\",}\n"]).allSatisfy { !$0.contains("a \" inside a text") })
        // A quote inside a text (a translator's): how to write one.
        #expect(textProblems(["i18n/en.json": "{\n  \"nav.quiz\": \"Tap \"Quiz\" now\"\n}\n"]) == [
            "templates/i18n/en.json:2:21: error: strings are not valid JSON (invalid value); a \" inside a text is written \\\" (or use other quotes: « », “ ”); the file is one object of \"key\": \"text\" pairs [render]"
        ])
    }

    /// What JSON has not, as a translator wrote it, said as such (each was "invalid value").
    @Test func whatJSONHasNotIsNamed() {
        func hint(_ json: String) -> String { textProblems(["i18n/es.json": json]).first ?? "" }
        #expect(hint("{\n  // menu\n  \"nav.home\": \"Inicio\"\n}\n").contains("(invalid value); JSON has no comments: remove it;"))
        #expect(hint("{'nav.home': 'Inicio'}\n").contains("; JSON writes keys and texts in straight double quotes (\"…\"), not single ones;"))
        #expect(hint("{\"nav.home\": “Inicio”}\n").contains("not typographic ones (a word processor's);"))
        #expect(hint("{\"nav.home\": \"Inicio\",, \"nav.quiz\": \"Quiz\"}\n").contains("; a comma is there twice;"))
    }

    /// A texts file saved in another encoding than UTF-8 is said as a record's is: UTF-16 was read
    /// without a word, Windows-1252 was "Invalid UTF-8 sequence" at 1:1 (a translator's).
    @Test func aTextsFileInAnotherEncodingIsToldToBeUTF8() {
        func problems(_ data: Data) -> [String] {
            var theme = Theme.builtIn
            theme.files["i18n/es.json"] = Theme.File(data: data, origin: "templates/i18n/es.json", isOverride: true)
            do {
                _ = try UIStrings.load(theme)
                return []
            } catch {
                return error.diagnostics.map(DiagnosticFormatter.text)
            }
        }
        let json = "{\"nav.home\": \"Inicio\", \"nav.quiz\": \"Compañero\"}\n"
        #expect(problems(Data([0xFF, 0xFE]) + json.data(using: .utf16LittleEndian)!) == ["templates/i18n/es.json:1:1: error: file is UTF-16; save it as UTF-8 [render]"])
        #expect(problems(json.data(using: .windowsCP1252)!) == ["templates/i18n/es.json:1:42: error: file is not valid UTF-8 (byte 0xF1 at offset 41); save it as UTF-8 [render]"])
        #expect(problems(Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8)).isEmpty, "a byte-order mark is fine")
    }

    /// A site's en.json that is no JSON is its one error: the texts it holds are not also said
    /// to be missing from English (de.json's) or named by no table (a template's `t.museum.note`).
    @Test func anUnreadableTextFileIsItsOnlyProblem() throws {
        var theme = Theme.builtIn
        theme.files["i18n/en.json"] = Theme.File(data: Data("{\n  \"museum.note\": \"Note\"\n  \"museum.banner\": \"Banner\"\n}\n".utf8), origin: "templates/i18n/en.json", isOverride: true)
        theme.files["i18n/de.json"] = Theme.File(data: Data("{\"museum.banner\": \"Banner\", \"museum.note\": \"Notiz\"}\n".utf8), origin: "templates/i18n/de.json", isOverride: true)
        theme.files["partials/footer.html"] = Theme.File(data: Data("<p>{{t.museum.note}}</p>\n".utf8), origin: "templates/partials/footer.html", isOverride: true)
        do {
            _ = try PreparedTheme.prepare(theme, languages: ["de", "en"], config: nil)
            Issue.record("the build should stop")
        } catch {
            #expect(error.diagnostics.map(DiagnosticFormatter.text).filter { $0.contains("i18n") || $0.contains("museum") } == [
                "templates/i18n/en.json:3:3: error: strings are not valid JSON (invalid value); a comma is missing at the end of line 2; the file is one object of \"key\": \"text\" pairs [render]"
            ])
        }
        #expect(textProblems(["i18n/en.json": "{\"nav.quiz\": \"Quiz\" \"nav.home\": \"Home\"}\n"]).first?.contains("; a comma is missing before it;") == true)
        // An Arabic keyboard's comma between two pairs (a teacher's): named, not "invalid value" alone.
        #expect(textProblems(["i18n/ar.json": "{\"nav.quiz\": \"اختبار\"، \"nav.home\": \"الرئيسية\"}\n"]).first?.contains(
            "(invalid value); '،' is the Arabic comma, which JSON does not read as a comma: separate the pairs with ','; the file is") == true)
        // A key without its colon is no missing comma; a Windows file's lines are counted too.
        #expect(textProblems(["i18n/en.json": "{\"nav.quiz\" \"Quiz\"}\n"]).first?.contains("; a ':' is missing before it, after the key;") == true)
        #expect(textProblems(["i18n/en.json": "{\r\n  \"nav.quiz\": \"Quiz\"\r\n  \"nav.home\": \"Home\"\r\n}\r\n"]).first?.contains("; a comma is missing at the end of line 2;") == true)
    }

    /// A direction control in an interface text, raw or as a JSON escape, is refused where it is.
    @Test func directionControlsInInterfaceTextsAreRefused() {
        for written in ["\u{202E}", "\\u202e"] {
            #expect(textProblems(["i18n/de.json": "{\n  \"nav.quiz\": \"Quiz\",\n  \"nav.home\": \"\(written)emoH\"\n}\n"]) == [
                "templates/i18n/de.json:3:16: error: string 'nav.home' holds U+202E (right-to-left override), a control character that makes text show in another order than it is stored, so it reads otherwise on the site than in review; remove it (the site sets each text's direction itself; U+200E or U+200F marks are allowed) [render]"
            ])
        }
    }

    /// Keys nest by their dots: one that is another's prefix would hide it, so it is refused.
    @Test func aStringBelowAnotherIsRefused() {
        #expect(textProblems(["i18n/de.json": "{\n  \"nav.quiz\": \"Quiz\",\n  \"nav.quiz-b\": \"Quiz\",\n  \"nav.quiz.x\": \"y\"\n}\n"]) == [
            "templates/i18n/de.json:4:3: error: string 'nav.quiz.x' is below string 'nav.quiz': keys are nested by their dots ({{t.nav.quiz}}), so one would hide the other; rename one [render]"
        ])
        #expect(textProblems([:]) == [])
        // A site's English text below a default theme's: said at the site's file alone, not first
        // at the default theme's table of every language it completes (a designer met five such
        // errors in files of languages the site has not before the one in the file to mend).
        let below = textProblems(["i18n/en.json": "{\n  \"nav.home.x\": \"y\"\n}\n"])
        #expect(below == [
            "templates/i18n/en.json:2:3: error: string 'nav.home.x' is below string 'nav.home': keys are nested by their dots ({{t.nav.home}}), so one would hide the other; rename one [render]"])
        // Across files: a key below one of the English texts, which complete every language; and
        // a key with an empty part.
        #expect(textProblems(["i18n/fr.json": "{\n  \"nav.quiz.title\": \"Quiz\",\n  \"a..b\": \"x\"\n}\n"]) == [
            "templates/i18n/fr.json:2:3: error: string 'nav.quiz.title' is below string 'nav.quiz': keys are nested by their dots ({{t.nav.quiz}}), so one would hide the other; rename one [render]",
            "templates/i18n/fr.json:3:3: error: string 'a..b' has an empty part between its dots; keys are nested by their dots ({{t.a.b}}) [render]",
        ])
    }

    /// A theme's own service worker without the markers gets a worker that only clears old
    /// caches (no offline play): said by `check` and each build, which said nothing.
    @Test func aServiceWorkerWithoutItsMarkersIsWarnedAbout() throws {
        #expect(ServiceWorker.markerProblem(in: .builtIn) == nil)
        var theme = Theme.builtIn
        theme.files["service-worker/sw.js"] = Theme.File(data: Data("self.addEventListener('fetch', () => {});\n".utf8), origin: "templates/service-worker/sw.js", isOverride: true)
        let prepared = try PreparedTheme.prepare(theme, languages: ["en"], config: nil)
        #expect(prepared.warnings.map(DiagnosticFormatter.text).contains {
            $0.hasPrefix("templates/service-worker/sw.js:1:1: warning: templates/service-worker/sw.js has no /* bestiary:config */ … /* bestiary:end */ block") && $0.contains("the site does not work offline")
        })
    }
}
