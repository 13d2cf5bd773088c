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
    public var description: String {
        "\(path):\(max(line, 1)):\(max(column, 1))"
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
