import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryPacks
import Foundation
import Testing

@Suite struct PackLockTests {
    static let rev1 = String(repeating: "1", count: 64)
    static let rev2 = String(repeating: "2", count: 64)
    static let rev3 = String(repeating: "3", count: 64)

    static func sample() -> PackLock {
        var lock = PackLock(pack: "demo")
        lock.append(revisions: ["bear": rev1, "owl": rev1, "cat": rev1], created: PackTime(seconds: 1_767_225_600))
        lock.append(revisions: ["bear": rev2, "owl": rev1, "yak": rev3], created: PackTime(seconds: 1_767_312_000))
        return lock
    }

    /// A delta made from the records the history says changed since its base
    /// (``PackLock/changes(since:)``) is byte for byte the delta made by comparing every record
    /// with the base's full state, through additions, changes, changes back, removals and
    /// re-additions.
    @Test func deltasFromTheChangesAreTheDeltasFromWholeStates() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10 {
            var lock = PackLock(pack: "demo")
            var texts: [String: String] = [:]
            var records: [PackRecord] = []
            for version in 1...12 {
                for _ in 0..<Int.random(in: 0...15, using: &generator) {
                    let id = "r\(Int.random(in: 0..<40, using: &generator))"
                    // Few texts: records often change back to what they were at a base.
                    texts[id] = Int.random(in: 0...4, using: &generator) == 0 ? nil : "text \(Int.random(in: 0...2, using: &generator))"
                }
                records = texts.map { PackRecord(id: $0.key, media: [], payload: ["id": .string($0.key), "text": .string($0.value)]) }
                lock.append(revisions: Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0.rev) }), created: PackTime(seconds: Int64(version)))
            }
            let target = PackManifest(pack: "demo", version: lock.latest!.number, created: lock.latest!.created, records: records)
            var index: [String: Int] = [:]
            for (i, record) in target.records.enumerated() { index[record.id] = i }
            let bases = Set(1...lock.latest!.number)
            let whole = lock.revisions(of: bases)
            let changed = lock.changes(since: bases)
            for base in bases.sorted() {
                let expected = PackDelta(pack: "demo", from: base, base: try #require(whole[base]), target: target)
                let made = PackDelta(pack: "demo", from: base, changed: try #require(changed[base]), target: target, index: index, digest: target.digest)
                #expect(made.encoded == expected.encoded, "from version \(base)")
            }
        }
    }

    @Test func writesChangesPerVersionAndReadsThemBack() throws {
        let lock = Self.sample()
        let text = String(decoding: lock.encoded, as: UTF8.self)
        #expect(text.contains("""
            version 2 created 2026-01-02T00:00:00Z records 3 digest \(PackDigest.state(["bear": Self.rev2, "owl": Self.rev1, "yak": Self.rev3])) seal \(
                PackDigest.sha256(Data("version 2 created 2026-01-02T00:00:00Z records 3 digest \(PackDigest.state(["bear": Self.rev2, "owl": Self.rev1, "yak": Self.rev3]))".utf8)))
            ~ bear \(Self.rev2)
            - cat
            + yak \(Self.rev3)

            """))
        let parsed = try PackLock.parse(lock.encoded)
        #expect(parsed == lock)
        #expect(parsed.latestRevisions == ["bear": Self.rev2, "owl": Self.rev1, "yak": Self.rev3])
        #expect(parsed.revisions(of: [1])[1] == ["bear": Self.rev1, "owl": Self.rev1, "cat": Self.rev1])
        #expect(parsed.encoded == lock.encoded)
        // With CRLF line ends (git's autocrlf on Windows) it reads the same.
        let crlf = Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(try PackLock.parse(crlf) == lock)
        // With a byte-order mark an editor added too (it was "expected 'bestiary-pack-lock 2'").
        #expect(try PackLock.parse(Data([0xEF, 0xBB, 0xBF]) + lock.encoded) == lock)
    }

    /// Two branches that each recorded a version, merged: the markers are named as such, with
    /// what to do, instead of an unexpected line.
    @Test func mergeConflictMarkersSayWhatToDo() throws {
        let text = String(decoding: Self.sample().encoded, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let at = try #require(lines.lastIndex { $0.hasPrefix("version ") })
        let merged = (lines[..<at] + ["<<<<<<< HEAD"] + lines[at...].dropLast() + ["=======", "version 2 …", ">>>>>>> other", ""]).joined(separator: "\n")
        // With CRLF line ends too (git's autocrlf on Windows): the markers at the same line (such a
        // file used to be one line to the markers' search, which found none there).
        for ends in ["\n", "\r\n"] {
            #expect {
                try PackLock.parse(Data(merged.replacingOccurrences(of: "\n", with: ends).utf8))
            } throws: { error in
                let d = (error as? DiagnosticError)?.diagnostics.first
                return d?.location?.line == at + 1 && d?.message.hasPrefix("the pack history has merge conflict markers: two branches each recorded a version") == true
            }
        }
    }

    /// A byte that is not UTF-8 (a Latin-1 editor, a bad merge tool) is named at its line and
    /// column, as in a record, not at the file's start.
    @Test func aByteThatIsNotUTF8IsNamedWhereItIs() throws {
        let text = String(decoding: Self.sample().encoded, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let at = try #require(lines.lastIndex { $0.starts(with: Array("~ ".utf8)) })
        lines[at].insert(0xE9, at: 2)  // `é` in Latin-1, inside the record's id
        let data = Data(lines.joined(separator: [10]))
        #expect {
            try PackLock.parse(data)
        } throws: { error in
            let d = (error as? DiagnosticError)?.diagnostics.first
            return d?.location?.line == at + 1 && d?.location?.column == 3
                && d?.message.hasPrefix("the pack history is not UTF-8 text (byte 0xE9 at offset ") == true
                && d?.message.hasSuffix("); restore the file from version control (it is written by `bestiary build`)") == true
        }
    }

    /// A build checks the digests of the newest versions only (those it uses); a full read, as
    /// `bestiary check` does, checks every version's. The record counts are always checked.
    @Test func aBuildChecksTheDigestsOfTheVersionsItUses() throws {
        var lock = Self.sample()
        lock.append(revisions: ["bear": Self.rev3, "owl": Self.rev1, "yak": Self.rev3], created: PackTime(seconds: 1_767_398_400))
        let sealed = String(decoding: lock.encoded, as: UTF8.self)
        // Without seals (format 1, written before them), which catch such edits on every version.
        let text = sealed.replacing(#/ seal [0-9a-f]{64}/#, with: "").replacingOccurrences(of: "bestiary-pack-lock 2", with: "bestiary-pack-lock 1")
        let oldDigest = lock.versions[0].digest, newestDigest = lock.versions[2].digest
        let zeros = String(repeating: "0", count: 64)
        #expect(throws: DiagnosticError.self) {
            try PackLock.parse(Data(sealed.replacingOccurrences(of: "digest " + oldDigest, with: "digest " + zeros).utf8), checkingDigestsOfLast: 2)
        }
        let firstEdited = Data(text.replacingOccurrences(of: "digest " + oldDigest, with: "digest " + zeros).utf8)
        #expect(throws: DiagnosticError.self) { try PackLock.parse(firstEdited) }
        #expect(throws: DiagnosticError.self) { try PackLock.parse(firstEdited, checkingDigestsOfLast: 3) }
        #expect(try PackLock.parse(firstEdited, checkingDigestsOfLast: 2).latestRevisions == lock.latestRevisions)
        let newestEdited = Data(text.replacingOccurrences(of: "digest " + newestDigest, with: "digest " + zeros).utf8)
        #expect(throws: DiagnosticError.self) { try PackLock.parse(newestEdited, checkingDigestsOfLast: 1) }
        let countEdited = Data(text.replacingOccurrences(of: "records 3 digest " + oldDigest, with: "records 4 digest " + oldDigest).utf8)
        #expect(throws: DiagnosticError.self) { try PackLock.parse(countEdited, checkingDigestsOfLast: 1) }
    }

    /// A lock written before seals (format 1) reads as it is; the next version a build adds writes
    /// it as format 2, sealed whole. In format 2 every version line needs its seal, so deleting
    /// seals does not get an edit past them; and format 1 has none.
    @Test func locksWithoutSealsReadAndAreSealedWhenWrittenAgain() throws {
        var lock = Self.sample()
        let text = String(decoding: lock.encoded, as: UTF8.self)
        #expect(text.contains("\nbestiary-pack-lock 2\n"))
        let unsealed = text.replacing(#/ seal [0-9a-f]{64}/#, with: "").replacingOccurrences(of: "bestiary-pack-lock 2", with: "bestiary-pack-lock 1")
        #expect(try PackLock.parse(Data(unsealed.utf8)) == lock)
        lock.append(revisions: ["owl": Self.rev1], created: PackTime(seconds: 1_800_000_000))
        let rewritten = String(decoding: lock.encoded, as: UTF8.self)
        #expect(rewritten.contains("\nbestiary-pack-lock 2\n"))
        #expect(rewritten.matches(of: #/ seal [0-9a-f]{64}\n/#).count == 3)

        func failure(_ text: String) -> Diagnostic? {
            do {
                _ = try PackLock.parse(Data(text.utf8))
                return nil
            } catch {
                return error.diagnostics.first
            }
        }
        // Format 2 with a version's date edited and every seal deleted (the bypass a review found).
        let stripped = text.replacingOccurrences(of: "created 2026-01-02T00:00:00Z", with: "created 2026-01-03T00:00:00Z")
            .replacing(#/ seal [0-9a-f]{64}/#, with: "")
        let versionLine = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("version 1 ") }) + 1
        #expect(failure(stripped)?.message.contains("every version line of a 'bestiary-pack-lock 2' file ends in its seal") == true)
        #expect(failure(stripped)?.location?.line == versionLine)
        // Format 1 with seals: not what any build wrote.
        #expect(failure(text.replacingOccurrences(of: "bestiary-pack-lock 2", with: "bestiary-pack-lock 1"))?.message
            .contains("a 'bestiary-pack-lock 1' file has no seals") == true)
        // A format from a newer bestiary is named as such.
        #expect(failure(text.replacingOccurrences(of: "bestiary-pack-lock 2", with: "bestiary-pack-lock 3"))?.message
            .contains("a newer format? this bestiary reads formats 1 and 2") == true)
    }

    /// A hand edit is caught with the line of the version whose digest no longer adds up.
    @Test(arguments: [
        ("~ bear 2222", "~ bear 4444", 12, "do not match its digest"),
        ("version 2 created", "version 3 created", 12, "versions go up by one"),
        ("- cat\n", "", 12, "says 3 records"),
        ("+ yak", "+ aardvark", 15, "sorted by id"),
        ("bestiary-pack-lock 2", "bestiary-pack-lock-2", 4, "expected 'bestiary-pack-lock 2'"),
        ("created 2026-01-02", "created 2025-01-02", 12, "dated before version 1"),
        ("created 2026-01-02T00:00:00Z", "created 2026-01-03T00:00:00Z", 12, "does not match its seal: its date, count or digest was edited"),
        (" seal ", " seel ", 7, "expected 'version N created"),
    ])
    func handEditsAreCaughtWithTheirLine(find: String, replace: String, line: Int, message: String) throws {
        let text = String(decoding: Self.sample().encoded, as: UTF8.self)
        let find = find.replacingOccurrences(of: "2222", with: Self.rev2).replacingOccurrences(of: "4444", with: String(repeating: "4", count: 64))
        let replace = replace.replacingOccurrences(of: "4444", with: String(repeating: "4", count: 64))
        #expect(text.contains(find))
        let edited = Data(text.replacingOccurrences(of: find, with: replace).utf8)
        do {
            _ = try PackLock.parse(edited)
            Issue.record("accepted the edit \(find) → \(replace)")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.message.contains(message), "\(d)")
            #expect(d.location?.path == "content/packs.lock")
            #expect(d.location?.line == line, "\(d)")
            #expect(d.message.contains("restore the file from version control"))
        }
    }
}
