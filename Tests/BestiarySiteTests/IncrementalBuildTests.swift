import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

/// A `bestiary build` after an edit, in a new process, renders only the pages whose inputs changed
/// and moves only the changed files into the output (the previous build's record next to it),
/// and what it leaves is byte for byte what a build from nothing makes.
@Suite struct IncrementalBuildTests {
    final class Site {
        let work = TemporaryDirectory("bestiary-incremental")
        let root: String
        let output: String
        var fresh = 0

        init() throws {
            root = try copyOfFixture("tuxpaint", into: work)
            output = work.appending("out")
            let first = try build(root: root, output: output)
            #expect(first.pagesReused == 0)
        }

        func path(_ relative: String) -> String { root + "/" + relative }
        func edit(_ relative: String, _ old: String, _ new: String) throws {
            let text = try String(contentsOfFile: path(relative), encoding: .utf8)
            #expect(text.contains(old), "\(relative) has no '\(old)'")
            try text.replacingOccurrences(of: old, with: new).writeReplacing(toFile: path(relative))
        }
        func write(_ text: String, _ relative: String) throws { try text.writeReplacing(toFile: path(relative)) }
        func inode(_ relative: String) -> UInt64? { LocalFileSystem().info(output + "/" + relative)?.inode }

        /// Changes the site, builds it as a new process would, and compares the output with a
        /// build from nothing into another folder.
        @discardableResult
        func step(sourceLocation: Testing.SourceLocation = #_sourceLocation, _ change: () throws -> Void) throws -> BuildReport {
            try change()
            let report = try build(root: root, output: output)
            fresh += 1
            let full = work.appending("full-\(fresh)")
            try build(root: root, output: full, force: true)
            #expect(try Tree(output).differences(from: Tree(full)) == [], sourceLocation: sourceLocation)
            #expect(try recordedDigestsThatAreWrong() == [], sourceLocation: sourceLocation)
            return report
        }

