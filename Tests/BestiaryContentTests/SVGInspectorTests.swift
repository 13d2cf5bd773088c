import BestiaryContent
import Foundation
import Testing

/// SVG that could run script when opened directly from the site's origin is refused, however its
/// markup is spelled; plain drawings (with comments, a DOCTYPE, namespaces, links to fragments)
/// pass.
struct SVGInspectorTests {
    static func svg(_ body: String, root: String = "") -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"\(root)>\(body)</svg>".utf8)
    }

    static let refused: [(String, Data, String)] = [
        ("script", svg("<script>alert(1)</script>"), "a <script> element"),
        ("script in capitals", svg("<SCRIPT>alert(1)</SCRIPT>"), "a <script> element"),
        ("script with a namespace prefix", svg("<s:script xmlns:s=\"http://www.w3.org/2000/svg\">alert(1)</s:script>"), "a <script> element"),
        ("XHTML script", svg("<h:script xmlns:h=\"http://www.w3.org/1999/xhtml\">alert(1)</h:script>"), "a <script> element"),
        ("foreignObject with a prefix", svg("<svg:foreignObject/>"), "<foreignObject>"),
        ("handler element", svg("<handler type=\"application/ecmascript\">x</handler>"), "<handler>"),
        ("iframe", svg("<h:iframe xmlns:h=\"http://www.w3.org/1999/xhtml\" src=\"/\"/>"), "<iframe>"),
        ("event handler", svg("", root: " onload=\"alert(1)\""), "event-handler attribute (onload)"),
        ("event handler after a line break", svg("<rect\nonclick='x'/>"), "event-handler attribute (onclick)"),
        ("event handler with a prefix", svg("<rect s:onmouseover=\"x\"/>"), "event-handler attribute (s:onmouseover)"),
        ("javascript link", svg("<a xlink:href=\"javascript:alert(1)\"><rect/></a>"), "javascript: link"),
        ("javascript link by character references",
            svg("<a href=\"&#106;avascript&#x3A;alert(1)\"><rect/></a>"), "javascript: link (in href)"),
        ("javascript link with leading zeros and a tab",
            svg("<a href=\"&#0000000000106;ava&#9;script:alert(1)\"><rect/></a>"), "javascript: link (in href)"),
        ("javascript animated into a link",
            svg("<a><set attributeName=\"href\" to=\"&#x6A;avascript:alert(1)\"/><rect/></a>"), "javascript: link (in to)"),
        ("javascript among animation values",
            svg("<a><animate attributeName=\"href\" values=\"#a;&#x6A;avascript:alert(1)\"/></a>"), "javascript: link (in values)"),
        ("event handler animated", svg("<set attributeName=\"onload\" to=\"alert(1)\"/>"), "animates an event-handler attribute"),
        ("entities", Data("<!DOCTYPE svg [<!ENTITY x \"y\">]><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "entities"),
        ("internal subset", Data("<!DOCTYPE svg [<!ATTLIST svg onload CDATA \"alert(1)\">]><svg/>".utf8), "internal subset"),
        ("XSLT style sheet", Data("<?xml-stylesheet type=\"text/xsl\" href=\"x.xsl\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "style sheet"),
        // Found by review: each got script past the first version of the markup scan.
        ("ISO-2022-JP escapes inside names", Data("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><svg xmlns=\"http://www.w3.org/2000/svg\" o\u{1B}(Bnload=\"alert(1)\"/>".utf8), "control characters"),
        ("an encoding other than UTF-8", Data("<?xml version='1.0' encoding='UTF-16'?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "declares the encoding 'utf-16'"),
        ("a quoted > in the DOCTYPE hiding a comment's start",
            Data("<!DOCTYPE svg SYSTEM \"x><!--\"><svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script><!-- --></svg>".utf8), "a <script> element"),
        ("a quoted > in the DOCTYPE before an internal subset",
            Data("<!DOCTYPE svg SYSTEM \"x>\" [<!ATTLIST svg onload CDATA \"alert(1)\">]><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "internal subset"),
        ("an HTML named reference an XHTML DOCTYPE would expand",
            Data("<!DOCTYPE svg PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\"><svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"javascript&colon;alert(1)\"><rect/></a></svg>".utf8),
            "named character reference"),
        ("an XHTML frame", svg("<h:frame xmlns:h=\"http://www.w3.org/1999/xhtml\" src=\"/\"/>"), "<frame>"),
        ("a data: URL a <use> would load", svg("<use href=\"data:image/svg+xml;base64,PHN2Zz4=#x\"/>"), "data: URL from <use>"),
        // Found by a security review: opened directly, each sent the visitor elsewhere or loaded
        // from another site.
        ("an XHTML meta refresh", svg("<h:meta xmlns:h=\"http://www.w3.org/1999/xhtml\" http-equiv=\"refresh\" content=\"0;url=https://evil.example/\"/>"), "a <meta> element"),
        ("an XHTML style sheet link", svg("<h:link xmlns:h=\"http://www.w3.org/1999/xhtml\" rel=\"stylesheet\" href=\"https://evil.example/x.css\"/>"), "a <link> element"),
        ("a style importing another", svg("<style>@import url(https://evil.example/a.css);</style>"), "@import"),
        ("a style loading a picture", svg("<style>rect { fill: url('https://evil.example/t.png') }</style><rect/>"), "loads 'url(https://evil.example/t.png)'"),
        ("a presentation attribute loading from elsewhere", svg("<rect fill=\"url(//evil.example/t#p)\"/>"), "loads 'url(//evil.example/t#p)'"),
        ("a use of another file", svg("<use href=\"https://evil.example/s.svg#x\"/>"), "loads 'https://evil.example/s.svg#x' from <use>"),
        ("a picture from elsewhere", svg("<image xlink:href=\"https://evil.example/track.png\"/>"), "from <image>"),
        // Found by review: each got a request past the first version of those checks.
        ("a url spelt with a character reference in a style", svg("<style>svg{background:url(&#104;ttps://evil.example/t.png)}</style>"), "loads 'url(https://evil.example/t.png)'"),
        ("a url spelt with a reference in a style attribute", svg("<rect style=\"cursor:u&#114;l(https://evil.example/c.png),auto\"/>"), "loads 'url(https://evil.example/c.png)'"),
        ("an @import spelt with a reference", svg("<style>@&#105;mport 'https://evil.example/a.css';</style>"), "@import"),
        ("a url spelt with a CSS escape", svg("<style>rect{fill:\\75 rl(https://evil.example/t.png)}</style>"), "loads 'url(https://evil.example/t.png)'"),
        ("an @import spelt with a CSS escape", svg("<style>@\\69mport url(https://evil.example/a.css);</style>"), "@import"),
        ("image-set", svg("<style>svg{background-image:image-set(\"https://evil.example/t.png\" 1x)}</style>"), "image-set"),
        ("a style in CDATA", svg("<style><![CDATA[ rect { fill: url(https://evil.example/t.png) } ]]></style>"), "loads 'url(https://evil.example/t.png)'"),
        ("an animation setting a link", svg("<image href=\"#a\"><set attributeName=\"href\" to=\"https://evil.example/t.png\"/></image>"), "animates a link (href)"),
        ("an animation setting a link, its target first", svg("<image href=\"#a\"><set to=\"https://evil.example/t.png\" attributeName=\"xlink:href\"/></image>"), "animates a link (xlink:href)"),
        ("an XHTML picture set", svg("<h:img xmlns:h=\"http://www.w3.org/1999/xhtml\" srcset=\"https://evil.example/t.png 1x\"/>"), "'srcset' attribute"),
        // Found by a second review.
        ("a script inside a style element", svg("<style><h:script xmlns:h=\"http://www.w3.org/1999/xhtml\" src=\"data:text/javascript,alert(1)\"/></style>"), "markup inside a <style> element"),
        ("a style sheet going on after an element inside it", svg("<style><h:b xmlns:h=\"http://www.w3.org/1999/xhtml\"></h:b>svg{background:url(https://evil.example/t)}</style>"), "markup inside a <style> element"),
        ("a comment's start inside a string", svg("<style>a{font-family:\"/*\"}svg{background:url(https://evil.example/t.png)}b{font-family:\"*/\"}</style>"), "loads 'url(https://evil.example/t.png)'"),
        ("an escape ended by a carriage return", svg("<rect style=\"background:\\75&#13;rl(https://evil.example/t.png)\"/>"), "loads 'url(https://evil.example/t.png)'"),
        ("a fill animated to a picture from elsewhere", svg("<rect><set attributeName=\"fill\" to=\"url(https://evil.example/p.svg#g)\"/></rect>"), "loads 'url(https://evil.example/p.svg#g)'"),
        ("a prefixed link animated", svg("<use href=\"#u\"><set attributeName=\"x:href\" to=\"https://evil.example/s.svg#a\"/></use>"), "animates a link (x:href)"),
        ("not UTF-8", Data([0x3C, 0x73, 0x76, 0x67, 0xFF, 0x3E]), "not valid UTF-8"),
        ("no svg element", Data("<?xml version=\"1.0\"?><html/>".utf8), "does not contain an <svg> element"),
    ]

    @Test(arguments: refused.indices) func hostileSVGIsRefused(_ index: Int) {
        let (name, data, reason) = Self.refused[index]
        let problem = SVGInspector.problem(in: data)
        #expect(problem?.contains(reason) == true, "\(name): \(problem ?? "accepted")")
    }

    static let harmless: [(String, Data)] = [
        ("plain drawing", svg("<rect width=\"10\" height=\"10\" fill=\"#0a0\"/><circle cx=\"5\" cy=\"5\" r=\"2\"/>")),
        ("XML declaration, comment and DOCTYPE", Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- drawn by hand; <script> in a comment is not a script -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L10 10"/></svg>
            """.utf8)),
        ("links to fragments and an article", svg("<use xlink:href=\"#leaf\"/><a href=\"https://en.wikipedia.org/wiki/Fox\"><text>one &amp; only</text></a>")),
        ("style and CDATA", svg("<style><![CDATA[ rect { fill: red } ]]></style><rect opacity=\"0.5\" offset=\"1\"/>")),
        ("url and @import in a comment, a description and a link's query", svg("<!-- url(https://x/) @import --><desc>see url(https://x/) and @import</desc><a href=\"https://example.org/?q=url(x)\"><rect/></a>")),
        ("Illustrator's gradient ids and an animation between fragments", svg("<linearGradient id=\"SVGID_1_\"/><rect fill=\"url(#SVGID_1_)\"/><use href=\"#a\"><set attributeName=\"href\" to=\"#b\"/></use>")),
        ("a namespace declared in a style sheet", svg("<style>@namespace svg url(http://www.w3.org/2000/svg); svg|rect { fill: url(#g) }</style>")),
        ("gradients named by fragment", svg("<defs><linearGradient id=\"g\"/></defs><style>circle { fill: url(#g) }</style><rect fill=\"url(#g)\"/><circle style=\"fill: url( '#g' )\"/>")),
        ("animation of a colour", svg("<rect><animate attributeName=\"fill\" values=\"red;blue\" dur=\"2s\"/></rect>")),
        ("an embedded raster picture", svg("<image width=\"4\" height=\"4\" xlink:href=\"data:image/png;base64,iVBORw0KGgo=\"/>")),
        ("UTF-8 declared", Data("<?xml version=\"1.0\" encoding=\"utf-8\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)),
        ("metadata in other namespaces", svg("<metadata><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><cc:license rdf:resource=\"https://creativecommons.org/licenses/by/4.0/\"/></rdf:RDF></metadata>")),
    ]

    @Test(arguments: harmless.indices) func plainDrawingPasses(_ index: Int) {
        let (name, data) = Self.harmless[index]
        #expect(SVGInspector.problem(in: data) == nil, "\(name)")
    }
}
