import ArgumentParser
import BestiaryDiagnostics
import BestiaryImport
import BestiaryRender
import BestiaryStorage

/// `bestiary remove ID…`: deletes records, their translations, and media no other record uses.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove records: their files, translations, and sounds and pictures no other record uses.",
        discussion: """
            Prints every file it removes. A sound or picture that another record
            still uses is kept (and said so); --keep-media keeps all of them.
            Apps that sync the content packs drop the record with the next build.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The ids of the records to remove.", valueName: "ID"))
    var ids: [String]

    @Flag(help: "Keep the records' sound and picture files.")
    var keepMedia = false

    @Flag(help: "Show what would be removed, but remove nothing.")
    var dryRun = false

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one record: bestiary remove ID") }
    }

    func run() async throws {
        let console = Console.current
        let plan: RemovalPlan
        let store: RecordStore
        do {
            store = try RecordStore.open(root: global.siteRoot)
            plan = try RecordRemover.plan(ids: ids, keepMedia: keepMedia, store: store)
        } catch {
            console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
        if !dryRun {
            do {
                try plan.apply(root: global.siteRoot, fileSystem: LocalFileSystem())
            } catch {
                console.err("bestiary: error: \(error)")
                throw CommandFailure(status: 1)
            }
        }
        for removal in plan.removals {
            console.result("\(dryRun ? "would remove" : "removed") \(removal.path)", format: global.diagnostics)
        }
        for kept in plan.kept {
            // A file thousands of records share: the first few of them, and how many more.
            let shown = kept.users.prefix(5).joined(separator: ", ")
            let more = kept.users.count > 5 ? " and \(kept.users.count - 5) more" : ""
            console.result("kept \(kept.path): still used by \(shown)\(more)", format: global.diagnostics)
        }
        if !plan.notes.isEmpty { console.report(plan.notes, format: global.diagnostics, everyWarning: global.allWarnings) }
        // Links in other texts to the removed animals' pages now lead nowhere: said, at each.
        let known = Set(store.catalog.animals.map(\.id))
        let removed = Set(ids.filter(known.contains))
        let links = TextLinkCheck.links(to: removed, in: store.catalog)
        if !links.isEmpty { console.report(links, format: global.diagnostics, everyWarning: global.allWarnings) }
    }
}
