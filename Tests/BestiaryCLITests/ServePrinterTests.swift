@testable import BestiaryCLI
import BestiaryDiagnostics
import BestiaryPreview
import BestiaryTestSupport
import Foundation
import Testing

/// What `bestiary serve` prints when a build fails.
@Suite struct ServePrinterTests {
    let problem = Diagnostic.error("difficulty must be a whole number from 1 to 3", at: SourceLocation(path: "content/animals/cow.md", line: 3, column: 13), stage: "load")

    /// A new site whose first build fails has no last good build to serve (it said it had one:
    /// found by an author).
    @Test func aFirstBuildThatFailsInANewSiteSaysNothingIsServedYet() throws {
        let dir = TemporaryDirectory("serve-printer")
        let (console, captured) = Console.capturing()
        let printer = ServePrinter(console: console, format: .text)
        printer.print(.failed([problem], changes: [.everything]), outputDirectory: dir.appending("output"))
        let last = try #require(captured.stderr.split(separator: "\n").last)
        #expect(last.hasSuffix(" the first build failed: 1 error; nothing built to serve yet: every page shows the errors until they are fixed"), "\(last)")

        // Once an output is there, a failed build leaves it served.
        try dir.write("<!doctype html>", to: "output/index.html")
        printer.print(.failed([problem], changes: [ChangedPath(path: "content/animals/cow.md", kind: .record)]), outputDirectory: dir.appending("output"))
        let next = try #require(captured.stderr.split(separator: "\n").last)
        #expect(next.hasSuffix(" build failed after content/animals/cow.md: 1 error; still serving the last good build, errors shown in the browser"), "\(next)")
    }
}
