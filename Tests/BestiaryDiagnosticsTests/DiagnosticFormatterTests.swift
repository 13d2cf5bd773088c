import BestiaryDiagnostics
import Testing

@Suite struct DiagnosticFormatterTests {
    @Test func textHasPathLineColumnSeverityMessageAndStage() {
        let d = Diagnostic.error("unknown key 'colour'", at: SourceLocation(path: "content/site.yml", line: 4, column: 1), stage: "load")
        #expect(DiagnosticFormatter.text(d) == "content/site.yml:4:1: error: unknown key 'colour' [load]")
    }

    @Test func unknownLineAndColumnPrintAsOneSoEditorsCanJump() {
        let d = Diagnostic.warning("no animals yet", at: SourceLocation(path: "content/animals"))
        #expect(DiagnosticFormatter.text(d) == "content/animals:1:1: warning: no animals yet")
    }

    /// A file name holding a line break split the message over two lines (found by a team of
    /// editors): the path's control characters are escaped, the message stays one line.
    @Test func aFileNameWithALineBreakStaysOnOneLine() {
        let d = Diagnostic.error("bad", at: SourceLocation(path: "content/animals/new\nline\u{7}.md", line: 1, column: 1))
        #expect(DiagnosticFormatter.text(d) == "content/animals/new\\nline\\u{7}.md:1:1: error: bad")
    }

    @Test func withoutLocationTheToolNamesItself() {
        #expect(DiagnosticFormatter.text(.error("bad flag")) == "bestiary: error: bad flag")
    }

    @Test func jsonIsOneObjectPerLineWithEscapedText() {
        let d = Diagnostic.error("quote \" back\\slash\nnewline \u{1}", at: SourceLocation(path: "a/b.md", line: 2, column: 3), stage: "render")
        let json = DiagnosticFormatter.json(d)
        #expect(!json.contains("\n"))
        #expect(json == #"{"severity":"error","file":"a/b.md","line":2,"column":3,"message":"quote \" back\\slash\nnewline \u0001","stage":"render","code":null}"#)
    }

    @Test func bagSortsByLocationAndKnowsErrors() throws {
        var bag = DiagnosticBag()
        bag.warning("w", at: SourceLocation(path: "b.md", line: 1, column: 1))
        bag.error("e2", at: SourceLocation(path: "a.md", line: 9, column: 1))
        bag.error("e1", at: SourceLocation(path: "a.md", line: 2, column: 5))
        bag.append(.note("general"))
        #expect(bag.sorted.map(\.message) == ["general", "e1", "e2", "w"])
        #expect(bag.errorCount == 2 && bag.warningCount == 1 && bag.hasErrors)
        #expect(throws: DiagnosticError.self) { try bag.throwIfErrors() }
    }

    @Test func inStageKeepsAnExistingStage() {
        let d = Diagnostic.error("x", stage: "load")
        #expect(d.inStage("render").stage == "load")
        #expect(Diagnostic.error("y").inStage("render").stage == "render")
    }
}
