import Testing

@testable import BestiaryRender

/// `check` names a Hugo shortcode in a text (it is published as written), but not one the text
/// shows as code: in a fenced block or a code span, as a page about moving from Hugo would.
struct HugoShortcodeTests {
    @Test func aShortcodeIsFoundAtItsPlace() {
        let found = TextLinkCheck.hugoShortcode(in: "Our hall:\n\nSee {{< figure src=\"hall.jpg\" >}} here.\n")
        #expect(found?.line == 3 && found?.column == 5 && found?.text == "{{< figure src=\"hall.jpg\" >}}", "\(String(describing: found))")
        #expect(TextLinkCheck.hugoShortcode(in: "{{% note %}}\n")?.line == 1)
    }

    @Test func codeShowingAShortcodeIsNotOne() {
        #expect(TextLinkCheck.hugoShortcode(in: "Hugo writes `{{< figure >}}`; we write Markdown.\n") == nil)
        #expect(TextLinkCheck.hugoShortcode(in: "In Hugo:\n\n```\n{{< figure src=\"a.jpg\" >}}\n```\n") == nil)
        #expect(TextLinkCheck.hugoShortcode(in: "~~~ html\n{{% note %}}\n~~~\n") == nil)
        // After the block closes, a shortcode in the text is one again.
        #expect(TextLinkCheck.hugoShortcode(in: "```\n{{< a >}}\n```\nThen {{< b >}}\n")?.line == 4)
    }
}
