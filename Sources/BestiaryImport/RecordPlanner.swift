import BestiaryContent
import BestiaryDiagnostics
import BestiaryStorage
import Foundation

/// Turns rows into a ``ChangePlan``: merges each row into its record (or a new one), writes the
/// result with ``RecordWriter`` and checks it with the record parser, so that nothing is written
/// unless every file of the plan is valid.
public struct RecordPlanner: Sendable {
    public var store: RecordStore
    /// May existing records change? (`add` without `--force`: no.)
    public var updateExisting = true
    /// May a media file of the same name but other bytes be replaced? (`add`: only with `--force`.)
    public var replaceMedia = true
    /// The stage diagnostics name (`import`, `add`).
    public var stage = "import"
    /// What to tell the user when new records lack a name in the default language; gets their ids.
    public var missingNameAdvice: @Sendable ([String]) -> String = { ids in
        "new records need a name in the site's default language: \(ids.joined(separator: ", "))"
    }

    public init(store: RecordStore) {
        self.store = store
    }

    public func plan(_ rows: [ImportRow]) throws(DiagnosticError) -> ChangePlan {
        var bag = DiagnosticBag()
        let writer = RecordWriter(config: store.config)
        // "Did you mean" for the first media files named as under content/ that are not there, in this plan.
        let suggestions = SuggestionBudget()
        var changes: [ChangePlan.RecordChange] = []
        var copies = PlannedCopies()
        var missingName: [ImportRow] = []
        let mediaUsers = Self.mediaUsers(store.catalog)
        // Who uses each file once this import is done: a row that names a file under content/
        // (`sounds/wolf.ogg` for the fox) uses it, and a row that gives its record another sound
        // or picture leaves its old one, whatever the rows' order. A copy for another row must
        // not replace a file a row gives its record (the fox played the cat's new recording).
        let usersAfter = Self.mediaUsers(after: rows, before: mediaUsers, catalog: store.catalog)
        // The files the changed records' given sounds and pictures replace, and what the changed
        // records name after the plan (normalized paths under content/).
        var replacedMedia: [String] = [], mediaAfter: [String] = []
        // Replaced files named by their author, not by `add` or `import`: never removed.
        var keptMedia: [String] = []
        // The records as this plan leaves them, for what `check` would say of their groups.
        var planned: [(row: ImportRow, animal: Animal)] = []

        // Two rows, one id: the source would overwrite itself.
        var firstRow: [String: ImportRow] = [:]
        var collided: Set<String> = []
        for row in rows {
            if let first = firstRow[row.id] {
                bag.error(
                    "\(row.origin.label) gives the id '\(row.id)', like \(first.origin.label)\(first.origin.location.map { " at line \($0.line)" } ?? ""): two entries cannot become one record; change one of them in the source",
                    at: row.origin.location, stage: stage)
                collided.insert(row.id)
            } else {
                firstRow[row.id] = row
            }
        }

        for row in rows where !collided.contains(row.id) {
            func fail(_ message: String, at location: SourceLocation? = nil) {
                bag.error(row.origin.label.isEmpty ? message : "\(row.origin.label): \(message)", at: location ?? row.origin.location, stage: stage)
            }
            // Sets the values, the sound's and picture's file or address first. A sound or picture
            // whose file failed (or whose address was refused here) gets no credit, licence or
            // source: each said "needs a sound: give sound.file", of a row that gave one.
            func apply(_ fields: [FieldValue], to animal: inout Animal, failedMedia: inout Set<MediaKind>) {
                for value in fields.enumerated().sorted(by: { ($0.element.field.applicationOrder, $0.offset) < ($1.element.field.applicationOrder, $1.offset) }) {
                    if case .media(let kind, let attribute) = value.element.field, failedMedia.contains(kind),
                        [.credit, .license, .source].contains(attribute) { continue }
                    do {
                        try value.element.field.apply(value.element.value, to: &animal)
                    } catch {
                        fail(error.message, at: value.element.location)
                        if case .media(let kind, let attribute) = value.element.field, [.file, .url].contains(attribute) { failedMedia.insert(kind) }
                    }
                }
            }
            // An id refused by the source's reader: the row's values are checked, and that is all.
            if row.idRefused {
                var scratch = Animal(id: row.id, name: LocalizedText([:]), sourcePath: store.newRecordPath("refused"))
                var failedMedia = row.failedMedia
                apply(row.fields, to: &scratch, failedMedia: &failedMedia)
                continue
            }
            let existing: RecordStore.ExistingRecord?
            do {
                existing = try store.record(row.id)
            } catch {
                bag.append(contentsOf: error.diagnostics)
                continue
            }
            if existing != nil && !updateExisting {
                fail("\(existing!.path) already exists; use --force to change it (fields you do not give are kept)")
                continue
            }
            if existing == nil, let obstacle = store.obstacle(toCreating: row.id) {
                fail(obstacle)
                continue
            }
            let path = existing?.path ?? store.newRecordPath(row.id)
            var animal = existing?.animal ?? Animal(id: row.id, name: LocalizedText([:]), sourcePath: path)
            var fields = row.fields
            let errorsBefore = bag.errorCount
            // A file and an address for one sound: the address was dropped without a word.
            for kind in [MediaKind.sound, .image] where fields.contains(where: { $0.field == .media(kind, .url) })
                && (row.media.contains { $0.kind == kind } || fields.contains { $0.field == .media(kind, .file) })
            {
                let key = kind == .sound ? "sound" : "image"
                fail("\(key).file and \(key).url are both given: a \(kind == .sound ? "sound" : "picture") is one or the other; leave one of them empty")
            }
            // The record's own sound or picture given new bytes under the same name: its text
            // stays, but the record changes.
            var newBytes: [String] = []
            // A sound or picture whose file failed: its credit, licence and source are not
            // applied (each said "needs a sound: give sound.file", of a row that gave one).
            var failedMedia = row.failedMedia

            // Media files from outside content/: checked by their bytes, then copied under the id.
            for media in row.media {
                switch planCopy(media, id: row.id, record: animal, planned: copies, mediaUsers: usersAfter) {
                case .failure(let problem):
                    fail(problem.message, at: media.location)
                    failedMedia.insert(media.kind)
                case .success(let (relative, copy, note)):
                    fields.append(FieldValue(.media(media.kind, .file), relative))
                    if let copy {
                        copies.add(copy)
                        if copy.replaces { newBytes.append("\(media.kind == .sound ? "sound" : "image").file (new bytes)") }
                    }
                    if let note { bag.warning("\(row.id): \(note)", at: row.origin.location, stage: stage) }
                    // A file cut short is copied as `check` would take it, with its warning now.
                    if let copy, let format = MediaSniffer.sniff(copy.data.prefix(MediaSniffer.headerLength)),
                        let problem = MediaIntegrity.problem(copy.data, format: format)
                    {
                        bag.warning("\(row.id): \(copy.source): \(problem)", at: row.origin.location, stage: stage)
                    }
                    if let copy, let format = MediaSniffer.sniff(copy.data.prefix(MediaSniffer.headerLength)),
                        let problem = PictureLocation.problem(copy.data, format: format)
                    {
                        bag.warning("\(row.id): \(copy.source): \(problem)", at: row.origin.location, stage: stage)
                    }
                    // Another recording or picture under the credit of the one it replaces.
                    let before = media.kind == .sound ? animal.sound : animal.image
                    let changed = copy != nil || Self.normalizedPath(before?.filePath) != relative
                    // The record's own file, replaced by a file it was given under another name
                    // (`fox.ogg` for `fox.wav`): removed below if no record names it any more and
                    // bestiary named it (a name of its own, `my-recording.ogg`, is the author's: kept).
                    if let old = Self.normalizedPath(before?.filePath), old != relative {
                        // Named for any record that uses it (one import shares a file between rows).
                        let named = ([row.id] + (mediaUsers[old] ?? [])).contains { Self.isNamedByBestiary(old, kind: media.kind, id: $0) }
                        if named { replacedMedia.append(old) } else { keptMedia.append(old) }
                    }
                    if changed, let before, let warning = staleCredit(media.kind, before, fields, row, old: "file") { bag.append(warning) }
                }
            }
            // Files named as already under content/: there, and what they claim.
            for value in fields {
                guard case .media(let kind, .file) = value.field, !row.media.contains(where: { $0.kind == kind }) else { continue }
                if let problem = checkContentFile(value.value, kind: kind, suggestions: suggestions) {
                    fail("\(value.field) '\(value.value)': \(problem)", at: value.location)
                    failedMedia.insert(kind)
                }
            }

            apply(fields, to: &animal, failedMedia: &failedMedia)
            for value in row.defaults where !value.field.isSet(in: animal) {
                do { try value.field.apply(value.value, to: &animal) } catch { fail(error.message) }
            }
            // A sound or picture given as an address or a file under content/ instead of the one the
            // record had (copies from outside were handled above): the same warning for a credit
            // left from the old one. The old file stays: the author named the new one, and may
            // keep the old (only a file the import copied in replaces one).
            for kind in [MediaKind.sound, .image] where !row.media.contains(where: { $0.kind == kind }) {
                let before = kind == .sound ? existing?.animal.sound : existing?.animal.image
                let after = kind == .sound ? animal.sound : animal.image
                guard let before, let after,
                      before.filePath == nil ? before.source != after.source : Self.normalizedPath(before.filePath) != Self.normalizedPath(after.filePath),
                      fields.contains(where: { $0.field == .media(kind, .url) || $0.field == .media(kind, .file) })
                else { continue }
                if let warning = staleCredit(kind, before, fields, row, old: "one") { bag.append(warning) }
            }
            // Rows with errors so far go on to the parser too, so that one run reports all of a
            // row's problems (a bad title next to a bad difficulty); any error stops the writing.
            let rowFailed = bag.errorCount > errorsBefore
            if existing == nil && animal.name.values[store.config.defaultLanguage] == nil {
                // A name given but refused above (a direction control, say) is not missing: it was reported.
                let gaveName = fields.contains { $0.field == .localized(.name, language: store.config.defaultLanguage) }
                if !(rowFailed && gaveName) { missingName.append(row) }
                continue
            }

            let fileID = existing?.fileID ?? row.id
            let text = existing.map { writer.update($0.text, from: $0.animal, to: animal, fileID: fileID) }
                ?? writer.document(for: animal, fileID: fileID)
            // The written text must read back as a valid record (an unchanged one was just read).
            let unchanged = existing?.text == text
            // Values over the front matter's limit only with what the record held before (the
            // reader checks each row alone): said at the row's longest value, in a spreadsheet's
            // words, not as the parser's "front matter is larger" at the row's start.
            if !unchanged, let yaml = try? FrontMatterDocument.split(SourceText(path: path, text: text)).yaml, yaml.utf8.count > YAMLGuard.maxBytes {
                let sizes = ValueSizes.measure(fields)
                fail(
                    "\(path) would hold \(ValueSizes.kib(yaml.utf8.count)) of values with the \(ValueSizes.kib(sizes.total)) \(row.origin.label.isEmpty ? "given" : "this row gives")"
                        + (sizes.longest.map { " (\($0.field.field) holds \(ValueSizes.kib($0.bytes)) of them)" } ?? "")
                        + "; \(ValueSizes.limit): shorten them, or keep long text in the record's Markdown body",
                    at: sizes.longest?.field.location)
                continue
            }
            let parsed = unchanged ? [] : Animal.parse(SourceText(path: path, text: normalized(text)), fileID: fileID, config: store.config).1
            // At the cell the problem is about, where its message names the field (`wikipedia.en: …`).
            func cell(of problem: Diagnostic) -> SourceLocation? {
                fields.first { $0.location != nil && ["\($0.field):", "\($0.field) "].contains { problem.message.hasPrefix($0) } }?.location
            }
            let problems = parsed.filter { $0.severity == .error }
            if !problems.isEmpty {
                for problem in problems { fail(problem.message, at: cell(of: problem)) }
                continue
            }
            // What `check` would warn of in the record made, said at the cell it came from (a
            // name on two lines, a spreadsheet cell's Alt+Enter, was imported without a word).
            for problem in parsed where problem.severity == .warning {
                let message = row.origin.label.isEmpty ? problem.message : "\(row.origin.label): \(problem.message)"
                bag.warning(message, at: cell(of: problem) ?? row.origin.location, stage: stage)
            }
            if rowFailed { continue }
            let changed = RecordWriter.keyOrder.filter {
                writer.entry($0, of: existing?.animal ?? Animal(id: row.id, name: LocalizedText([:]), sourcePath: path), fileID: fileID)
                    != writer.entry($0, of: animal, fileID: fileID)
            }
            let action: ChangePlan.Action = existing == nil ? .create : (unchanged && newBytes.isEmpty ? .unchanged : .update)
            mediaAfter += [animal.sound?.filePath, animal.image?.filePath].compactMap(Self.normalizedPath)
            planned.append((row, animal))
            changes.append(ChangePlan.RecordChange(
                id: row.id, path: path, action: action, changedKeys: changed + newBytes.filter { !changed.contains(String($0.prefix { $0 != " " })) },
                data: Data(text.utf8)))
        }

        if !missingName.isEmpty {
            bag.error(missingNameAdvice(missingName.map(\.id)), at: missingName[0].origin.location, stage: stage)
        }
        if bag.hasErrors { throw DiagnosticError(bag.sorted) }
        bag.append(contentsOf: groupWarnings(planned))
        changes.sort { $0.path < $1.path }
        let removals = unused(before: replacedMedia, after: mediaAfter, changed: Set(changes.map(\.id)))
        return ChangePlan(
            records: changes, copies: copies.all.sorted { $0.destination < $1.destination }, warnings: bag.items,
            removals: removals,
            kept: unused(before: keptMedia, after: mediaAfter, changed: Set(changes.map(\.id))).filter { !removals.contains($0) })
    }

