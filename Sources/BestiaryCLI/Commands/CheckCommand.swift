import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics
import BestiaryPacks
import BestiaryRender
import BestiarySite
import BestiaryStorage

/// `bestiary check`: load and validate everything, print every problem, exit 1 on any error.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate content/ and print every problem (exit 1 on any error).",
        discussion: """
            Reads every record, page, translation and media file as `bestiary build` would, \
            and each sound and picture to its end (a file a stopped copy cut short is named), \
            and every link in the texts (one that leads to no page or heading is named); \
            checks the Wikipedia cache's entries and pictures; compiles the theme's templates \
            and checks its texts, its assets and the names its templates look up; and replays \
            the whole pack history (content/packs.lock), checking every version's digest (a \
            build checks only the versions it uses).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("The output the last build wrote, to compare with: renamed records, another default language (default: ROOT/output).", valueName: "DIR"))
    var output: String?

    func validate() throws {
        if output?.isEmpty == true { throw ValidationError("--output must name a folder") }
    }

    /// A Hugo site's folders and settings at the site root, which no build reads (a theme
    /// designer put robots.txt in `static/` and a footer in `layouts/partials/`: nothing said so).
    static func hugoFolders(root: String) -> [Diagnostic] {
        let prefix = root == "." ? "" : root + "/"
        let places: [(String, String)] = [
            ("static", "files to publish go under templates/assets/ (with a content hash in their names), pictures and sounds under content/"),
            ("layouts", "a theme's layouts and partials go in templates/layouts/ and templates/partials/"),
            ("assets", "a theme's stylesheets, scripts and icons go in templates/assets/"),
            ("themes", "a theme is the site's templates/ folder"),
            ("hugo.toml", "the site's settings are content/site.yml"),
            ("config.toml", "the site's settings are content/site.yml"),
        ]
        return places.compactMap { name, instead in
            LocalFileSystem().info(prefix + name) != nil
                ? .warning("\(name) at the site root is not read by Bestiary (a Hugo habit?): \(instead); docs/theming.md, \"Coming from Hugo\"", at: SourceLocation(path: name), stage: "validate")
                : nil
        }
    }

    func run() async throws {
        let result = ContentLoader(root: global.siteRoot).load()
        var diagnostics = result.diagnostics
        // The Wikipedia cache and the theme, as the build's enrich and render stages would find them.
        if let catalog = result.catalog {
            diagnostics.append(contentsOf: ContentLoader.quizProblems(catalog))
            diagnostics.append(contentsOf: ContentLoader.placeholderProblems(catalog.config))
            let wikipedia = WikipediaCheck.check(of: catalog, fileSystem: LocalFileSystem())
            diagnostics.append(contentsOf: wikipedia.problems)
            diagnostics.append(contentsOf: MediaIntegrity.problems(of: catalog, fileSystem: LocalFileSystem()))
            diagnostics.append(contentsOf: TextLinkCheck.problems(of: catalog))
            // Against the output the last build left: a renamed record, another default language.
            let published = output ?? global.siteRoot + "/output"
            diagnostics.append(contentsOf: RenamedRecords.warnings(of: catalog, output: published, fileSystem: LocalFileSystem()))
            diagnostics.append(contentsOf: DefaultLanguageChange.warnings(of: catalog, output: published, fileSystem: LocalFileSystem()))
            diagnostics.append(contentsOf: TranslationCheck.notes(
                of: catalog, listing: global.allWarnings || global.diagnostics == .json ? nil : 3
            ) { wikipedia.summarised[$0]?.contains($1) == true })
        }
        if let config = result.catalog?.config {
            do {
                let theme = try PreparedTheme.load(
                    root: global.siteRoot, fileSystem: LocalFileSystem(), languages: config.languages, config: config.location(of: "languages"),
                    listingAll: global.allWarnings || global.diagnostics == .json)
                diagnostics.append(contentsOf: theme.warnings)
                if let catalog = result.catalog { diagnostics.append(contentsOf: theme.strings.unnamedGroups(of: catalog)) }
                // For whoever reviews a change: what outside the site the theme publishes.
                for (link, target) in theme.theme.outsideLinks {
                    diagnostics.append(.note(
                        "symbolic link to \(target), outside the site: the build publishes that file as the theme's own; make sure it belongs in the site",
                        at: SourceLocation(path: "templates/\(link)"), stage: "render"))
                }
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
            }
        }
        diagnostics.append(contentsOf: Self.hugoFolders(root: global.siteRoot))
        do {
            let lock = try PackLock.load(root: global.siteRoot)
            if let renamed = PackProducer.renamedPack(lock: lock, settings: result.catalog?.config.packs) { diagnostics.append(renamed) }
        } catch {
            diagnostics.append(contentsOf: error.diagnostics)
        }
        let console = Console.current
        console.report(diagnostics.items, format: global.diagnostics, everyWarning: global.allWarnings)
        let errors = diagnostics.errorCount, warnings = diagnostics.warningCount
        do {
            let counts = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            if let catalog = result.catalog {
                let animals = catalog.animals.count, pages = catalog.pages.count
                console.err("checked \(animals) animal\(animals == 1 ? "" : "s") and \(pages) page\(pages == 1 ? "" : "s"): \(counts)")
            } else if result.contentChecked {
                // Not "checked 0 animals": the records were checked too, against site.yml's languages.
                console.err("checked content/, but site.yml cannot be used until its errors are mended: \(counts)")
            } else {
                console.err("could not check the records without a usable content/site.yml: \(counts)")
            }
        }
        if errors > 0 || result.catalog == nil { throw CommandFailure(status: 1) }
    }
}
