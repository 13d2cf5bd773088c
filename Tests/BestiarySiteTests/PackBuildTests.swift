import BestiaryDiagnostics
import BestiaryPackFormat
@testable import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// A site with packs, version 1 recorded at `1_767_225_600`, then a record added (version 2 to
/// come), and its builds at a given time.
struct PackSite {
    let work = TemporaryDirectory()
    let root: String
    var output: String { work.appending("out") }

    init(packs: String = "{id: minimal}") throws {
        root = try copyOfFixture("minimal", into: work)
        try (try String(contentsOfFile: root + "/content/site.yml", encoding: .utf8) + "packs: \(packs)\n")
            .writeReplacing(toFile: root + "/content/site.yml")
        _ = try build(at: 1_767_225_600)
        try work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
    }

    /// A builder at `seconds` (SOURCE_DATE_EPOCH), the clock at `clock` (else the same).
    func builder(
        at seconds: Int, clock: Int? = nil, fileSystem: any FileSystem = LocalFileSystem(), records: Bool = true, unsigned: Bool = false,
        signingKeyFile: String? = nil
    ) -> SiteBuilder {
        var options = BuildOptions(
            root: root, output: output, signingKeyFile: signingKeyFile, environment: ["SOURCE_DATE_EPOCH": String(seconds)],
            fileSystem: fileSystem, time: FixedTimeSource(Date(timeIntervalSince1970: TimeInterval(clock ?? seconds))))
        options.recordsPackVersions = records
        options.allowsUnsignedPacks = unsigned
        return SiteBuilder(options: options)
    }

    /// A build at `seconds` (see ``builder(at:clock:fileSystem:records:unsigned:signingKeyFile:)``).
    @discardableResult
    func build(at seconds: Int, clock: Int? = nil, fileSystem: any FileSystem = LocalFileSystem(), records: Bool = true, unsigned: Bool = false)
        throws(DiagnosticError) -> SiteBuilder
    {
        let builder = builder(at: seconds, clock: clock, fileSystem: fileSystem, records: records, unsigned: unsigned)
        _ = try builder.build()
        return builder
    }

