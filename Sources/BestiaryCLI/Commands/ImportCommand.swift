import Foundation
import ArgumentParser
import BestiaryDiagnostics
import BestiaryImport
import BestiaryStorage

extension ImportFormat: ExpressibleByArgument {}

/// `bestiary import FILE --format …`: bulk-creates and updates records from a catalogue kept
/// elsewhere. Plans everything first; writes only when every row is valid.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Create or update records from a species dump, the Dog CEO breed list, a WildSound export or a CSV.",
        discussion: """
            Formats:
              nuthatch   a species API dump: a JSON array of {id, common_name,
                         scientific_name, image_url, description, habitat,
                         conservation_status}; record ids nuthatch-ID, ID a
                         whole number from 1 (7 or "7")
              dogceo     the Dog CEO breed list {"message": {"pug": [],
                         "poodle": ["toy"]}}: ids pug, poodle-toy (a key with
                         sub-breeds is only its sub-breeds); English names,
                         group: dog
              wildsound  the WildSound app's export: a JSON array of {name,
                         storagePath, wikiTitleDe, wikiTitleEn, imageCrop,
                         soundSource}; ids from storagePath's file name
                         (sounds/Rötelmaus.mp3: roetelmaus); sounds copied
                         from --media (default: the file's folder, or
                         the working folder for standard input)
              csv        a header of record fields, nested ones dotted:
                         id,name.en,name.de,scientific,group,difficulty,tags,
                         wikipedia.de,description.en,habitat.en,conservation,
                         sound.file,sound.credit,image.url,image.focus,…
                         (tags separated by ';')

            Safe to repeat: records are matched by id; what the file carries
            replaces the record's value, and everything else in the record
            (fields added by hand, comments, the text below the front matter,
            translations) stays. The same file twice changes nothing; records
            the file no longer lists are kept. Ids are never guessed: a key
            that is not a valid id for its format is an error, and any error
            stops the import before anything is written. More: docs/import.md.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(
        "The file to import; - reads standard input (curl … | bestiary import - --format …), and a pipe such as <(curl …) is read too.",
        valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("What the file is.", valueName: "nuthatch|dogceo|wildsound|csv"))
    var format: ImportFormat

    @Flag(help: "Check everything and show what would change, but write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp(
        "The language of the file's names and texts, when not the format's (nuthatch, dogceo: en; wildsound: de; csv: the site's default, for columns without one, such as name).",
        valueName: "LANG"))
    var language: String?

    @Option(help: ArgumentHelp(
        "Where sounds and pictures named in the file are found (default: the file's folder; the working folder for standard input or a pipe).",
        valueName: "DIR"))
    var media: String?

    func validate() throws {
        // A mistyped folder found no media and imported the records without them.
        if let media {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: media, isDirectory: &folder), folder.boolValue else {
                throw ValidationError("--media \(media): no such folder")
            }
        }
    }

    func run() async throws {
        let console = Console.current
        let importer = Importer(format: format, file: file, root: global.siteRoot, language: language, mediaDirectory: media)
        let plan: ChangePlan
        do {
            plan = try importer.plan()
        } catch {
            console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
            let errors = error.diagnostics.count { $0.severity == .error }
            do {
                console.err("import failed with \(errors) error\(errors == 1 ? "" : "s"); nothing was written")
            }
            throw CommandFailure(status: 1)
        }
        console.report(plan.warnings, format: global.diagnostics, everyWarning: global.allWarnings)
        if !dryRun {
            let fileSystem = LocalFileSystem()
            let leftovers = plan.removeLeftovers(root: global.siteRoot, fileSystem: fileSystem)
            if !leftovers.isEmpty {
                console.err("note: removed \(leftovers.count) unfinished file\(leftovers.count == 1 ? "" : "s") an import or edit cut off earlier left (\(leftovers.prefix(3).joined(separator: ", "))\(leftovers.count > 3 ? ", …" : ""))")
            }
            // A Ctrl-C (or a terminal closed) while the files are written stops between two files,
            // each complete, and says so; a second one stops at once. Killed, an import left a
            // share of its records written without a word, and a temporary file (a volunteer's).
            let signals = ShutdownSignals()
            defer { signals.cancel() }
            do {
                try plan.apply(root: global.siteRoot, fileSystem: fileSystem) { signals.first != nil }
            } catch let stopped as ChangePlan.Stopped {
                console.err("bestiary: import stopped after \(stopped.done) of \(stopped.total) files (each complete): the same import again finishes it, and changes nothing already written")
                throw CommandFailure(status: ShutdownSignals.status(signals.first ?? SIGINT))
            } catch {
                console.err("bestiary: error: \(error); files written before it stay (each is complete), importing again finishes the job")
                throw CommandFailure(status: 1)
            }
        }
        ChangeReport.print(plan, dryRun: dryRun, console: console, format: global.diagnostics)
        console.err(plan.summary + (dryRun ? " (dry run: nothing was written)" : ""))
    }
}

/// The lines `import` and `add` print for a plan: one per file written.
enum ChangeReport {
    static func print(_ plan: ChangePlan, dryRun: Bool, console: Console, format: DiagnosticFormatter.Format) {
        let prefix = dryRun ? "would " : ""
        for copy in plan.copies {
            console.result("\(prefix)\(dryRun ? "copy" : "copied") \(copy.source) to \(copy.destination)\(copy.replaces ? " (replacing it)" : "")", format: format)
        }
        for change in plan.records {
            switch change.action {
            case .create: console.result("\(prefix)\(dryRun ? "create" : "created") \(change.path)", format: format)
            case .update: console.result("\(prefix)\(dryRun ? "update" : "updated") \(change.path): \(change.changedKeys.joined(separator: ", "))", format: format)
            case .unchanged: break
            }
        }
        for removal in plan.removals {
            console.result("\(prefix)\(dryRun ? "remove" : "removed") \(removal): no record uses it any more", format: format)
        }
        for kept in plan.kept {
            console.result("\(prefix)\(dryRun ? "keep" : "kept") \(kept): no record uses it any more, but its name is not one bestiary gives the record's files (it may be yours); delete it if you no longer need it", format: format)
        }
    }
}
