@testable import BestiaryMarkdown
import Foundation
import Testing

@Suite struct MarkdownTests {
    @Test func rendersCommonMark() {
        #expect(Markdown.html("# Title\n\n*a* **b**") == "<h1>Title</h1>\n<p><em>a</em> <strong>b</strong></p>\n")
    }

    @Test(arguments: [
        "<script>alert(1)</script>",
        "text <img src=x onerror=alert(1)> more",
        "<div onclick=\"x()\">block</div>",
        "<iframe src=\"https://evil.example\"></iframe>",
    ])
    func rawHTMLNeverPasses(_ input: String) {
        let html = Markdown.html(input)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<iframe"))
        #expect(!html.contains("onclick"))
        #expect(html.contains("raw HTML omitted"))
    }

    @Test(arguments: ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:msgbox", "data:text/html;base64,PHNjcmlwdD4="])
    func dangerousLinkSchemesLoseTheirURL(_ url: String) {
        let html = Markdown.html("[x](\(url))")
        #expect(html == "<p><a href=\"\">x</a></p>\n")
    }

    /// On a page, a link whose address safe mode removed is its text (it was `<a href="">`, a
    /// link to the page itself; found by a content author).
    @Test func aRemovedLinkIsItsTextOnAPage() {
        let headings = Markdown.Headings(keepsFirstTitle: false)
        #expect(Markdown.html("[klick](javascript:alert(1)) and [ok](https://example.org/)", headings: headings)
            == "<p>klick and <a href=\"https://example.org/\">ok</a></p>\n")
    }