        /// The output's files whose SHA-256 in the build's record (`.out.bestiary-index`: `path`,
        /// digest, `f size time inode device`) is not that of their bytes. The record's digests
        /// tell the next build which files are unchanged; stages that hashed their bytes already
        /// hand the digest on (``OutputFile/sha256``), so a wrong one would show here.
        func recordedDigestsThatAreWrong() throws -> [String] {
            let record = try String(contentsOfFile: work.appending(".out.bestiary-index"), encoding: .utf8)
            var wrong: [String] = []
            var checked = 0
            for line in record.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 4, fields[2].hasPrefix("f "), fields[1].count == 64 else { continue }
                let data = try Data(contentsOf: URL(fileURLWithPath: output + "/" + fields[0]))
                if Hashing.sha256Hex(data) != fields[1] { wrong.append(String(fields[0])) }
                checked += 1
            }
            #expect(checked > 100, "the record's index lines were found")
            return wrong
        }
    }

    @Test func eachBuildAfterAnEditEqualsABuildFromNothing() throws {
        let s = try Site()
        let crow = s.inode("animals/crow/index.html"), bear = s.inode("animals/bear/index.html")
        let firstMedia = try "media/" + (FileManager.default.contentsOfDirectory(atPath: s.output + "/media").sorted().first ?? "")
        let sound = s.inode(firstMedia)

        let edit = try s.step { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        // Only pages that show the bear, and the app shell, are rendered; the rest stay.
        #expect(edit.pagesReused > edit.pages / 2, "\(edit.pagesReused) of \(edit.pages) pages reused")
        #expect(s.inode("animals/crow/index.html") == crow, "a page that does not show the bear is not written again")
        #expect(s.inode("animals/bear/index.html") != bear)
        #expect(sound != nil && s.inode(firstMedia) == sound, "media are not linked again")
        #expect(edit.stages.last?.detail.contains(" of ") == true, "written in place: \(edit.stages.last?.detail ?? "")")

        try s.step { try s.edit("content/animals/bear.md", "group: mammal", "group: bird\ndifficulty: 3") }
        try s.step { try s.write("Ein großer Bär.\n", "content/animals/bear.de.md") }
        try s.step { try s.write("---\nname: {en: Okapi, de: Okapi}\ngroup: mammal\n---\n\nA forest giraffe.\n", "content/animals/okapi.md") }
        let removal = try s.step { try FileManager.default.removeItem(atPath: s.path("content/animals/zebra.md")) }
        #expect(removal.pagesReused > 0)
        #expect(!FileManager.default.fileExists(atPath: s.output + "/animals/zebra/index.html"))
        try s.step {
            try FileManager.default.removeItem(atPath: s.path("content/sounds/bear.ogg"))
            try FileManager.default.copyItem(atPath: s.path("content/sounds/badger.ogg"), toPath: s.path("content/sounds/bear.ogg"))
        }
        try s.step {
            try FileManager.default.createDirectory(atPath: s.path("content/pages"), withIntermediateDirectories: true)
            try s.write("---\ntitle: {en: About, de: Über}\n---\n\nHello.\n", "content/pages/about.md")
        }
        try s.step { try s.edit("content/pages/about.md", "Hello.", "Hello again.") }
        let layout = try s.step {
            let theme = try String(contentsOfFile: Fixtures.repositoryRoot + "/templates/layouts/animal.html", encoding: .utf8)
            try FileManager.default.createDirectory(atPath: s.path("templates/layouts"), withIntermediateDirectories: true)
            try s.write(theme + "<!-- custom animal layout -->\n", "templates/layouts/animal.html")
        }
        #expect(s.inode("animals/crow/index.html") != crow, "every animal page is made with the layout")
        #expect(layout.pagesReused > 0, "credits do not use the animal layout")
        let config = try s.step { try s.edit("content/site.yml", "title: {en: Tux Paint animals, de: Tux-Paint-Tiere}", "title: {en: Our animals, de: Unsere Tiere}") }
        #expect(config.pagesReused == 0, "site.yml is on every page")
        try s.step { try FileManager.default.removeItem(atPath: s.path("content/animals/okapi.md")) }
    }

    /// The lists' order by name (collation of 10,000 names takes half a second) is kept in the
    /// record and taken as it is while no name changed; a renamed animal sorts them afresh.
    @Test func theOrderByNameIsKeptWhileNoNameChanges() throws {
        let s = try Site()
        let record = s.work.appending(".out.bestiary-index")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        let orders = text.split(separator: "\n").filter { $0.hasPrefix("order\t") }
        #expect(orders.count == 2, "one order per language (en, de)")
        // Reversed in the record: if it is taken, the collection lists zebra before badger.
        var tampered = text
        for line in orders {
            let fields = line.split(separator: "\t")
            let reversed = fields[2].split(separator: ",").reversed().joined(separator: ",")
            tampered = tampered.replacingOccurrences(of: String(line), with: "order\t\(fields[1])\t\(reversed)")
        }
        try tampered.writeReplacing(toFile: record)
        func zebraFirst() throws -> Bool {
            let page = try String(contentsOfFile: s.output + "/collection/index.html", encoding: .utf8)
            let zebra = try #require(page.range(of: "animals/zebra/")), badger = try #require(page.range(of: "animals/badger/"))
            return zebra.lowerBound < badger.lowerBound
        }
        #expect(try !zebraFirst())
        try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]")
        try build(root: s.root, output: s.output)
        #expect(try zebraFirst(), "the kept order was used")
        // A name changes: the order is made anew, and the output is a build from nothing's.
        try s.step { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        #expect(try !zebraFirst())
    }

    /// The cards of the list pages (collection, sightings, credits) are copied from the page's
    /// file where the record says they are, while their animal is unchanged; a changed animal's
    /// card is rendered again, and the output is then a build from nothing's.
    @Test func theCardsOfListPagesAreCopiedFromTheirFiles() throws {
        let s = try Site()
        let record = s.work.appending(".out.bestiary-index")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("fragments\tcollection/index.html\t") })
        let count = try #require(Int(lines[header].split(separator: "\t")[3]))
        #expect(count == 66, "one card per animal")
        let page = Array(try String(contentsOfFile: s.output + "/collection/index.html", encoding: .utf8).utf8)
        var places = RecordedCards.read(lines, header: header)
        func card(_ line: Int) -> String {
            let place = places[line]!
            return String(decoding: page[place.offset..<(place.offset + place.length)], as: UTF8.self)
        }
        let bear = try #require(places.keys.sorted().first { card($0).contains("data-id=\"bear\"") })
        let crow = try #require(places.keys.sorted().first { card($0).contains("data-id=\"crow\"") })
        #expect(card(bear).hasPrefix("<li class=\"card\"") && card(bear).contains("</li>\n"))
        // The bear's entry pointed at the crow's card: if the table is used, the bear shows as a crow.
        places[bear] = places[crow]
        RecordedCards.write(places, into: &lines, header: header)
        try lines.joined(separator: "\n").writeReplacing(toFile: record)
        func crows() throws -> Int {
            try String(contentsOfFile: s.output + "/collection/index.html", encoding: .utf8).components(separatedBy: "data-id=\"crow\"").count - 1
        }
        #expect(try crows() == 1)
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ndifficulty: 3")
        let report = try build(root: s.root, output: s.output)
        #expect(report.pagesReused > 0)
        #expect(try crows() == 2, "the kept card was copied from where the record said")
        // The bear changes: its card is made anew, and the output is a build from nothing's.
        try s.step { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        #expect(try crows() == 1)
    }

    /// The quiz catalogue copies each unchanged animal's object from the previous catalogue (its
    /// name changes with its content: the record's one table of that kind), where the record
    /// says it is: a tampered table shows in the output; a changed animal's object is made anew.
    @Test func theQuizCatalogueCopiesTheObjectsOfUnchangedAnimals() throws {
        let s = try Site()
        var table = try AssetTable(s, file: "catalog.")
        #expect(table.count == 66, "one object per animal")
        let bear = try #require(table.entry { $0.contains(#""id":"bear""#) })
        let crow = try #require(table.entry { $0.contains(#""id":"crow""#) })
        #expect(table.part(bear).hasPrefix("{") && table.part(bear).hasSuffix("}"))
        try table.point(bear, at: crow)
        func crows() throws -> Int { try table.text().components(separatedBy: #""id":"crow""#).count - 1 }
        #expect(try crows() == 1)
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ndifficulty: 3")
        #expect(try build(root: s.root, output: s.output).pagesReused > 0)
        #expect(try crows() == 2, "the bear's object was copied from where the record said")
        try s.step { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        #expect(try crows() == 1)
        #expect(try table.text().contains("Braunbär"))
        // The languages' order picks each description's fallback: every object depends on it.
        try s.step { try s.edit("content/site.yml", "languages: [en, de]", "languages: [en, de, fr]") }
    }

    /// The descriptions' files beside the catalogue (a language's short texts, one member per
    /// animal) are assembled the same way: a tampered table shows in the output, a changed
    /// animal's text is made anew.
    @Test func theDescriptionsCopyTheTextsOfUnchangedAnimals() throws {
        let s = try Site()
        var table = try AssetTable(s, file: "descriptions.en.")
        #expect(table.count == 66, "a part per animal")
        let camel = try #require(table.entry { $0.hasPrefix(#""camel":""#) })
        let hen = try #require(table.entry { $0.hasPrefix(#""hen":""#) })
        #expect(table.entry { $0.isEmpty } != nil, "an animal without an English text has an empty part")
        try table.point(camel, at: hen)
        func hens() throws -> Int { try table.text().components(separatedBy: #""hen":""#).count - 1 }
        #expect(try hens() == 1)
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ndifficulty: 3")
        #expect(try build(root: s.root, output: s.output).pagesReused > 0)
        #expect(try hens() == 2, "the camel's text was copied from where the record said")
        try s.step { try s.edit("content/animals/camel.md", #"en: "A camel.""#, #"en: "A camel with two humps.""#) }
        #expect(try hens() == 1)
        #expect(try table.text().contains(#""camel":"A camel with two humps.""#))
    }

    /// An asset's table in the output record (its `fragments` line, then a line per animal: the
    /// digest, offset and length of its part) with the file's bytes as the build wrote them, for
    /// the tests that tamper with it.
    struct AssetTable {
        let site: Site
        /// The start of the file's name under `assets/` (its hash follows).
        let file: String
        let record: String
        var lines: [String]
        let header: Int
        let bytes: [UInt8]

        init(_ site: Site, file: String) throws {
            self.site = site
            self.file = file
            record = site.work.appending(".out.bestiary-index")
            lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            header = try #require(lines.firstIndex { $0.hasPrefix("fragments\tassets/" + file) })
            bytes = Array(try Self.text(site, file: file).utf8)
        }

        /// The file as it is now in the output.
        func text() throws -> String { try Self.text(site, file: file) }

        static func text(_ site: Site, file: String) throws -> String {
            let name = try #require(FileManager.default.contentsOfDirectory(atPath: site.output + "/assets").first { $0.hasPrefix(file) })
            return try String(contentsOfFile: site.output + "/assets/" + name, encoding: .utf8)
        }

        var count: Int? { Int(lines[header].split(separator: "\t")[3]) }

        /// The first entry whose part matches, as an index into `lines`.
        func entry(where matches: (String) -> Bool) -> Int? {
            ((header + 1)...(header + (count ?? 0))).first { matches(part($0)) }
        }

        /// An entry's part of the file, as the table says.
        func part(_ index: Int) -> String {
            let place = RecordedCards.read(lines, header: header)[index]!
            return String(decoding: bytes[place.offset..<(place.offset + place.length)], as: UTF8.self)
        }

        /// Makes entry `index` say it is where entry `other` is, and writes the record.
        mutating func point(_ index: Int, at other: Int) throws {
            var places = RecordedCards.read(lines, header: header)
            places[index] = places[other]
            RecordedCards.write(places, into: &lines, header: header)
            try lines.joined(separator: "\n").writeReplacing(toFile: record)
        }
    }

    /// A list's card lines in the output record, `SECTION ITEM GAP LENGTH` (a card's place as the
    /// gap after the card before it), as places in the list's file: read, and written back.
    enum RecordedCards {
        /// Each card's place, by the index of its line.
        static func read(_ lines: [String], header: Int) -> [Int: (offset: Int, length: Int)] {
            let count = Int(lines[header].split(separator: "\t")[3])!
            var places: [Int: (offset: Int, length: Int)] = [:]
            var end = 0
            for line in (header + 1)..<(header + 1 + count) {
                let f = lines[line].split(separator: "\t", omittingEmptySubsequences: false)
                let offset = end + Int(f[2])!, length = Int(f[3])!
                places[line] = (offset, length)
                end = offset + length
            }
            return places
        }

        /// The card lines after `header` saying `places`.
        static func write(_ places: [Int: (offset: Int, length: Int)], into lines: inout [String], header: Int) {
            var end = 0
            for line in places.keys.sorted() {
                var f = lines[line].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let place = places[line]!
                (f[2], f[3]) = (String(place.offset - end), String(place.length))
                lines[line] = f.joined(separator: "\t")
                end = place.offset + place.length
            }
        }
    }

    /// A damaged record (a section count that cannot be, offsets past the end of the page) is not
    /// used, and does not stop the build.
    @Test func aDamagedRecordIsNotUsed() throws {
        let s = try Site()
        let record = s.work.appending(".out.bestiary-index")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("fragments\tcollection/index.html\t") })
        let fields = header.split(separator: "\t")
        try text.replacingOccurrences(of: String(header), with: "\(fields[0])\t\(fields[1])\t\(fields[2])\t-1\t-")
            .writeReplacing(toFile: record)
        let first = try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(first.pagesReused == 0, "the damaged record was not used")
        // Offsets past the end of the page: that page's cards are made anew.
        let again = try String(contentsOfFile: record, encoding: .utf8)
        var lines = again.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex { $0.hasPrefix("fragments\tcollection/index.html\t") })
        var entry = lines[at + 1].split(separator: "\t").map(String.init)
        entry[2] = String(Int.max)
        lines[at + 1] = entry.joined(separator: "\t")
        try lines.joined(separator: "\n").writeReplacing(toFile: record)
        let second = try s.step { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
        #expect(second.pagesReused > 0)
    }

    /// The output's files are trusted only while they are as the last build left them: pages,
    /// and media (hard links of content's files, checked by the inode their folder lists).
    @Test func aPageChangedOrRemovedByHandIsMadeAgain() throws {
        let s = try Site()
        try "defaced".write(toFile: s.output + "/animals/crow/index.html", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: s.output + "/animals/owl/index.html")
        try FileManager.default.removeItem(atPath: s.output + "/sitemap.xml")
        let media = try FileManager.default.contentsOfDirectory(atPath: s.output + "/media").sorted()
        #expect(media.count >= 2)
        try FileManager.default.removeItem(atPath: s.output + "/media/" + media[0])
        try "not a sound".write(toFile: s.output + "/media/" + media[0], atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: s.output + "/media/" + media[1])
        // Said, once: a build undoes changes made in the output (a `sed -i` on a page was
        // undone without a word, found by a deployer).
        func warnings(_ change: () throws -> Void) throws -> [String] {
            var options = BuildOptions(
                root: s.root, output: s.output, environment: ["SOURCE_DATE_EPOCH": "1767225600"],
                time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
            options.recordsPackVersions = false
            let builder = SiteBuilder(options: options)
            try s.step {
                try change()
                _ = try builder.build()
            }
            return builder.diagnostics.items.filter { $0.severity == .warning }.map(\.message).filter { $0.contains("since the last build, not by bestiary") }
        }
        let said = try warnings { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(said.count == 1 && said[0].hasPrefix(
            "\(s.output)/animals/crow/index.html and 4 more (animals/owl/index.html, media/\(media[0]), media/\(media[1]), …): changed or removed since the last build, not by bestiary; made again"), "\(said)")
        // Not for what the build itself changes, nor for a media file touched in content/ (its
        // link in the output is the same file).
        let sound = try #require(try FileManager.default.contentsOfDirectory(atPath: s.path("content/sounds")).sorted().first)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: s.path("content/sounds/" + sound))
        #expect(try warnings { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") } == [])
        #expect(try warnings { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") } == [])
        // The same with the spare in use (the build above left one).
        try "not a sound".write(toFile: s.output + "/media/" + media[0] + ".tmp", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: s.output + "/media/" + media[0])
        try FileManager.default.moveItem(atPath: s.output + "/media/" + media[0] + ".tmp", toPath: s.output + "/media/" + media[0])
        #expect(try warnings { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }.first?.hasPrefix(
            "\(s.output)/media/\(media[0]): changed or removed since the last build, not by bestiary") == true)
    }

    /// A theme's file renamed from one Unicode form of its name to the other (composed, and
    /// decomposed as macOS writes names) is one name to Swift and two to the file system: the
    /// rebuild writes it under its new name, and does not say it was changed by another hand.
    @Test func aThemeFileRenamedToAnotherUnicodeFormIsNoOtherHandsChange() throws {
        let s = try Site()
        let composed = "caf\u{E9}.css", decomposed = "cafe\u{301}.css"
        #expect(composed == decomposed && !PathText.sameBytes(composed, decomposed))
        let fs = LocalFileSystem()
        try fs.createDirectory(s.path("templates/assets"))
        try fs.writeNew(Data("b { color: teal }\n".utf8), to: s.path("templates/assets/" + composed))
        func build() throws -> [String] {
            var options = BuildOptions(
                root: s.root, output: s.output, environment: ["SOURCE_DATE_EPOCH": "1767225600"],
                time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
            options.recordsPackVersions = false
            let builder = SiteBuilder(options: options)
            _ = try builder.build()
            return builder.diagnostics.items.filter { $0.severity == .warning }.map(\.message).filter { $0.contains("not by bestiary") }
        }
        func assets() throws -> [String] { try fs.entries(in: s.output + "/assets").map(\.name).filter { $0.hasPrefix("caf") } }
        #expect(try build() == [])
        let before = try assets()
        #expect(before.count == 1 && PathText.sameBytes(String((before.first ?? "").prefix(5)), "caf\u{E9}."), "\(before)")
        try fs.move(s.path("templates/assets/" + composed), to: s.path("templates/assets/" + decomposed))
        var said: [String] = []
        try s.step { said = try build() }
        #expect(said == [], "\(said)")
        let after = try assets()
        #expect(after.count == 1 && PathText.sameBytes(String((after.first ?? "").prefix(5)), "cafe\u{301}."), "\(after)")
    }

    /// A rebuild does not list a media folder of the output that still has the stamp the last
    /// build took when the output was complete (39,000 entries of `media/` on the bench corpus):
    /// it lists what it listed then. A file removed or replaced there by hand gives the folder a
    /// new time: it is listed, and the file made again. So does a tool that sets the folder's
    /// time back after: it gives the folder a new change time.
    @Test func aMediaFolderThatKeptItsStampIsNotListed() throws {
        let s = try Site()
        // The output's media folder is stamped once it was complete a tenth of a second before
        // (the first rebuild links every file anew; the next one's output is the full build's).
        for (old, new) in [("tags: [bears]", "tags: [bears, big]"), ("tags: [bears, big]", "tags: [bears]")] {
            Thread.sleep(forTimeInterval: 0.15)
            try s.step { try s.edit("content/animals/bear.md", old, new) }
        }
        Thread.sleep(forTimeInterval: 0.15)
        let media = s.output + "/media"
        let stamped = CountingFileSystem(watching: media)
        try s.step {
            try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]")
            #expect(try build(root: s.root, output: s.output, fileSystem: stamped).pagesReused > 0)
        }
        #expect(stamped.listings == 0, "the stamped media folder was listed \(stamped.listings) times")

        let names = try FileManager.default.contentsOfDirectory(atPath: media).sorted()
        #expect(names.count >= 2)
        try FileManager.default.removeItem(atPath: media + "/" + names[0])
        try FileManager.default.removeItem(atPath: media + "/" + names[1])
        try "not a sound".write(toFile: media + "/" + names[1], atomically: false, encoding: .utf8)
        let changed = CountingFileSystem(watching: media)
        try s.step {
            try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]")
            #expect(try build(root: s.root, output: s.output, fileSystem: changed).pagesReused > 0)
        }
        #expect(changed.listings > 0, "the changed media folder is listed")

        // A tool that replaces a file and then sets the folder's time back (`rsync -a`, `tar -x`
        // into the output) cannot set its change time back: the folder is listed all the same.
        for (old, new) in [("tags: [bears]", "tags: [bears, big]"), ("tags: [bears, big]", "tags: [bears]")] {
            Thread.sleep(forTimeInterval: FolderStampTesting.settling)
            try s.step { try s.edit("content/animals/bear.md", old, new) }
        }
        Thread.sleep(forTimeInterval: FolderStampTesting.settling)
        let stampedAgain = CountingFileSystem(watching: media)
        try s.step {
            try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]")
            _ = try build(root: s.root, output: s.output, fileSystem: stampedAgain)
        }
        #expect(stampedAgain.listings == 0, "stamped again once it settled")
        var then = stat()
        #expect(stat(media, &then) == 0)
        // A file swapped for a stray one of a name as long (the folder's size stays as it was on
        // file systems that count its entries or their names' lengths: tmpfs, btrfs, XFS).
        let stray = String(names[0].dropLast()) + (names[0].hasSuffix("x") ? "y" : "x")
        #expect(!names.contains(stray))
        try FileManager.default.removeItem(atPath: media + "/" + names[0])
        try "stray".write(toFile: media + "/" + stray, atomically: false, encoding: .utf8)
        #expect(utimensat(AT_FDCWD, media, [then.st_atim, then.st_mtim], 0) == 0)
        #expect(LocalFileSystem().info(media)?.size == Int(then.st_size) && LocalFileSystem().info(media)?.modificationTime == Int64(then.st_mtim.tv_sec) * 1_000_000_000 + Int64(then.st_mtim.tv_nsec), "the folder's lstat is as it was")
        let setBack = CountingFileSystem(watching: media)
        try s.step {
            try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]")
            #expect(try build(root: s.root, output: s.output, fileSystem: setBack).pagesReused > 0)
        }
        #expect(setBack.listings > 0, "the folder whose time was set back is listed")
        // The builds after start from that output as their spare (without the change time, the
        // stray file came back into the output here).
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(!FileManager.default.fileExists(atPath: media + "/" + stray))
        #expect(FileManager.default.fileExists(atPath: media + "/" + names[0]))
    }

    /// A build that fails while it links the unchanged files into its staging folder (here a link
    /// fails; a full disk or a kill is the same) leaves the output exactly as it was; the next
    /// build still has the previous record and completes normally.
    @Test func aCommitThatFailsHalfWayLeavesTheOutputAsItWas() throws {
        let s = try Site()
        let before = try Tree(s.output)
        try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        do {
            try build(root: s.root, output: s.output, fileSystem: FailingFileSystem(failAfter: 3, linksFrom: s.output))
            Issue.record("the build should have failed")
        } catch {
            let message = error.diagnostics.first?.message ?? ""
            #expect(message.contains("is unchanged") && message.contains("link"), "\(message)")
        }
        #expect(try Tree(s.output) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.work.path).filter { $0.contains("staging") }
        #expect(leftovers == [])
        let again = try s.step {}
        #expect(again.pagesReused > 0, "the record of the build before the failed one is still used")
        let next = try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(next.pagesReused > 0, "the build after it has a record again")
    }

    /// A rebuild reads the pack history ahead, beside enrich; a history whose newest version no
    /// longer adds up still fails the build in the packs stage, at the lock, before anything
    /// reaches the output, and the build after the lock is put back uses the record as before.
    @Test func aDamagedPackHistoryFailsARebuildAsItFailsABuild() throws {
        let s = try Site()
        @discardableResult func recordingBuild() throws(DiagnosticError) -> BuildReport {
            let options = BuildOptions(
                root: s.root, output: s.output, environment: ["SOURCE_DATE_EPOCH": "1767225600"],
                time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
            return try SiteBuilder(options: options).build()
        }
        try recordingBuild()
        try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]")
        // A rebuild (the record is there), so the next one reads the history ahead.
        #expect(try recordingBuild().pagesReused > 0)
        let lockPath = s.path("content/packs.lock")
        let lock = try String(contentsOfFile: lockPath, encoding: .utf8)
        // The newest version's record line damaged (its digest no longer adds up).
        var lines = lock.components(separatedBy: "\n")
        let newest = try #require(lines.lastIndex { $0.hasPrefix("version 2 ") })
        let change = lines[newest + 1].components(separatedBy: " ")
        #expect(change.count == 3)
        lines[newest + 1] = "\(change[0]) \(change[1]) \(String(repeating: "0", count: 64))"
        try lines.joined(separator: "\n").writeReplacing(toFile: lockPath)
        let before = try Tree(s.output)
        try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]")
        do {
            try recordingBuild()
            Issue.record("the build should have failed")
        } catch {
            let problem = error.diagnostics.first
            #expect(problem?.location?.path == "content/packs.lock", "\(error.diagnostics)")
            #expect(problem?.stage == "packs")
            #expect(problem?.message.contains("do not match its digest") == true, "\(problem?.message ?? "")")
        }
        #expect(try Tree(s.output) == before)
        try lock.writeReplacing(toFile: lockPath)
        let again = try recordingBuild()
        #expect(again.pagesReused > 0)
    }

    /// A reusing build keeps the output it replaced next to it (`.out.bestiary-spare`), and the
    /// next reusing build starts its staging folder from it. Whatever the spare holds is checked:
    /// a stray file, a file replaced, a folder where a page belongs do not reach the output; and
    /// the files it shares with the output (hard links) are never written into, so a build that
    /// fails after staging its changed pages leaves the output as it was.
    @Test func theSpareOutputIsCheckedAndNeverChangesTheOutput() throws {
        let s = try Site()
        let spare = s.work.appending(".out.bestiary-spare")
        #expect(!FileManager.default.fileExists(atPath: spare), "a full build keeps no spare")
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(FileManager.default.fileExists(atPath: spare + "/animals/crow/index.html"))

        try "stray".write(toFile: spare + "/stray.html", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: spare + "/animals/crow/index.html")
        try "not the crow".write(toFile: spare + "/animals/crow/index.html", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: spare + "/sitemap.xml")
        try FileManager.default.createDirectory(atPath: spare + "/sitemap.xml/x", withIntermediateDirectories: true)

        // The bear's pages are staged into the spare's folders, whose other files are the
        // output's; then linking the crow's page from the output fails.
        let before = try Tree(s.output)
        try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        do {
            try build(root: s.root, output: s.output, fileSystem: FailingFileSystem(failAfter: 0, linksFrom: s.output))
            Issue.record("the build should have failed")
        } catch {}
        #expect(try Tree(s.output) == before)

        try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: true)
        try "stray".write(toFile: spare + "/stray.html", atomically: false, encoding: .utf8)
        // Files where folders belong: one that holds the pages' folders, one that holds a page.
        try "not a folder".write(toFile: spare + "/animals", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: spare + "/de/animals", withIntermediateDirectories: true)
        try "not a folder".write(toFile: spare + "/de/animals/bee", atomically: false, encoding: .utf8)
        try s.step {}
        #expect(!FileManager.default.fileExists(atPath: s.output + "/stray.html"))
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]") }
    }

    /// A rebuild that starts from the spare reads it in one walk: each file is told by the inode
    /// its folder lists, so no file is looked at one by one and only the few the last build
    /// changed are linked again. What differs deep inside the spare (a page replaced by another
    /// file, a stray file in an animal's folder, its top folder untouched) does not reach the output.
    @Test func theSpareIsReadInOneWalk() throws {
        let s = try Site()
        let spare = s.work.appending(".out.bestiary-spare")
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        try s.step { try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}") }
        let top = LocalFileSystem().info(spare)
        try FileManager.default.removeItem(atPath: spare + "/animals/crow/index.html")
        try "not the crow".write(toFile: spare + "/animals/crow/index.html", atomically: false, encoding: .utf8)
        try "stray".write(toFile: spare + "/animals/crow/stray.txt", atomically: false, encoding: .utf8)
        #expect(LocalFileSystem().info(spare) == top, "the spare's own folder is unchanged")

        let counting = CountingFileSystem(watching: ".out.bestiary-staging-")
        try s.step {
            try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]")
            let report = try build(root: s.root, output: s.output, fileSystem: counting)
            #expect(report.pagesReused > 0)
        }
        #expect(!FileManager.default.fileExists(atPath: s.output + "/animals/crow/stray.txt"))
        let files = try Tree(s.output).files.count
        // The staged pages' own checks and their folders, and the folders' stamps (checked at the
        // start, taken at the end): no file of the spare is looked at one by one.
        let folders = try SpareFolderTests.folders(below: s.output).count
        #expect(counting.infos > 0 && counting.infos < 2 * folders + files / 4, "\(counting.infos) lstat calls for \(files) files in \(folders) folders")
        #expect(counting.links > 0 && counting.links * 4 < files, "\(counting.links) links for \(files) files")
    }

    /// A rebuild takes each record's and media file's metadata from its walk over the inputs, and
    /// a media file's format from what the last build read of the same file: it reads no media
    /// header, asks for no real path, and `stat`s no media file again. A file replaced by another
    /// format, or by a link out of content/, is still refused.
    @Test func aRebuildTakesMediaFromTheWalkAndTheLastBuild() throws {
        let s = try Site()
        // Files changed in the last seconds before a build are read again by the next one (racy
        // files); these were copied just now.
        for folder in ["content/sounds", "content/images", "content/animals"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: s.path(folder)) {
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: s.path(folder + "/" + name))
            }
        }
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        for folder in ["/content/sounds/", "/content/images/", "/content/animals/"] {
            let counting = CountingFileSystem(watching: folder)
            try s.step {
                try s.edit("content/animals/bear.md", "tags: [bears, big]", "tags: [bears]")
                #expect(try build(root: s.root, output: s.output, fileSystem: counting).pagesReused > 0)
            }
            #expect(counting.infos > 0, "the walk lists \(folder)")
            #expect([counting.resolved, counting.prefixes] == [0, 0] as [Int], "\(folder)")
            // The edited record and its translations are read, so their size is checked first.
            #expect(folder == "/content/animals/" ? counting.followed < 5 : counting.followed == 0, "\(folder): \(counting.followed)")
            try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        }

        // A picture's bytes where the bear's sound was.
        try FileManager.default.removeItem(atPath: s.path("content/sounds/bear.ogg"))
        try FileManager.default.copyItem(atPath: s.path("content/images/bear.png"), toPath: s.path("content/sounds/bear.ogg"))
        do {
            try build(root: s.root, output: s.output)
            Issue.record("a picture was taken for a sound")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains("sound.file 'sounds/bear.ogg' is a picture (png)") }, "\(error.diagnostics)")
        }
        // A link that leads out of content/.
        try FileManager.default.removeItem(atPath: s.path("content/sounds/bear.ogg"))
        let outside = s.work.appending("outside.ogg")
        try FileManager.default.copyItem(atPath: s.path("content/sounds/badger.ogg"), toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: s.path("content/sounds/bear.ogg"), withDestinationPath: outside)
        do {
            try build(root: s.root, output: s.output)
            Issue.record("a link out of content/ was accepted")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains("leads out of content/") }, "\(error.diagnostics)")
        }
    }

    /// What a build read of media files and cached pictures, and the Wikipedia entries it decoded,
    /// are kept by their paths below the root: a rebuild that spells the root another way
    /// (`--root site`, then an absolute root, or `site/.`) reads none of them again, nor does the
    /// build after a `--force` one. (Each read every file again before, on the bench corpus
    /// 39,110 files: 0.7 s.)
    @Test func aRootSpelledAnotherWayReadsNoMediaAgain() throws {
        let s = try Site()
        let fm = FileManager.default
        // The bear's German Wikipedia article, cached with a picture (its own, in two widths).
        try s.edit("content/animals/bear.md", "group: mammal\n", "group: mammal\nwikipedia: {de: Bär}\n")
        let cache = WikipediaCache(root: s.root)
        let png = try Data(contentsOf: URL(fileURLWithPath: s.path("content/images/bear.png")))
        let stored = try cache.storeImage(png, format: "png")
        let renditions = [320, 640].map { width in
            ImageRendition(
                width: width, height: width * 3 / 4, url: "https://upload.example/\(stored.sha256).png", path: stored.path,
                sha256: stored.sha256, bytes: png.count, format: "png")
        }
        let attribution = ImageAttribution(
            artist: "A. Bear", credit: nil, license: License(name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/"),
            attributionRequired: true, descriptionURL: nil)
        try cache.write(WikipediaEntry(
            language: "de", requested: ["Bär"], canonicalTitle: "Bär", title: "Bär", revision: "1", fetchedAt: "2026-01-01T00:00:00Z",
            url: "https://de.wikipedia.org/wiki/B%C3%A4r", extract: "Ein Bär.", extractHTML: "<p>Ein Bär.</p>",
            image: CachedImage(file: "File:Bär.png", original: nil, renditions: renditions, attribution: attribution)))
        // Every input settled (changed more than 2 s before the builds), so that what is read of it is kept.
        let content = s.path("content")
        for name in try #require(fm.subpathsOfDirectory(atPath: content) as [String]?) {
            try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: content + "/" + name)
        }
        try build(root: s.root, output: s.output, force: true)
        #expect(try String(contentsOfFile: s.output + "/animals/bear/index.html", encoding: .utf8).contains("Ein Bär."), "the summary shows")

        let kept = ["/content/sounds/", "/content/images/", "/content/wikipedia/"]
        for (n, spelling) in [s.root, s.root + "/.", s.work.appending("./tuxpaint//")].enumerated() {
            let counting = CountingFileSystem(watching: "/content/")
            try s.write(try String(contentsOfFile: s.path("content/animals/bear.md"), encoding: .utf8) + "\nEdited \(n).\n", "content/animals/bear.md")
            #expect(try build(root: spelling, output: s.output, fileSystem: counting).pagesReused > 0)
            let read = (counting.read + counting.readPrefixes).filter { path in kept.contains { path.contains($0) } }
            #expect(read == [], "\(n == 0 ? "after --force" : spelling)")
            #expect(counting.read.contains { $0.hasSuffix("/content/animals/bear.md") }, "the edited record is read")
        }
        let full = s.work.appending("full")
        try build(root: s.root, output: full, force: true)
        #expect(try Tree(s.output).differences(from: Tree(full)) == [])
    }

    /// Where folder listings give other inodes than `stat` (FUSE without `use_ino`, FAT), nothing
    /// the spare holds is taken as the output's, but what the build wrote stays: the output is
    /// still a build from nothing's.
    @Test func listingsThatDisagreeWithStatCostTimeNotFiles() throws {
        let s = try Site()
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        for (old, new) in [("tags: [bears, big]", "tags: [bears]"), ("name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")] {
            try s.step {
                try s.edit("content/animals/bear.md", old, new)
                #expect(try build(root: s.root, output: s.output, fileSystem: MislistingFileSystem()).pagesReused > 0)
            }
        }
    }

    /// A record edited while a rebuild runs, after the rebuild walked the inputs: the rebuild
    /// records the walk it was made from, which that file no longer matches, so the next build
    /// names the file as changed and makes what a build from nothing makes.
    @Test func aRecordEditedWhileARebuildRunsIsFoundByTheNext() throws {
        let s = try Site()
        try s.edit("content/animals/bear.md", "name: {en: Bear, de: Bär}", "name: {en: Brown bear, de: Braunbär}")
        var options = BuildOptions(
            root: s.root, output: s.output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: LocalFileSystem(),
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        let crow = s.path("content/animals/crow.md")
        let edited = Flag()
        builder.onStage = { stage, _, _ in
            guard stage.name == "load", !edited.isSet else { return }
            edited.set()
            try? (String(contentsOfFile: crow, encoding: .utf8) + "\nSeen on the roof.\n").writeReplacing(toFile: crow)
        }
        let racing = try builder.build()
        #expect(edited.isSet && racing.pagesReused > 0, "a rebuild that reused pages, with the edit made during it")
        #expect(!(try String(contentsOfFile: s.output + "/animals/crow/index.html", encoding: .utf8).contains("Seen on the roof")))
        let next = try s.step {}
        #expect(!next.upToDate)
        #expect(next.inputChanges?.modified == ["content/animals/crow.md"] && next.inputChanges?.count == 1)
        #expect(try String(contentsOfFile: s.output + "/animals/crow/index.html", encoding: .utf8).contains("Seen on the roof"))
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// The fixture site after a rebuild (crow renamed) during which bear.md turned from a mammal
    /// into a bird between the walk and its read. bear.md was edited just before the build
    /// before it, so it is not among the parsed records that build kept: the racing build reads it.
    func siteRebuiltWhileBearTurnsIntoABird(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Site {
        let s = try Site()
        try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        let bear = s.path("content/animals/bear.md")
        let racing = RacingFileSystem(path: bear) {
            let text = (try? String(contentsOfFile: bear, encoding: .utf8)) ?? ""
            try? text.replacingOccurrences(of: "group: mammal", with: "group: bird").writeReplacing(toFile: bear)
        }
        try s.edit("content/animals/crow.md", "name: {en: Crow, de: Krähe}", "name: {en: Carrion crow, de: Rabenkrähe}")
        let racingBuild = try build(root: s.root, output: s.output, fileSystem: racing)
        #expect(racing.fired && racingBuild.pagesReused > 0, "a rebuild that read bear.md after its walk", sourceLocation: sourceLocation)
        return s
    }

    /// A record changed after a rebuild walked the inputs and before it read that record (one it
    /// did not hold parsed, whose file the walk found unchanged): the build takes that animal as
    /// edited (its pages show what was read) and records no fingerprint, so the next build digests
    /// every animal and makes again every page that showed it, in its old group as in its new one.
    @Test func aRecordChangedBetweenTheWalkAndItsReadIsMadeAgainWhereItShowed() throws {
        let s = try siteRebuiltWhileBearTurnsIntoABird()
        let next = try s.step {}
        #expect(!next.upToDate && next.inputChanges == nil, "the racing build recorded no fingerprint")
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// The same race, and the record set back before the next build: that build starts from
    /// the group the record was read with, not the one the last build kept. The pages the racing
    /// build made (crow's, and the birds' that list crow) showed bear as a bird; starting from
    /// the kept group (mammal, both before and after), the rules left them as they were, bear
    /// still listed among the birds. A reviewer's case (2026-12-06).
    @Test func aRecordSetBackAfterARacedReadIsMadeAgainWhereTheRaceShowedIt() throws {
        let s = try siteRebuiltWhileBearTurnsIntoABird()
        let next = try s.step { try s.edit("content/animals/bear.md", "group: bird", "group: mammal") }
        #expect(next.inputChanges == nil, "the racing build recorded no fingerprint")
        #expect(next.pagesReused > 0, "still a rebuild")
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// A translation is read on every build: one changed after the walk, and set back before
    /// the next build. The racing build made penguin's page again (owl, which it shows, was
    /// edited) with the changed text, and it must not record that page under the digest of the
    /// text as the walk found it: the next build, finding the text as it was, would keep it.
    @Test func aTranslationChangedAfterTheWalkAndSetBackIsMadeAgain() throws {
        let s = try Site()
        let translation = s.path("content/animals/penguin.de.md")
        let original = try String(contentsOfFile: translation, encoding: .utf8)
        #expect(original.contains("Pinguine können nicht fliegen"))
        let racing = RacingFileSystem(path: translation) {
            try? original.replacingOccurrences(of: "Pinguine können nicht fliegen", with: "Pinguine fliegen nie")
                .writeReplacing(toFile: translation)
        }
        try penguinRace(s, through: racing, fired: { racing.fired }, racedPage: { $0.contains("Pinguine fliegen nie") }) {
            try original.writeReplacing(toFile: translation)
        }
    }

    /// A translation gone for a moment after the walk (an editor that moves the file aside to
    /// save it) is not read: the racing build made penguin's page again without its German text,
    /// and must not record it under the digest of the animal the walk found. The next build,
    /// finding the same text back in a new file, would keep that page.
    @Test func aTranslationGoneForAMomentAfterTheWalkIsMadeAgain() throws {
        let s = try Site()
        let translation = s.path("content/animals/penguin.de.md")
        let aside = s.work.appending("penguin.de.md")
        let racing = ListingRacingFileSystem(directory: s.path("content/animals"), listing: 2) {
            try? FileManager.default.moveItem(atPath: translation, toPath: aside)
        }
        try penguinRace(s, through: racing, fired: { racing.fired }, racedPage: { !$0.contains("Pinguine können nicht fliegen") }) {
            let text = try String(contentsOfFile: aside, encoding: .utf8)
            try text.write(toFile: translation, atomically: false, encoding: .utf8)
        }
    }

    /// site.yml, a page and a theme's file are read whole by every build: each, changed in place
    /// after the walk (when a stage reads it) and set back with the bytes and times it had (as
    /// `cp -p` of a backup does), would leave the walk the racing build recorded matching the next
    /// one, and its pages made from the changed text taken as up to date. The racing build records
    /// no fingerprint; the next one makes those pages again.
    @Test(arguments: [
        ("content/site.yml", "Tux Paint animals", "Tux Paint animalz"),
        ("content/pages/about.md", "A page about the site.", "A page about the sitE."),
        ("templates/partials/footer.html", "Bestiary</p>", "Bestiarx</p>"),
    ])
    func aSourceChangedAfterTheWalkAndSetBackIsMadeAgain(_ relative: String, _ text: String, _ raced: String) throws {
        let s = try Site()
        try FileManager.default.createDirectory(atPath: s.path("content/pages"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: s.path("templates/partials"), withIntermediateDirectories: true)
        let footer = try String(contentsOfFile: Fixtures.repositoryRoot + "/templates/partials/footer.html", encoding: .utf8)
        let path = s.path(relative)
        try s.step {
            try s.write("---\ntitle: {en: About, de: Über}\n---\nA page about the site.\n", "content/pages/about.md")
            try s.write(footer, "templates/partials/footer.html")
            // Settled (an hour old): the race is at the stage's read, not at the check's read of
            // a file changed just before the walk.
            var hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
            #expect(withUnsafePointer(to: &hourAgo) { t in utimensat(AT_FDCWD, path, [t.pointee, t.pointee], 0) } == 0)
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let changed = Data(try #require(String(data: original, encoding: .utf8)).replacingOccurrences(of: text, with: raced).utf8)
        #expect(changed != original && changed.count == original.count)
        var before = stat()
        #expect(stat(path, &before) == 0)
        let racing = RacingFileSystem(path: path) { overwriteInPlace(path, changed) }
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ntags: [night]")
        let racingBuild = try build(root: s.root, output: s.output, fileSystem: racing)
        #expect(racing.fired && racingBuild.inputChanges?.modified == ["content/animals/owl.md"], "a rebuild that read \(relative) changed: \(String(describing: racingBuild.inputChanges))")
        let english = try String(contentsOfFile: s.output + (relative.hasPrefix("content/pages") ? "/about/index.html" : "/index.html"), encoding: .utf8)
        #expect(english.contains(raced.hasSuffix("</p>") ? String(raced.dropLast(4)) : raced), "the racing build read the changed text")
        try overwriteKeepingMetadata(path, original, as: before)
        let next = try s.step {}
        #expect(!next.upToDate && next.inputChanges == nil, "the racing build recorded no fingerprint")
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// What an editor leaves beside a theme's file (its swap file) is read by no stage: changed
    /// while a build runs (the file is being edited), it does not keep that build from recording
    /// its fingerprint; the next build names it as changed.
    @Test func anEditorsSwapFileChangedDuringABuildIsNoRaceOfWhatWasRead() throws {
        let s = try Site()
        try FileManager.default.createDirectory(atPath: s.path("templates/partials"), withIntermediateDirectories: true)
        let footer = try String(contentsOfFile: Fixtures.repositoryRoot + "/templates/partials/footer.html", encoding: .utf8)
        let swap = "templates/partials/.footer.html.swp"
        try s.step {
            try s.write(footer, "templates/partials/footer.html")
            try s.write("swap 1", swap)
        }
        let swapPath = s.path(swap)
        let racing = RacingFileSystem(path: s.path("templates/partials/footer.html")) { try? "swap 2".writeReplacing(toFile: swapPath) }
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ntags: [night]")
        _ = try build(root: s.root, output: s.output, fileSystem: racing)
        #expect(racing.fired)
        let next = try s.step {}
        #expect(next.inputChanges?.modified == [swap], "the racing build recorded its fingerprint: \(String(describing: next.inputChanges))")
    }

    /// The race on penguin's German text, after an edit of owl.md: a rebuild through `racing`
    /// (`fired`: the race happened) makes penguin's German page as `racedPage` expects; `restore`
    /// puts the text back; the next build, compared with a build from nothing, finds no recorded
    /// fingerprint and shows the text again, and the build after it is up to date.
    func penguinRace(
        _ s: Site, through racing: any FileSystem, fired: () -> Bool, racedPage: (String) -> Bool,
        sourceLocation: Testing.SourceLocation = #_sourceLocation, restore: () throws -> Void
    ) throws {
        let page = s.output + "/de/animals/penguin/index.html"
        try s.edit("content/animals/owl.md", "group: bird", "group: bird\ntags: [night]")
        let racingBuild = try build(root: s.root, output: s.output, fileSystem: racing)
        #expect(fired() && racingBuild.pagesReused > 0, "a rebuild that raced penguin's German text", sourceLocation: sourceLocation)
        #expect(racedPage(try String(contentsOfFile: page, encoding: .utf8)), sourceLocation: sourceLocation)
        let next = try s.step(sourceLocation: sourceLocation, restore)
        #expect(next.inputChanges == nil, "the racing build recorded no fingerprint", sourceLocation: sourceLocation)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("Pinguine können nicht fliegen"), sourceLocation: sourceLocation)
        #expect(try build(root: s.root, output: s.output).upToDate, sourceLocation: sourceLocation)
    }

    /// A record changed in place after the walk and put back as it was after the build (its
    /// bytes, and then its modification time: `cp -p` of a copy does that): the walk after it
    /// finds every input as the build's walk did, but the build read the other bytes. It records
    /// no fingerprint, so the next build is not taken as up to date and makes bear's pages again.
    @Test func aRecordChangedInPlaceDuringABuildAndPutBackIsMadeAgain() throws {
        let s = try Site()
        let bear = s.path("content/animals/bear.md")
        let original = try Data(contentsOf: URL(fileURLWithPath: bear))
        var before = stat()
        #expect(stat(bear, &before) == 0)
        @Sendable func overwrite(_ data: Data) { overwriteInPlace(bear, data) }
        let changed = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "en: Bear,", with: "en: Beer,").utf8)
        #expect(changed.count == original.count && changed != original)
        let racing = RacingFileSystem(path: bear) { overwrite(changed) }
        try s.edit("content/animals/crow.md", "name: {en: Crow, de: Krähe}", "name: {en: Carrion crow, de: Rabenkrähe}")
        let racingBuild = try build(root: s.root, output: s.output, fileSystem: racing)
        #expect(racing.fired && racingBuild.pagesReused > 0, "a rebuild that read the changed bear.md")
        #expect(try String(contentsOfFile: s.output + "/animals/bear/index.html", encoding: .utf8).contains("Beer"))
        let next = try s.step { putBack(bear, original, as: before) }
        #expect(!next.upToDate)
        #expect(!(try String(contentsOfFile: s.output + "/animals/bear/index.html", encoding: .utf8).contains("Beer")))
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// A picture changed between the walk and the media stage's read of it, then put back (its
    /// bytes, inode and time: the walk recorded would say nothing changed) is read again by the
    /// next build: what the racing build hashed was not the file the walk found.
    @Test func aMediaFileChangedWhileReadAndPutBackIsReadAgain() throws {
        let s = try Site()
        let picture = s.path("content/images/bear.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: picture))
        /// The picture with one byte of its pixel data changed: still a whole PNG of the same size.
        func variant(_ mask: UInt8) -> Data {
            var bytes = [UInt8](original)
            bytes[bytes.count / 2] ^= mask
            return Data(bytes)
        }
        @Sendable func overwrite(_ data: Data) { overwriteInPlace(picture, data) }
        // Changed before the build, dated an hour ago (settled: what the build learns of it is kept).
        let (walked, racing) = (variant(1), variant(2))
        overwrite(walked)
        var hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        #expect(withUnsafePointer(to: &hourAgo) { t in utimensat(AT_FDCWD, picture, [t.pointee, t.pointee], 0) } == 0)
        var before = stat()
        #expect(stat(picture, &before) == 0)
        let racingFS = RacingFileSystem(path: picture) { overwrite(racing) }
        _ = try build(root: s.root, output: s.output, fileSystem: racingFS)
        #expect(racingFS.fired, "the media stage read the picture")
        let next = try s.step { putBack(picture, walked, as: before) }
        #expect(!next.upToDate)
        #expect(try build(root: s.root, output: s.output).upToDate)
    }

    /// A record changed again within its clock's resolution after a build read it keeps the
    /// metadata that build's walk found (git's "racily clean" file). That build recorded a digest
    /// of the files its walk found changed just before it began: the next build finds this
    /// record's bytes other than those, is no "up to date", and shows the change.
    @Test func aRecordChangedAgainWithTheMetadataTheWalkFoundIsNoUpToDate() throws {
        let s = try Site()
        try s.step {
            try s.edit("content/animals/crow.md", "name: {en: Crow,", "name: {en: Crows,")
            try markJustChanged(s.path("content/animals/crow.md"))
        }
        let state = try String(contentsOfFile: s.work.appending(".out.bestiary-state"), encoding: .utf8)
        #expect(state.contains("\tcontent/animals/crow.md\n"), "the edited record is among the racy files: \(state)")
        let crow = s.path("content/animals/crow.md")
        var before = stat()
        #expect(stat(crow, &before) == 0)
        let text = try String(contentsOfFile: crow, encoding: .utf8)
        putBack(crow, Data(text.replacingOccurrences(of: "en: Crows,", with: "en: Crowz,").utf8), as: before)
        let next = try s.step {}
        #expect(!next.upToDate)
        #expect(next.inputChanges?.modified == ["content/animals/crow.md"], "named: \(String(describing: next.inputChanges))")
        #expect(try String(contentsOfFile: s.output + "/animals/crow/index.html", encoding: .utf8).contains("Crowz"))
        #expect(try build(root: s.root, output: s.output).upToDate, "its bytes held as recorded")
    }

    /// The same beside an edit of another record, after a build that ran long (its walk kept more
    /// than 2 s after it began: here its time set later): the record changed within its clock's
    /// resolution is taken as edited, not as an unchanged animal. (Judged from the time the walk
    /// was kept, it had settled: its pages and pack record stayed as the first write made them.)
    @Test func aRecordChangedAgainBesideAnEditOfAnotherAfterALongBuildIsMadeAgain() throws {
        let s = try Site()
        try s.step {
            try s.edit("content/animals/crow.md", "name: {en: Crow,", "name: {en: Crows,")
            try markJustChanged(s.path("content/animals/crow.md"))
        }
        var later = timespec(tv_sec: time(nil) + 60, tv_nsec: 0)
        #expect(withUnsafePointer(to: &later) { t in utimensat(AT_FDCWD, s.work.appending(".out.bestiary-inputs"), [t.pointee, t.pointee], 0) } == 0)
        let crow = s.path("content/animals/crow.md")
        var before = stat()
        #expect(stat(crow, &before) == 0)
        let text = try String(contentsOfFile: crow, encoding: .utf8)
        putBack(crow, Data(text.replacingOccurrences(of: "en: Crows,", with: "en: Crowz,").utf8), as: before)
        let next = try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(next.pagesReused > 0, "a rebuild")
        #expect(next.inputChanges?.modified == ["content/animals/bear.md", "content/animals/crow.md"], "\(String(describing: next.inputChanges))")
        #expect(try String(contentsOfFile: s.output + "/animals/crow/index.html", encoding: .utf8).contains("Crowz"))
    }

    /// A lock another hand writes while a full build runs (here once the packs are made, before
    /// the build's look at its inputs afterwards) is a change like any other: the build, which did
    /// not write the lock, records no fingerprint, and the next build reads the lock (this one is
    /// damaged, so it fails). Taking the lock as the build's own write, it said "up to date".
    @Test func aLockAnotherHandWritesDuringAFullBuildIsNoUpToDate() throws {
        let work = TemporaryDirectory("bestiary-incremental")
        let root = try copyOfFixture("tuxpaint", into: work)
        let output = work.appending("out")
        var options = BuildOptions(
            root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: LocalFileSystem(),
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        let builder = SiteBuilder(options: options)
        let lock = root + "/content/packs.lock"
        builder.onStage = { stage, _, _ in
            if stage.name == "packs" { try? "not a lock\n".writeReplacing(toFile: lock) }
        }
        _ = try builder.build()
        #expect(FileManager.default.fileExists(atPath: lock), "the other hand wrote the lock during the build")
        #expect(throws: DiagnosticError.self, "the next build reads the lock") { try build(root: root, output: output) }
    }

    /// The pack lock is recorded with the digest of the bytes the build that wrote it wrote (not
    /// of what the walk before found: the build replaced it), so that another write keeping its
    /// metadata is found (``SameMetadataTests``); a build that did not write it (no new version)
    /// takes it as any other input.
    @Test func thePackLockIsRecordedByTheBytesTheBuildWrote() throws {
        let s = try Site()
        var options = BuildOptions(
            root: s.root, output: s.output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: LocalFileSystem(),
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = true
        let state = s.work.appending(".out.bestiary-state")
        let recorded = { try String(contentsOfFile: state, encoding: .utf8).split(separator: "\n").dropFirst(2).map { $0.split(separator: "\t") } }
        let racy = { try recorded().compactMap { $0.last } }
        let lock = s.path("content/packs.lock")
        _ = try SiteBuilder(options: options).build()
        #expect(FileManager.default.fileExists(atPath: lock), "the build recorded a version")
        // Rewritten just before a build that records a new version: that build wrote it.
        let first = try Data(contentsOf: URL(fileURLWithPath: lock))
        try first.writeReplacing(toFile: lock)
        try markJustChanged(lock)
        try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]")
        try markJustChanged(s.path("content/animals/bear.md"))
        _ = try SiteBuilder(options: options).build()
        #expect(try Data(contentsOf: URL(fileURLWithPath: lock)) != first, "a new version recorded")
        let afterWriting = try racy()
        #expect(afterWriting.contains("content/packs.lock") && afterWriting.contains("content/animals/bear.md"), "written by the build: \(afterWriting)")
        let written = try Hashing.sha256Hex(Data(contentsOf: URL(fileURLWithPath: lock)))
        #expect(try recorded().contains { $0.last == "content/packs.lock" && $0.first.map(String.init) == written }, "the bytes it wrote")
        try Data(contentsOf: URL(fileURLWithPath: lock)).writeReplacing(toFile: lock)
        try markJustChanged(lock)
        let again = try SiteBuilder(options: options).build()
        #expect(!again.upToDate && again.inputChanges?.modified == ["content/packs.lock"], "\(String(describing: again.inputChanges))")
        let afterRewrite = try racy()
        #expect(afterRewrite.contains("content/packs.lock"), "rewritten by another hand just before: \(afterRewrite)")
        #expect(try SiteBuilder(options: options).build().upToDate)
    }

    /// A site whose files all changed long before the build records no racy file: its next
    /// build's check reads no file. An edited record is recorded so, until a check's walk finds
    /// it settled (2 s later).
    @Test func aSettledSiteRecordsNoRacyFile() throws {
        let work = TemporaryDirectory("bestiary-incremental")
        let root = try KeptAnimalDigestTests.settledFixture(into: work)
        let output = work.appending("out")
        _ = try build(root: root, output: output)
        let statePath = work.appending(".out.bestiary-state")
        let racy = { try String(contentsOfFile: statePath, encoding: .utf8).split(separator: "\n").dropFirst(2) }
        #expect(try racy().isEmpty)
        #expect(try build(root: root, output: output).upToDate)
        let crow = root + "/content/animals/crow.md"
        try (try String(contentsOfFile: crow, encoding: .utf8) + "\nSeen on the roof.\n").writeReplacing(toFile: crow)
        #expect(try !build(root: root, output: output).upToDate)
        #expect(try racy().map { $0.split(separator: "\t").last } == ["content/animals/crow.md"])
        let edited = try #require(LocalFileSystem().info(crow)).modificationTime
        #expect(try build(root: root, output: output).upToDate)
        // (On a machine too busy to check within 2 s of the edit, the check found it settled.)
        if FileFacts.nanoseconds(Date()) - edited < FileInfo.racyNanoseconds { #expect(try racy().count == 1, "still within 2 s of the edit") }
        Thread.sleep(forTimeInterval: Double(FileInfo.racyNanoseconds) / 1e9 + 0.1)
        #expect(try build(root: root, output: output).upToDate)
        #expect(try racy().isEmpty, "settled")
    }

    /// `--force`, another binary or another output folder: the record is not used.
    @Test func aRecordIsUsedOnlyForTheOutputItDescribes() throws {
        let s = try Site()
        let forced = try build(root: s.root, output: s.output, force: true)
        #expect(forced.pagesReused == 0)
        let recordPath = s.work.appending(".out.bestiary-index")
        let record = try String(contentsOfFile: recordPath, encoding: .utf8)
        #expect(record.hasPrefix("bestiary-output-index 5\ntool\t"))
        let otherTool = record.replacingOccurrences(of: "\ntool\t", with: "\ntool\tanother ")
        try otherTool.writeReplacing(toFile: recordPath)
        let report = try s.step { try s.edit("content/animals/bear.md", "tags: [bears]", "tags: [bears, big]") }
        #expect(report.pagesReused == 0)
        #expect(report.stages.last?.detail.contains(" of ") == false, "written anew")
    }
}

/// Puts `data` back in place into the file at `path`, with the times it had (`before`), and
/// checks it is the same file of the same size: what a walk lists of it is then what it was.
func putBack(_ path: String, _ data: Data, as before: stat, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(throws: Never.self, sourceLocation: sourceLocation) { try overwriteKeepingMetadata(path, data, as: before) }
}
