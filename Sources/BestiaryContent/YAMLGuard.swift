import BestiaryDiagnostics

/// Refuses YAML that would make the parser or the loader misbehave, before it reaches the parser.
///
/// Front matter is small and flat, so the limits are far above anything a real record needs:
/// - size: a parser's work should be bounded by what a person could type;
/// - nesting: Yams builds its tree recursively, so very deep nesting would overflow the stack
///   (a crash, not an error message);
/// - aliases in key position and explicit (`?`) complex keys: Yams hashes keys to find
///   duplicates, and an aliased key can make that hash exponential (an "alias bomb" in a key).
///   Aliases in value position are caught after parsing, before anything walks the tree.
public enum YAMLGuard {
    public static let maxBytes = 256 * 1024
    static let maxFlowDepth = 32
    static let maxIndent = 128
    static let maxDashesPerLine = 16

    /// The first problem found, with its 1-based line and column in `yaml`.
    static func check(_ yaml: String) -> (message: String, line: Int, column: Int)? {
        if yaml.utf8.count > maxBytes {
            return ("front matter is larger than \(maxBytes / 1024) KiB; keep long text in the Markdown body", 1, 1)
        }
        var flowDepth = 0
        var lineNumber = 0
        var blockScalarIndent: Int? = nil  // inside a `|` or `>` block scalar deeper than this
        for rawLine in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Array(rawLine.unicodeScalars)
            var col = 0
            while col < line.count, line[col] == " " { col += 1 }
            let indent = col
            if let scalarIndent = blockScalarIndent {
                if col >= line.count || indent > scalarIndent { continue }
                blockScalarIndent = nil
            }
            if col >= line.count || line[col] == "#" { continue }
            if flowDepth == 0 && indent > maxIndent {
                return ("front matter is indented more than \(maxIndent) columns (nested too deeply)", lineNumber, col + 1)
            }
            // Leading sequence dashes: `- - - x` nests one level per dash.
            var dashes = 0
            while col + 1 < line.count, line[col] == "-", line[col + 1] == " " {
                dashes += 1
                col += 2
                while col < line.count, line[col] == " " { col += 1 }
            }
            if dashes > maxDashesPerLine {
                return ("front matter is nested too deeply (more than \(maxDashesPerLine) list levels on one line)", lineNumber, 1)
            }
            if flowDepth == 0, col < line.count, line[col] == "?" && (col + 1 == line.count || line[col + 1] == " ") {
                return ("complex mapping keys ('? ') are not supported in front matter", lineNumber, col + 1)
            }
            if col < line.count, let problem = anchorOrAlias(line[col]) {
                return (problem, lineNumber, col + 1)
            }
            // Scan the rest of the line for flow brackets, outside quotes and comments.
            var quote: Unicode.Scalar? = nil
            var previous: Unicode.Scalar = " "
            var expectKey = false
            var tokenStart = false  // the next non-space character starts a node
            while col < line.count {
                let c = line[col]
                if tokenStart && quote == nil && c != " " {
                    tokenStart = false
                    if let problem = anchorOrAlias(c) { return (problem, lineNumber, col + 1) }
                }
                if let q = quote {
                    if c == q {
                        if q == "'" && col + 1 < line.count && line[col + 1] == "'" { col += 2; continue }
                        quote = nil
                    } else if c == "\\" && q == "\"" {
                        col += 1
                    }
                    previous = c
                    col += 1
                    continue
                }
                switch c {
                case "#" where previous == " " || previous == "\t":
                    col = line.count
                    continue
                // (A `where` clause binds to the last pattern only: each quote has its own.)
                case "\"" where opensQuote(after: previous), "'" where opensQuote(after: previous):
                    quote = c
                case "[", "{":
                    flowDepth += 1
                    if flowDepth > maxFlowDepth {
                        return ("front matter is nested too deeply (more than \(maxFlowDepth) brackets)", lineNumber, col + 1)
                    }
                    expectKey = c == "{"
                    tokenStart = true
                    previous = c
                    col += 1
                    continue
                case "]", "}":
                    flowDepth = max(0, flowDepth - 1)
                case "," where flowDepth > 0:
                    expectKey = true
                    tokenStart = true
                    previous = c
                    col += 1
                    continue
                case ":" where col + 1 == line.count || line[col + 1] == " ":
                    tokenStart = true
                case "?" where expectKey:
                    return ("complex mapping keys ('? ') are not supported in front matter", lineNumber, col + 1)
                case "|" where opensBlockScalar(after: previous, flowDepth: flowDepth), ">" where opensBlockScalar(after: previous, flowDepth: flowDepth):
                    // A block scalar header ends the line (possibly with a comment).
                    let rest = line[(col + 1)...].filter { $0 != " " }
                    if rest.isEmpty || rest.allSatisfy({ "+-0123456789".unicodeScalars.contains($0) }) || rest.first == "#" {
                        blockScalarIndent = indent
                        col = line.count
                        continue
                    }
                default:
                    break
                }
                if c != " " { expectKey = false }
                previous = c
                col += 1
            }
        }
        return nil
    }

    /// Whether a quote after `previous` starts a quoted scalar (in `a"b` it is part of the text).
    private static func opensQuote(after previous: Unicode.Scalar) -> Bool {
        previous == " " || previous == "[" || previous == "{" || previous == "," || previous == ":"
    }

    /// Whether `|` or `>` after `previous` may start a block scalar: never inside brackets.
    private static func opensBlockScalar(after previous: Unicode.Scalar, flowDepth: Int) -> Bool {
        flowDepth == 0 && (previous == " " || previous == ":")
    }

    /// Anchors (`&name`) and aliases (`*name`) start a node; a plain scalar cannot start with
    /// either, so at a node's start they are always what YAML reads them as.
    private static func anchorOrAlias(_ c: Unicode.Scalar) -> String? {
        switch c {
        case "*": "aliases ('*name') are not supported in front matter; write the value out, or quote text that starts with '*'"
        case "&": "anchors ('&name') are not supported in front matter; write the value out, or quote text that starts with '&'"
        default: nil
        }
    }
}
