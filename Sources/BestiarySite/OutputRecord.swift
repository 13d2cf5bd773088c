import BestiaryPacks
import BestiaryRender
import BestiaryStorage
import Foundation

/// What a `bestiary build` leaves for the next one, in another process: every output file's
/// identity and metadata once written (the ``OutputIndex``) and every page's input digest
/// (``PageReuse``). With it, a build after a one-record edit renders only the pages whose inputs
/// changed and writes only the files whose bytes changed, linking the others from the previous
/// output (``OutputWriter/commitReusing(_:unchanged:written:beforeSwap:)``), instead of writing the whole site anew.
///
/// It is kept next to the output (`.NAME.bestiary-index`, like the build state), never in it, and
/// trusted only when it was made by this very `bestiary` binary (pages depend on its code and
/// built-in theme) for this very output folder. Each file it lists is used only while its
/// metadata is still what the record says, so a page edited or deleted by hand is made again. It
/// is removed before an output is changed in any other way (the preview updates in place without
/// it, starting from it) and written again after each complete build; a preview session leaves
/// one with the index alone when it ends (``SiteBuilder/recordPreviewOutput(_:options:)``).
///
/// A file put into the output by hand is not carried over: every build's output holds only what
/// it built.
struct OutputRecord {
    var tool: String
    var outputFolder: String
    var index: OutputIndex
    var digests: [String: String]
    /// The render's orders by name (``RenderResult/nameOrders``).
    var nameOrders: [String: [Int]] = [:]
    /// Where the cards of each list page are in its file (``RenderResult/fragments``).
    var fragments: [String: FragmentTable] = [:]
    /// Where each pack record is in the newest manifest (``PackOutput/recordTable``).
    var packRecords: PackRecordTable?
    /// Each animal by id: its digest (``RenderResult/animalDigests``), and its group and
    /// difficulty, which choose the similar animals pages show (``AffectedOutputs``).
    var animals: [String: KeptAnimal] = [:]
    /// The spare, when it is the output this one replaced: its identity, and where it differs
    /// from this output (``SpareRecord``).
    var spare: (folder: String, differs: [String])?
    /// Read beside the record: the stamps of the output's folders (``OutputWriter/foldersPath``),
    /// and what the spare holds (its stamps from ``OutputWriter/spareFoldersPath``).
    var stamps: FolderStamps?
    var spareRecord: SpareRecord?
    /// A loaded record's file, mapped, and where its lines are in it: the next record reuses those
    /// that stand (``spliced(_:index:dropped:)``).
    var layout: Layout?

    /// (5: a card's place in a list is written as the gap after the card before it, so that a
    /// changed card changes its own line only.)
    static let header = "bestiary-output-index 5"

    static func path(_ writer: OutputWriter) -> String {
        (writer.parent == "." ? "" : writer.parent + "/") + ".\(writer.name).bestiary-index"
    }

    /// The output folder's identity: a folder made anew (a full build's exchange, or someone
    /// replacing it) is another folder.
    static func folderIdentity(_ writer: OutputWriter) -> String? {
        folderIdentity(of: writer.output, writer.fileSystem)
    }

    /// The identity of the folder at `path` (a staging folder keeps it when the swap makes it the output).
    static func folderIdentity(of path: String, _ fileSystem: any FileSystem) -> String? {
        guard let info = fileSystem.info(path), info.kind == .directory else { return nil }
        return "\(info.inode) \(info.device)"
    }

