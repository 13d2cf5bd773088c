import BestiaryTemplate
import Testing

/// Tricky templates rendered by swift-mustache and by BestiaryTemplate: the outputs must be
/// the same bytes. Each case is a main template, its partials and a context.
struct DifferentialTests {
    struct Case {
        var name: String
        var template: String
        var context: [String: Any] = [:]
        var partials: [String: String] = [:]
    }

    static var person: [String: Any] {
        [
        "name": "Ada <Lovelace> & \"friends\" 'n' co", "age": 36, "ratio": 0.5, "yes": true, "no": false,
        "empty": "", "zero": 0, "list": ["a", "b", "c"], "none": [String](),
        "items": [["n": "one", "flag": true], ["n": "two", "flag": false], ["n": "three"]],
        "nested": ["inner": ["deep": "bottom", "name": "inner name"], "label": "nested label"],
        "t": ["nav": ["home": "Start", "quiz": "Quiz"], "animal": ["favorite": "Lieblingstier ♥"]],
        "emoji": "Füchse 🦊 <über> naïve e\u{301} <\u{301}b>",
        "wrap": Reference.Lambda { "<b>\($0)</b>" },
        "url": Reference.Lambda { "/assets/" + $0.trimmingCharacters(in: .whitespaces) },
        "templated": Reference.Lambda { _ in "{{name}}!" },
        "structured": Reference.Lambda { _ in "{{#list}}<{{.}}>{{/list}}{{>p}}{{<p}}{{$b}}over{{/b}}{{/p}}" },
        "matrix": [["a", "b"], ["c"], [String]()],
        // Each brings a block name no template has: two different names.
        "overriding": Reference.Lambda { _ in "{{<box}}{{$x}}x overridden{{/x}}{{/box}}" },
        "inner": Reference.Lambda { _ in "{{$y}}y default{{/y}}" },
        ]
    }

