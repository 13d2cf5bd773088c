import ArgumentParser
import BestiaryDiagnostics

/// Options every command takes (DESIGN.md §3).
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The site root: the folder holding content/.", valueName: "DIR"))
    public var root: String = "."

    @Option(name: .long, help: ArgumentHelp("How to print problems: text (path:line:col: error: …) or json (one object per line).", valueName: "text|json"))
    public var diagnostics: DiagnosticFormatter.Format = .text

    public init() {}

    /// The root without a trailing slash, so relative paths join cleanly.
    public var siteRoot: String {
        var r = root
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        return r.isEmpty ? "." : r
    }
}

extension DiagnosticFormatter.Format: ExpressibleByArgument {}