    /// The record of the previous build, when it describes the output as it is now made by `tool`.
    static func load(_ writer: OutputWriter, tool: String) -> OutputRecord? {
        guard writer.holdsOutput, let folder = folderIdentity(writer),
            let file = try? writer.fileSystem.readShared(path(writer))
        else { return nil }
        return file.withUnsafeBytes { bytes -> OutputRecord? in
            // Read in place: 83,000 lines on the bench corpus, no array made per line.
            var lines = TabbedLines(bytes)
            guard lines.next(), lines.text(lines.whole) == header,
                lines.next(), lines.text(lines.whole) == "tool\t" + tool,
                lines.next(), lines.text(lines.whole) == "output\t" + folder
            else { return nil }
            var record = OutputRecord(tool: tool, outputFolder: folder, index: OutputIndex(), digests: [:])
            var layout = Layout(file: file)
            var digestTexts = DigestTexts()
            // The file lines, while they are one run of lines to the end (as written).
            var filesStart: Int?
            var filesEnd = 0
            var fileLines = 0
            var filesInOneRun = true
            /// The `count` lines after a section's header, each `A B NUMBER LENGTH`; false when
            /// they are not all there and well formed (a count no file can hold included). `span`:
            /// the bytes of those lines (with their line breaks), when they follow one another.
            func sectionLines(_ count: Int, span: inout Range<Int>?, _ add: (String, String, Int, Int) -> Void) -> Bool {
                sectionLines(count, span: &span) { lines in lines.text(1) } add: { add($0, $1, $2, $3) }
            }
            /// `second`: the second field's text (a list card's key, made once per digest).
            func sectionLines(
                _ count: Int, span: inout Range<Int>?, second: (TabbedLines) -> String, add: (String, String, Int, Int) -> Void
            ) -> Bool {
                // Each line is at least 8 bytes: a larger count is a damaged record.
                guard count >= 0, count <= file.count / 8 else { return false }
                var start: Int?
                var end = 0
                var inOneRun = true
                for _ in 0..<count {
                    guard lines.next(), lines.count == 4, let number = lines.integer(2), let length = lines.integer(3) else { return false }
                    if start == nil { start = lines.lineStart } else if lines.lineStart != end { inOneRun = false }
                    end = lines.lineEnd + 1
                    add(lines.text(0), second(lines), number, length)
                }
                if let start, inOneRun, end <= bytes.count { span = start..<end }
                return true
            }
            while lines.next() {
                let fields = lines.count
                if filesStart != nil && fields != 4 { filesInOneRun = false }
                // `fragments PATH SALT COUNT -` then COUNT lines `SECTION ITEM GAP LENGTH`, the gap
                // being from the end of the card before (from 0 for the first).
                if fields == 5, lines.is(0, "fragments"), let count = lines.integer(3) {
                    let path = lines.text(1)
                    var table = FragmentTable(salt: lines.text(2), entries: [])
                    // (Bounded by the bytes left, at least 8 for each line: a damaged count
                    // makes no room for more lines than could follow.)
                    table.entries.reserveCapacity(min(max(count, 0), max(0, bytes.count - lines.lineEnd) / 8))
                    var end = 0
                    var span: Range<Int>?
                    guard sectionLines(count, span: &span, second: { digestTexts.text($0.field(1), $0) }, add: { section, item, gap, length in
                        // (Wrapping, as written: any offset reads back as it was.)
                        table.entries.append(FragmentTable.Entry(section: section, item: item, offset: end &+ gap, length: length))
                        end = end &+ gap &+ length
                    })
                    else { return nil }
                    record.fragments[path] = table
                    layout.fragments[path] = span
                    continue
                }
                // `spare FOLDER COUNT - -` then COUNT lines `PATH - 0 0`.
                if fields == 5, lines.is(0, "spare"), let count = lines.integer(2) {
                    let folder = lines.text(1)
                    var differs: [String] = []
                    var span: Range<Int>?
                    guard sectionLines(count, span: &span, { path, _, _, _ in differs.append(path) }) else { return nil }
                    record.spare = (folder, differs)
                    continue
                }
                // `packrecords MANIFEST COUNT - -` then COUNT lines `ID DIGEST OFFSET LENGTH`.
                if fields == 5, lines.is(0, "packrecords"), let count = lines.integer(2) {
                    var table = PackRecordTable(manifestPath: lines.text(1), entries: [:])
                    var span: Range<Int>?
                    guard sectionLines(count, span: &span, { table.entries[$0] = PackRecordTable.Entry(digest: $1, offset: $2, length: $3) })
                    else { return nil }
                    record.packRecords = table
                    continue
                }
                // `animals - COUNT - -` then COUNT lines `a ID DIGEST GROUP DIFFICULTY` (`-` for
                // none): five fields, which no file's line has.
                if fields == 5, lines.is(0, "animals"), let count = lines.integer(2) {
                    guard count >= 0, count <= file.count / 8 else { return nil }
                    record.animals.reserveCapacity(count)
                    for _ in 0..<count {
                        guard lines.next(), lines.count == 5, lines.is(0, "a") else { return nil }
                        let difficulty = lines.is(4, "-") ? nil : lines.integer(4)
                        guard lines.is(4, "-") || difficulty != nil else { return nil }
                        record.animals[lines.text(1)] = KeptAnimal(
                            digest: digestTexts.text(lines.field(2), lines), group: lines.is(3, "-") ? nil : lines.text(3), difficulty: difficulty)
                    }
                    continue
                }
                // `order DIGEST 3,0,2,…` (three fields; a file's line has four).
                if fields == 3, lines.is(0, "order") {
                    var order: [Int] = []
                    for number in lines.field(2).split(separator: 44) {
                        guard let n = lines.integer(number) else { return nil }
                        order.append(n)
                    }
                    record.nameOrders[lines.text(1)] = order
                    continue
                }
                guard fields == 4, let written = parseInfo(lines.field(2)) else { return nil }
                if filesStart == nil {
                    // The file lines come last, about 150 bytes each (153 on the bench corpus):
                    // room for those left. A guess from the whole file (its list cards and pack
                    // records included) made a table four times too large: 38 MB, not 9.
                    record.index.entries.reserveCapacity((bytes.count - lines.lineStart) / 140)
                }
                let path = lines.text(0)
                record.index.entries[path] = OutputIndex.Entry(identity: lines.text(1), written: written)
                if lines.field(3).count > 1 { record.digests[path] = lines.text(3) }
                // (A path not in UTF-8 is read with other bytes: its line is not found again by them.)
                if path.utf8.count != lines.field(0).count { filesInOneRun = false }
                if filesStart == nil { filesStart = lines.lineStart } else if lines.lineStart != filesEnd { filesInOneRun = false }
                filesEnd = lines.lineEnd + 1
                fileLines += 1
            }
            // (A path on two lines, which no build writes, is one entry: the lines are not reused.)
            if let filesStart, filesInOneRun, filesEnd <= bytes.count, fileLines == record.index.entries.count {
                layout.files = filesStart..<filesEnd
            }
            record.layout = layout
            // Its pages are not held through the build: the next record maps those it reuses again.
            file.dropResidentPages()
            return record
        }.map { record in
            var record = record
            record.stamps = FolderStamps.load(writer.foldersPath, folder: folder, fileSystem: writer.fileSystem)
            record.spareRecord = record.spare.flatMap { spare in
                FolderStamps.load(writer.spareFoldersPath, folder: spare.folder, fileSystem: writer.fileSystem).map {
                    SpareRecord(folder: spare.folder, stamps: $0, differs: spare.differs)
                }
            }
            return record
        }
    }

