import BestiaryCLI
import BestiaryTestSupport
import Foundation
import Testing

/// What `bestiary build` says before its stages.
@Suite struct BuildCommandTests {
    let run = SiteCommandRun.bestiary

    /// A rebuild names what changed since the output was built, first (a rebuild nobody expected
    /// shows its cause); an up-to-date build and the first build name nothing.
    @Test func aRebuildSaysWhatChangedFirst() async throws {
        let dir = try await SiteCommandRun.newSite()
        let site = dir.appending("site")
        let first = await run("build", "--root", site)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("was built:"), "\(first.stderr)")
        let fox = site + "/content/animals/red-fox.md"
        try (String(contentsOfFile: fox, encoding: .utf8) + "\nSeen at dusk.\n").writeReplacing(toFile: fox)
        let second = await run("build", "--root", site)
        #expect(second.status == 0, "\(second.stderr)")
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.first == "changed since \(site)/output was built: content/animals/red-fox.md", "\(second.stderr)")
        let third = await run("build", "--root", site)
        #expect(!third.stderr.contains("was built:") && third.stderr.contains("is up to date"), "\(third.stderr)")
        // A build that fails says it too, before its errors: what changed is where to look.
        try "---\nname: [broken\n---\n".writeReplacing(toFile: fox)
        let failed = await run("build", "--root", site)
        #expect(failed.status == 1)
        #expect(failed.stderr.split(separator: "\n").first == "changed since \(site)/output was built: content/animals/red-fox.md", "\(failed.stderr)")
    }
}
