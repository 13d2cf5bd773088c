import BestiaryCLI
import Testing

/// `bestiary help TOPIC` for a command, a nested one, and a word that names none.
@Suite struct HelpCommandTests {
    let run = SiteCommandRun.bestiary

    @Test func helpForACommandAndANestedOne() async {
        let build = await run("help", "build")
        #expect(build.status == 0)
        #expect(build.stdout.contains("--base-url"), "build's own help: \(build.stdout.prefix(200))")
        let verify = await run("help", "pack", "verify")
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("USAGE: bestiary pack verify"), "\(verify.stdout.prefix(200))")
    }

    /// ArgumentParser alone printed the top help and exited 0, so a typo looked like an answer.
    @Test func aWordThatNamesNoCommandIsAUsageError() async {
        let unknown = await run("help", "biuld")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "Error: 'biuld' is not a bestiary command (did you mean 'build'?); see 'bestiary --help'")
        #expect(unknown.stdout.isEmpty)
        let nested = await run("help", "pack", "nosuch")
        #expect(nested.status == 2)
        #expect(nested.stderr.contains("'pack nosuch' is not a bestiary command"))
    }

    /// A mistyped command said only "Unexpected argument 'biuld'" (found by a newcomer).
    @Test func aMistypedCommandIsNamedAsSuch() async {
        let typo = await run("biuld", "--root", "x")
        #expect(typo.status == 2)
        #expect(typo.stderr == "Error: 'biuld' is not a bestiary command (did you mean 'build'?); see 'bestiary --help'")
        let unknown = await run("nosuch")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "Error: 'nosuch' is not a bestiary command; see 'bestiary --help'")
        // The options before any command still work.
        #expect(await run("--version").status == 0)
    }
}
