import BestiaryDiagnostics
import Foundation
import Testing

@testable import BestiaryRender

/// A broken theme template is reported at its file, line and column, with a sentence.
struct TemplateDiagnosticsTests {
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

    @Test func theBuiltInThemeCompiles() throws {
        #expect(try Templates.compile(.builtIn).names.contains("layouts.animal"))
    }

    @Test func aClosingTagThatDoesNotMatchIsReportedWhereItIs() {
        let text = diagnostics("layouts/page.html", "{{<layouts.base}}\n{{$main}}\n  {{#body_lang}}x\n{{/main}}\n{{/layouts.base}}\n")
        #expect(text == [
            "templates/layouts/page.html:4:1: error: template error: a closing tag {{/main}} does not match the section it should close, 'body_lang' [render]"
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
}