    static var cases: [Case] {
        [
        Case(name: "escaping all five", template: "{{name}}|{{{name}}}|{{& name}}"),
        Case(name: "multi-byte text and combining marks", template: "{{emoji}}\n{{{emoji}}}"),
        Case(name: "numbers and bools", template: "{{age}} {{ratio}} {{yes}} {{no}} {{zero}}"),
        Case(name: "missing", template: "[{{missing}}][{{#missing}}x{{/missing}}][{{^missing}}y{{/missing}}][{{#nested.missing}}z{{/nested.missing}}]"),
        Case(name: "sections over values", template: "{{#empty}}E{{/empty}}{{#zero}}Z{{.}}{{/zero}}{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{^yes}}!Y{{/yes}}"),
        Case(name: "lists", template: "{{#list}}<{{.}}>{{/list}}{{#none}}never{{/none}}{{^none}}empty{{/none}}{{^list}}no{{/list}}"),
        Case(name: "list of objects with stack climbing", template: "{{#items}}{{n}}:{{age}}:{{#flag}}F{{/flag}}{{^flag}}-{{/flag}};{{/items}}"),
        Case(name: "dotted names", template: "{{nested.inner.deep}} {{t.nav.home}} {{t.animal.favorite}} {{nested.missing.deep}}"),
        Case(name: "dotted name does not climb after its first part", template: "{{#nested}}{{#inner}}{{name}} {{label}} {{inner.name}} {{nested.label}} {{inner.age}}{{/inner}}{{/nested}}"),
        Case(name: "anchored names", template: "{{#nested}}[{{.label}}][{{.age}}][{{age}}]{{/nested}}"),
        Case(name: "dot and empty name", template: "{{#list}}{{.}}{{/list}} {{#nested.inner}}{{.deep}}{{/nested.inner}}"),
        Case(name: "printing a list", template: "{{list}}|{{none}}"),
        Case(name: "comments", template: "a{{! a comment }}b\n  {{! standalone }}\nc {{!inline}} d\n"),
        Case(name: "multi-line comment", template: "x\n{{!\n  spans\n  lines\n}}\ny\n"),
        Case(name: "standalone sections", template: "<ul>\n  {{#list}}\n  <li>{{.}}</li>\n  {{/list}}\n</ul>\n"),
        Case(name: "standalone with CRLF", template: "<ul>\r\n  {{#list}}\r\n  <li>{{.}}</li>\r\n  {{/list}}\r\n</ul>\r\n"),
        Case(name: "standalone inverted and trailing whitespace", template: "a\n  {{^none}}  \t\nin\n  {{/none}}\t\nb"),
        Case(name: "not standalone: text before", template: "a {{#yes}}\nx\n{{/yes}} b\n"),
        Case(name: "standalone at end without newline", template: "a\n{{#yes}}\nb\n{{/yes}}"),
        Case(name: "whitespace before a tag at end", template: "a\n  {{#yes}}b{{/yes}}  "),
        Case(name: "nested sections", template: "{{#items}}{{#list}}{{n}}{{.}},{{/list}}|{{/items}}"),
        Case(name: "section pushes a string", template: "{{#name}}[{{.}}]{{/name}}"),
        Case(name: "partial", template: "<p>{{>card}}</p>", partials: ["card": "{{name}}!"]),
        Case(name: "standalone partial is indented", template: "<div>\n  {{>lines}}\n</div>\n", partials: ["lines": "one\ntwo\n{{#list}}\n{{.}}\n{{/list}}\n"]),
        Case(name: "nested partial indentation", template: "root\n  {{>outer}}\nend\n", partials: ["outer": "o1\n  {{>inner}}\no2\n", "inner": "i1\ni2 {{name}}\n"]),
        Case(name: "partial indentation with CRLF", template: "root\r\n  {{>p}}\r\nend\r\n", partials: ["p": "a\r\nb\r\n"]),
        Case(name: "inline partial keeps no indentation", template: "  x {{>p}}\n", partials: ["p": "a\nb\n"]),
        Case(name: "partial in a list", template: "<ul>\n{{#items}}\n  {{>li}}\n{{/items}}\n</ul>\n", partials: ["li": "<li>{{n}}</li>\n"]),
        Case(name: "missing partial", template: "a{{>nope}}b\n  {{>nope}}\nc"),
        Case(name: "dynamic partial", template: "{{>*which}}|{{>*missing}}", context: ["which": "p"], partials: ["p": "P{{which}}"]),
        Case(name: "partial names with dots", template: "{{> partials.card }}", partials: ["partials.card": "card"]),
        Case(name: "inheritance with defaults", template: "{{<base}}{{/base}}", partials: ["base": "<h>{{$title}}Default{{/title}}</h>\n{{$body}}body{{/body}}\n"]),
        Case(name: "inheritance with overrides", template: "{{<base}}\n{{$title}}Mine {{name}}{{/title}}\n{{/base}}\n", partials: ["base": "<title>{{$title}}Default{{/title}}</title>\n<main>\n{{$body}}body{{/body}}\n</main>\n"]),
        Case(name: "inheritance with indented blocks", template: "{{<base}}\n  {{$main}}\n    <p>one</p>\n      <p>two</p>\n    {{#list}}\n    <i>{{.}}</i>\n    {{/list}}\n  {{/main}}\n{{/base}}\n", partials: ["base": "<body>\n  <main>\n    {{$main}}{{/main}}\n  </main>\n</body>\n"]),
        Case(name: "nested parents: the outermost override wins", template: "{{<middle}}{{$a}}from main{{/a}}{{/middle}}", partials: ["middle": "{{<base}}{{$a}}from middle{{/a}}{{$b}}b from middle{{/b}}{{/base}}", "base": "[{{$a}}A{{/a}}][{{$b}}B{{/b}}][{{$c}}C{{/c}}]"]),
        Case(name: "block default with a partial inside", template: "{{<base}}{{/base}}", partials: ["base": "x\n  {{$b}}\n  {{>p}}\n  {{/b}}\ny\n", "p": "p1\np2\n"]),
        Case(name: "blocks outside a parent", template: "a{{$b}}default {{name}}{{/b}}c\n  {{$d}}\n  d\n  {{/d}}\n"),
        Case(name: "the theme's layout shape", template: "{{<base}}\n{{$main}}\n{{#nested}}\n<article>\n  <h1>{{label}}</h1>\n</article>\n{{/nested}}\n{{/main}}\n{{$scripts}}<script src=\"{{#url}}js/a.js{{/url}}\"></script>{{/scripts}}\n{{/base}}\n", partials: ["base": "<html>\n{{$head}}{{/head}}\n<main>\n{{$main}}{{/main}}\n</main>\n{{>footer}}\n{{$scripts}}{{/scripts}}\n</html>\n", "footer": "<footer>{{t.nav.home}}</footer>\n"]),
        Case(name: "set delimiters", template: "{{=<% %>=}}\n<% name %> {{name}} <%#list%><%.%><%/list%>\n<%={{ }}=%>{{age}}"),
        Case(name: "set delimiters inline", template: "a {{=| |=}} |age| |={{ }}=| {{age}}\n"),
        Case(name: "content type pragma", template: "{{% CONTENT_TYPE: MARKDOWN }}\n# {{name}} *{{emoji}}* [x]\n{{{name}}}\n{{>p}}", partials: ["p": "{{name}}"]),
        Case(name: "text content type", template: "{{%CONTENT_TYPE:TEXT}}{{name}}"),
        Case(name: "pragma inside a section", template: "{{#yes}}{{% CONTENT_TYPE: TEXT }}{{name}}{{/yes}} {{name}}"),
        Case(name: "lambda section", template: "<a href=\"{{#url}}js/site.js{{/url}}\">{{#wrap}}hi {{name}}{{/wrap}}</a>"),
        Case(name: "lambda result is a template", template: "{{#templated}}ignored{{/templated}} {{templated}} {{{templated}}}"),
        Case(name: "lambda as a variable", template: "{{wrap}}|{{{wrap}}}"),
        Case(name: "lambda inside a list", template: "{{#items}}{{#url}} {{n}} {{/url}};{{/items}}"),
        Case(name: "plain lambda result over lists on the stack", template: "{{#matrix}}[{{#url}}x{{/url}}]{{/matrix}}"),
        Case(name: "lambda result with a section, a partial and a parent", template: "{{#items}}{{#structured}}-{{/structured}};{{/items}}", partials: ["p": "({{n}}{{$b}}default{{/b}})"]),
        Case(name: "nested lambda results with new block names", template: "{{#overriding}}-{{/overriding}}", partials: ["box": "[{{#inner}}-{{/inner}}]"]),
        Case(name: "lambda in an indented partial", template: "x\n  {{>p}}\n", partials: ["p": "a\n{{#url}}b{{/url}}\nc\n"]),
        Case(name: "triple mustache whitespace", template: "  {{{name}}}\n  {{& name }}\n"),
        Case(name: "whitespace inside tags", template: "{{ name }}{{# list }}{{ . }}{{/ list }}{{^ none }}n{{/ none }}"),
        Case(name: "lone braces", template: "a { b } c {x} }} {y"),
        Case(name: "empty template", template: ""),
        Case(name: "only newlines", template: "\n\r\n\n"),
        Case(name: "tab indentation", template: "\t{{#yes}}\n\tx\n\t{{/yes}}\n\t{{>p}}\n", partials: ["p": "1\n2\n"]),
        Case(name: "CR alone", template: "a\r{{#yes}}\rb\r{{/yes}}\r"),
        Case(name: "inverted empty list pushes it", template: "{{#none}}x{{/none}}{{^none}}[{{.}}]{{/none}}"),
        // Characters of two to four bytes, one of two scalars, and CRLF, in text, sections, a
        // lambda's source and an indented partial: each run is made into a String from its bytes.
        Case(
            name: "characters of many bytes", template: "Grüße 🦊 {{#list}}é{{.}}e\u{301}{{/list}} – fin\r\n{{#url}}Ça 🦉 {{name}}{{/url}}\r\n  {{>p}}\r\n",
            partials: ["p": "ñ {{! ç {{ }}\r\n🦔\r\n"]),
        ]
    }

    @Test func sameBytesAsSwiftMustache() throws {
        for c in Self.cases {
            var templates = c.partials
            templates["main"] = c.template
            let context = Self.person.merging(c.context) { _, new in new }
            let theirs = try #require(Reference.theirs(templates, "main", context), "swift-mustache cannot parse '\(c.name)'")
            let ours = try Reference.ours(templates, "main", context)
            #expect(ours == theirs, "\(c.name)")
        }
        #expect(Self.cases.count >= 40)
    }

    /// The one deliberate difference: swift-mustache finds a nil stored in a `[String: Any]` (it
    /// prints `nil` and opens sections); ours converts it to `null`, which is false.
    @Test func nilInsideAnAnyDictionaryIsFalse() throws {
        let context: [String: Any] = ["nothing": Optional<String>.none as Any, "name": "outer"]
        let template = ["main": "[{{nothing}}][{{#nothing}}x{{/nothing}}][{{^nothing}}y{{/nothing}}]"]
        #expect(Reference.theirs(template, "main", context) == "[nil][x][]")
        #expect(try Reference.ours(template, "main", context) == "[][][y]")
    }
}
