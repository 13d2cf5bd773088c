import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// `bestiary import FILE --format …`: reads a catalogue from elsewhere and plans the records it
/// makes or changes. Idempotent by construction: rows are merged into records by id, the writer is
/// deterministic and edits only what changed, so the same file twice changes nothing.
public struct Importer: Sendable {
    public var format: ImportFormat
    /// The file as the user named it (relative to the working directory, or absolute), or `-` for
    /// standard input.
    public var file: String
    /// The site root.
    public var root: String
    /// The source's language, when not the format's own (`--language`).
    public var language: String?
    /// Where media named by the source are looked for (`--media`); default: the file's folder (the
    /// working folder for standard input or a pipe).
    public var mediaDirectory: String?
    public var fileSystem: any FileSystem

    public init(
        format: ImportFormat, file: String, root: String, language: String? = nil, mediaDirectory: String? = nil,
        fileSystem: any FileSystem = LocalFileSystem()
    ) {
        self.format = format
        self.file = file
        self.root = root
        self.language = language
        self.mediaDirectory = mediaDirectory
        self.fileSystem = fileSystem
    }

    static let languageNames = ["de": "German", "en": "English", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch"]

    /// The largest file `import` reads (a dump of every bird species is a few MB).
    public static let maxImportBytes = 256 << 20
    /// The largest sound or picture `add` and `import` copy into content/.
    public static let maxMediaBytes = 512 << 20

    /// The bytes of the regular file at `path` (links followed), or why not: a folder, a device
    /// or a pipe (`/dev/zero` would be read without end), or more than `limit` bytes.
    static func readRegularFile(_ path: String, limit: Int, fileSystem: any FileSystem) -> Result<Data, FieldProblem> {
        guard let info = fileSystem.infoFollowingLinks(path) else { return .failure(FieldProblem("no such file")) }
        switch info.kind {
        case .file: break
        case .directory: return .failure(FieldProblem("is a directory"))
        case .symlink, .other: return .failure(FieldProblem("is not a regular file (a device, a pipe or a socket)"))
        }
        guard info.size <= limit else {
            return .failure(FieldProblem("it is \(info.size >> 20) MiB; at most \(limit >> 20) MiB is read"))
        }
        do {
            return .success(try fileSystem.read(path))
        } catch {
            return .failure(FieldProblem((error as? FileSystemError).map { $0.isNotFound ? "no such file" : $0.reason } ?? "\(error)"))
        }
    }

    /// The file name that means standard input: `curl … | bestiary import - --format nuthatch`.
    public static let standardInput = "-"
    /// What diagnostics call standard input.
    public static let standardInputName = "<stdin>"

    /// The bytes to import: a regular file's, or a stream's to its end (standard input, or a pipe
    /// such as the shell's `<(curl …)`), at most `limit` bytes either way. `streamed` says whether
    /// they came from a stream, whose folder (`/dev/fd`) is no place to look for media.
    static func readSource(
        _ path: String, limit: Int, fileSystem: any FileSystem, inputDescriptor: Int32 = 0
    ) -> Result<(bytes: [UInt8], streamed: Bool), FieldProblem> {
        let local = LocalFileSystem()
        let tooMuch = FieldProblem("more than \(limit >> 20) MiB came; at most \(limit >> 20) MiB is read")
        func stream(_ read: () throws -> [UInt8]?) -> Result<(bytes: [UInt8], streamed: Bool), FieldProblem> {
            do {
                guard let bytes = try read() else { return .failure(tooMuch) }
                return .success((bytes, true))
            } catch {
                return .failure(FieldProblem((error as? FileSystemError)?.reason ?? "\(error)"))
            }
        }
        if path == Self.standardInput {
            switch local.describe(inputDescriptor) {
            case .terminal:
                // Nobody piped anything in: the import would wait for the user to type a catalogue.
                return .failure(FieldProblem(
                    "standard input is a terminal; pipe the file in (… | bestiary import - --format …) or name the file"))
            case .device:
                return .failure(FieldProblem("standard input is a device, not a file or a pipe"))
            case .file(let size) where size > limit:
                return .failure(FieldProblem("it is \(size >> 20) MiB; at most \(limit >> 20) MiB is read"))
            case .file, .stream:
                return stream { try local.readStream(inputDescriptor, limit: limit, name: standardInputName) }
            }
        }
        if fileSystem.infoFollowingLinks(path)?.kind == .other {
            // `/dev/zero` was read without end, a gigabyte a second.
            guard local.isPipe(path) else { return .failure(FieldProblem("is a device or a socket, not a file or a pipe")) }
            return stream { try local.readStream(path, limit: limit) }
        }
        return readRegularFile(path, limit: limit, fileSystem: fileSystem).map { ([UInt8]($0), namesADescriptor(path)) }
    }

    /// `/dev/stdin`, `/dev/fd/3`, `/proc/self/fd/0`: a name for a descriptor this process has
    /// open. Even when it leads to a regular file (`bestiary import /dev/stdin < dump.json`), its
    /// folder is no place to look for media.
    static func namesADescriptor(_ path: String) -> Bool {
        path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
    }

    /// Reads, validates and merges everything; throws every problem found, having written nothing.
    public func plan() throws(DiagnosticError) -> ChangePlan {
        let store = try RecordStore.open(root: root, fileSystem: fileSystem)
        let config = store.config
        let shownPath = file == Self.standardInput ? Self.standardInputName : file
        let fileLocation = SourceLocation(path: shownPath)

        let bytes: [UInt8]
        let streamed: Bool
        switch Self.readSource(file, limit: Self.maxImportBytes, fileSystem: fileSystem) {
        case .success(let source): (bytes, streamed) = (source.bytes, source.streamed)
        case .failure(let problem):
            throw DiagnosticError(.error("cannot read the file to import: \(problem.message)", at: fileLocation, stage: "import"))
        }

        // The source's language must be one of the site's.
        let sourceLanguage = language ?? format.sourceLanguage ?? config.defaultLanguage
        if (format != .csv || language != nil) && !config.languages.contains(sourceLanguage) {
            if let language, let match = config.languages.first(where: { $0.lowercased() == language.lowercased() }) {
                throw DiagnosticError(.error(
                    "--language '\(language)': content/site.yml's languages [\(config.languages.joined(separator: ", "))] write it '\(match)'; did you mean --language \(match)?",
                    at: fileLocation, stage: "import"))
            }
            // `--language english`: a name, not a code (the advice to add it to site.yml's
            // languages made site.yml wrong as well).
            if let language, !LanguageCode.isValid(language) || !LanguageCode.doubts(about: language).isEmpty {
                // The code meant, in any capitals (`SP`, `ENG`), a name (`english`), or `en-UK`.
                func meaning(_ code: String) -> String? {
                    if let two = LanguageCode.intended(code) { return two }
                    if code.lowercased().hasSuffix("-uk") { return code.dropLast(2) + "GB" }
                    return LanguageCode.isValid(code) && LanguageCode.doubts(about: code).isEmpty ? code : nil
                }
                let meant = LanguageCode.suggestion(for: language).flatMap(meaning) ?? meaning(language.lowercased()) ?? LanguageCode.meant(byName: language)
                let listed = meant.flatMap { LanguageCode.listed($0, among: config.languages) }
                let hint = listed.map { "; did you mean --language \($0)?" }
                    ?? meant.map { "; did you mean '\($0)'? (site.yml's languages are [\(config.languages.joined(separator: ", "))])" }
                    ?? ": give a language code as site.yml's languages are written [\(config.languages.joined(separator: ", "))]"
                throw DiagnosticError(.error("--language '\(language)' is not a language code\(hint)", at: fileLocation, stage: "import"))
            }
            let name = Self.languageNames[sourceLanguage].map { "\($0) ('\(sourceLanguage)')" } ?? "'\(sourceLanguage)'"
            throw DiagnosticError(.error(
                "\(format.rawValue) names are \(name), but content/site.yml's languages are [\(config.languages.joined(separator: ", "))]: "
                    + "add \(sourceLanguage) to languages" + (language == nil ? " (or pass --language if this file's names are in another language)" : ""),
                at: fileLocation, stage: "import"))
        }

        // A stream's media are looked for in the working folder.
        let directory = mediaDirectory ?? (streamed ? "." : Self.directory(of: file))
        let context = ImportContext(
            config: config, language: sourceLanguage, mediaDirectory: directory, displayPath: shownPath,
            contentDirectory: store.contentDirectory, fileSystem: fileSystem)
        let (rows, readDiagnostics): ([ImportRow], [Diagnostic])
        switch format {
        case .nuthatch: (rows, readDiagnostics) = NuthatchReader.read(bytes, context: context)
        case .dogceo: (rows, readDiagnostics) = DogCEOReader.read(bytes, context: context)
        case .wildsound: (rows, readDiagnostics) = WildsoundReader.read(bytes, context: context)
        case .csv: (rows, readDiagnostics) = CSVReader.read(bytes, context: context)
        }
        let readErrors = readDiagnostics.contains { $0.severity == .error }
        if rows.isEmpty {
            if readErrors { throw DiagnosticError(DiagnosticBag(readDiagnostics).sorted) }
            return ChangePlan(records: [], copies: [], warnings: [.warning("the file holds no records to import", at: fileLocation, stage: "import")])
        }

        var planner = RecordPlanner(store: store)
        let format = self.format
        planner.missingNameAdvice = { ids in
            let shown = ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", … (\(ids.count) in all)" : "")
            let what = format == .csv ? "no name.\(config.defaultLanguage) value" : "no name in '\(config.defaultLanguage)' (\(format.rawValue) names are '\(sourceLanguage)')"
            return "\(ids.count) new record\(ids.count == 1 ? "" : "s") would have \(what): \(shown). Every record needs a name in the site's default language '\(config.defaultLanguage)', the first of content/site.yml's languages: "
                + (format == .csv
                    ? "add a name.\(config.defaultLanguage) column or fill it in those rows"
                    : "put '\(sourceLanguage)' first in languages, or import a CSV with columns id,name.\(config.defaultLanguage) first")
        }
        // The rows that could be read are planned even when others could not, so that one run
        // reports every problem; any error means nothing is written.
        do throws(DiagnosticError) {
            var plan = try planner.plan(rows)
            if readErrors { throw DiagnosticError([]) }
            let leftOut = format == .csv ? Self.leftOut(rows, store: store, at: fileLocation) : []
            // (A record's warning the reader gave at its cell already, a name read as Windows-1252,
            // once: the planner's check of the record made says it again.)
            let read = Set(readDiagnostics.map(\.message))
            plan.warnings = DiagnosticBag(readDiagnostics + plan.warnings.filter { !read.contains($0.message) } + leftOut).sorted
            return plan
        } catch {
            throw DiagnosticError(DiagnosticBag(readDiagnostics + error.diagnostics).sorted)
        }
    }

