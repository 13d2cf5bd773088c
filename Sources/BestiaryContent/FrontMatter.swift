import BestiaryDiagnostics

/// A Markdown file split into its YAML front matter and its body.
///
/// The front matter starts on the file's first line with `---` and ends at the next line that is
/// exactly `---` (or `...`). Lines are counted so that a YAML mark can be turned back into the
/// file's own line number.
public struct FrontMatterDocument: Sendable {
    /// The YAML between the delimiters; nil when the file has no front matter.
    public var yaml: String?
    /// File line on which the YAML's first line sits (2 when the file starts with `---`).
    public var yamlFirstLine: Int
    /// The Markdown after the closing delimiter.
    public var body: String
    /// File line on which the body starts.
    public var bodyFirstLine: Int

    /// Splits `source`; reports an unterminated front matter at its opening line.
    public static func split(_ source: SourceText) throws(DiagnosticError) -> FrontMatterDocument {
        let text = source.text
        // The opening line may end in spaces or tabs, as the closing one may (an editor's
        // trailing space read as "no front matter", found by a tester).
        let firstEnd = text.firstIndex(of: "\n") ?? text.endIndex
        guard text.hasPrefix("---"), text[..<firstEnd].trimmingTrailingSpace() == "---" else {
            return FrontMatterDocument(yaml: nil, yamlFirstLine: 0, body: text, bodyFirstLine: 1)
        }
        var lineNumber = 1
        var yamlLines: [Substring] = []
        var bodyStart: String.Index?
        var index = firstEnd < text.endIndex ? text.index(after: firstEnd) : text.endIndex
        while index < text.endIndex {
            let end = text[index...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[index..<end]
            lineNumber += 1
            let trimmed = line.hasSuffix(" ") || line.hasSuffix("\t") ? Substring(line.trimmingTrailingSpace()) : line
            if trimmed == "---" || trimmed == "..." {
                bodyStart = end < text.endIndex ? text.index(after: end) : text.endIndex
                break
            }
            yamlLines.append(line)
            index = end < text.endIndex ? text.index(after: end) : text.endIndex
        }
        guard let bodyStart else {
            throw DiagnosticError(.error(
                "front matter is not closed: add a line with only '---' after the last field",
                at: SourceLocation(path: source.path, line: 1, column: 1), stage: "load"))
        }
        return FrontMatterDocument(
            yaml: yamlLines.joined(separator: "\n"), yamlFirstLine: 2,
            body: String(text[bodyStart...]), bodyFirstLine: lineNumber + 1)
    }
}

extension Substring {
    fileprivate func trimmingTrailingSpace() -> Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return s
    }
}
