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
        OutputRecord.write(try #require(record.encoded()), writer)
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
