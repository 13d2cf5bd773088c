import BestiaryDiagnostics
import Testing

@testable import BestiaryPreview

@Suite struct HTMLInjectionTests {
    let status = LiveStatus(session: "abc", generation: 3, phase: .ok, diagnostics: [], changed: nil)

    func inject(_ html: String, _ status: LiveStatus? = nil) -> String {
        let bytes = HTMLInjection.inject(HTMLInjection.snippet(status: status ?? self.status, file: "animals/fox/index.html"), into: Array(html.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func goesBeforeTheLastBodyEndTag() {
        let out = inject("<html><body><p>x</p><script>var s = '</body>';</script></BODY>\n</html>")
        let script = out.range(of: "/__bestiary/live.js")!
        let end = out.range(of: "</BODY>")!
        #expect(script.upperBound < end.lowerBound)
        #expect(out.hasSuffix("</BODY>\n</html>"))
        #expect(out.contains("data-session=\"abc\" data-generation=\"3\" data-file=\"animals/fox/index.html\""))
        #expect(!out.contains("__bestiary-overlay"))
    }

    @Test func isAppendedWithoutBody() {
        let out = inject("<p>fragment</p>")
        #expect(out.hasPrefix("<p>fragment</p>"))
        #expect(out.contains("/__bestiary/live.js"))
    }

    @Test func failedBuildAddsAnEscapedOverlay() {
        var failed = status
        failed.phase = .failed
        failed.diagnostics = [
            .error("unknown key '<script>alert(1)</script>' & more", at: SourceLocation(path: "content/animals/fox.md", line: 4, column: 1), stage: "load")
        ]
        let out = inject("<body></body>", failed)
        #expect(out.contains("id=\"__bestiary-overlay\""))
        #expect(out.contains("content/animals/fox.md:4:1"))
        #expect(out.contains("unknown key &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; &amp; more"))
        #expect(!out.contains("<script>alert"))
        #expect(out.contains("[load]"))
        // English and left to right on any page: an Arabic page laid the messages out right to left.
        #expect(out.contains("aria-labelledby=\"__bestiary-overlay-title\" lang=\"en\" dir=\"ltr\">"))
        #expect(LiveAssets.stylesheet.contains("direction: ltr;") && LiveAssets.script.contains("box.dir = 'ltr';"))
        #expect(out.contains(">Build failed: this page shows the last good build</h2>"))
        // Over the server's not-found page, before anything is built there: said so (it claimed a
        // "last good build"), in the page and in the script that redraws it.
        let nothing = HTMLInjection.inject(HTMLInjection.snippet(status: failed, file: "", built: false), into: Array("<body></body>".utf8))
        #expect(String(decoding: nothing, as: UTF8.self).contains(">Build failed: nothing is built at this address yet</h2>"))
        #expect(String(decoding: nothing, as: UTF8.self).contains(" data-built=\"no\""))
        #expect(LiveAssets.script.contains("'Build failed: nothing is built at this address yet'"))
    }

    @Test func statusJSONCarriesDiagnostics() {
        var failed = status
        failed.phase = .failed
        failed.diagnostics = [.error("bad \"quote\"", at: SourceLocation(path: "content/site.yml", line: 2, column: 3), stage: "load")]
        #expect(failed.json == """
            {"session":"abc","generation":3,"phase":"failed","changed":null,"diagnostics":[{"severity":"error","file":"content/site.yml","line":2,"column":3,"message":"bad \\"quote\\"","stage":"load","code":null}]}
            """)
        var ok = status
        ok.changed = ["index.html", "animals/fox/index.html"]
        #expect(ok.json.contains("\"changed\":[\"index.html\",\"animals/fox/index.html\"]"))
    }

    @Test func eventFormatSplitsLines() {
        #expect(EventHub.format(event: "reload", data: "{}") == "event: reload\ndata: {}\n\n")
        #expect(EventHub.format(event: "x", data: "a\nb") == "event: x\ndata: a\ndata: b\n\n")
    }
}