    /// The first diagnostic of `builder`'s build, which must fail (nil, and an issue, if it does not).
    func failure(of builder: SiteBuilder) -> Diagnostic? {
        do {
            _ = try builder.build()
            Issue.record("the build should have failed")
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    func lock() throws -> String { try String(contentsOfFile: root + "/content/packs.lock", encoding: .utf8) }
}

/// A build that replaced the output but could not record the new pack version in
/// `content/packs.lock` (a read-only checkout): the output publishes a version the lock lacks.
@Suite struct UnrecordedVersionTests {
    /// Fails writing the lock, nothing else.
    final class ReadOnlyLock: PassingFileSystem, @unchecked Sendable {
        override func writeAtomically(_ data: Data, to path: String) throws {
            if path.hasSuffix("content/packs.lock") {
                throw FileSystemError(operation: "write", path: path, reason: "Permission denied", code: EACCES)
            }
            try base.writeAtomically(data, to: path)
        }
    }

    @Test func theNextBuildRecordsThePublishedVersionWithTheSameBytes() throws {
        let site = try PackSite()
        #expect(site.failure(of: site.builder(at: 1_767_225_700, fileSystem: ReadOnlyLock()))?.message.contains("could not be updated") == true)
        #expect(try site.work.read(".out.bestiary-unrecorded").hasPrefix("2 created 2026-01-01T00:01:40Z digest "))
        let published = try Data(contentsOf: URL(fileURLWithPath: site.output + "/packs/v/2.json"))
        #expect(try site.lock().contains("version 2 ") == false)

        // Later, the lock writable again: version 2 as published, not another one.
        _ = try site.build(at: 1_767_229_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/packs/v/2.json")) == published)
        let lock = try site.lock()
        #expect(lock.contains("version 2 created 2026-01-01T00:01:40Z"), "\(lock)")
        #expect(!site.work.exists(".out.bestiary-unrecorded"), "the note is gone once recorded")
    }

    /// Killed after the output's swap, before the lock is written (a museum's `kill -9`), a
    /// build leaves the note as one whose lock write failed does: it is written before the swap.
    /// The file system here looks at what is next to the output when the lock is written, and
    /// the process ends there (a throw no catch of the build's notes anything for).
    final class KilledAtTheLock: PassingFileSystem, @unchecked Sendable {
        let note: String
        nonisolated(unsafe) var seen: String?
        init(note: String) { self.note = note }
        override func writeAtomically(_ data: Data, to path: String) throws {
            if path.hasSuffix("content/packs.lock") {
                seen = try? String(contentsOfFile: note, encoding: .utf8)
                throw FileSystemError(operation: "write", path: path, reason: "killed", code: EINTR)
            }
            try base.writeAtomically(data, to: path)
        }
    }

    @Test func aBuildKilledBeforeItsLockIsWrittenHasNotedTheVersion() throws {
        let site = try PackSite()
        let killed = KilledAtTheLock(note: site.work.appending(".out.bestiary-pending"))
        #expect(throws: DiagnosticError.self) { try site.build(at: 1_767_225_700, fileSystem: killed) }
        #expect(killed.seen?.hasPrefix("2 created 2026-01-01T00:01:40Z digest ") == true, "\(killed.seen ?? "no note")")
    }

    /// A pending note left by a build that stopped before its swap (the output still publishes
    /// version 1) is no version published: the next build, with other content, makes version 2
    /// at its time, and the note is gone.
    @Test func aPendingNoteOfAVersionTheOutputDoesNotPublishIsLeftAside() throws {
        let site = try PackSite()
        try site.work.write("2 created 2026-01-01T00:01:40Z digest 0000000000000000000000000000000000000000000000000000000000000000 pack minimal\n", to: ".out.bestiary-pending")
        try site.build(at: 1_767_229_000)
        let lock = try site.lock()
        #expect(lock.contains("version 2 created 2026-01-01T00:56:40Z"), "\(lock)")
        #expect(!site.work.exists(".out.bestiary-pending"))
    }

    /// A version noted as unrecorded (the lock's write failed after the swap, so it was
    /// published) counts even when the output is gone since (CI's fresh folder): another
    /// version 2 with other bytes would be refused by the apps that have the first.
    @Test func anUnrecordedVersionCountsWithoutTheOutput() throws {
        let site = try PackSite()
        #expect(throws: DiagnosticError.self) { try site.build(at: 1_767_225_700, fileSystem: ReadOnlyLock()) }
        let published = try Data(contentsOf: URL(fileURLWithPath: site.output + "/packs/v/2.json"))
        try FileManager.default.removeItem(atPath: site.output)
        try site.build(at: 1_767_229_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/packs/v/2.json")) == published)
        #expect(try site.lock().contains("version 2 created 2026-01-01T00:01:40Z"))
    }

    /// The failed build says the output holds the new build (the command's last line follows it).
    @Test func theFailedBuildSaysItReplacedTheOutput() throws {
        let site = try PackSite()
        let builder = site.builder(at: 1_767_225_700, fileSystem: ReadOnlyLock())
        #expect(throws: DiagnosticError.self) { try builder.build() }
        #expect(builder.replacedOutput, "the output holds version 2; the command must not say it is unchanged")
    }

    /// Other content under the number a failed build published would be refused by the apps
    /// that have it: the build stops and says what to do.
    @Test func otherContentUnderAPublishedNumberStopsTheBuild() throws {
        let site = try PackSite()
        #expect(throws: DiagnosticError.self) { try site.build(at: 1_767_225_700, fileSystem: ReadOnlyLock()) }
        try site.work.write("---\nname: {de: Anders, en: Other}\n---\n", to: "minimal/content/animals/new.md")
        let d = try #require(site.failure(of: site.builder(at: 1_767_229_000)))
        #expect(d.message.hasPrefix("version 2 was published by the build of 2026-01-01T00:01:40Z, which could not record it here, with other content than now"), "\(d)")
        #expect(d.message.hasSuffix("delete .out.bestiary-unrecorded"))
        #expect(try !site.lock().contains("version 2 "))
        // The content put back: version 2 as published.
        try site.work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
        try site.build(at: 1_767_229_100)
        let lock = try site.lock()
        #expect(lock.contains("version 2 created 2026-01-01T00:01:40Z"), "\(lock)")
    }

    /// A version in the output that no failed build noted (the preview writes versions it never
    /// records) is not taken: the build's own time makes it, as a build from nothing would.
    @Test func aVersionThePreviewWroteIsNotTaken() throws {
        let site = try PackSite()
        try site.build(at: 1_767_225_700, records: false)
        #expect(site.work.exists("out/packs/v/2.json"))
        try site.build(at: 1_767_229_000)
        let lock = try site.lock()
        #expect(lock.contains("version 2 created 2026-01-01T00:56:40Z"), "\(lock)")
    }
}

/// `content/packs.lock` lost (deleted, never committed) or taken back from an older commit,
/// while the output publishes a newer version: the next version would be numbered below what
/// apps have, and they refuse it. The build stops instead and says what to do.
@Suite struct LostHistoryTests {
    @Test func aLockBehindThePublishedVersionStopsTheBuild() throws {
        let site = try PackSite()
        try site.build(at: 1_767_225_700)  // version 2
        let two = try site.lock()
        try FileManager.default.removeItem(atPath: site.root + "/content/packs.lock")
        try site.work.write("---\nname: {de: Anders, en: Other}\n---\n", to: "minimal/content/animals/new.md")
        let d = try #require(site.failure(of: site.builder(at: 1_767_229_000)))
        #expect(d.message.hasPrefix("the site has no content/packs.lock, but a build of this output published pack version 2 (created 2026-01-01T00:01:40Z)"), "\(d)")
        #expect(d.message.contains("this build would publish version 1, older than the 2 apps may have, which they refuse"), "\(d)")
        #expect(d.message.contains("never deployed (a local build whose changes you then dropped), delete .out.bestiary-published and build again"))
        #expect(!FileManager.default.fileExists(atPath: site.root + "/content/packs.lock"), "nothing recorded")
        // An older lock (version 1 only) likewise; the lock restored, the build goes on to version 3.
        try two.components(separatedBy: "\nversion 2 ")[0].appending("\n").writeReplacing(toFile: site.root + "/content/packs.lock")
        let older = try #require(site.failure(of: site.builder(at: 1_767_229_000)))
        #expect(older.message.hasPrefix("the site records versions up to 1 only (content/packs.lock), but a build of this output published pack version 2"), "\(older)")
        #expect(older.message.contains("this build would publish another version 2 with other bytes, which every app that has the first refuses"))
        // `git checkout content/packs.lock` restores the index's copy, the old history after a revert.
        #expect(older.message.hasSuffix("If it was deployed, restore content/packs.lock from the commit that recorded version 2 (`git log --oneline -- content/packs.lock` lists the commits that changed it; then `git checkout COMMIT -- content/packs.lock`)"), "\(older)")
        try two.writeReplacing(toFile: site.root + "/content/packs.lock")
        try site.build(at: 1_767_229_000)
        #expect(try site.lock().contains("version 3 "))
        let note = try site.work.read(".out.bestiary-published")
        #expect(note.hasPrefix("3 created 2026-01-01T00:56:40Z digest ") && note.hasSuffix(" pack minimal\n"), "\(note)")
        // The preview records nothing, notes nothing, and is not stopped; with the note deleted
        // (that version never deployed) the history starts anew.
        try FileManager.default.removeItem(atPath: site.root + "/content/packs.lock")
        try site.build(at: 1_767_229_100, records: false)
        #expect(try site.work.read(".out.bestiary-published").hasPrefix("3 created"))
        try FileManager.default.removeItem(atPath: site.work.appending(".out.bestiary-published"))
        try site.build(at: 1_767_229_200)
        #expect(try site.lock().contains("version 1 "))
    }

    /// Two branches each recorded version 2 from version 1: the output published one branch's,
    /// and a build on the other's lock published another version 2 without a word, which every
    /// app that had the first refused, and each version after it (found by an app maker's audit).
    @Test func aLockThatRecordsThePublishedNumberWithOtherContentStopsTheBuild() throws {
        let site = try PackSite()
        let one = try site.lock()
        try site.build(at: 1_767_225_700)  // branch a: version 2 with new.md, published by out/
        let a = try site.lock()
        // Branch b: from version 1, another record, its version 2 built into another output.
        try one.writeReplacing(toFile: site.root + "/content/packs.lock")
        try FileManager.default.removeItem(atPath: site.root + "/content/animals/new.md")
        try site.work.write("---\nname: {de: Anders, en: Other}\n---\n", to: "minimal/content/animals/other.md")
        var options = BuildOptions(
            root: site.root, output: site.work.appending("elsewhere"), environment: ["SOURCE_DATE_EPOCH": "1767225800"],
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_800)))
        options.recordsPackVersions = true
        _ = try SiteBuilder(options: options).build()
        let b = try site.lock()
        #expect(b.contains("version 2 ") && b != a)
        // Branch b's lock, built into out/, which published branch a's version 2: stopped.
        let d = try #require(site.failure(of: site.builder(at: 1_767_229_000)))
        #expect(d.message.hasPrefix("content/packs.lock records pack version 2 (created 2026-01-01T00:03:20Z) with other content than the version 2 a build of this output published (created 2026-01-01T00:01:40Z)"), "\(d)")
        #expect(d.location?.path == "content/packs.lock")
        #expect(try site.lock() == b, "nothing recorded")
        // On branch a's lock the build goes on (version 3: other.md).
        try a.writeReplacing(toFile: site.root + "/content/packs.lock")
        try site.build(at: 1_767_229_000)
        #expect(try site.lock().contains("version 3 "))
    }

    /// The lock deleted with every file a build keeps next to the output (a clean-up of
    /// `.out.bestiary-*`): the output's signed pointer says which version apps may have, and the
    /// build stops (it started the pack at version 1 again, which every app refused). An output
    /// whose packs are deleted (never deployed) starts anew; an unsigned pointer (a preview's,
    /// `--unsigned`) is not taken for a published one.
    @Test func aSignedPointerInTheOutputStopsABuildWithoutHistory() throws {
        let site = try PackSite()
        try site.work.write(PackKeys.generate().privateKey + "\n", to: "signing.key")
        let key = site.work.appending("signing.key")
        _ = try site.builder(at: 1_767_225_700, signingKeyFile: key).build()  // version 2, signed
        func forget() throws {
            try FileManager.default.removeItem(atPath: site.root + "/content/packs.lock")
            for name in try FileManager.default.contentsOfDirectory(atPath: site.work.path) where name.hasPrefix(".out.bestiary-") {
                try FileManager.default.removeItem(atPath: site.work.appending(name))
            }
        }
        try forget()
        try site.work.write("---\nname: {de: Anders, en: Other}\n---\n", to: "minimal/content/animals/other.md")
        let d = try #require(site.failure(of: site.builder(at: 1_767_229_000, signingKeyFile: key)))
        #expect(d.message.hasPrefix("the site has no content/packs.lock, but the output publishes signed pack version 2 (\(site.output)/packs/latest.json): this build would publish version 1, older than the 2 apps may have, which they refuse"), "\(d)")
        #expect(d.message.contains("never deployed (a local build whose changes you then dropped), delete \(site.output)/packs and build again"), "\(d)")
        #expect(!FileManager.default.fileExists(atPath: site.root + "/content/packs.lock"), "nothing recorded")
        try FileManager.default.removeItem(atPath: site.output + "/packs")
        _ = try site.builder(at: 1_767_229_000, signingKeyFile: key).build()
        #expect(try site.lock().contains("version 1 "))
        // Unsigned, the output's pointer is no published version.
        try site.build(at: 1_767_229_100, unsigned: true)
        try forget()
        try site.build(at: 1_767_229_200)
        #expect(try site.lock().contains("version 1 "))
    }

    /// A renamed `packs.id` starts its own history (the lock deleted, as the build advises): the
    /// note of the old pack's version does not stop it.
    @Test func aRenamedPackStartsAnew() throws {
        let site = try PackSite()
        try site.build(at: 1_767_225_700)  // minimal, version 2
        let yml = site.root + "/content/site.yml"
        try (try String(contentsOfFile: yml, encoding: .utf8)).replacingOccurrences(of: "packs: {id: minimal}", with: "packs: {id: renamed}")
            .writeReplacing(toFile: yml)
        try FileManager.default.removeItem(atPath: site.root + "/content/packs.lock")
        try site.build(at: 1_767_229_000)
        #expect(try site.lock().contains("pack renamed"))
        #expect(try site.work.read(".out.bestiary-published").hasSuffix(" pack renamed\n"))
    }
}

/// What a build says about the packs it makes.
@Suite struct PackWarningTests {
    /// The pointer's validity starts at SOURCE_DATE_EPOCH: one older than `expires_days` makes
    /// a pack apps refuse at once.
    @Test func aPointerExpiredWhenBuiltIsAWarning() throws {
        let site = try PackSite(packs: "{id: minimal, expires_days: 30}")
        let day = 86_400
        let recent = try site.build(at: 1_767_225_600, clock: 1_767_225_600 + day)
        #expect(!recent.diagnostics.items.contains { $0.message.contains("latest.json expire") })
        // Within its validity, but most of it gone before it is built (SOURCE_DATE_EPOCH pinned
        // to an old commit: a deploy trial's pointer expired the next day, without a word).
        try site.work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
        let fresh = try site.build(at: 1_767_225_700, clock: 1_767_225_700 + 29 * day)
        #expect(!fresh.diagnostics.items.contains { $0.message.contains("before it was even built") })
        let soon = fresh.diagnostics.items.filter { $0.message.hasPrefix("the packs' latest.json expires at 2026-01-31T00:01:40Z, in 24 hours:") }
        #expect(soon.count == 1 && soon.first?.severity == .warning, "\(fresh.diagnostics.items.map(\.message))")
        try site.work.write("---\nname: {de: Alt, en: Old}\n---\n", to: "minimal/content/animals/old.md")
        let old = try site.build(at: 1_767_225_800, clock: 1_767_225_800 + 31 * day)
        let warnings = old.diagnostics.items.filter { $0.message.contains("latest.json expired at 2026-01-31T00:03:20Z, before it was even built") }
        #expect(warnings.count == 1, "\(old.diagnostics.items)")
        #expect(warnings.first?.location?.path == "content/site.yml")
    }

    /// Signed, such a build is one to deploy that every app refuses at once: it fails, as a
    /// missing key does, before the output or the lock change (found by an app maker: it exited 0).
    @Test func aSignedPointerExpiredWhenBuiltIsAnError() throws {
        let site = try PackSite(packs: "{id: minimal, expires_days: 30}")
        try site.work.write(PackKeys.generate().privateKey + "\n", to: "signing.key")
        let day = 86_400
        let lockBefore = try site.lock()
        let before = try Tree(site.output)
        let builder = site.builder(at: 1_767_225_800, clock: 1_767_225_800 + 31 * day, signingKeyFile: site.work.appending("signing.key"))
        let failure = site.failure(of: builder)
        #expect(failure?.severity == .error)
        #expect(failure?.message.hasPrefix("the packs' latest.json expired at 2026-01-31T00:03:20Z, before it was even built") == true, "\(String(describing: failure))")
        #expect(failure?.location?.path == "content/site.yml")
        #expect(try Tree(site.output) == before)
        #expect(try site.lock() == lockBefore)
        // Within its validity, the same signed build goes through.
        let fresh = site.builder(at: 1_767_225_800, clock: 1_767_225_800 + 29 * day, signingKeyFile: site.work.appending("signing.key"))
        _ = try fresh.build()
        #expect(FileManager.default.fileExists(atPath: site.output + "/packs/latest.json.sig"))
    }

    /// A new version is not recorded with a build time days ahead of the clock (a mistyped
    /// SOURCE_DATE_EPOCH): every later build that changes the content would fail until then
    /// (found by a tester). A day of skew passes, and so does a build that records nothing new.
    @Test func aBuildTimeAheadOfTheClockRecordsNoVersion() throws {
        let site = try PackSite()
        let day = 86_400
        let lock = try site.lock()
        let before = try Tree(site.output)
        try site.work.write("---\nname: {de: Neu, en: New}\n---\n", to: "minimal/content/animals/new.md")
        let ahead = site.builder(at: 1_767_225_700 + 400 * day, clock: 1_767_225_700)
        let problem = site.failure(of: ahead)
        #expect(problem?.message.hasPrefix(
            "the build time 2027-02-05T00:01:40Z (SOURCE_DATE_EPOCH) is 400 days ahead of this machine's clock (2026-01-01T00:01:40Z): pack version 2 recorded with it would make every later build that changes the content fail until then") == true,
            "\(String(describing: problem))")
        #expect(problem?.location?.path == "content/packs.lock")
        // `now + 5 days` taken a second before the build read its clock is 5 days ahead, not 4.
        let fiveDays = site.failure(of: site.builder(at: 1_767_225_700 + 5 * day - 1, clock: 1_767_225_700))
        #expect(fiveDays?.message.contains(" is 5 days ahead of this machine's clock ") == true, "\(String(describing: fiveDays))")
        #expect(try site.lock() == lock)
        #expect(try Tree(site.output) == before)
        _ = try site.build(at: 1_767_225_700 + day - 100, clock: 1_767_225_700)
        #expect(try site.lock() != lock)
        // Nothing new to record: the time does not matter.
        _ = try site.build(at: 1_767_225_700 + 400 * day, clock: 1_767_225_700, fileSystem: LocalFileSystem())
        // A history already ahead (recorded on a machine whose clock was) goes on from its last
        // version's time: the only way on until the clock gets there (found in review).
        try site.work.write("---\nname: {de: Neuer, en: Newer}\n---\n", to: "minimal/content/animals/new.md")
        _ = try site.build(at: 1_767_225_700 + 400 * day, clock: 1_767_225_700 + 400 * day)
        try site.work.write("---\nname: {de: Neuester, en: Newest}\n---\n", to: "minimal/content/animals/new.md")
        _ = try site.build(at: 1_767_225_700 + 400 * day + 100, clock: 1_767_225_700)
        let history = try site.lock()
        #expect(history.contains("2027-02-05T00:03:20Z"), "\(history)")
    }

