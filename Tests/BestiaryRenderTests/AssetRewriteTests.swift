import BestiaryTheme
@testable import BestiaryRender
import Foundation
import Testing

/// The asset pipeline copies a line without `/*`, `*/`, `import`, `from` or `url(` by its bytes
/// instead of taking it apart: the same text, and the same references asked for at the
/// same lines, as taking every line apart, for the theme's own assets and for lines made to trip
/// it (comments over several lines, strings, regular expressions, CRLF, accents).
struct AssetRewriteTests {
    static let tricky: [(name: String, css: Bool, text: String)] = [
        ("js", false, """
            /* a block comment that opens here
            import "./not-code.js"
               and closes */ import { a } from "./a.js";
            const s = "// not a comment"; const m = import("./b.js");
            x = y / 2; // import "./c.js"
            const re = /\\/*$/; export { z } from '../d.js';
            const t = `${import("./e.js")}`;
            plain line with no markers
            é composed, e\u{301} decomposed, import'./f.js'
            /*
            from "./g.js"
            */
            export * from "./h.js"
            /* opens
             * a path ./x/y.js / a slash, inside a comment
             closes */ const h = a / b; // import("./not.js") is in a comment
            const u = n / 2 / 3; // two divisions
            """),
        ("crlf", false, "import { a } from \"./a.js\";\r\nconst b = 1;\r\n/* x\r\nimport \"./no.js\"\r\n*/ import \"./c.js\";\r\n"),
        ("css", true, """
            /* url(old.png)
              still a comment url(a.png) */ .a { background: url(b.png) }
            @import "c.css";
            .b { content: "url(d.png)" }
            .c { background: url( 'e.svg#icon' ) }
            .d { color: red }
            """),
        ("empty", false, ""),
        ("newline only", true, "\n"),
    ]

    /// Every reference made into a marked one, with the line it was asked for at.
    static func rewrite(_ text: String, css: Bool, everyLine: Bool) -> (String, [String]) {
        var asked: [String] = []
        let out = AssetPipeline.rewriteReferences(in: text, css: css, everyLine: everyLine) { reference, line in
            asked.append("\(line):\(reference)")
            return "<\(reference)@\(line)>"
        }
        return (out, asked)
    }

    @Test func copiedLinesAreThoseTakingThemApartLeavesAlone() throws {
        var cases = Self.tricky
        for (path, data) in DefaultTheme.files where path.hasPrefix("assets/") && (path.hasSuffix(".js") || path.hasSuffix(".css")) {
            cases.append((path, path.hasSuffix(".css"), String(decoding: data, as: UTF8.self)))
        }
        #expect(cases.count > 20, "the theme's assets are among the cases")
        for (name, css, text) in cases {
            let fast = Self.rewrite(text, css: css, everyLine: false), slow = Self.rewrite(text, css: css, everyLine: true)
            #expect(fast.0 == slow.0, "\(name): the text differs")
            #expect(fast.1 == slow.1, "\(name): other references asked for")
        }
        // The tricky cases reach what they are made for.
        let js = Self.rewrite(Self.tricky[0].text, css: false, everyLine: false)
        #expect(js.1 == ["3:./a.js", "4:./b.js", "6:../d.js", "7:./e.js", "13:./h.js"], "\(js.1)")
        let css = Self.rewrite(Self.tricky[2].text, css: true, everyLine: false)
        #expect(css.1 == ["2:b.png", "3:c.css", "5:e.svg#icon"], "\(css.1)")
    }
}
