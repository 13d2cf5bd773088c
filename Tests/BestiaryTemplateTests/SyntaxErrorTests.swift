import BestiaryTemplate
import Testing

/// Templates that cannot be parsed: the error names the kind of mistake and the 1-based line
/// and column of the tag at fault.
struct SyntaxErrorTests {
    func error(_ text: String) -> TemplateSyntaxError? {
        do {
            _ = try TemplateLibrary(["main": text])
            return nil
        } catch {
            return error.failures.first?.error
        }
    }

    @Test func closingTagThatDoesNotMatch() {
        let e = error("line one\n  {{#a}}x{{/b}}\n")
        #expect(e?.kind == .closingTagMismatch(open: "a", found: "b", openLine: 2))
        #expect(e?.line == 2)
        #expect(e?.column == 10)
    }

    @Test func unclosedSectionPointsAtItsOpeningTag() {
        let e = error("a\nb\n   {{#animal}}\n{{name}}\n")
        #expect(e?.kind == .unclosedSection("#animal"))
        #expect((e?.line, e?.column) == (3, 4))
        #expect(e?.message == "the section {{#animal}} is never closed")
    }

    @Test func crlfCountsAsOneLineBreak() {
        let e = error("a\r\nb\r\n{{^x}}")
        #expect(e?.kind == .unclosedSection("^x"))
        #expect((e?.line, e?.column) == (3, 1))
    }

    @Test func columnsCountCharactersNotBytes() {
        let e = error("ü🦊 {{name")
        #expect(e?.kind == .unexpectedEnd)
        #expect((e?.line, e?.column) == (1, 4))
    }

    @Test func badNamesAndTags() {
        #expect(error("{{na/me}}")?.kind == .unfinishedTag)
        #expect(error("{{{name}}")?.kind == .unexpectedEnd)
        #expect(error("{{! never closed")?.kind == .unexpectedEnd)
        #expect(error("{{/a}}")?.kind == .closingTagMismatch(open: nil, found: "a"))
        #expect(error("{{=<%>=}}")?.kind == .invalidSetDelimiter)
        #expect(error("{{<p}}{{name}}{{/p}}")?.kind == .illegalInsideParent)
        #expect(error("{{% CONTENT_TYPE: YAML }}")?.kind == .unknownContentType("YAML"))
        #expect(error("{{% OTHER: HTML }}")?.kind == .invalidPragma)
    }

    @Test func transformsAreRejectedWithAClearMessage() {
        let e = error("x\n{{#items}}{{index()}}{{/items}}")
        #expect(e?.kind == .transform("index()"))
        #expect((e?.line, e?.column) == (2, 11))
        #expect(e?.message.contains("not supported") == true)
        #expect(error("{{uppercased(name)}}")?.kind == .transform("uppercased(name)"))
    }

    @Test func everyBrokenTemplateIsReported() throws {
        do {
            _ = try TemplateLibrary(["a": "{{#x}}", "b": "fine", "c": "{{/y}}"])
            Issue.record("should not compile")
        } catch {
            #expect(error.failures.map(\.name) == ["a", "c"])
        }
    }
}

/// A partial named by a value can include itself, which no compiler sees: rendering stops going
/// deeper after a hundred partials inside each other instead of overflowing the stack.
struct PartialDepthTests {
    @Test func aPartialThatNamesItselfStopsAtAHundredLevels() throws {
        let library = try TemplateLibrary(["loop": "<{{>*next}}>"])
        let text = try #require(library.render("loop", .object(["next": .string("loop")])))
        #expect(text == String(repeating: "<", count: 101) + String(repeating: ">", count: 101))
    }
}