    /// A pipe as content/packs.lock is refused, not read (reading it would block for ever).
    @Test func aPipeAsThePackHistoryIsRefused() throws {
        let site = try PackSite()
        try FileManager.default.removeItem(atPath: site.root + "/content/packs.lock")
        #expect(mkfifo(site.root + "/content/packs.lock", 0o644) == 0)
        let problem = site.failure(of: site.builder(at: 1_767_225_800))
        #expect(problem?.message == "the pack history is not a regular file (a pipe, a device, a socket or a folder)", "\(String(describing: problem))")
    }

    /// A site that names the keys its apps trust is not built without one (its pack would be
    /// refused by every app), but previewed; a key file that cannot be read stops the build
    /// before any page is rendered.
    @Test func aSiteWithPublicKeysNeedsASigningKey() throws {
        let site = try PackSite()
        let yml = site.root + "/content/site.yml"
        try (try String(contentsOfFile: yml, encoding: .utf8)).replacingOccurrences(
            of: "packs: {id: minimal}", with: "packs: {id: minimal, public_keys: [\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"]}"
        ).writeReplacing(toFile: yml)
        let before = try Tree(site.output)
        let d = try #require(site.failure(of: site.builder(at: 1_767_225_700)))
        #expect(d.message.hasPrefix("no signing key, but site.yml's packs.public_keys lists the keys apps trust"), "\(d)")
        #expect(d.location?.path == "content/site.yml")
        #expect(try Tree(site.output) == before)
        #expect(try !site.lock().contains("version 2 "))
        let preview = try site.build(at: 1_767_225_700, records: false)
        #expect(preview.diagnostics.items.contains { $0.message.contains("apps that trust those keys will refuse them") })
        // `build --unsigned`: a check build on a branch, said to be unsigned.
        let unsigned = try site.build(at: 1_767_225_700, unsigned: true)
        #expect(unsigned.diagnostics.items.contains { $0.message.contains("apps that trust those keys will refuse them") })
        // Also when a key is at hand (it signed the packs whenever one was set).
        try site.work.write(PackKeys.generate().privateKey + "\n", to: "signing.key")
        let withKey = site.builder(at: 1_767_225_800, unsigned: true, signingKeyFile: site.work.appending("signing.key"))
        _ = try withKey.build()
        #expect(withKey.diagnostics.items.contains { $0.message.hasSuffix("apps that trust those keys will refuse them; never deploy this output (built with --unsigned)") })
        #expect(!FileManager.default.fileExists(atPath: site.output + "/packs/latest.json.sig"))

        final class Stages: @unchecked Sendable {
            let lock = NSLock()
            var names: [String] = []
        }
        let stages = Stages()
        let builder = site.builder(at: 1_767_225_700, signingKeyFile: site.work.appending("missing.key"))
        builder.onStage = { stage, _, _ in stages.lock.withLock { stages.names.append(stage.name) } }
        #expect(site.failure(of: builder)?.message.hasPrefix("cannot read the key file") == true)
        #expect(stages.names == ["load"], "\(stages.names)")
    }

    /// A version that removes every record (content/animals/ emptied by a bad checkout) says
    /// what it does to the apps.
    @Test func aVersionWithoutRecordsIsAWarning() throws {
        let site = try PackSite()
        try site.build(at: 1_767_225_700)
        try FileManager.default.removeItem(atPath: site.root + "/content/animals")
        try FileManager.default.createDirectory(atPath: site.root + "/content/animals", withIntermediateDirectories: false)
        let emptied = try site.build(at: 1_767_225_800)
        let warnings = emptied.diagnostics.items.filter { $0.message.hasPrefix("pack version 3 has no records: every app that syncs it deletes the 4 it has") }
        #expect(warnings.count == 1, "\(emptied.diagnostics.items)")
    }
}

