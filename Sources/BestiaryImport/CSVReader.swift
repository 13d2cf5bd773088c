import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// A spreadsheet (RFC 4180 CSV, see ``CSVParser``) whose header names front-matter keys, nested
/// ones dotted: `id,name.en,name.de,scientific,group,difficulty,tags,wikipedia.de,description.en,
/// sound.file,sound.credit,image.url,image.focus,…` (``RecordField``). A key without a language
/// (`name`) is in the language `--language` names, else the site's default language.
///
/// - `id` is required and is used exactly as it is, without trimming (a CSV is written for
///   Bestiary; nothing is guessed): an invalid one is an error that suggests a valid spelling.
/// - A non-empty cell is carried: it replaces the record's value. An empty cell leaves the record's
///   value alone (to remove a field, edit the record).
/// - `tags` holds several tags separated by `;` (`forest; europe`).
/// - `sound.file`/`image.file` is a path under `content/`; a file that is not there yet but is
///   found next to the CSV (or under `--media`) is copied to `content/sounds|images/ID.EXT`.
public enum CSVReader {
    public static func read(_ bytes: [UInt8], context: ImportContext) -> ([ImportRow], [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        // "Did you mean" for the first missing media files only: each lists folders.
        let suggestions = SuggestionBudget()
        func error(_ message: String, line: Int, column: Int) {
            diagnostics.append(.error(message, at: SourceLocation(path: context.displayPath, line: line, column: column), stage: "import"))
        }
        let table: CSVTable
        do {
            table = try CSVParser.parse(bytes)
        } catch {
            return ([], [.error("malformed CSV: \(error.message)", at: SourceLocation(path: context.displayPath, line: error.line, column: error.column), stage: "import")])
        }

        // A title above the header (a spreadsheet's habit): five errors about a header that is
        // none ("column '' appears twice") told a volunteer nothing. Said once, with the line that
        // is the header.
        if !table.header.contains(where: { Self.visible($0.text) == "id" }),
            let real = table.records.prefix(5).first(where: { record in
                record.fields.contains { Self.visible($0.text) == "id" }
                    || [",", ";", "\t"].contains { record.fields.first.map { Self.visible($0.text) }?.hasPrefix("id" + $0) == true }
            })
        {
            let above = real.line - 1
            let shown = real.fields.map { Self.visible($0.text) }.joined(separator: String(table.separator))
            error(
                "line 1 is not the header: line \(real.line) is (\(shown.count > 60 ? shown.prefix(60) + "…" : shown)); delete \(above == 1 ? "the line" : "the \(above) lines") above it (a title, say) from the copy you import",
                line: 1, column: 1)
            return ([], diagnostics)
        }

        // The header: which field each column sets.
        var columns: [RecordField?] = []
        var idColumn: Int?
        var seen: [String: CSVField] = [:]
        // Two columns for one field (`name` and `name.en` on an English site): the second's cells
        // took the first's place without a word (a volunteer's "Badger" was gone).
        var columnOf: [RecordField: CSVField] = [:]
        for (i, cell) in table.header.enumerated() {
            let key = cell.text.trimmingCharacters(in: .whitespaces)
            // Unnamed columns empty in every row, as spreadsheets write them at the right of the
            // data (one per column ever used there: two were "column '' appears twice").
            if key.isEmpty, table.records.allSatisfy({ i >= $0.fields.count || $0.fields[i].text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
                columns.append(nil)
                continue
            }
            if let first = seen[key] {
                error("column '\(key)' appears twice (also column \(columnNumber(first, in: table.header)))", line: cell.line, column: cell.column)
                columns.append(nil)
                continue
            }
            seen[key] = cell
            if key == "id" {
                idColumn = i
                columns.append(nil)
                continue
            }
            if key.isEmpty {
                error("column \(i + 1) has no name in the header but has values; name it after a record field such as name.en, or delete it from the copy you import if it is no record field (notes, say)", line: cell.line, column: cell.column)
                columns.append(nil)
                continue
            }
            switch RecordField.parse(key, languages: context.config.languages, plain: context.language) {
            case .success(let field):
                if let first = columnOf[field] {
                    let other = first.text.trimmingCharacters(in: .whitespaces)
                    // One of them without a language (`name`): in which it is.
                    let which = context.language == context.config.defaultLanguage ? ", the site's default language" : ", as --language says"
                    let plain = key != "\(field)" || other != "\(field)" ? " (a column without a language is in '\(context.language)'\(which))" : ""
                    error(
                        "header: '\(key)' sets \(field), as column \(columnNumber(first, in: table.header)) '\(other)' does\(plain); one row's value would take the other's place: keep one of the two columns",
                        line: cell.line, column: cell.column)
                    columns.append(nil)
                    continue
                }
                columnOf[field] = cell
                columns.append(field)
            case .failure(let problem):
                let advice = problem.nothingLikeIt ? "; every column must be a record field: delete others (notes, say) from the copy you import" : ""
                error("header: \(problem.message)\(advice)", line: cell.line, column: cell.column)
                columns.append(nil)
            }
        }
        guard let idColumn else {
            error(
                "the header has no 'id' column; every row needs the record's id (1–64 of a-z, 0-9, '_', '-'), e.g. id,name.\(context.config.defaultLanguage)",
                line: table.header.first?.line ?? 1, column: 1)
            return ([], diagnostics)
        }
        // A header with a mistake: the rows are still read, for what is wrong in them too (it
        // took a second run to see those; a museum's volunteer), but none is planned: a column
        // not read would make errors of its own (every row "without" a misspelt name column).
        let headerFailed = diagnostics.contains { $0.severity == .error }

        var rows: [ImportRow] = []
        for record in table.records {
            var label = "row \(record.number)"
            // A row of empty cells (`,,,,`), as spreadsheets leave below the data: no record.
            if record.fields.allSatisfy({ $0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { continue }
            guard record.fields.count == table.header.count else {
                error(
                    "\(label) has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header has \(table.header.count); "
                        + "a value with '\(table.separator)' or a line break must be in double quotes",
                    line: record.line, column: 1)
                continue
            }
            // The header again (two exports pasted one under the other): it was a record 'id'
            // named 'name.en'.
            if zip(record.fields, table.header).allSatisfy({ cell, head in
                let text = Self.visible(cell.text)
                return text.isEmpty || text == Self.visible(head.text)
            }) {
                error("\(label) repeats the header (two files pasted one under the other?); delete it", line: record.line, column: 1)
                continue
            }
            let idCell = record.fields[idColumn]
            // Used exactly as written: spaces around an id are not trimmed but reported, like
            // any other character an id cannot have.
            let id = idCell.text
            guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                error("\(label) has no id", line: idCell.line, column: idCell.column)
                continue
            }
            // An invalid id is said, and the row's other cells are still checked (one run for all
            // of a row's mistakes), but it is no record.
            let validID = Animal.isValidID(id)
            if validID {
                label += " (id \(id))"
            } else {
                let suggestion = Animal.suggestedID(id)
                let hint = Animal.isValidID(suggestion) ? ", e.g. '\(suggestion)'" : ""
                // A character the eye cannot see: named, or the message reads "'baer' … e.g. 'baer'".
                let unseen = id.unicodeScalars.first { PastedText.isInvisible($0) }.map { " (it holds U+\(String(format: "%04X", $0.value))\(PastedText.invisibleNames[$0.value].map { ", \($0)" } ?? ""), which cannot be seen)" } ?? ""
                error(
                    "\(label): id '\(id)'\(unseen) must be 1–64 characters of a-z, 0-9, '_' and '-'\(hint); it is the key apps sync by and never changes",
                    line: idCell.line, column: idCell.column)
            }
            var row = ImportRow(id: id, origin: ImportOrigin(label: label, location: SourceLocation(path: context.displayPath, line: record.line, column: 1)))
            row.idRefused = !validID
            for (i, cell) in record.fields.enumerated() {
                guard let field = columns[i] else { continue }
                let value = cell.text.trimmingCharacters(in: .whitespacesAndNewlines)
                if value.isEmpty { continue }
                if case .media(let kind, .file) = field {
                    let underContent = context.contentDirectory + "/" + value
                    let inContent = !value.hasPrefix("/") && ContentPath.lexicalProblem(value) == nil
                        && context.fileSystem.infoFollowingLinks(underContent)?.kind == .file
                    let beside = context.fileSystem.infoFollowingLinks(context.mediaPath(value))?.kind == .file
                    // Both there, with other bytes: the file next to the CSV is the one its author
                    // keeps (a new recording under the name the last import gave the site's copy,
                    // which it took over it without a word).
                    let besideIsNewer = inContent && beside && Self.differ(underContent, context.mediaPath(value), fileSystem: context.fileSystem)
                    if besideIsNewer {
                        diagnostics.append(.warning(
                            "\(label): \(field) '\(value)' is both under content/ and at \(context.mediaPath(value)), with other bytes: the one next to the CSV (or under --media) is taken",
                            at: SourceLocation(path: context.displayPath, line: cell.line, column: cell.column), stage: "import"))
                    }
                    if inContent, !besideIsNewer {
                        row.fields.append(FieldValue(field, value))
                    } else if beside {
                        row.media.append(ImportRow.MediaFile(kind: kind, path: context.mediaPath(value), at: SourceLocation(path: context.displayPath, line: cell.line, column: cell.column)))
                    } else {
                        let looked = value.hasPrefix("/") || RecordField.isWebAddress(value) || ContentPath.windowsFileName(value) != nil ? "" : "; looked for content/\(value) and \(context.mediaPath(value)) (files next to the CSV, or under --media)"
                        let fs = context.fileSystem
                        // The file meant, under content/ or where the import's media are: what
                        // to write in the cell, and where that file is.
                        let meantInContent = value.hasPrefix("/") ? nil
                            : ContentPath.suggestion(for: value, contentDirectory: context.contentDirectory, fileSystem: fs, budget: suggestions)
                        let meantBeside = value.hasPrefix("/") || meantInContent != nil ? nil
                            : ContentPath.suggestion(for: value, contentDirectory: context.mediaDirectory, fileSystem: fs, budget: suggestions)
                        // The same name to the eye, written with other code points (a Mac's é as
                        // e and an accent, a spreadsheet's as one letter): the file is taken.
                        if let meantBeside, meantBeside == value {
                            row.media.append(ImportRow.MediaFile(kind: kind, path: context.mediaPath(meantBeside), at: SourceLocation(path: context.displayPath, line: cell.line, column: cell.column)))
                            continue
                        }
                        let meant = meantInContent.map { ($0, "content/" + $0) } ?? meantBeside.map { ($0, context.mediaPath($0)) }
                        // A path written with `\\` (from Windows): said so, as `check` says it.
                        let hint = RecordField.isWebAddress(value)
                            ? "; a web address goes in the \(kind.rawValue).url column (the record then names it), or download the file and name it here"
                            : ContentPath.windowsFileName(value).map {
                                "; that is where the file is on a Windows computer: copy it next to the CSV (or under --media) and write its name, \($0)"
                            }
                            ?? (value.contains("\\") ? "; use '/' in paths, not '\\'" : nil) ?? meant.map { "; " + ContentPath.didYouMean($0.0, for: value, location: $0.1) } ?? ""
                        row.failedMedia.insert(kind)
                        error(
                            "\(label): \(field) '\(value)': no such file\(looked)\(hint)",
                            line: cell.line, column: cell.column)
                    }
                    continue
                }
                // `pond, garden` in a file whose columns ';' separates: "write pond; garden", done
                // as said, split the row (a volunteer's); the cell needs quotes.
                if case .tags = field, table.separator == ";", value.contains(","), !value.contains(";") {
                    let meant = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
                    error(
                        "\(label): tags are separated by ';', not ',': '\(value)' would be one tag; in this file, whose columns ';' separates, write the cell in double quotes: \"\(meant)\"",
                        line: cell.line, column: cell.column)
                    continue
                }
                if let misread = PastedText.misreadWarning(value, what: "\(label): \(field)") {
                    diagnostics.append(.warning(misread, at: SourceLocation(path: context.displayPath, line: cell.line, column: cell.column), stage: "import"))
                }
                row.fields.append(FieldValue(field, value, at: SourceLocation(path: context.displayPath, line: cell.line, column: cell.column)))
            }
            // A record's fields are its front matter, which may hold 256 KiB: said of the cell
            // that is too long, in a spreadsheet's words ("front matter … Markdown body" pointed
            // at column 1 of a row whose one cell held 1.2 MB of pasted text: a volunteer's).
            let sizes = ValueSizes.measure(row.fields)
            if let longest = sizes.longest, sizes.total > YAMLGuard.maxBytes {
                let alone = longest.bytes > YAMLGuard.maxBytes
                error(
                    "\(label): \(longest.field.field) holds \(ValueSizes.kib(longest.bytes))\(alone ? "" : ", the row's values \(ValueSizes.kib(sizes.total)) in all"); \(ValueSizes.limit): shorten it",
                    line: longest.field.location?.line ?? record.line, column: longest.field.location?.column ?? 1)
                continue
            }
            rows.append(row)
        }
        return (headerFailed ? [] : rows, diagnostics)
    }

    /// A cell's text without what cannot be seen around it (white space, a byte-order mark).
    static func visible(_ text: String) -> String {
        let blank = { (c: Unicode.Scalar) in c == " " || PastedText.isInvisible(c) }
        return String(String.UnicodeScalarView(text.unicodeScalars.drop(while: blank).reversed().drop(while: blank).reversed()))
    }

    /// Whether two files' bytes differ: by their sizes, else read (within the media limit, over
    /// which the copy is refused anyway).
    static func differ(_ a: String, _ b: String, fileSystem: any FileSystem) -> Bool {
        guard let one = fileSystem.infoFollowingLinks(a), let other = fileSystem.infoFollowingLinks(b), one.size == other.size else { return true }
        guard one.size <= Importer.maxMediaBytes else { return true }
        return (try? fileSystem.read(a)) != (try? fileSystem.read(b))
    }

    private static func columnNumber(_ cell: CSVField, in header: [CSVField]) -> Int {
        (header.firstIndex { $0 == cell } ?? 0) + 1
    }
}