    /// The site's records a spreadsheet that updates some of them does not name: kept as they
    /// are, which a volunteer who deleted a row was never told. (A first import, naming none of
    /// the site's records, says nothing of the others.) A file whose records on the site are
    /// all of one group speaks for that group only: a site made from one spreadsheet per group
    /// (birds.csv, mammals.csv) is not told of the mammals when the birds are imported again.
    /// A file of several groups speaks for the whole site (a row deleted that was the last of
    /// its group is still said).
    static func leftOut(_ rows: [ImportRow], store: RecordStore, at location: SourceLocation) -> [Diagnostic] {
        let given = Set(rows.map(\.id))
        let animals = store.catalog.animals
        let updated = animals.filter { given.contains($0.id) }
        guard let first = updated.first else { return [] }
        let oneGroup = first.group.flatMap { group in updated.allSatisfy { $0.group == group } ? group : nil }
        let absent = animals.filter { !given.contains($0.id) && (oneGroup == nil || $0.group == oneGroup) }.map(\.id).sorted()
        guard !absent.isEmpty else { return [] }
        let shown = absent.prefix(5).joined(separator: ", ") + (absent.count > 5 ? ", …" : "")
        let one = absent.count == 1
        // Said when the group leaves some of the site's records out.
        let within = oneGroup.flatMap { group in animals.allSatisfy { $0.group == group } ? nil : " of group '\(group)'" } ?? ""
        return [.note(
            "\(absent.count) of the site's records\(within) \(one ? "is" : "are") not in this file and \(one ? "stays as it is" : "stay as they are") (\(shown)): import never removes a record; `bestiary remove ID` does",
            at: location, stage: "import")]
    }

    static func directory(of path: String) -> String {
        let folder = PathText.parent(path)
        return folder.isEmpty ? "." : folder
    }
}