    /// Headings get ids from their text, so that `[see below](#körperbau)` leads somewhere (no
    /// heading had one; found by a content author); an id the layout uses, or one used already,
    /// gets a number. A level-1 heading becomes level 2 (the page has its title), but the first
    /// one of a page's template (`# {{title}}`), which stays as it was, without an id.
    @Test func headingsGetIDsAndOnePageTitle() {
        let text = "# Die Eule – ein Porträt\n\n## Körperbau & *Größe*\n\n## Körperbau & Größe\n\n### Main\n\n#### ?!\n"
        #expect(Markdown.html(text, headings: Markdown.Headings(keepsFirstTitle: false, reserved: ["main"])) == """
            <h2 id="die-eule-ein-porträt">Die Eule – ein Porträt</h2>
            <h2 id="körperbau-größe">Körperbau &amp; <em>Größe</em></h2>
            <h2 id="körperbau-größe-2">Körperbau &amp; Größe</h2>
            <h3 id="main-2">Main</h3>
            <h4 id="section">?!</h4>

            """)
        #expect(Markdown.html("# Über\n\n# Willkommen\n\nText <h2> `<h3>x</h3>`\n", headings: Markdown.Headings(keepsFirstTitle: true)) == """
            <h1>Über</h1>
            <h2 id="willkommen">Willkommen</h2>
            <p>Text <!-- raw HTML omitted --> <code>&lt;h3&gt;x&lt;/h3&gt;</code></p>

            """)
        // Smart punctuation only where asked (English texts): a German text keeps its quotes.
        #expect(Markdown.html("\"Zitat\" --force", smartPunctuation: false, headings: nil) == "<p>&quot;Zitat&quot; --force</p>\n")
    }

    /// `check` gives each heading the id its page gives (found in review: an image's alt text,
    /// an English text's en dash and the layout's own ids made them differ).
    @Test func checkAndThePageGiveAHeadingOneID() {
        let text = "## ![Fox](f.png) Habitat\n\n## Main\n\n## Before--after\n"
        let reserved: Set<String> = ["main"]
        let html = Markdown.html(text, smartPunctuation: true, headings: Markdown.Headings(keepsFirstTitle: false, reserved: reserved))
        let onPage = Set(html.matches(of: /id="([^"]+)"/).map { String($0.1) })
        #expect(onPage == ["habitat", "main-2", "before-after"], "\(html)")
        #expect(Markdown.links(text, reserved: reserved).headingIDs == onPage)
    }

    /// An image whose URL safe mode refused would be `<img src="">` (invalid HTML, never shown):
    /// its alternative text stands in its place, escaped.
    @Test(arguments: ["javascript:alert(10)", "vbscript:msgbox", "data:text/html;base64,PHNjcmlwdD4="])
    func dangerousImagesBecomeTheirAltText(_ url: String) {
        #expect(Markdown.html("![a <b> & \"c\"](\(url)) and ![t](javascript:x \"title\")") == "<p>a &lt;b&gt; &amp; “c” and t</p>\n")
        #expect(Markdown.html("![ok](https://example.org/a.png)") == "<p><img src=\"https://example.org/a.png\" alt=\"ok\" /></p>\n")
    }

    /// What ``Markdown/inspect(_:referenced:)`` says safe mode removes is what cmark removes.
    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:x", "vbscript:msgbox", "file:///etc/passwd", "data:text/html;base64,PHNjcmlwdD4=",
        "data:image/png;base64,iVBORw0KGgo=", "data:image/svg+xml;base64,PHN2Zz4=", "data:image/webp;base64,UklGRg==",
        "https://example.org/", "mailto:a@example.org", "images/owl.jpg", "#top",
    ])
    func removedAddressesAreTheOnesCmarkRemoves(_ url: String) {
        let removed = Markdown.html("[x](\(url))") == "<p><a href=\"\">x</a></p>\n"
        let found = Markdown.inspect("Text [x](\(url)) and more.", referenced: { _ in false })
        #expect(found.removedAddresses.map(\.url) == (removed ? [url] : []), "\(url)")
    }

    /// One parse finds raw HTML (block and inline, with where it starts), images and character
    /// references; text without their marks is not parsed and has none.
    @Test func inspectFindsWhatThePageLeavesOut() {
        let text = "Para with <b>bold</b>.\n\n<div>\nblock\n</div>\n\n![owl](images/owl.jpg) &#x202E;x\n"
        let found = Markdown.inspect(text, referenced: { $0 == 0x202E })
        #expect(found.html.map { [$0.line, $0.column] } == [[1, 11], [1, 18], [3, 1]])
        #expect(found.images.map(\.url) == ["images/owl.jpg"])
        #expect(found.referenced?.scalar == 0x202E)
        #expect(found.referenced.map { [$0.line, $0.column] } == [7, 24])
        // Columns count characters, not bytes (`Größe` is 5, not 7), as every other position does;
        // a character reference is found where it is, not where its text starts.
        let german = Markdown.inspect("Größe: über 40 cm <i>ca.</i>\nZweite Zeile &#x202E;hier.\n", referenced: { $0 == 0x202E })
        #expect(german.html.map { [$0.line, $0.column] } == [[1, 19], [1, 25]])
        #expect(german.referenced.map { [$0.line, $0.column] } == [2, 14])
        let arabic = Markdown.inspect("ثعلب أحمر <b>x</b> &rlm;", referenced: { $0 == 0x200F })
        #expect(arabic.html.first.map { [$0.line, $0.column] } == [1, 11])
        #expect(arabic.referenced.map { [$0.line, $0.column] } == [1, 20])
        #expect(!Markdown.hasMarks(Array("Plain *text* with [a link](https://example.org/) & more: 3 > 2".utf8)))
        #expect(Markdown.hasMarks(Array("[x](JAVASCRIPT:alert(1))".utf8)))
        // A named reference in an address: cmark decodes it, then removes the address.
        #expect(Markdown.html("[x](javascript&colon;alert(1))") == "<p><a href=\"\">x</a></p>\n")
        #expect(Markdown.inspect("[x](javascript&colon;alert(1))", referenced: { _ in false }).removedAddresses.map(\.url) == ["javascript:alert(1)"])
        // A comment is left out as meant: not counted.
        #expect(Markdown.inspect("Text <!-- a note --> and <b>bold</b>.\n\n<!--\nblock note\n-->\n", referenced: { _ in false }).html.count == 2)
    }

    @Test func safeLinksStay() {
        #expect(Markdown.html("[x](https://example.org/a?b=1)").contains("href=\"https://example.org/a?b=1\""))
    }

    @Test(arguments: [
        "*Bob* <script>",
        "# not a heading",
        "- not a list",
        "1. not a list",
        "[not](a link)",
        "`code` and \\ backslash",
        "&amp; stays literally &amp;",
        "> not a quote",
        "line one\nline two",
        "___",
        "<!-- comment -->",
    ])
    func escapedTextShowsLiterally(_ text: String) {
        let html = Markdown.html(Markdown.escape(text), smartPunctuation: false)
        let expected = text.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
        #expect(html == "<p>\(expected)</p>\n")
    }

    @Test func escapeTurnsLineBreaksIntoSpaces() {
        #expect(Markdown.escape("a\nb\r\nc") == "a b  c")
    }

    @Test func libraryIsCmark030OrNewer() {
        let parts = Markdown.libraryVersion.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2)
        #expect(parts[0] > 0 || parts[1] >= 29)  // safe by default since 0.29
    }
}
