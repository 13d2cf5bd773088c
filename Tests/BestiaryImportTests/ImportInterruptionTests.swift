import BestiaryContent
import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// An import stopped while it writes (a Ctrl-C, a terminal closed): it stops between two files,
/// each complete, says how far it came, and the same import again finishes the job. What a write
/// killed outright left (`NAME.tmp-PID-N`) is removed by the next import (a volunteer's Ctrl-C
/// left a share of the records written, without a word, and a temporary file `git add -A` took).
@Suite struct ImportInterruptionTests {
    @Test func aStopBetweenFilesLeavesEachCompleteAndTheSameImportFinishesIt() throws {
        let site = try TestSite()
        let plan = try site.plan("dogceo/breeds.json", .dogceo)
        #expect(plan.fileCount > 5)
        var asked = 0
        do {
            try plan.apply(root: site.root, fileSystem: LocalFileSystem()) {
                asked += 1
                return asked > 3
            }
            Issue.record("not stopped")
        } catch let stopped as ChangePlan.Stopped {
            #expect(stopped.done == 3)
            #expect(stopped.total == plan.fileCount)
        }
        let written = try site.snapshot().keys.filter { $0.hasPrefix("content/animals/") }
        #expect(written.count == 3, "\(written)")
        #expect(!written.contains { $0.contains(".tmp-") })
        // Planned again, the three are unchanged; written, the rest are made.
        let again = try site.plan("dogceo/breeds.json", .dogceo)
        #expect(again.unchanged == 3)
        try again.apply(root: site.root, fileSystem: LocalFileSystem())
        #expect(try site.plan("dogceo/breeds.json", .dogceo).unchanged == plan.records.count)
    }

    @Test func whatAWriteKilledOutrightLeftIsRemovedByTheNextImportButNotALiveOnes() throws {
        let site = try TestSite()
        // A process that has ended: its number is free (a reused one is alive, and left alone).
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier
        try site.write("---\nhalf", to: "content/animals/ente.md.tmp-\(gone)-3516180786")
        try site.write("---\nbeing written", to: "content/animals/kuh.md.tmp-\(getpid())-42")
        try site.write("a note", to: "content/animals/notes.tmp-old")
        let plan = try site.plan("dogceo/breeds.json", .dogceo)
        #expect(plan.removeLeftovers(root: site.root, fileSystem: LocalFileSystem()) == ["content/animals/ente.md.tmp-\(gone)-3516180786"])
        #expect(!site.exists("content/animals/ente.md.tmp-\(gone)-3516180786"))
        #expect(site.exists("content/animals/kuh.md.tmp-\(getpid())-42"), "this process's own, being written")
        #expect(site.exists("content/animals/notes.tmp-old"), "not one of Bestiary's")
    }

    @Test func theTemporaryFilesOfAtomicWritesAreKnownByTheirNames() {
        #expect(AtomicWriteLeftovers.writer(of: "ente.md.tmp-6008-3516180786") == 6008)
        #expect(AtomicWriteLeftovers.writer(of: "waldkauz.ogg.tmp-5640-19507088") == 5640)
        for name in ["ente.md", "notes.tmp-old", "x.tmp-12", "x.tmp-12-", "x.tmp--1-2", "x.tmp-0-5", "x.tmp-a-1"] {
            #expect(AtomicWriteLeftovers.writer(of: name) == nil, "\(name)")
        }
    }
}