    /// `KIND SIZE TIME INODE DEVICE` (as ``BuildState/describe(_:into:)`` writes it), read in
    /// place: no array of its parts made for each of 83,000 lines.
    private static func parseInfo(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> FileInfo? {
        var i = bytes.startIndex
        // The next part, after any spaces (a run of them is one), up to a space or the end.
        func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
            while i < bytes.endIndex, bytes[i] == 32 { i += 1 }
            guard i < bytes.endIndex else { return nil }
            let start = i
            while i < bytes.endIndex, bytes[i] != 32 { i += 1 }
            return bytes[start..<i]
        }
        // Wrapping, not checked as ``TabbedLines/integer(_:)`` is: an inode or device past
        // `Int64.max` is written as its unsigned value and read back by its bit pattern.
        func number(_ p: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
            var value: Int64 = 0
            var negative = false
            for (i, b) in p.enumerated() {
                if i == 0 && b == 45 { negative = true; continue }
                guard (48...57).contains(b) else { return nil }
                value = value &* 10 &+ Int64(b - 48)
            }
            return negative ? -value : value
        }
        guard let kindPart = next(), let sizePart = next(), let timePart = next(), let inodePart = next(), let devicePart = next(),
            next() == nil
        else { return nil }
        let kind: FileKind
        switch kindPart[kindPart.startIndex] {
        case UInt8(ascii: "f"): kind = .file
        case UInt8(ascii: "d"): kind = .directory
        case UInt8(ascii: "l"): kind = .symlink
        default: kind = .other
        }
        guard let size = number(sizePart), let time = number(timePart), let inode = number(inodePart), let device = number(devicePart) else {
            return nil
        }
        return FileInfo(kind: kind, size: Int(size), modificationTime: time, inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device))
    }

    /// A record's bytes: made whole (``encoded()``), or in parts, some of them runs of the last
    /// record's lines in its file, mapped (``spliced(_:index:dropped:)``).
    enum Bytes: Sendable {
        case whole([UInt8])
        /// `kept`: how many of the bytes are the last record's.
        case parts([Data], kept: Int)
    }

    /// Writes a record made earlier (nil: none, the old one removed). Paths with a tab or a line
    /// break cannot be recorded: then there is none, and the next build writes the whole output anew.
    static func write(_ bytes: Bytes?, _ writer: OutputWriter) {
        do {
            switch bytes {
            case nil: return forget(writer)
            // From the array's own buffer: a copy into `Data` was 0.4 % of a one-record rebuild's CPU.
            case .whole(let bytes): try writer.fileSystem.writeAtomically(bytes: bytes, to: path(writer))
            case .parts(let parts, _): try writer.fileSystem.writeAtomically(parts: parts, to: path(writer))
            }
        } catch {
            forget(writer)
        }
    }

    /// The record's bytes; nil when a path cannot be recorded.
    func encoded() -> [UInt8]? {
        var out: [UInt8] = []
        // Room for the whole record at once: on the bench corpus it is 25 MB, and growing it by
        // doubling from a smaller guess (17 MB) copied it once and touched 33 MB. A generous guess
        // costs nothing, as a buffer this large is mapped and only the pages written are touched.
        let fragmentLines = fragments.values.reduce(0) { $0 + $1.entries.count }
        out.reserveCapacity(
            index.entries.count * 320 + fragmentLines * 96 + (packRecords?.entries.count ?? 0) * 160 + animals.count * 160
                + nameOrders.values.reduce(0) { $0 + 80 + $1.count * 8 })
        appendHead(to: &out)
        for (path, table) in fragments.sorted(by: { $0.key < $1.key }) where !Self.breaksLines(path) {
            Self.appendFragmentsHeader(path, table, to: &out)
            var end = 0
            for entry in table.entries { Self.appendFragment(entry, after: &end, to: &out) }
        }
        appendTail(to: &out)
        // The pack records, the animals and the files go in the dictionaries' order: the reader keys every
        // line, so the order is not read, and sorting 83,000 paths took 0.09 s of every build.
        // (A path is looked up among the pages' digests only when a page's path has its length.)
        let mayBePage = LengthFilter(digests.keys)
        for (path, entry) in index.entries {
            guard Self.appendFile(path, entry, digest: mayBePage.mayContain(path) ? digests[path] : nil, to: &out) else { return nil }
        }
        return out
    }

    /// The record's bytes made from the last build's record (`previous`, loaded with its
    /// ``layout``): its lines for the files and the list cards that stand are taken as they are,
    /// in runs of its mapped file, and only the lines of what changed are made. `index` is the
    /// new output's; `dropped`: keys of the previous index this build spells with other bytes.
    /// On the bench corpus a one-record rebuild's record is 25 MB, all of it made anew before
    /// (0.13 s on one core, beside the linking of the unchanged files); made so, the rebuild has
    /// 12 % fewer page faults, though no time measurably saved (stop 89). A record made so reads
    /// back as one made whole would (a test compares the two). Made whole when the previous
    /// record's lines cannot be reused (not read by this build's code, or its file lines not in
    /// one run); nil when a path cannot be recorded.
    func spliced(_ previous: OutputRecord, index: RebuiltIndex, dropped: [String]) -> Bytes? {
        // (Its kept lines describe `previous`'s table: the index must be made from that one.)
        precondition(index.old.count == previous.index.entries.count, "a rebuilt index of the previous record's table")
        guard let layout = previous.layout, let filesRange = layout.files else {
            var whole = self
            whole.index = OutputIndex(entries: index.entries)
            return whole.encoded().map(Bytes.whole)
        }
        let file = layout.file
        return file.withUnsafeBytes { bytes -> Bytes? in
            var out = Splice()
            /// The end of the line starting at `at` (after its line break), within `limit`.
            func lineEnd(_ at: Int, _ limit: Int) -> Int {
                guard let base = bytes.baseAddress, let found = memchr(base + at, 10, limit - at) else { return limit }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
            }
            appendHead(to: &out.fresh)
            // A list's table is matched with the last record's under its path, or, for the
            // catalogue and its descriptions (named by their content), under the same name but
            // for the hash.
            let unhashed = { (path: String) in CatalogJSON.unhashedPath(path) ?? path }
            let previousByName = Dictionary(grouping: previous.fragments.keys, by: unhashed).compactMapValues { $0.count == 1 ? $0[0] : nil }
            for (path, table) in fragments.sorted(by: { $0.key < $1.key }) where !Self.breaksLines(path) {
                Self.appendFragmentsHeader(path, table, to: &out.fresh)
                let oldPath = previous.fragments[path] != nil ? path : previousByName[unhashed(path)]
                let oldEntries = oldPath.flatMap { previous.fragments[$0]?.entries } ?? []
                let span = oldPath.flatMap { layout.fragments[$0] } ?? 0..<0
                // Card by card beside the last record's, by key: a card whose line reads the same
                // (its section, key, gap and length) is that line. A card gone is passed over (one
                // of the next few), a new one made.
                var j = span.isEmpty ? oldEntries.count : 0
                var cursor = span.lowerBound
                var end = 0, oldEnd = 0
                /// The old card `j`'s line, `j` then the card after it.
                func nextOld() -> Range<Int> {
                    let line = cursor..<lineEnd(cursor, span.upperBound)
                    cursor = line.upperBound
                    oldEnd = oldEntries[j].offset &+ oldEntries[j].length
                    j += 1
                    return line
                }
                func same(_ old: FragmentTable.Entry, _ entry: FragmentTable.Entry) -> Bool { old.item == entry.item && old.section == entry.section }
                for entry in table.entries {
                    if j < oldEntries.count, !same(oldEntries[j], entry),
                        let skip = (1...8).first(where: { j + $0 < oldEntries.count && same(oldEntries[j + $0], entry) })
                    {
                        for _ in 0..<skip { _ = nextOld() }
                    }
                    if j < oldEntries.count, same(oldEntries[j], entry) {
                        let old = oldEntries[j]
                        let gap = old.offset &- oldEnd
                        let line = nextOld()
                        if old.length == entry.length, gap == entry.offset &- end, !line.isEmpty {
                            out.keep(line)
                            end = entry.offset &+ entry.length
                            continue
                        }
                    }
                    Self.appendFragment(entry, after: &end, to: &out.fresh)
                }
            }
            appendTail(to: &out.fresh)
            // The files: the old lines but those of files changed, set or gone, and of pages
            // whose digest changed (the pages made again that came out the same); then the
            // lines of those still made.
            var changed = Set(dropped)
            changed.formUnion(index.removed)
            changed.formUnion(index.set.keys)
            for (path, digest) in digests where previous.digests[path] != digest { changed.insert(path) }
            for path in previous.digests.keys where digests[path] == nil { changed.insert(path) }
            let mayHaveChanged = LengthFilter(changed)
            var run = filesRange.lowerBound
            var at = run
            while at < filesRange.upperBound {
                let next = lineEnd(at, filesRange.upperBound)
                var tab = at
                while tab < next, bytes[tab] != 9 { tab += 1 }
                if mayHaveChanged.mayContain(length: tab - at),
                    changed.contains(String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<tab]), as: UTF8.self))
                {
                    out.keep(run..<at)
                    run = next
                }
                at = next
            }
            out.keep(run..<filesRange.upperBound)
            for path in changed {
                // Under this build's bytes when it set the entry; else the old key's, as a copy of the old table keeps it.
                let key: String
                let entry: OutputIndex.Entry
                if let set = index.set.index(forKey: path) {
                    (key, entry) = index.set[set]
                } else if !index.removed.contains(path), let old = index.old.index(forKey: path) {
                    (key, entry) = index.old[old]
                } else {
                    continue
                }
                // (A key spelled two ways is in `changed` once: its line is made once.)
                guard Self.appendFile(key, entry, digest: digests[key], to: &out.fresh) else { return nil }
            }
            return .parts(out.parts(of: file), kept: out.kept)
        }
    }

    /// The header, then the orders by name.
    private func appendHead(to out: inout [UInt8]) {
        out.append(contentsOf: (Self.header + "\ntool\t" + tool + "\noutput\t" + outputFolder + "\n").utf8)
        for (digest, order) in nameOrders.sorted(by: { $0.key < $1.key }) {
            out.append(contentsOf: ("order\t" + digest + "\t" + order.map(String.init).joined(separator: ",") + "\n").utf8)
        }
    }

    private static func appendFragmentsHeader(_ path: String, _ table: FragmentTable, to out: inout [UInt8]) {
        out.append(contentsOf: "fragments\t\(path)\t\(table.salt)\t\(table.entries.count)\t-\n".utf8)
    }

    /// A card's line: its place as the gap after `end`, the end of the card before (then its own end).
    private static func appendFragment(_ entry: FragmentTable.Entry, after end: inout Int, to out: inout [UInt8]) {
        out.append(contentsOf: entry.section.utf8)
        out.append(9)
        out.append(contentsOf: entry.item.utf8)
        BuildState.appendNumber(entry.offset &- end, separator: 9, to: &out)
        BuildState.appendNumber(entry.length, separator: 9, to: &out)
        out.append(10)
        end = entry.offset &+ entry.length
    }

    /// The spare, the pack records and the animals.
    private func appendTail(to out: inout [UInt8]) {
        if let spare {
            out.append(contentsOf: "spare\t\(spare.folder)\t\(spare.differs.count)\t-\t-\n".utf8)
            for path in spare.differs { out.append(contentsOf: (path + "\t-\t0\t0\n").utf8) }
        }
        let breaksLines = Self.breaksLines
        if let table = packRecords, !breaksLines(table.manifestPath), !table.entries.keys.contains(where: breaksLines) {
            out.append(contentsOf: "packrecords\t\(table.manifestPath)\t\(table.entries.count)\t-\t-\n".utf8)
            for (id, entry) in table.entries {
                out.append(contentsOf: id.utf8)
                out.append(9)
                out.append(contentsOf: entry.digest.utf8)
                BuildState.appendNumber(entry.offset, separator: 9, to: &out)
                BuildState.appendNumber(entry.length, separator: 9, to: &out)
                out.append(10)
            }
        }
        // (A group named `-`, or one that would break a line, leaves the section out.)
        if !animals.contains(where: { breaksLines($0.key) || $0.value.group.map { $0 == "-" || breaksLines($0) } == true }) {
            out.append(contentsOf: "animals\t-\t\(animals.count)\t-\t-\n".utf8)
            for (id, animal) in animals {
                out.append(contentsOf: "a\t".utf8)
                out.append(contentsOf: id.utf8)
                out.append(9)
                out.append(contentsOf: animal.digest.utf8)
                out.append(9)
                out.append(contentsOf: (animal.group ?? "-").utf8)
                out.append(9)
                out.append(contentsOf: (animal.difficulty.map(String.init) ?? "-").utf8)
                out.append(10)
            }
        }
    }

    /// A file's line; false when its path would break it.
    private static func appendFile(_ path: String, _ entry: OutputIndex.Entry, digest: String?, to out: inout [UInt8]) -> Bool {
        // Looked for in the bytes just appended (the path's own view went one index at a time).
        let start = out.count
        out.append(contentsOf: path.utf8)
        if out.withUnsafeBufferPointer({ $0[start...].contains { $0 == 9 || $0 == 10 } }) { return false }
        out.append(9)
        out.append(contentsOf: entry.identity.utf8)
        out.append(9)
        BuildState.describe(entry.written, into: &out)
        out.append(9)
        out.append(contentsOf: (digest ?? "-").utf8)
        out.append(10)
        return true
    }

    /// Whether `text` holds a tab or a line break, which a record's line cannot: by its UTF-8 in
    /// place (through the `utf8` view, one index at a time, the 83,000 paths of the bench corpus
    /// took a fifth of the record's encoding; those are looked at once appended).
    static func breaksLines(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { $0 == 9 || $0 == 10 } }
    }

    static func forget(_ writer: OutputWriter) {
        try? writer.fileSystem.remove(path(writer))
    }
}