/// Two builds of one output never run at once: the second waits for the first, so they never
/// record two different versions under one number.
@Suite struct BuildLockTests {
    final class Flag: @unchecked Sendable {
        let lock = NSLock()
        var waited = false
        var finished = false
    }

    @Test func aSecondBuildWaitsForTheFirst() throws {
        let site = try PackSite()
        var held = FileLock.acquire(site.work.appending(".out.bestiary-lock"), waiting: {})
        #expect(held != nil)
        let flag = Flag()
        let builder = site.builder(at: 1_767_225_700)
        builder.onWait = { flag.lock.withLock { flag.waited = true } }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? builder.build()
            flag.lock.withLock { flag.finished = true }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 1)
        #expect(flag.lock.withLock { flag.waited && !flag.finished })
        held = nil  // the first build ends
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(flag.lock.withLock { flag.finished })
        #expect(try site.lock().contains("version 2 created 2026-01-01T00:01:40Z"))
        withExtendedLifetime(held) {}
    }

    /// A build of the same site into another output waits too: both would record the next pack
    /// version in content/packs.lock, each with its own time (found by a CI maintainer: two
    /// outputs published version 2 with different bytes, and the next build called it unchanged).
    @Test func aBuildOfTheSameSiteIntoAnotherOutputWaits() throws {
        let site = try PackSite()
        var held = FileLock.acquireFolder(site.root + "/content", waiting: {})
        #expect(held != nil)
        let flag = Flag()
        let builder = site.builder(at: 1_767_225_700)
        builder.onWait = { Issue.record("waited for the output's lock") }
        let waiting = DispatchSemaphore(value: 0)
        builder.onWaitForSite = {
            flag.lock.withLock { flag.waited = true }
            waiting.signal()
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? builder.build()
            flag.lock.withLock { flag.finished = true }
            done.signal()
        }
        // It waits once it has loaded the records (however long that takes on a busy machine),
        // and stays waiting.
        #expect(waiting.wait(timeout: .now() + 60) == .success)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(flag.lock.withLock { flag.waited && !flag.finished })
        held = nil
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(flag.lock.withLock { flag.finished })
        withExtendedLifetime(held) {}
    }
}

