import ArgumentParser
import BestiaryDiagnostics
import BestiaryImport
import BestiaryTheme
import Foundation

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

            --languages es,en makes a site in Spanish (the default) and English:
            the site's title, the starter record and the about page are in each
            (red-fox.en.md and about.en.md hold the English bodies). The
            default theme's menus and quiz speak en, de, fr, it, es and ar; a
            site in another language gets its starter texts in English, to
            translate, and `bestiary check` says which interface texts to
            translate in templates/i18n/LANG.json.

            After an upgrade of Bestiary, `bestiary init --update-theme` in a site
            replaces the files under templates/ that are an earlier version's
            default theme, never changed, with this version's; it creates no
            file, and keeps (and names) the files you changed.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The folder for the new site (or give it with --root).", valueName: "DIR"))
    var directory: String?

    @Flag(help: "Create the site in a folder that is not empty (no file is overwritten).")
    var force = false

    @Option(help: ArgumentHelp("The site's languages, the default first (default: en).", valueName: "es,en"))
    var languages: String?

    @Flag(help: "In an existing site, bring the theme files that are an earlier Bestiary's default, never changed, up to date (nothing else is written).")
    var updateTheme = false

    func run() async throws {
        let console = Console.current
        func trimmed(_ path: String) -> String {
            var p = path
            while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
            return p
        }
        if let directory, global.root != ".", trimmed(directory) != trimmed(global.root) {
            console.report(
                [.error("give the new site's folder once: DIR ('\(directory)') or --root ('\(global.root)')", stage: "init")],
                format: global.diagnostics)
            throw CommandFailure(status: 2)
        }
        var dir = directory ?? global.root
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        if updateTheme, languages != nil {
            console.report([.error("--languages is for a new site; --update-theme changes no language (edit languages: in content/site.yml)", stage: "init")], format: global.diagnostics)
            throw CommandFailure(status: 2)
        }
        if updateTheme {
            let update: SiteScaffold.ThemeUpdate
            do {
                update = try SiteScaffold.updateTheme(at: dir, theme: DefaultTheme.files, earlier: DefaultTheme.earlierDigests)
            } catch {
                console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
                throw CommandFailure(status: 1)
            }
            let at = dir == "." ? "" : dir + "/"
            for path in update.updated { console.result("updated \(at)\(path)", format: global.diagnostics) }
            for path in update.changed { console.result("kept \(at)\(path) (changed by you: this version's differs)", format: global.diagnostics) }
            let n = update.updated.count
            console.err("\(n) theme file\(n == 1 ? "" : "s") brought up to date, \(update.changed.count) of yours kept"
                + (update.changed.isEmpty ? "" : "; to compare them with this version's: bestiary init /tmp/bestiary-theme"))
            return
        }
        let codes = languages.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } } ?? ["en"]
        if let problem = SiteScaffold.problem(with: codes) {
            console.report([.error(problem, stage: "init")], format: global.diagnostics)
            throw CommandFailure(status: 2)
        }
        let result: SiteScaffold.Result
        do {
            result = try SiteScaffold.create(at: dir, theme: DefaultTheme.files, force: force, languages: languages.map { _ in codes })
        } catch {
            console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        let themeFiles = result.written.filter { $0.hasPrefix("templates/") }.count
        for path in result.written where !path.hasPrefix("templates/") {
            console.result("created \(dir == "." ? "" : dir + "/")\(path)", format: global.diagnostics)
        }
        if themeFiles > 0 {
            console.result("created \(dir == "." ? "" : dir + "/")templates/ (\(themeFiles) file\(themeFiles == 1 ? "" : "s") of the default theme)", format: global.diagnostics)
        }
        for path in result.kept where !path.hasPrefix("templates/") {
            console.result("kept \(dir == "." ? "" : dir + "/")\(path) (already there)", format: global.diagnostics)
        }
        let keptTheme = result.kept.filter { $0.hasPrefix("templates/") }.count
        if keptTheme > 0 {
            console.result("kept \(dir == "." ? "" : dir + "/")templates/ (\(keptTheme) file\(keptTheme == 1 ? "" : "s") already there)", format: global.diagnostics)
        }

        let untranslated = SiteScaffold.untranslated(codes)
        if !untranslated.isEmpty {
            let list = untranslated.map { "'\($0)'" }.joined(separator: ", ")
            console.report([.note(
                "init has no starter texts in \(list), so the starter record and about page are in English there: translate them (content/animals/red-fox*.md, content/pages/about*.md), or replace them with your own",
                stage: "init")], format: global.diagnostics)
        }
        let cd = dir == "." ? "" : "  cd \(Self.shellQuoted(dir))\n"
        // The commands in a column, as long as the first one needs (`--name pt-BR=NAME`).
        let steps = [
            ("bestiary add ID --name \(codes[0])=NAME --sound FILE", "add an animal (or: bestiary import FILE --format csv)"),
            ("bestiary fetch", "get Wikipedia summaries and pictures (optional: needs the internet)"),
            ("bestiary check", "find mistakes"), ("bestiary build", "make the site in output/"),
        ]
        let width = max(47, steps[0].0.count + 3)
        let lines = steps.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
        // Without --languages the site is English, its starter texts read as English (a teacher who
        // then put Arabic first had the English starter text published as Arabic).
        let ready = languages == nil
            ? "A new Bestiary site in English is ready (for a site in other languages, the default first:\n`bestiary init DIR --languages ar,en`)."
            : "A new Bestiary site is ready."
        console.err("""
            \(ready) In content/site.yml, set base_url to where it will be published
            and wikipedia.contact to your e-mail address (`bestiary check` names them until then). Next:
            \(cd)\(lines)
            """)
    }

    /// `path` as a shell reads it back: as it is when it holds only safe characters, else in
    /// single quotes (a quote inside written `'\''`).
    static func shellQuoted(_ path: String) -> String {
        let safe = path.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0)) }
        return safe ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
