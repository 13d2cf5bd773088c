import BestiaryContent
import BestiaryDiagnostics
import BestiaryRender
import BestiarySite
import BestiaryTestSupport
import BestiaryWikipedia
import Foundation
import Testing

@testable import BestiaryPreview

/// Proof by difference over edits nobody scripted: a seeded generator (GENERATED edits, not
/// real content) changes the Tux Paint site a few records at a time (difficulty, group, names,
/// tags, bodies, sounds, translations, records added and removed, media bytes replaced, changes
/// of the same size, files rewritten unchanged, the Wikipedia articles records name and the
/// cached entries and pictures, the site's title, a partial of the theme; and sometimes more
/// records at once than the kept records file takes without being rewritten), and after every
/// step the output of a one-shot rebuild (a new builder each time, taking what the previous
/// build kept next to the output) and that of the preview's rebuilder (its memo kept across
/// steps) are each byte for byte the output of a build from nothing; after a step without
/// edits, the one-shot build finds its output up to date (when it and the build before record
/// their pack versions).
///
/// Most steps leave the edited files settled (their times in the past, so the kept state takes
/// them); the others build right after the edit, so the kept state must not take them (whether a
/// file is still that recent at the next step depends on the machine's speed; the 2 s rule
/// itself is tested in `RecordCacheTests` and `FileFactsTests`: on a file system with nanosecond
/// times no edit keeps a file's metadata without forging it). Most one-shot builds record their
/// pack version; the others leave it to the next build, as the preview does.
@Suite struct RandomEditTests {
    static let environment = ["SOURCE_DATE_EPOCH": "1767225600"]
    /// Seeds 1…3 (about 25 s); `BESTIARY_RANDOM_SEEDS=N swift test --filter RandomEditTests`
    /// tries 1…N, and `BESTIARY_RANDOM_SEEDS=A-B` tries A…B (seeds 1…250 passed on 2026-11-27).
    /// A value that is neither falls back to the three default seeds.
    static let seeds: [UInt64] = seedRange(ProcessInfo.processInfo.environment["BESTIARY_RANDOM_SEEDS"] ?? "")

