@testable import BestiarySite
import BestiaryPacks
import BestiaryRender
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// The output record (`.NAME.bestiary-index`) reads back as it was written, every section and
/// number of it, and a damaged one is not read at all. (A record read wrong would not show in a
/// rebuild's output: the rebuild would write everything anew, or worse, trust a wrong entry.)
@Suite struct OutputRecordTests {
    static let sha = String(repeating: "ab", count: 32)

    func sample(folder: String) -> OutputRecord {
        var record = OutputRecord(tool: "bestiary 1 test", outputFolder: folder, index: OutputIndex(), digests: [:])
        // Numbers at their edges: a negative time (before 1970), the largest inode, zero.
        record.index.entries["index.html"] = OutputIndex.Entry(
            identity: Self.sha, written: FileInfo(kind: .file, size: 12_345, modificationTime: -1_500_000_000_123, inode: UInt64.max, device: 7))
        record.index.entries["media/0123456789abcdef.ogg"] = OutputIndex.Entry(
            identity: "file 2049 3 0 1767225600123456789",
            written: FileInfo(kind: .file, size: 0, modificationTime: 1_767_225_600_123_456_789, inode: 3, device: 2049))
        record.index.entries["animals/owl/index.html"] = OutputIndex.Entry(
            identity: Self.sha, written: FileInfo(kind: .file, size: 9, modificationTime: 5, inode: 42, device: 0))
        record.digests["index.html"] = "d1"
        record.digests["animals/owl/index.html"] = "d2"
        record.nameOrders = ["names-en": [2, 0, 1], "names-de": [0], "names-fr": []]
        record.fragments = [
            "collection/index.html": FragmentTable(salt: "s1", entries: [
                .init(section: "cards", item: "owl", offset: 0, length: 200),
                .init(section: "cards", item: "bear", offset: 200, length: 9_999_999_999),
            ]),
            "de/collection/index.html": FragmentTable(salt: "s2", entries: []),
            // Card keys that are digests (read once per digest) and keys that only look like one:
            // upper case, a digit short, a letter past f, another digit in the middle (the same
            // first and last bytes), each read back as it was written.
            "en/collection/index.html": FragmentTable(salt: "s3", entries: [
                .init(section: "", item: Self.sha, offset: 0, length: 1),
                .init(section: "", item: Self.sha, offset: 0, length: 1),
                .init(section: "", item: Self.sha.prefix(30) + "0" + Self.sha.dropFirst(31), offset: 0, length: 1),
                .init(section: "", item: Self.sha.uppercased(), offset: 1, length: 1),
                .init(section: "", item: String(Self.sha.dropLast()), offset: 2, length: 1),
                .init(section: "", item: String(Self.sha.dropLast()) + "g", offset: 3, length: 1),
                .init(section: "", item: "0" + Self.sha.dropFirst(), offset: 4, length: 1),
                .init(section: "", item: Self.sha, offset: 5, length: 1),
            ]),
        ]
        record.packRecords = PackRecordTable(manifestPath: "packs/v/3.json", entries: [
            "owl": .init(digest: Self.sha, offset: 17, length: 300), "bear": .init(digest: "e" + Self.sha.dropFirst(), offset: 317, length: 1),
        ])
        record.spare = (folder: "12 34", differs: ["a.html", "media/x.png"])
        // A group and difficulty, neither, and an empty group (not the same as none).
        record.animals = [
            "owl": KeptAnimal(digest: Self.sha, group: "bird", difficulty: 3),
            "bear": KeptAnimal(digest: "d3", group: nil, difficulty: nil),
            "newt": KeptAnimal(digest: "d4", group: "", difficulty: -1),
        ]
        return record
    }

