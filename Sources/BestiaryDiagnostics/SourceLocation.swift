/// A place in a file of the site root: the `path:line:col` every diagnostic carries.
///
/// `path` is relative to the site root (`content/animals/red-fox.md`) so that messages read the
/// same on every machine and in CI logs. Lines and columns start at 1; `0` means "unknown"
/// (a whole-file problem such as "file is not valid UTF-8" still knows its line when it can).
public struct SourceLocation: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// Path relative to the site root, with `/` separators.
    public var path: String
    /// 1-based line, or 0 when the problem concerns the whole file.
    public var line: Int
    /// 1-based column in Unicode scalars, or 0 when unknown.
    public var column: Int

    public init(path: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:col`, with missing parts filled as `1` so editors can always jump to it.
    /// `path:line:col` on one line: a control character in a file's name (a line break, which
    /// a file name may hold) is written as an escape (`\n`, `\u{7}`), so that the message stays
    /// one line editors and tools can read (found by a team of editors).
    public var description: String {
        "\(Self.oneLine(path)):\(max(line, 1)):\(max(column, 1))"
    }

    /// `text` with its control characters escaped (unchanged when it has none).
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}

extension SourceLocation {
    /// The lines of `text` as its parsers number them: split at each "\n", a CRLF line's "\r"
    /// left off. (In Swift "\r\n" is one Character, so a split by the Character "\n" never sees
    /// it, and every line of a Windows file after the first came back empty.)
    public static func lines(of text: some StringProtocol) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
            let line = String(String.UnicodeScalarView(scalars))
            return line.unicodeScalars.last == "\r" ? String(String.UnicodeScalarView(line.unicodeScalars.dropLast())) : line
        }
    }

    /// The line and column (in Unicode scalars, 1-based, as ``column`` is) of the place right
    /// after `prefix`, the text of a file before it; CRLF line ends counted as one.
    public static func position(after prefix: some StringProtocol) -> (line: Int, column: Int) {
        let lines = lines(of: prefix)
        return (lines.count, (lines.last?.unicodeScalars.count ?? 0) + 1)
    }
}
