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

    /// Commands that read no site list no `--root` nor `--all-warnings`, and refuse them: they
    /// were listed and took any value, changing nothing (found by a tester).
    @Test func commandsThatReadNoSiteTakeNoRoot() async {
        for command in [["keys", "generate"], ["keys", "public"], ["pack", "dump", "--db", "x.db"]] {
            let help = await SiteCommandRun.running(Array(command.prefix(2)) + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("--diagnostics"), "\(command)")
            #expect(!help.stdout.contains("--root") && !help.stdout.contains("--all-warnings"), "\(command): \(help.stdout)")
            let root = await SiteCommandRun.running(command + ["--root", "/nonexistent"])
            #expect(root.status == 2 && root.stderr.contains("Unknown option '--root'"), "\(command): \(root.stderr)")
        }
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
