import ArgumentParser
import BestiaryContent
import BestiaryDiagnostics
import BestiaryImport
import BestiaryStorage

/// `bestiary add ID --name LANG=NAME…`: writes one record (and copies its sound and picture).
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a record: content/animals/ID.md, with its sound and picture copied into content/.",
        discussion: """
            Example:
              bestiary add red-fox --name en="Red fox" --name de=Rotfuchs \\
                --scientific "Vulpes vulpes" --group mammal --wikipedia de=Rotfuchs \\
                --sound ~/fox.ogg --set sound.credit="Jane Doe, XC123456"

            ID is the record's key forever (apps sync by it): 1–64 characters
            of a-z, 0-9, '_' and '-'. Sounds (mp3, ogg, opus, m4a, aac, wav) go
            to content/sounds/ID.EXT, pictures (jpg, png, webp, gif, svg) to
            content/images/ID.EXT; both are checked by their bytes. An existing
            record is changed only with --force: the fields you give replace
            its values, everything else in the file stays.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The record's id, e.g. red-fox.", valueName: "ID"))
    var id: String

    @Option(name: .customLong("name"), help: ArgumentHelp("The animal's name in a language, e.g. en=\"Red fox\" (repeatable; the site's default language is required).", valueName: "LANG=NAME"))
    var names: [String] = []

    @Option(help: ArgumentHelp("The Wikipedia article's title in a language, e.g. de=Rotfuchs (repeatable).", valueName: "LANG=TITLE"))
    var wikipedia: [String] = []

    @Option(help: ArgumentHelp("A sound file to copy into content/sounds/.", valueName: "FILE"))
    var sound: String?

    @Option(help: ArgumentHelp("A picture to copy into content/images/.", valueName: "FILE"))
    var image: String?

    @Option(help: ArgumentHelp("The group: bird, mammal, amphibian, insect, …", valueName: "G"))
    var group: String?

    @Option(help: ArgumentHelp("The scientific name, e.g. \"Vulpes vulpes\".", valueName: "S"))
    var scientific: String?

    @Option(help: ArgumentHelp("1 (easy), 2 or 3 (hard).", valueName: "N"))
    var difficulty: Int?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Any other field, as in a CSV header: description.en=…, tags=\"forest; europe\", sound.credit=…, image.focus=\"50% 20%\" (repeatable).",
        valueName: "KEY=VALUE"))
    var fields: [String] = []

    @Flag(help: "Change the record if it exists, and replace its media files.")
    var force = false

    func validate() throws {
        guard Animal.isValidID(id) else {
            let suggestion = Animal.suggestedID(id)
            throw ValidationError(
                "'\(id)' is not a valid id: use 1–64 characters of a-z, 0-9, '_' and '-'\(Animal.isValidID(suggestion) ? ", e.g. \(suggestion)" : "")")
        }
        for pair in names + wikipedia + fields {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw ValidationError("'\(pair)' must be KEY=VALUE, e.g. en=\"Red fox\"")
            }
        }
        // The same field twice, by one option or two (`--name en=` and `--set name.en=`): the
        // second would silently replace the first.
        var seen: [String: String] = [:]  // field → how it was given
        func given(_ field: String, as option: String) throws {
            if let first = seen[field] {
                throw ValidationError(first == option ? "\(option) is given twice; give each once" : "\(option) and \(first) give the same field; give it once")
            }
            seen[field] = option
        }
        for (prefix, option, pairs) in [("name.", "--name", names), ("wikipedia.", "--wikipedia", wikipedia), ("", "--set", fields)] {
            for pair in pairs {
                let key = pair[..<pair.firstIndex(of: "=")!].trimmingCharacters(in: .whitespaces)
                try given(prefix + key, as: prefix.isEmpty ? "--set \(key)=…" : "\(option) \(key)=…")
            }
        }
        for (field, value) in [("group", group), ("scientific", scientific), ("difficulty", difficulty.map(String.init))] where value != nil {
            try given(field, as: "--\(field)")
        }
        if let difficulty, !(1...3).contains(difficulty) {
            throw ValidationError("--difficulty must be 1, 2 or 3, not \(difficulty)")
        }
    }

    func run() async throws {
        let console = Console.current
        let root = global.siteRoot
        do {
            let store = try RecordStore.open(root: root)
            let row = try makeRow(languages: store.config.languages)
            var planner = RecordPlanner(store: store)
            planner.updateExisting = force
            planner.replaceMedia = force
            planner.stage = "add"
            let defaultLanguage = store.config.defaultLanguage
            planner.missingNameAdvice = { _ in
                "a new record needs a name in the site's default language '\(defaultLanguage)': add --name \(defaultLanguage)=…"
            }
            let plan = try planner.plan([row])
            console.report(plan.warnings, format: global.diagnostics, everyWarning: global.allWarnings)
            try plan.apply(root: root, fileSystem: LocalFileSystem())
            ChangeReport.print(plan, dryRun: false, console: console, format: global.diagnostics)
            if plan.unchanged > 0 { console.result("\(plan.records[0].path) is unchanged", format: global.diagnostics) }
        } catch let error as DiagnosticError {
            console.report(error.diagnostics, format: global.diagnostics, everyWarning: global.allWarnings)
            throw CommandFailure(status: 1)
        }
    }

    /// The command line as one import row: the same merging and checks as `import`.
    func makeRow(languages: [String]) throws(DiagnosticError) -> ImportRow {
        var row = ImportRow(id: id, origin: ImportOrigin(label: "", location: nil))
        var problems: [Diagnostic] = []
        func add(_ key: String, _ value: String) {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else {
                problems.append(.error("\(key) is empty", stage: "add"))
                return
            }
            switch RecordField.parse(key, languages: languages) {
            case .success(let field): row.fields.append(FieldValue(field, trimmed))
            case .failure(let problem): problems.append(.error(problem.message, stage: "add"))
            }
        }
        func split(_ pair: String) -> (String, String) {
            let eq = pair.firstIndex(of: "=")!
            return (String(pair[..<eq]).trimmingCharacters(in: .whitespaces), String(pair[pair.index(after: eq)...]))
        }
        for pair in names { let (lang, name) = split(pair); add("name.\(lang)", name) }
        for pair in wikipedia { let (lang, title) = split(pair); add("wikipedia.\(lang)", title) }
        if let scientific { add("scientific", scientific) }
        if let group { add("group", group) }
        if let difficulty { add("difficulty", String(difficulty)) }
        for pair in fields {
            let (key, value) = split(pair)
            if key == "sound.file" || key == "image.file" {
                problems.append(.error("give files with --sound FILE and --image FILE (they are copied into content/)", stage: "add"))
                continue
            }
            if key == "id" {
                problems.append(.error("the id is the first argument (`bestiary add ID …`), not a field to set", stage: "add"))
                continue
            }
            add(key, value)
        }
        // A web address is not a file to copy: the record names it as `sound.url`/`image.url`
        // (a volunteer's common mistake: it was reported as a missing file).
        for (option, kind, value) in [("--sound", "sound", sound), ("--image", "image", image)] {
            guard let value, RecordField.isWebAddress(value) else { continue }
            problems.append(.error(
                "\(option) takes a file on this computer, not a web address: give it with --set \(kind).url=\(value) (the record then names that address), or download the file and pass its path",
                stage: "add"))
        }
        if let sound, !RecordField.isWebAddress(sound) { row.media.append(ImportRow.MediaFile(kind: .sound, path: sound)) }
        if let image, !RecordField.isWebAddress(image) { row.media.append(ImportRow.MediaFile(kind: .image, path: image)) }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return row
    }
}