    func output(_ dir: TemporaryDirectory) throws -> (OutputWriter, String) {
        let path = dir.appending("out")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: path + "/" + OutputWriter.markerName))
        let writer = OutputWriter(fileSystem: LocalFileSystem(), output: path)
        return (writer, try #require(OutputRecord.folderIdentity(writer)))
    }

    /// A path with a tab or a line break cannot be a line of the record: then there is none (the
    /// next build writes the whole output anew), wherever in the index it is; a list page's
    /// fragments under such a path are only left out; an animal or pack record id, or a group,
    /// with one leaves its section out.
    @Test func aPathThatWouldBreakALineLeavesNoRecord() throws {
        let entry = OutputIndex.Entry(identity: Self.sha, written: FileInfo(kind: .file, size: 1, modificationTime: 1, inode: 1, device: 1))
        for bad in ["a\tb.html", "media/x\n.png", "\t", "a/b/c.html\n"] {
            var record = sample(folder: "1 2")
            record.index.entries[bad] = entry
            #expect(record.encoded() == nil, "\(bad.debugDescription)")
        }
        var record = sample(folder: "1 2")
        record.fragments["odd\tpage.html"] = FragmentTable(salt: "s", entries: [.init(section: "cards", item: "owl", offset: 0, length: 1)])
        record.animals["tab\tid"] = KeptAnimal(digest: "d", group: nil, difficulty: nil)
        let text = String(decoding: try #require(record.encoded()), as: UTF8.self)
        #expect(!text.contains("odd\tpage.html") && !text.contains("\nanimals\t") && text.contains("\nfragments\tcollection/index.html\t"))
        #expect(text.contains("\nmedia/0123456789abcdef.ogg\tfile 2049 3 0 1767225600123456789\t"))
        #expect(text.contains("\npackrecords\t"))
        // A pack record id, and an animal's group.
        var ids = sample(folder: "1 2")
        ids.packRecords?.entries["tab\tid"] = .init(digest: Self.sha, offset: 0, length: 1)
        ids.animals["owl"]?.group = "line\nbreak"
        let idsText = String(decoding: try #require(ids.encoded()), as: UTF8.self)
        #expect(!idsText.contains("\npackrecords\t") && !idsText.contains("\nanimals\t") && idsText.contains("\nfragments\t"))
    }

    @Test func aRecordReadsBackAsItWasWritten() throws {
        let dir = TemporaryDirectory()
        let (writer, folder) = try output(dir)
        let record = sample(folder: folder)
        OutputRecord.write(.whole(try #require(record.encoded())), writer)
        let read = try #require(OutputRecord.load(writer, tool: record.tool))
        #expect(read.index.entries.count == record.index.entries.count)
        for (path, entry) in record.index.entries {
            #expect(read.index.entries[path]?.identity == entry.identity, "\(path)")
            #expect(read.index.entries[path]?.written == entry.written, "\(path)")
        }
        #expect(read.digests == record.digests)
        #expect(read.nameOrders == record.nameOrders)
        #expect(read.fragments == record.fragments)
        #expect(read.packRecords == record.packRecords)
        #expect(read.animals == record.animals)
        #expect(read.spare?.folder == "12 34" && read.spare?.differs == ["a.html", "media/x.png"])
        // Written again, the same bytes but for the dictionaries' order.
        #expect(try #require(read.encoded()).count == record.encoded()?.count)

        // Made by another binary: not read.
        #expect(OutputRecord.load(writer, tool: "bestiary 2") == nil)
    }

    /// A line damaged in any of its numbers (or a count no file can hold) makes the whole record
    /// unread, never a wrong number.
    @Test(arguments: [
        (" 1767225600123456789 3 2049\t", " 17672256001234567x9 3 2049\t"),  // not a digit
        (" 3 2049\t", " 3 20x9\t"),
        (" 3 2049\t", " 3\t"),  // a part missing
        (" 3 2049\t", " 3 2049 1\t"),  // one too many
        ("\t17\t300\n", "\t17\t\n"),  // no length
        ("\t17\t300\n", "\t17\t99999999999999999999\n"),  // overflows
        ("\t17\t300\n", "\t17\t-\n"),  // a sign alone
        ("packrecords\tpacks/v/3.json\t2\t", "packrecords\tpacks/v/3.json\t3\t"),  // more lines than there are
        ("fragments\tcollection/index.html\ts1\t2\t", "fragments\tcollection/index.html\ts1\t99999999999\t"),
        ("animals\t-\t3\t", "animals\t-\t4\t"),  // more animals than there are
        ("\tbird\t3\n", "\tbird\tthree\n"),  // a difficulty not a number
        ("\tbird\t3\n", "\tbird\n"),  // a part missing
    ])
    func aDamagedRecordIsNotRead(_ damage: (String, String)) throws {
        let dir = TemporaryDirectory()
        let (writer, folder) = try output(dir)
        let text = String(decoding: try #require(sample(folder: folder).encoded()), as: UTF8.self)
        #expect(text.contains(damage.0), "the sample has \(damage.0.debugDescription)")
        try Data(text.replacingOccurrences(of: damage.0, with: damage.1).utf8).write(to: URL(fileURLWithPath: OutputRecord.path(writer)))
        #expect(OutputRecord.load(writer, tool: "bestiary 1 test") == nil)
    }

    /// A rebuild's record made of the last one's lines where they stand
    /// (``OutputRecord/spliced(_:index:dropped:)``) reads back as the record made whole from the
    /// same new index reads, round after round, each record spliced from the one before: files
    /// set, added and removed, a path spelled with other bytes (one key to a dictionary), pages
    /// whose digest changed, went or came, cards changed, added and removed, a list renamed by its
    /// content hash. The new index looked up through the changes (``RebuiltIndex``) is the old
    /// table changed. And most of a spliced record's bytes are the last one's.
    @Test func aSplicedRecordReadsBackAsOneMadeWhole() throws {
        let dir = TemporaryDirectory()
        let (writer, folder) = try output(dir)
        var random = SplitMix64(seed: 779)
        var counter = 0
        func info() -> FileInfo {
            counter += 1
            return FileInfo(kind: .file, size: counter, modificationTime: Int64(counter) * 1_000_003, inode: UInt64(counter), device: 7)
        }
        func entry() -> OutputIndex.Entry { OutputIndex.Entry(identity: String(counter, radix: 16) + Self.sha, written: info()) }
        /// Cards one after the other, a few bytes apart (each card's own number of them).
        func table(_ cards: [(item: String, length: Int)], salt: String) -> FragmentTable {
            var offset = 0
            var entries: [FragmentTable.Entry] = []
            for card in cards {
                offset += card.item.utf8.count % 4
                entries.append(.init(section: "cards", item: card.item, offset: offset, length: card.length))
                offset += card.length
            }
            return FragmentTable(salt: salt, entries: entries)
        }
        let composed = "animals/caf\u{E9}/index.html", decomposed = "animals/cafe\u{301}/index.html"
        var record = OutputRecord(tool: "bestiary 1 test", outputFolder: folder, index: OutputIndex(), digests: [:])
        for n in 0..<3000 {
            let path = n % 3 == 0 ? "animals/a\(n)/index.html" : "media/\(String(n * 7919, radix: 16)).ogg"
            record.index.entries[path] = entry()
            if n % 3 == 0 { record.digests[path] = "d\(n)" }
        }
        record.index.entries[composed] = entry()
        record.digests[composed] = "dc"
        var cards = (0..<400).map { (item: "k\($0)", length: 100 + $0 % 17) }
        record.fragments = [
            "collection/index.html": table(cards, salt: "s1"), "assets/catalog.0123456789.json": table(cards, salt: "s2"),
        ]
        record.animals = Dictionary(uniqueKeysWithValues: (0..<300).map { ("a\($0)", KeptAnimal(digest: "d\($0)", group: "g\($0 % 4)", difficulty: $0 % 5)) })
        record.packRecords = PackRecordTable(manifestPath: "packs/v/1.json", entries: ["a0": .init(digest: Self.sha, offset: 0, length: 9)])
        record.nameOrders = ["names": [2, 0, 1]]
        OutputRecord.write(.whole(try #require(record.encoded())), writer)

        /// Every key's bytes, and what it holds.
        func entries(_ table: [String: OutputIndex.Entry]) -> [[UInt8]: String] {
            Dictionary(uniqueKeysWithValues: table.map { (Array($0.key.utf8), "\($0.value.identity) \($0.value.written)") })
        }
        for round in 1...12 {
            let previous = try #require(OutputRecord.load(writer, tool: record.tool))
            #expect(previous.layout?.files != nil && previous.layout?.fragments.count == 2, "round \(round): its lines can be reused")
            let old = previous.index.entries
            let keys = old.keys.sorted()
            var set: [String: OutputIndex.Entry] = [:]
            var removed = Set<String>()
            var dropped: [String] = []
            var digests = previous.digests
            for _ in 0..<Int.random(in: 0...6, using: &random) { set[keys.randomElement(using: &random)!] = entry() }
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let path = "animals/new\(counter)/index.html"
                set[path] = entry()
                digests[path] = "n\(counter)"
            }
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let path = keys.randomElement(using: &random)!
                if set[path] == nil && path != composed && path != decomposed { removed.insert(path) }
            }
            // The page named in the other Unicode form: one key, other bytes.
            if round % 3 == 0, let place = old.index(forKey: composed) {
                let spelled = Array(old.keys[place].utf8) == Array(composed.utf8) ? decomposed : composed
                if set[spelled] == nil {
                    set[spelled] = old.values[place]
                    // The build's digests are by its own spelling (a key set in place keeps its bytes).
                    if let digest = digests.removeValue(forKey: spelled) { digests[spelled] = digest }
                }
                dropped.append(old.keys[place])
            }
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let page = keys.filter { $0.hasPrefix("animals/") }.randomElement(using: &random)!
                switch Int.random(in: 0...2, using: &random) {
                case 0: digests[page] = "c\(counter)"
                case 1: digests[page] = nil
                default: digests["not/a/file/\(counter).html"] = "x"
                }
                counter += 1
            }
            for path in removed { digests[path] = nil }
            // Cards: a few longer, one gone, one new.
            for _ in 0..<Int.random(in: 0...3, using: &random) { cards[Int.random(in: 0..<cards.count, using: &random)].length += 1 }
            if round % 2 == 0 { cards.remove(at: Int.random(in: 0..<cards.count, using: &random)) }
            if round % 4 == 1 { cards.insert((item: "new\(round)", length: 50), at: Int.random(in: 0...cards.count, using: &random)) }
            var next = OutputRecord(
                tool: record.tool, outputFolder: folder, index: OutputIndex(), digests: digests, nameOrders: ["names": [round, 0]],
                fragments: [
                    "collection/index.html": table(cards, salt: "s1"),
                    "assets/catalog.\(String(format: "%010x", round * 977)).json": table(cards, salt: "s2"),
                ],
                packRecords: previous.packRecords, animals: previous.animals, spare: (folder: "1 \(round)", differs: Array(set.keys)))
            next.animals["a\(round)"]?.difficulty = 9
            let index = RebuiltIndex(old: old, set: set, removed: removed)
            var expected = old
            for path in removed { expected[path] = nil }
            for (path, entry) in set {
                expected[path] = nil
                expected[path] = entry
            }
            // The index through the changes.
            #expect(index.count == expected.count, "round \(round)")
            let keyBytes = Set(index.keys.map { Array($0.utf8) }), expectedBytes = Set(expected.keys.map { Array($0.utf8) })
            #expect(keyBytes == expectedBytes, "round \(round): \(keyBytes.symmetricDifference(expectedBytes).map { String(decoding: $0, as: UTF8.self) })")
            for path in Set(old.keys).union(set.keys).union(removed) {
                #expect(index[path]?.identity == expected[path]?.identity && index[path]?.written == expected[path]?.written, "\(path)")
            }
            #expect(entries(index.entries) == entries(expected))

            let spliced = try #require(next.spliced(previous, index: index, dropped: dropped))
            guard case .parts(_, let kept) = spliced else {
                Issue.record("round \(round): made whole")
                return
            }
            #expect(kept * 10 > spliced.count * 8, "round \(round): \(kept) of \(spliced.count) bytes kept")
            // The cards' lines are among them: most of them are kept.
            var withoutCards = previous
            withoutCards.layout?.fragments = [:]
            guard case .parts(_, let keptWithoutCards) = try #require(next.spliced(withoutCards, index: index, dropped: dropped)) else { return }
            let cardBytes = previous.layout?.fragments.values.reduce(0) { $0 + $1.count } ?? 0
            #expect((kept - keptWithoutCards) * 10 > cardBytes * 9, "round \(round): \(kept - keptWithoutCards) of \(cardBytes) bytes of cards kept")
            next.index = OutputIndex(entries: expected)
            OutputRecord.write(.whole(try #require(next.encoded())), writer)
            let whole = try #require(OutputRecord.load(writer, tool: record.tool))
            OutputRecord.write(spliced, writer)
            let read = try #require(OutputRecord.load(writer, tool: record.tool), "round \(round)")
            #expect(entries(read.index.entries) == entries(whole.index.entries), "round \(round)")
            #expect(entries(read.index.entries) == entries(expected), "round \(round)")
            #expect(read.digests == whole.digests, "round \(round): \(read.digests.filter { whole.digests[$0.key] != $0.value }) \(whole.digests.filter { read.digests[$0.key] != $0.value })")
            #expect(read.fragments == whole.fragments && read.animals == whole.animals, "round \(round)")
            #expect(read.packRecords == whole.packRecords && read.nameOrders == whole.nameOrders, "round \(round)")
            #expect(read.spare?.folder == whole.spare?.folder && read.spare?.differs == whole.spare?.differs, "round \(round)")
            #expect(read.fragments["collection/index.html"]?.entries.count == cards.count)
        }
    }

    /// A record whose file lines are not one run to its end, or hold a path twice (no build
    /// writes either), is read as before, and the next record is made whole.
    @Test func aRecordWhoseLinesCannotBeReusedIsMadeWhole() throws {
        let dir = TemporaryDirectory()
        let (writer, folder) = try output(dir)
        let text = String(decoding: try #require(sample(folder: folder).encoded()), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let animalsAt = try #require(lines.firstIndex { $0.hasPrefix("animals\t") })
        let animalsSection = Array(lines[animalsAt...(animalsAt + 3)])
        let moved = (lines[..<animalsAt] + lines[(animalsAt + 4)...].dropLast() + animalsSection).joined(separator: "\n") + "\n"
        let twice = text + lines.first { $0.hasPrefix("index.html\t") }! + "\n"
        for damaged in [moved, twice] {
            try Data(damaged.utf8).write(to: URL(fileURLWithPath: OutputRecord.path(writer)))
            let previous = try #require(OutputRecord.load(writer, tool: "bestiary 1 test"))
            #expect(previous.layout?.files == nil)
            #expect(previous.index.entries.count == 3 && previous.animals.count == 3)
            let index = RebuiltIndex(old: previous.index.entries, set: [:], removed: [])
            let next = sample(folder: folder)
            guard case .whole(let bytes) = try #require(next.spliced(previous, index: index, dropped: [])) else {
                Issue.record("spliced")
                continue
            }
            #expect(bytes.count == next.encoded()?.count)
        }
    }

    /// The files a build no longer makes: the index's keys at none of the places its files were
    /// found at, whatever their order and repeats, in the table's order.
    @Test func theKeysNoFileFoundAreThoseNoLongerMade() {
        var entries: [String: OutputIndex.Entry] = [:]
        let info = FileInfo(kind: .file, size: 1, modificationTime: 0, inode: 1, device: 1)
        for n in 0..<500 { entries["p\(n).html"] = OutputIndex.Entry(identity: "-", written: info) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let made = (0..<500).filter { _ in Bool.random(using: &generator) }.map { "p\($0).html" }
            let found = (made + made.prefix(7)).shuffled(using: &generator).compactMap { entries.index(forKey: $0) }
            let gone = OutputIndex.keys(of: entries, notAt: found)
            #expect(Set(gone) == Set(entries.keys).subtracting(made) && gone.count == 500 - made.count)
            #expect(gone == entries.keys.filter { !made.contains($0) })
        }
        #expect(OutputIndex.keys(of: [:], notAt: []) == [])
        #expect(OutputIndex.keys(of: entries, notAt: []).count == 500)
    }
}

extension OutputRecord.Bytes {
    /// How many bytes the record has.
    var count: Int {
        switch self {
        case .whole(let bytes): bytes.count
        case .parts(let parts, _): parts.reduce(0) { $0 + $1.count }
        }
    }
}