/// Files a rebuild compares by more than their metadata: the signing key, and the pack lock the
/// last build wrote. Each is written in place with its times put back (as a second write within
/// the file system clock's tick would leave it): the next build is not taken as up to date.
@Suite struct SameMetadataTests {
    /// The lock's metadata is recorded as the build left it; another write that kept it (within
    /// the same tick) is found by its bytes, and the next build names the lock as changed.
    @Test func aLockRewrittenWithTheSameMetadataIsFound() throws {
        let site = try PackSite()
        _ = try site.build(at: 1_767_225_700)
        let path = site.root + "/content/packs.lock"
        let lock = try site.lock()
        #expect(lock.hasPrefix("# content/packs.lock"))
        var before = stat()
        #expect(stat(path, &before) == 0)
        try overwriteKeepingMetadata(path, Data(("# Content" + lock.dropFirst("# content".count)).utf8), as: before)
        let report = try site.builder(at: 1_767_225_700).build()
        #expect(!report.upToDate, "the lock holds other bytes than the build wrote")
        #expect(report.inputChanges?.modified == ["content/packs.lock"], "\(String(describing: report.inputChanges))")
    }

    @Test func aKeyReplacedWithTheSameMetadataSignsTheNextBuild() throws {
        let site = try PackSite()
        let first = PackKeys.generate()
        let second = PackKeys.generate()
        try site.work.write(first.privateKey + "\n", to: "signing.key")
        let key = site.work.appending("signing.key")
        func signer() throws -> String {
            let lines = try String(contentsOfFile: site.output + "/packs/latest.json.sig", encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1)
            return String(lines.first?.split(separator: " ").dropFirst().first ?? "")
        }
        func id(_ publicKey: String) throws -> String { try PackPublicKey(base64: publicKey).keyID }
        _ = try site.builder(at: 1_767_225_700, signingKeyFile: key).build()
        #expect(try signer() == id(first.publicKey))
        #expect(try site.builder(at: 1_767_225_700, signingKeyFile: key).build().upToDate, "nothing changed")

        var before = stat()
        #expect(stat(key, &before) == 0)
        try overwriteKeepingMetadata(key, Data((second.privateKey + "\n").utf8), as: before)
        let report = try site.builder(at: 1_767_225_700, signingKeyFile: key).build()
        #expect(!report.upToDate, "another key signs")
        #expect(try signer() == id(second.publicKey))
        // Every file is signed by it, the manifest too (written in parts from the last one, and
        // signed joined).
        let trusted = [try PackPublicKey(base64: second.publicKey)]
        let packs = site.output + "/packs"
        let signatures = try FileManager.default.subpathsOfDirectory(atPath: packs).filter { $0.hasSuffix(".sig") }
        #expect(signatures.contains("v/2.json.sig"), "\(signatures)")
        for signature in signatures {
            let data = try Data(contentsOf: URL(fileURLWithPath: packs + "/" + signature.dropLast(4)))
            let check = PackSignature.verify(data, signatureFile: try Data(contentsOf: URL(fileURLWithPath: packs + "/" + signature)), trustedKeys: trusted)
            #expect(check == .valid(keyID: trusted[0].keyID), "\(signature): \(check)")
        }
    }
}