    static func seedRange(_ value: String) -> [UInt64] {
        let bounds = value.split(separator: "-", omittingEmptySubsequences: false).map { UInt64($0) }
        switch bounds.count {
        case 1: if let last = bounds[0], last >= 1 { return Array(1...last) }
        case 2: if let first = bounds[0], let last = bounds[1], first >= 1, first <= last { return Array(first...last) }
        default: break
        }
        return Array(1...3)
    }
    static let groups = ["mammal", "bird", "insect", "reptile", "amphibian", "fish"]
    static let tags = ["bears", "farm", "forest", "garden", "night", "sea"]
    static let titles = ["Bear", "Fox", "Owl", "Frog", "Heron", "Zebra"]
    static let syllables = ["ka", "lo", "mi", "re", "zu", "bä", "Ö", "ti", "an", "é", "go", "sa", "Ze", "ul"]

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// SplitMix64: the same seed gives the same edits wherever the same Swift runs the test
    /// (`Int.random(in:using:)` is not promised to draw the same way in every version).
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    final class Site {
        let dir = TemporaryDirectory("bestiary-random-edits")
        let root: String
        let seed: UInt64
        var rng: SeededGenerator
        let rebuilder: SiteRebuilder
        let sounds: [String]
        let images: [String]
        var steps = 0
        var added = 0
        /// What the current step did (printed with a difference) and the files it wrote.
        var done: [String] = []
        var written: Set<String> = []
        /// Whether the last one-shot build that was not up to date recorded its pack version.
        var recordedLast = true
        /// The most animal pages with a Wikipedia summary in any step's build.
        var summaries = 0
        /// The one-shot build's output and the catalogue after the last step (or the first build).
        var lastOutput = Tree(files: [:])
        var lastCatalog: Catalog?
        /// The steps whose edits were records' only, where the rules of `AffectedOutputs` were
        /// checked against what the one-shot rebuild changed.
        var ruled = 0

        init(seed: UInt64) throws {
            self.seed = seed
            rng = SeededGenerator(state: seed)
            root = dir.appending("site")
            try Fixtures.copy("sites/tuxpaint", to: root)
            sounds = try FileManager.default.contentsOfDirectory(atPath: root + "/content/sounds").filter { $0.hasSuffix(".ogg") }.sorted()
            images = try FileManager.default.contentsOfDirectory(atPath: root + "/content/images").filter { $0.hasSuffix(".png") }.sorted()
            rebuilder = SiteRebuilder(options: Self.options(root: root, dir: dir, "preview"))
            // A Wikipedia cache of every title in both languages, and a few records that name one.
            for title in RandomEditTests.titles {
                for language in ["en", "de"] { try writeEntry(language: language, title: title) }
            }
            for id in ids.shuffled(using: &rng).prefix(8) {
                var (front, body) = try record(id)
                set("wikipedia", ["wikipedia: {en: \(pick(RandomEditTests.titles)), de: \(pick(RandomEditTests.titles))}"], in: &front)
                try save(id, front, body)
            }
            _ = try SiteBuilder(options: options("out", recordsVersions: true)).build()
            _ = try rebuilder.rebuild(changes: [.everything])
            lastOutput = try Tree(dir.appending("out"))
            lastCatalog = try Self.catalog(root)
        }

        static func catalog(_ root: String) throws -> Catalog {
            guard let catalog = ContentLoader(root: root).load().catalog else { throw Failure("\(root) does not load") }
            return catalog
        }

        func options(_ output: String, recordsVersions: Bool = false, force: Bool = false) -> BuildOptions {
            Self.options(root: root, dir: dir, output, recordsVersions: recordsVersions, force: force)
        }
        static func options(root: String, dir: TemporaryDirectory, _ output: String, recordsVersions: Bool = false, force: Bool = false) -> BuildOptions {
            var options = BuildOptions(root: root, output: dir.appending(output), environment: RandomEditTests.environment)
            options.recordsPackVersions = recordsVersions
            options.force = force
            return options
        }

        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
        func word() -> String {
            let first = (0..<int(1...3)).map { _ in pick(RandomEditTests.syllables) }.joined()
            return first.prefix(1).uppercased() + first.dropFirst() + (int(0...3) == 0 ? " " + pick(RandomEditTests.syllables) : "")
        }
        func paragraph() -> String {
            (0..<int(3...12)).map { i in i % 5 == 4 ? "*\(word())*" : word().lowercased() }.joined(separator: " ") + ".\n"
        }

        // MARK: The site's files

        var ids: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root + "/content/animals")) ?? [])
                .filter { $0.hasSuffix(".md") && $0.split(separator: ".").count == 2 }.map { String($0.dropLast(3)) }.sorted()
        }
        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + relative) }
        func write(_ text: String, _ relative: String) throws {
            try text.writeReplacing(toFile: root + "/" + relative)
            written.insert(relative)
        }
        func remove(_ relative: String) throws {
            try FileManager.default.removeItem(atPath: root + "/" + relative)
            written.insert(relative)
        }

        /// A record as its front matter's lines and its body.
        func record(_ id: String) throws -> (front: [String], body: String) {
            let text = try String(contentsOfFile: root + "/content/animals/\(id).md", encoding: .utf8)
            var lines = text.components(separatedBy: "\n")
            guard lines.first == "---" else { throw Failure("content/animals/\(id).md has no front matter") }
            lines.removeFirst()
            guard let end = lines.firstIndex(of: "---") else { throw Failure("content/animals/\(id).md: its front matter has no end") }
            return (Array(lines[..<end]), lines[(end + 1)...].joined(separator: "\n"))
        }
        func save(_ id: String, _ front: [String], _ body: String) throws {
            try write((["---"] + front + ["---"]).joined(separator: "\n") + "\n" + body, "content/animals/\(id).md")
        }
        /// Replaces the line starting with `key:` (and, for a block, its indented lines), or
        /// adds it after the group; nil removes it.
        func set(_ key: String, _ lines: [String]?, in front: inout [String]) {
            if let start = front.firstIndex(where: { $0.hasPrefix(key + ":") }) {
                var end = start + 1
                while end < front.count, front[end].hasPrefix("  ") { end += 1 }
                front.replaceSubrange(start..<end, with: lines ?? [])
            } else if let lines {
                let group = front.firstIndex { $0.hasPrefix("group:") } ?? (front.count - 1)
                front.insert(contentsOf: lines, at: group + 1)
            }
        }
        func soundBlock(_ file: String) -> [String] {
            ["sound:", "  file: sounds/\(file)", "  credit: Tux Paint stamps (Bill Kendrick and contributors)", "  license: GPL-2.0-or-later"]
        }

        /// A cache entry in the form `bestiary fetch` stores, with a text and (mostly) a picture in
        /// two widths (each one of the site's own pictures; the sizes are made up).
        func writeEntry(language: String, title: String) throws {
            let cache = WikipediaCache(root: root)
            var image: CachedImage?
            if int(0...2) > 0 {
                let renditions = try [320, 640].map { width in
                    let png = try Data(contentsOf: URL(fileURLWithPath: root + "/content/images/" + pick(images)))
                    let existed = Set((try? FileManager.default.contentsOfDirectory(atPath: root + "/content/wikipedia/images")) ?? [])
                    let stored = try cache.storeImage(png, format: "png")
                    if !existed.contains(String(stored.path.split(separator: "/").last ?? "")) { written.insert("content/" + stored.path) }
                    return ImageRendition(
                        width: width, height: width * 3 / 4, url: "https://upload.example/\(stored.sha256).png", path: stored.path,
                        sha256: stored.sha256, bytes: png.count, format: "png")
                }
                let attribution = ImageAttribution(
                    artist: word(), credit: nil, license: License(name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/"),
                    attributionRequired: true, descriptionURL: nil)
                image = CachedImage(file: "File:\(title).png", original: nil, renditions: renditions, attribution: attribution)
            }
            let text = paragraph().trimmingCharacters(in: .newlines)
            try cache.write(WikipediaEntry(
                language: language, requested: [title], canonicalTitle: title, title: title, revision: "\(int(1...99_999))",
                fetchedAt: "2026-01-01T00:00:00Z", url: "https://\(language).wikipedia.org/wiki/\(title)", extract: text,
                extractHTML: "<p>\(text)</p>", image: image))
            written.insert(WikipediaCache.relativeEntryPath(language: language, canonicalTitle: title))
        }

        // MARK: Edits

        func editRandomly() throws {
            let ids = ids
            let id = pick(ids)
            var (front, body) = try record(id)
            switch int(0...16) {
            case 0, 1:
                let difficulty = int(0...3)
                set("difficulty", difficulty == 0 ? nil : ["difficulty: \(difficulty)"], in: &front)
                done.append("\(id): difficulty \(difficulty)")
            case 2:
                let group = pick(RandomEditTests.groups)
                set("group", ["group: \(group)"], in: &front)
                done.append("\(id): group \(group)")
            case 3:
                let en = word(), de = int(0...2) == 0 ? en : word()
                set("name", ["name: {en: \"\(en)\", de: \"\(de)\"}"], in: &front)
                done.append("\(id): name \(en) / \(de)")
            case 4:
                body = int(0...3) == 0 ? "" : "\n" + paragraph()
                done.append("\(id): body")
            case 5:
                let tags = (0..<int(0...2)).map { _ in pick(RandomEditTests.tags) }
                set("tags", tags.isEmpty ? nil : ["tags: [\(Set(tags).sorted().joined(separator: ", "))]"], in: &front)
                done.append("\(id): tags \(tags)")
            case 6:
                let sound = int(0...4) == 0 ? nil : pick(sounds)
                set("sound", sound.map(soundBlock), in: &front)
                done.append("\(id): sound \(sound ?? "none")")
            case 7:
                let path = "content/animals/\(id).de.md"
                if exists(path), int(0...1) == 0 {
                    try remove(path)
                    done.append("\(id): German text removed")
                } else {
                    try write(paragraph(), path)
                    done.append("\(id): German text written")
                }
                return
            case 8:
                added += 1
                let new = "new-\(seed)-\(added)"
                var lines = ["name: {en: \"\(word())\", de: \"\(word())\"}", "group: \(pick(RandomEditTests.groups))"]
                if int(0...1) == 0 { lines.append("difficulty: \(int(1...3))") }
                if int(0...3) > 0 { lines += soundBlock(pick(sounds)) }
                lines += ["image:", "  file: images/\(pick(images))", "  credit: Tux Paint stamps", "  license: GPL-2.0-or-later"]
                try save(new, lines, "\n" + paragraph())
                done.append("\(new): added")
                return
            case 9 where ids.count > 40:
                try remove("content/animals/\(id).md")
                for language in ["de", "en"] where exists("content/animals/\(id).\(language).md") {
                    try remove("content/animals/\(id).\(language).md")
                }
                done.append("\(id): removed")
                return
            case 10:
                // Other bytes at the same media path (a sound or a picture replaced by another).
                let (folder, files) = int(0...1) == 0 ? ("sounds", sounds) : ("images", images)
                let from = pick(files), to = pick(files)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/content/\(folder)/\(from)"))
                try bytes.writeReplacing(toFile: root + "/content/\(folder)/\(to)")
                written.insert("content/\(folder)/\(to)")
                done.append("content/\(folder)/\(to): bytes of \(from)")
                return
            case 11, 12:
                // A change of the same size: only the file's time and inode tell it from the last.
                guard let line = front.firstIndex(where: { $0.hasPrefix("name:") }) else { throw Failure("content/animals/\(id).md has no name") }
                var bytes = Array(front[line].utf8)
                // Within the English name (`name: {en: "…"` or `name: {en: …,`).
                let start = 11, end = bytes[(start + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") } ?? start
                let letters = (start..<end).filter { bytes[$0] >= UInt8(ascii: "a") && bytes[$0] <= UInt8(ascii: "z") }
                if letters.isEmpty {
                    done.append("\(id): written again unchanged (no letter to change in its name)")
                } else {
                    let at = pick(letters)
                    bytes[at] = bytes[at] == UInt8(ascii: "x") ? UInt8(ascii: "q") : UInt8(ascii: "x")
                    front[line] = String(decoding: bytes, as: UTF8.self)
                    done.append("\(id): \(front[line]) (same size)")
                }
            case 14:
                // What every page shows: the site's title, or a partial of the theme.
                if int(0...1) == 0 {
                    let title = word(), pattern = #"title: \{en: [^,]*,"#
                    let config = try String(contentsOfFile: root + "/content/site.yml", encoding: .utf8)
                    // Without the line this edit would change nothing while the step names it.
                    guard config.range(of: pattern, options: .regularExpression) != nil else {
                        throw Failure("content/site.yml has no line `title: {en: …, …}` to edit")
                    }
                    try write(config.replacingOccurrences(of: pattern, with: "title: {en: \"\(title)\",", options: .regularExpression), "content/site.yml")
                    done.append("site.yml: title \(title)")
                } else {
                    try FileManager.default.createDirectory(atPath: root + "/templates/partials", withIntermediateDirectories: true)
                    try write("<footer class=\"site-footer\">\(word())</footer>\n", "templates/partials/footer.html")
                    done.append("templates/partials/footer.html")
                }
                return
            case 15:
                // The Wikipedia articles the record names (case 16 removes cached ones).
                let en = int(0...2) == 0 ? nil : pick(RandomEditTests.titles), de = int(0...2) == 0 ? nil : pick(RandomEditTests.titles)
                let titles = [en.map { "en: \($0)" }, de.map { "de: \($0)" }].compactMap { $0 }
                set("wikipedia", titles.isEmpty ? nil : ["wikipedia: {\(titles.joined(separator: ", "))}"], in: &front)
                done.append("\(id): wikipedia \(titles)")
            case 16:
                // A cache entry fetched (again, with another text or picture) or removed.
                let language = pick(["en", "de"]), title = pick(RandomEditTests.titles)
                let path = WikipediaCache.relativeEntryPath(language: language, canonicalTitle: title)
                if exists(path), int(0...3) == 0 {
                    try remove(path)
                    done.append("\(path): removed")
                    return
                }
                try writeEntry(language: language, title: title)
                done.append("\(path): written")
                return
            default:  // 13, and 9 while 40 records or fewer are left
                done.append("\(id): written again unchanged")
            }
            try save(id, front, body)
        }

        /// One step: a few edits (sometimes a dozen), then each kind of build, compared.
        func step(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            steps += 1
            done = []
            written = []
            // Sometimes nothing at all: the one-shot build must then find the output up to date.
            let edits = int(0...9) == 0 ? 0 : int(0...5) == 0 ? int(9...14) : int(1...3)
            for _ in 0..<edits { try editRandomly() }
            let settled = int(0...3) > 0
            if settled {
                // A time in the past, another for each step: the kept state takes these files.
                let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(steps) * 10)
                for path in written where exists(path) {
                    try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: root + "/" + path)
                }
            }
            // Most one-shot builds record their pack version, as `bestiary build` does; the others
            // leave it unrecorded, as the preview always does, and the next build makes it again.
            let records = int(0...3) > 0
            let what = "seed \(seed), step \(steps)\(settled ? "" : " (not settled)")\(records ? "" : " (version not recorded)"): \(done.isEmpty ? "no edit" : done.joined(separator: "; "))"
            /// The build, with the step's edits named when it fails.
            func built<T>(_ which: String, _ build: () throws -> T) throws -> T {
                do { return try build() } catch {
                    Issue.record("\(which) failed after \(what): \(error)", sourceLocation: sourceLocation)
                    throw error
                }
            }
            let lockBefore = try? Data(contentsOf: URL(fileURLWithPath: root + "/content/packs.lock"))
            let oneShotReport = try built("the one-shot rebuild") { try SiteBuilder(options: options("out", recordsVersions: records)).build() }
            // (Whether a build records its pack version is one of its options: a build with the
            // other value is not up to date, as a build with another `--base-url` is not.)
            if edits == 0, records, recordedLast { #expect(oneShotReport.upToDate, "nothing changed: \(what)", sourceLocation: sourceLocation) }
            if !oneShotReport.upToDate { recordedLast = records }
            if (try? Data(contentsOf: URL(fileURLWithPath: root + "/content/packs.lock"))) != lockBefore { written.insert("content/packs.lock") }
            let changes = written.sorted().map { ChangedPath(classifying: $0, event: exists($0) ? .modified : .removed) }
            let previewed = try built("the preview") { try rebuilder.rebuild(changes: changes) }
            try? FileManager.default.removeItem(atPath: dir.appending("fresh"))
            let freshBuilder = SiteBuilder(options: options("fresh", force: true))
            let report = try built("the build from nothing") { try freshBuilder.build() }
            // The preview's enrich stage (which keeps what it looked up) warns as a fresh build does,
            // byte for byte (a preview that found nothing changed says nothing).
            let enrichWarnings = { (d: [Diagnostic]) in d.filter { $0.stage == "enrich" }.map { Array(DiagnosticFormatter.text($0).utf8) } }
            #expect(
                previewed.upToDate || enrichWarnings(previewed.diagnostics) == enrichWarnings(freshBuilder.diagnostics.items),
                "the preview's enrich warnings differ after \(what)", sourceLocation: sourceLocation)
            let enrich = report.stages.first { $0.name == "enrich" }?.detail ?? ""
            summaries = max(summaries, Int(enrich.prefix { $0.isNumber }) ?? 0)
            let fresh = try Tree(dir.appending("fresh"))
            let oneShot = try Tree(dir.appending("out")).differences(from: fresh)
            let preview = try Tree(dir.appending("preview")).differences(from: fresh)
            func named(_ paths: [String]) -> String { "\(paths.count) files (\(paths.prefix(5).joined(separator: ", "))\(paths.count > 5 ? ", …" : ""))" }
            #expect(oneShot.isEmpty, "the one-shot rebuild differs in \(named(oneShot)) after \(what)", sourceLocation: sourceLocation)
            #expect(preview.isEmpty, "the preview differs in \(named(preview)) after \(what)", sourceLocation: sourceLocation)

            // A step that edited records only: every file the rebuild changed is one the rules of
            // a rebuild that follows the change name (docs/change-driven-rebuild.md, step 2).
            let output = try Tree(dir.appending("out")), catalog = try Self.catalog(root)
            defer { (lastOutput, lastCatalog) = (output, catalog) }
            guard let inputs = oneShotReport.inputChanges, inputs.count == inputs.modified.count,
                inputs.modified.allSatisfy({ $0.hasPrefix("content/animals/") && $0.hasSuffix(".md") })
            else { return }
            // Each file's animal, by the path of its record (a translation's `ID.LANG.md` by its record's).
            let bySource = Dictionary((lastCatalog?.animals ?? []).map { ($0.sourcePath, $0.id) }) { first, _ in first }
            let found = inputs.modified.map { path -> (String, String?) in
                var record = String(path.dropLast(".md".count))
                if let dot = record.lastIndex(of: "."), catalog.config.languages.contains(String(record[record.index(after: dot)...])) {
                    record = String(record[..<dot])
                }
                return (path, bySource[record + ".md"])
            }
            let unknown = found.filter { $0.1 == nil }.map(\.0)
            #expect(unknown.isEmpty, "no animal's record: \(unknown) after \(what)", sourceLocation: sourceLocation)
            let ids = Set(found.compactMap(\.1))
            guard let lastCatalog, let affected = AffectedOutputs.of(before: lastCatalog.animals, after: catalog.animals, changed: ids, config: catalog.config) else {
                Issue.record("records only edited, yet the ids differ: \(what)", sourceLocation: sourceLocation)
                return
            }
            ruled += 1
            let missed = output.differences(from: lastOutput).filter { !affected.contains($0) }
            #expect(missed.isEmpty, "the rules did not name \(named(missed)) after \(what)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: seeds)
    func rebuildsAfterRandomEditsEqualABuildFromNothing(seed: UInt64) throws {
        let site = try Site(seed: seed)
        for _ in 0..<10 { try site.step() }
        // The steps published pack versions, as a site's builds do.
        let lock = try String(contentsOfFile: site.root + "/content/packs.lock", encoding: .utf8)
        #expect(lock.components(separatedBy: "\nversion ").count > 3, "seed \(seed): versions recorded")
        #expect(site.summaries > 0, "seed \(seed): some pages showed a cached summary")
        // The default seeds each have a step that edited records only (not every seed has: 21 has none).
        if seed <= 3 { #expect(site.ruled > 0, "seed \(seed): a step edited records only") }
    }
}
