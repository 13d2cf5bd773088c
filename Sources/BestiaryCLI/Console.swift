import BestiaryDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where commands print. A task-local so tests can run commands in-process and capture output.
public final class Console: @unchecked Sendable {
    @TaskLocal public static var current = Console()

    private let lock = NSLock()
    private let outHandler: @Sendable (String) -> Void
    private let errHandler: @Sendable (String) -> Void
    /// True when standard error is a terminal (progress bars, colours).
    public let isTerminal: Bool

    public init(
        out: @escaping @Sendable (String) -> Void = { Console.write($0, to: 1) },
        err: @escaping @Sendable (String) -> Void = { Console.write($0, to: 2) },
        isTerminal: Bool = isatty(2) == 1
    ) {
        self.outHandler = out
        self.errHandler = err
        self.isTerminal = isTerminal
    }

    /// Why the last write to standard output failed (a full disk, a closed descriptor, a reader
    /// gone), or nil: a command whose results were not written exits 1 (``BestiaryCommand``).
    nonisolated(unsafe) static var outputFailure: String?
    private static let failureLock = NSLock()

    /// `line` and a line break written to descriptor `fd`. A failure is noted (standard output)
    /// or dropped (standard error: there is nowhere to say it), never a crash: Foundation's
    /// `FileHandle.write` trapped on a full disk or a closed descriptor, so that a build run with
    /// its messages sent to a full disk built nothing (found by an IT person).
    public static func write(_ line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if fd == 1 {
                    let reason = String(cString: strerror(errno))
                    failureLock.withLock { outputFailure = outputFailure ?? reason }
                }
                return
            }
            offset += n
        }
    }

    /// The failure ``write(_:to:)`` noted for standard output, and forgets it.
    static func takeOutputFailure() -> String? {
        failureLock.withLock {
            defer { outputFailure = nil }
            return outputFailure
        }
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
    /// As text, more than 20 warnings alike are cut to their first 10 and a line that counts the
    /// rest (``AlikeWarnings``), unless `everyWarning` (`--all-warnings`).
    public func report(_ diagnostics: [Diagnostic], format: DiagnosticFormatter.Format, everyWarning: Bool = false) {
        let sorted = DiagnosticBag(diagnostics).sorted
        guard format == .text, !everyWarning else {
            for d in sorted {
                let line = DiagnosticFormatter.format(d, as: format)
                if format == .json { out(line) } else { err(line) }
            }
            return
        }
        let (printed, folded) = AlikeWarnings.fold(sorted)
        for d in printed { err(DiagnosticFormatter.text(d)) }
        for fold in folded { err(AlikeWarnings.summary(fold)) }
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

/// `write(2)` (the name is taken by ``Console/write(_:to:)`` inside the class).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