/// What a build kept of an animal (``OutputRecord/animals``).
struct KeptAnimal: Equatable, Sendable {
    var digest: String
    var group: String?
    var difficulty: Int?
}

/// The texts of the digests a record names, each made about once: a list card is keyed by its
/// animal's digest, so on the bench corpus the record's 110,000 card lines and 10,000 animal lines
/// name 10,000 digests (a text each, 64 bytes: 11 MB of them made and held by every rebuild
/// before). A field of 64 bytes is looked for in one slot, chosen by two of its words and compared
/// whole; a field not there (or of another length) is made, and a 64-byte one takes the slot (so
/// two digests sharing a slot, about one in seven of 10,000 in 65,536 slots, are made again when
/// the lists name them in turn). This costs a one-record rebuild about 10 ms of CPU (`perf`), a
/// dictionary keyed by the bytes twice that.
private struct DigestTexts {
    private var slots = [String?](repeating: nil, count: 1 << 16)

    mutating func text(_ field: Slice<UnsafeBufferPointer<UInt8>>, _ lines: TabbedLines) -> String {
        guard field.count == 64, let base = field.base.baseAddress else { return lines.text(field) }
        let raw = UnsafeRawPointer(base + field.startIndex)
        let mixed = (raw.loadUnaligned(as: UInt64.self) ^ raw.loadUnaligned(fromByteOffset: 56, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
        let slot = Int(truncatingIfNeeded: mixed >> 48)
        if let text = slots[slot], text.utf8.withContiguousStorageIfAvailable({ $0.count == 64 && memcmp($0.baseAddress!, raw, 64) == 0 }) == true {
            return text
        }
        let text = lines.text(field)
        slots[slot] = text
        return text
    }
}

/// The non-empty lines of a record's bytes, one at a time, each split at its tabs in place.
private struct TabbedLines {
    let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    /// Where each field of the current line starts, and where the line ends.
    private var starts: [Int] = []
    private var end = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        starts.reserveCapacity(8)
    }

    /// Moves to the next non-empty line; false at the end.
    mutating func next() -> Bool {
        while at < bytes.count, bytes[at] == 10 { at += 1 }
        guard at < bytes.count else { return false }
        starts.removeAll(keepingCapacity: true)
        starts.append(at)
        var i = at
        while i < bytes.count {
            let b = bytes[i]
            if b == 10 { break }
            if b == 9 { starts.append(i + 1) }
            i += 1
        }
        end = i
        at = i
        return true
    }

    /// The current line's number of fields.
    var count: Int { starts.count }
    /// Where the current line starts in the bytes, and where it ends (at its line break, or the end).
    var lineStart: Int { starts[0] }
    var lineEnd: Int { end }
    /// The whole current line.
    var whole: Slice<UnsafeBufferPointer<UInt8>> { bytes[starts[0]..<end] }

    func field(_ k: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
        bytes[starts[k]..<(k + 1 < starts.count ? starts[k + 1] - 1 : end)]
    }

    func text(_ k: Int) -> String { text(field(k)) }

    func text(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self)
    }

