import BestiaryDiagnostics
import Foundation

/// Where commands print. A task-local so tests can run commands in-process and capture output.
public final class Console: @unchecked Sendable {
    @TaskLocal public static var current = Console()

    private let lock = NSLock()
    private let outHandler: @Sendable (String) -> Void
    private let errHandler: @Sendable (String) -> Void
    /// True when standard error is a terminal (progress bars, colours).
    public let isTerminal: Bool

    public init(
        out: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
        isTerminal: Bool = isatty(2) == 1
    ) {
        self.outHandler = out
        self.errHandler = err
        self.isTerminal = isTerminal
    }

    /// A console that records lines, for tests.
    public static func capturing() -> (Console, CapturedOutput) {
        let captured = CapturedOutput()
        let console = Console(out: { captured.append(out: $0) }, err: { captured.append(err: $0) }, isTerminal: false)
        return (console, captured)
    }

    /// A command's result line (`pack verify`'s "OK", what `sync` did, each file `import` wrote):
    /// on standard output, unless problems are printed as JSON there, which must then be JSON
    /// alone (then standard error).
    func result(_ line: String, format: DiagnosticFormatter.Format) {
        if format == .json { err(line) } else { out(line) }
    }

    /// A line on standard output (results a script may read).
    public func out(_ line: String) {
        lock.withLock { outHandler(line) }
    }

    /// A line on standard error (diagnostics, progress, summaries).
    public func err(_ line: String) {
        lock.withLock { errHandler(line) }
    }

    /// Prints diagnostics in the chosen format, sorted as ``DiagnosticBag/sorted`` does.
    /// Diagnostics as text go to standard error, beside the progress lines; as JSON (one object
    /// a line) to standard output, so that `bestiary check --diagnostics json | jq` gets them.
    public func report(_ diagnostics: [Diagnostic], format: DiagnosticFormatter.Format) {
        for d in DiagnosticBag(diagnostics).sorted {
            let line = DiagnosticFormatter.format(d, as: format)
            if format == .json { out(line) } else { err(line) }
        }
    }
}

/// Output captured by ``Console/capturing()``.
public final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var outLines: [String] = []
    private var errLines: [String] = []

    func append(out line: String) { lock.withLock { outLines.append(line) } }
    func append(err line: String) { lock.withLock { errLines.append(line) } }

    public var stdout: String { lock.withLock { outLines.joined(separator: "\n") } }
    public var stderr: String { lock.withLock { errLines.joined(separator: "\n") } }
}