    /// A planned record's group spelt as other records spell theirs in another case or with other
    /// spaces (`Bird` beside `bird`): said now, as `check` would say it later (`add --group Bird`
    /// was taken without a word; a museum's volunteer).
    func groupWarnings(_ planned: [(row: ImportRow, animal: Animal)]) -> [Diagnostic] {
        guard planned.contains(where: { $0.animal.group != nil }) else { return [] }
        var all = Dictionary(store.catalog.animals.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for p in planned { all[p.animal.id] = p.animal }
        var warnings: [Diagnostic] = []
        // By record file: an import of 10,000 rows need not compare each with every warning.
        let problems = Dictionary(grouping: ContentLoader.groupSpellings(all.values.sorted { $0.id < $1.id }), by: { $0.location?.path ?? "" })
        for p in planned {
            guard let group = p.animal.group else { continue }
            for problem in problems[p.animal.sourcePath] ?? [] where problem.message.hasPrefix("group '\(group)' ") {
                warnings.append(.warning(
                    p.row.origin.label.isEmpty ? problem.message : "\(p.row.origin.label): \(problem.message)",
                    at: p.row.origin.location ?? SourceLocation(path: p.animal.sourcePath), stage: stage))
            }
        }
        return warnings
    }

    /// Whether `path` (under content/) is a name `add` and `import` give record `id`'s sound or
    /// picture: `sounds/ID.EXT`, or `sounds/ID-2.EXT` and on when that was taken.
    static func isNamedByBestiary(_ path: String, kind: MediaKind, id: String) -> Bool {
        let folder = kind == .sound ? "sounds/" : "images/"
        guard path.hasPrefix(folder) else { return false }
        let name = path.dropFirst(folder.count)
        guard let dot = name.lastIndex(of: "."), !name.contains("/") else { return false }
        let stem = name[..<dot]
        if stem == id { return true }
        guard stem.hasPrefix(id + "-") else { return false }
        let number = stem.dropFirst(id.count + 1)
        // `ID-2` and on: the names taken after `ID` (never `ID-1`, nor `ID-02`).
        return number.allSatisfy { $0.isASCII && $0.isNumber } && Int(number).map { $0 >= 2 && String($0) == number } == true
    }

    /// The warning for a sound or picture replaced while `before`'s credit, license or source
    /// would stay, unless the row gives one of them; `old` names what it replaced ("file", "one").
    private func staleCredit(_ kind: MediaKind, _ before: MediaReference, _ fields: [FieldValue], _ row: ImportRow, old: String) -> Diagnostic? {
        let attributes: [RecordField.MediaAttribute] = [.credit, .license, .source]
        guard before.credit != nil || before.license != nil || before.sourceURL != nil,
              !fields.contains(where: { value in attributes.contains { value.field == .media(kind, $0) } })
        else { return nil }
        let key = kind == .sound ? "sound" : "image"
        return .warning(
            "\(row.id): the \(kind == .sound ? "sound" : "picture") is replaced, but its credit, license and source are still those of the old \(old); set \(key).credit, .license and .source for the new one",
            at: row.origin.location, stage: stage)
    }

    /// The files a given sound or picture replaced under another name (`fox.wav` by `fox.ogg`)
    /// that no record names after the plan, as `remove` finds them: not named by any other
    /// record, nor by a record file the loader could not read. (A file a record stops naming for
    /// another reason, `image.url` given instead, say, stays.)
    private func unused(before: [String], after: [String], changed: Set<String>) -> [String] {
        var inUse = Set(after)
        for animal in store.catalog.animals where !changed.contains(animal.id) {
            inUse.formUnion([animal.sound?.filePath, animal.image?.filePath].compactMap(Self.normalizedPath))
        }
        let candidates = Set(before).subtracting(inUse)
        guard !candidates.isEmpty else { return [] }
        // When the records cannot be listed, nothing is removed.
        guard let files = store.unreadableRecordFiles() else { return [] }
        let unreadable = files.compactMap { try? store.fileSystem.readString(store.fullPath($0)) }
        // A record that cannot be read keeps any file whose name it mentions, however spelt.
        return candidates.filter { path in
            let name = String(path.split(separator: "/").last ?? Substring(path))
            return store.fileSystem.info(store.fullPath("content/\(path)"))?.kind == .file && !unreadable.contains { $0.contains(name) }
        }.map { "content/\($0)" }.sorted()
    }

    private func normalized(_ text: String) -> String {
        var t = text
        if t.unicodeScalars.first == "\u{FEFF}" { t.unicodeScalars.removeFirst() }
        return t.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Where `media` goes (`sounds/ID.EXT`, relative to content/) and the copy to make, if any.
    /// A file another record uses is never replaced: the new bytes go to `sounds/ID-2.EXT` (or the
    /// first such name that is free), and the other record keeps its file.
    private func planCopy(
        _ media: ImportRow.MediaFile, id: String, record: Animal, planned: PlannedCopies, mediaUsers: [String: [String]]
    ) -> Result<(String, ChangePlan.MediaCopy?, String?), FieldProblem> {
        let fs = store.fileSystem
        let data: Data
        var read = Importer.readRegularFile(media.path, limit: Importer.maxMediaBytes, fileSystem: fs)
        // The name typed as a keyboard types it (`Käfer.jpg`, é as one code point) for the file a
        // Mac named with the letter and its accent apart: the same name to the eye, and the file
        // is copied under a name of its own anyway (found by a teacher: "did you mean" named it
        // back, looking the same, and typing it again never helped).
        if case .failure(let problem) = read, problem.message == "no such file" {
            let folder = PathText.parent(media.path), name = (media.path as NSString).lastPathComponent
            if let meant = ContentPath.suggestion(for: name, contentDirectory: folder.isEmpty ? "." : folder, fileSystem: fs), meant == name {
                read = Importer.readRegularFile(folder.isEmpty ? meant : folder + "/" + meant, limit: Importer.maxMediaBytes, fileSystem: fs)
            }
        }
        switch read {
        case .success(let bytes): data = bytes
        case .failure(let problem):
            // A name written in another case, or typed on a Mac (`add --sound "hund bellt.ogg"` for
            // `Hund bellt.ogg`): the file meant, as `import` and `check` name it.
            let folder = PathText.parent(media.path), name = (media.path as NSString).lastPathComponent
            let meant = problem.message == "no such file"
                ? ContentPath.suggestion(for: name, contentDirectory: folder.isEmpty ? "." : folder, fileSystem: fs) : nil
            let hint = meant.map { "; " + ContentPath.didYouMean($0, for: name, location: folder.isEmpty ? $0 : folder + "/" + $0) } ?? ""
            return .failure(FieldProblem("cannot read \(media.path): \(problem.message)\(hint)"))
        }
        if let problem = Self.mediaProblem(data, kind: media.kind, name: media.path) { return .failure(FieldProblem(problem)) }
        let format = MediaSniffer.sniff(data.prefix(MediaSniffer.headerLength))!
        // The record already has these very bytes: nothing to do.
        if let current = (media.kind == .sound ? record.sound : record.image)?.filePath,
            let bytes = try? fs.read(store.contentDirectory + "/" + current), bytes == data
        {
            return .success((current, nil, nil))
        }
        let folder = media.kind == .sound ? "sounds" : "images"
        // Another row of this import brings the very same bytes (one call used for three breeds, say)
        // to a record without such a file yet: share its file instead of copying the bytes again.
        // (A record that has one gets it replaced in place, as before, so no file is left unused.)
        // Removing either record keeps a shared file.
        if (media.kind == .sound ? record.sound : record.image) == nil, let twin = planned.destination(of: data, under: "content/\(folder)/") {
            return .success((String(twin.dropFirst("content/".count)), nil, nil))
        }
        func usedByOthers(_ relative: String) -> [String] {
            (mediaUsers[relative] ?? []).filter { $0 != id }
        }
        var relative = "\(folder)/\(id).\(format.fileExtension)"
        var users = usedByOthers(relative)
        let shared = users.isEmpty ? nil : "content/\(relative) is kept as it is: \(users.sorted().joined(separator: ", ")) use\(users.count == 1 ? "s" : "") it too"
        // That name already holds these very bytes (a record removed and imported again, whose
        // file others share): share it too, not a byte-identical copy under `ID-2`.
        if !users.isEmpty, (try? fs.read(store.fullPath("content/\(relative)"))) == data {
            return .success((relative, nil, nil))
        }
        let current = Self.normalizedPath((media.kind == .sound ? record.sound : record.image)?.filePath)
        // Taken by other bytes, unless it is this record's own file (then the new bytes replace it).
        // A file no record uses is not this import's to replace either: put there by hand, left
        // by `remove --keep-media`, or named by a record that does not load just now.
        func takenByOthers(_ candidate: String) -> Bool {
            candidate != current && (try? fs.read(store.fullPath("content/\(candidate)"))).map { $0 != data } == true
        }
        let unowned = users.isEmpty && takenByOthers(relative)
            ? "content/\(relative) is kept as it is: no record uses it, but it holds other bytes (it may be yours)" : nil
        var suffix = 2
        while !users.isEmpty || planned.byDestination["content/\(relative)"].map({ $0.data != data }) == true || takenByOthers(relative) {
            let candidate = "\(folder)/\(id)-\(suffix).\(format.fileExtension)"
            suffix += 1
            if takenByOthers(candidate) { continue }
            relative = candidate
            users = usedByOthers(relative)
        }
        let destination = "content/\(relative)"
        let note = current == relative ? nil : (shared ?? unowned).map { "\($0); the new file is \(destination)" }
        let existing = try? fs.read(store.fullPath(destination))
        if existing == data { return .success((relative, nil, note)) }
        if existing != nil && !replaceMedia {
            return .failure(FieldProblem("\(destination) already exists with other bytes; use --force to replace it"))
        }
        return .success((relative, ChangePlan.MediaCopy(source: media.path, destination: destination, data: data, replaces: existing != nil), note))
    }

    /// The copies an import plans, found by destination and by their bytes (each row's media looks
    /// both up: a scan of every planned copy per row would make a large import quadratic).
    struct PlannedCopies {
        private(set) var all: [ChangePlan.MediaCopy] = []
        private(set) var byDestination: [String: ChangePlan.MediaCopy] = [:]
        private var byContent: [Int: [Int]] = [:]  // a hash of the bytes → indices in `all`

        mutating func add(_ copy: ChangePlan.MediaCopy) {
            byContent[Self.hash(copy.data), default: []].append(all.count)
            byDestination[copy.destination] = copy
            all.append(copy)
        }

        /// Where a planned copy of exactly `data` goes, under `folder` (`content/sounds/`).
        func destination(of data: Data, under folder: String) -> String? {
            byContent[Self.hash(data)]?.lazy.map { all[$0] }.first { $0.destination.hasPrefix(folder) && $0.data == data }?.destination
        }

        private static func hash(_ data: Data) -> Int {
            var hasher = Hasher()
            data.withUnsafeBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }
    }

    /// A path as records write it (`./sounds/a.mp3` and `sounds//a.mp3` name `sounds/a.mp3`).
    static func normalizedPath(_ path: String?) -> String? {
        path.map { $0.split(separator: "/").filter { $0 != "." }.joined(separator: "/") }
    }

    /// The ids of the records using each media file, by normalized path: looked up once per row
    /// (a scan of the site per row made importing 2,000 rows into 10,000 records take minutes).
    static func mediaUsers(_ catalog: Catalog) -> [String: [String]] {
        var users: [String: [String]] = [:]
        for animal in catalog.animals {
            for path in Set([normalizedPath(animal.sound?.filePath), normalizedPath(animal.image?.filePath)].compactMap { $0 }) {
                users[path, default: []].append(animal.id)
            }
        }
        return users
    }

    /// ``mediaUsers(_:)`` once `rows` are applied: a row that gives its record a sound or picture
    /// (a file, a copy or an address) no longer uses the record's old one, and a row that names a
    /// file under content/ uses it.
    static func mediaUsers(after rows: [ImportRow], before: [String: [String]], catalog: Catalog) -> [String: [String]] {
        var users = before
        let animals = Dictionary(catalog.animals.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in rows {
            for kind in [MediaKind.sound, .image] {
                let named = row.fields.first { $0.field == .media(kind, .file) }.flatMap { normalizedPath($0.value) }
                let copied = row.media.contains { $0.kind == kind }
                guard copied || named != nil || row.fields.contains(where: { $0.field == .media(kind, .url) }) else { continue }
                if let old = normalizedPath(kind == .sound ? animals[row.id]?.sound?.filePath : animals[row.id]?.image?.filePath) {
                    users[old]?.removeAll { $0 == row.id }
                }
                if !copied, let named, !(users[named]?.contains(row.id) ?? false) { users[named, default: []].append(row.id) }
            }
        }
        return users
    }

    /// Why `data` cannot be a record's sound or picture, or nil.
    public static func mediaProblem(_ data: Data, kind: MediaKind, name: String) -> String? {
        if data.isEmpty { return "\(name) is empty" }
        guard let format = MediaSniffer.sniff(data.prefix(MediaSniffer.headerLength)) else {
            if let what = MediaSniffer.unsupported(data.prefix(MediaSniffer.headerLength)) { return "\(name) is \(what)" }
            let accepted = kind == .sound ? "mp3, ogg, opus, m4a, aac or wav" : "jpg, png, webp, gif or svg"
            return "\(name) is not a supported \(kind == .sound ? "sound" : "picture"): its bytes are not \(accepted)"
        }
        guard format.kind == kind else {
            return "\(name) is \(format.kind == .sound ? "a sound" : "a picture") (\(format.rawValue)), not \(kind == .sound ? "a sound" : "a picture")"
        }
        if format == .svg, let problem = SVGInspector.problem(in: data) { return "\(name): \(problem); only plain drawings are accepted" }
        return nil
    }

    private func checkContentFile(_ relative: String, kind: MediaKind, suggestions: SuggestionBudget) -> String? {
        if let problem = ContentPath.lexicalProblem(relative) { return problem.description }
        guard let data = try? store.fileSystem.read(store.contentDirectory + "/" + relative) else {
            let suggested = ContentPath.suggestion(
                for: relative, contentDirectory: store.contentDirectory, fileSystem: store.fileSystem, budget: suggestions, anywhere: true)
            return "no such file under content/" + (suggested.map { "; " + ContentPath.didYouMean($0, for: relative) } ?? "")
        }
        return Self.mediaProblem(data, kind: kind, name: "content/\(relative)")
    }
}
