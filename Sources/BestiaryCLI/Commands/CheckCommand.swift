import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics

/// `bestiary check`: load and validate everything, print every problem, exit 1 on any error.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate content/ and print every problem (exit 1 on any error).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let result = ContentLoader(root: global.siteRoot).load()
        let console = Console.current
        console.report(result.diagnostics.items, format: global.diagnostics)
        let errors = result.diagnostics.errorCount, warnings = result.diagnostics.warningCount
        if global.diagnostics == .text {
            let animals = result.catalog?.animals.count ?? 0
            let pages = result.catalog?.pages.count ?? 0
            console.err(
                "checked \(animals) animal\(animals == 1 ? "" : "s") and \(pages) page\(pages == 1 ? "" : "s"): "
                    + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        if errors > 0 || result.catalog == nil { throw CommandFailure(status: 1) }
    }
}
