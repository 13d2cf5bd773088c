import ArgumentParser
import BestiaryDiagnostics

/// Options every command takes (DESIGN.md §3).
public struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("root"), help: ArgumentHelp("The site root: the folder holding content/. (default: .)", valueName: "DIR"))
    var givenRoot: String?

    /// `--root` as given, else `.`.
    public var root: String {
        get { givenRoot ?? "." }
        set { givenRoot = newValue }
    }

    /// Whether `--root` was given (`--root .` too): a command that reads something from the site
    /// (the keys `pack verify` and `sync` trust) refuses one that is no site, instead of reading
    /// nothing from it (`--root ""` from an unset variable checked no signature).
    public var rootGiven: Bool { givenRoot != nil }

    @Option(name: .long, help: ArgumentHelp("How to print problems: text (path:line:col: error: …) or json (one object per line).", valueName: "text|json"))
    public var diagnostics: DiagnosticFormatter.Format = .text

    @Flag(name: .long, help: "Print every warning. As text, more than 20 warnings that say the same thing in different places are cut to the first 10 and a line that counts the rest (JSON always has every one).")
    public var allWarnings = false

    public init() {}

    /// The root without a trailing slash, so relative paths join cleanly.
    public var siteRoot: String {
        var r = root
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        return r.isEmpty ? "." : r
    }
}

/// The options of a command that reads no site (`keys`, `pack dump`): only how problems are
/// printed. (They listed `--root` and `--all-warnings` too, which changed nothing: found by a tester.)
public struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How to print problems: text (path:line:col: error: …) or json (one object per line).", valueName: "text|json"))
    public var diagnostics: DiagnosticFormatter.Format = .text

    /// Such a command has no warnings to cut.
    public var allWarnings: Bool { false }

    public init() {}
}

extension DiagnosticFormatter.Format: ExpressibleByArgument {}
