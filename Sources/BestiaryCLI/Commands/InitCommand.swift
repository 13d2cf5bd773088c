import ArgumentParser
import BestiaryDiagnostics
import BestiaryImport
import BestiaryTheme

/// `bestiary init DIR`: a new site root, from the binary alone (the theme is embedded in it).
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site: content/ with a starter record, and templates/ with the default theme.",
        discussion: """
            Creates DIR (default: the current folder) with
              content/site.yml            the settings, commented
              content/animals/red-fox.md  a starter record
              content/pages/about.md      a page for the site's menu
              templates/                  the default theme, to adapt (files you
                                          delete fall back to the built-in ones)
              .gitignore                  keeps output/ out of git
            DIR must be empty (hidden files such as .git aside) unless --force
            is given; existing files are never overwritten.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The folder for the new site.", valueName: "DIR"))
    var directory: String = "."

    @Flag(help: "Create the site in a folder that is not empty (no file is overwritten).")
    var force = false

    func run() async throws {
        let console = Console.current
        var dir = directory
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        let result: SiteScaffold.Result
        do {
            result = try SiteScaffold.create(at: dir, theme: DefaultTheme.files, force: force)
        } catch {
            console.report(error.diagnostics, format: global.diagnostics)
            throw CommandFailure(status: 1)
        }
        let themeFiles = result.written.filter { $0.hasPrefix("templates/") }.count
        for path in result.written where !path.hasPrefix("templates/") {
            console.out("created \(dir == "." ? "" : dir + "/")\(path)")
        }
        console.out("created \(dir == "." ? "" : dir + "/")templates/ (\(themeFiles) file\(themeFiles == 1 ? "" : "s") of the default theme)")
        for path in result.kept {
            console.out("kept \(dir == "." ? "" : dir + "/")\(path) (already there)")
        }
        let cd = dir == "." ? "" : "  cd \(dir)\n"
        console.err("""
            A new Bestiary site is ready. Next:
            \(cd)  bestiary add ID --name en=NAME --sound FILE   add an animal (or: bestiary import FILE --format csv)
              bestiary fetch                                 get Wikipedia summaries and pictures
              bestiary check                                 find mistakes
              bestiary build                                 make the site in output/
            """)
    }
}