    func `is`(_ k: Int, _ word: StaticString) -> Bool {
        let f = field(k)
        return f.count == word.utf8CodeUnitCount && f.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// Field `k` as a decimal number, as `Int(_:)` of its text reads it (a sign, then at least
    /// one digit; nil on overflow), without the text made.
    func integer(_ k: Int) -> Int? { integer(field(k)) }

    /// ``integer(_:)`` of these bytes.
    func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var digits = bytes
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for b in digits {
            guard (48...57).contains(b) else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(Int(b - 48)) : times.addingReportingOverflow(Int(b - 48))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}

extension OutputRecord {
    /// A loaded record's file and where its lines are in it (``OutputRecord/layout``).
    struct Layout: Sendable {
        /// Mapped (``FileSystem/readShared(_:)``): kept while a build may reuse its lines.
        let file: FileBytes
        /// Each list's card lines, by the list's path, when they follow one another.
        var fragments: [String: Range<Int>] = [:]
        /// The file lines, when they are one run of lines (after the other sections), a line per path.
        var files: Range<Int>?
    }

    /// A record being made of new bytes and runs of the last record's file, in order.
    fileprivate struct Splice {
        var fresh: [UInt8] = []
        /// Runs of `fresh` (`old` false) and of the old file.
        private var runs: [(old: Bool, range: Range<Int>)] = []
        private var freshTaken = 0
        /// How many bytes the runs of the old file hold.
        private(set) var kept = 0

        /// The bytes at `range` of the old file, next (joined to a run of it just before).
        mutating func keep(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            takeFresh()
            kept += range.count
            if let last = runs.last, last.old, last.range.upperBound == range.lowerBound {
                runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                runs.append((true, range))
            }
        }

        private mutating func takeFresh() {
            guard fresh.count > freshTaken else { return }
            runs.append((false, freshTaken..<fresh.count))
            freshTaken = fresh.count
        }

        /// The parts: slices of `file` (no bytes copied) and of one `Data` of the new bytes; one
        /// part of them all when they are many (a theme's edit changes every page's line: 20,000
        /// writes of a few lines each would cost more than the copy).
        mutating func parts(of file: FileBytes) -> [Data] {
            takeFresh()
            let made = Data(fresh)
            let parts = runs.map { run in run.old ? file.data(run.range) : made[run.range] }
            return parts.count > 1024 ? [OutputFile.joined(parts)] : parts
        }
    }
}
