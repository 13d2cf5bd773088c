import BestiaryDiagnostics
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiarySite

/// The trees a full build discards (the output it replaced, and the spare) are renamed out of the
/// way and handed to another process when the build has one (``BuildOptions/removesInBackground``):
/// the build does not wait for 100,000 entries to go. Without one, or when none starts, it removes
/// them itself. A tree whose removal never ended is handed on again by the next build.
@Suite struct DiscardedTreeTests {
    /// What a build handed to its remover: the paths, in order.
    typealias Handed = LockedLog<String>

    @discardableResult
    func build(_ root: String, _ output: String, force: Bool = false, remover: (@Sendable (String) -> Bool)?) throws -> BuildReport {
        var options = BuildOptions(
            root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"],
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        options.force = force
        options.removesInBackground = remover
        return try SiteBuilder(options: options).build()
    }

    func names(_ folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    func edit(_ root: String, _ bear: String) throws {
        try "---\nname: {en: \(bear), de: Bär}\ngroup: mammal\n---\n".write(toFile: root + "/content/animals/bear.md", atomically: false, encoding: .utf8)
    }

    /// A site built, then rebuilt after an edit: its output has a spare.
    func siteWithASpare() throws -> (TemporaryDirectory, root: String, output: String) {
        let work = TemporaryDirectory("bestiary-discard")
        let root = try copyOfFixture("tuxpaint", into: work)
        let output = work.appending("out")
        try build(root, output, remover: nil)
        try edit(root, "Brown bear")
        try build(root, output, remover: nil)
        return (work, root, output)
    }

    @Test func aFullBuildHandsTheOutputItReplacedAndTheSpareToItsRemover() throws {
        let (work, root, output) = try siteWithASpare()
        #expect(try names(work.path).contains(".out.bestiary-spare"))
        let oldPage = try work.read("out/animals/bear/index.html")
        let handed = Handed()
        try build(root, output, force: true) { path in
            handed.append(path)
            return true
        }
        // Both renamed next to the output, by absolute paths, named by this process; not removed.
        let trash = try names(work.path).filter { $0.contains(".bestiary-trash-") }
        #expect(trash.count == 2)
        #expect(trash.allSatisfy { $0.hasPrefix(".out.bestiary-trash-\(getpid())-") })
        #expect(handed.all.sorted() == trash.map { work.appending($0) }.sorted())
        #expect(handed.all.allSatisfy { $0.hasPrefix("/") })
        #expect(try !names(work.path).contains(".out.bestiary-spare"))
        // One of them is the output the build replaced, whole.
        #expect(trash.contains { (try? work.read($0 + "/animals/bear/index.html")) == oldPage })
        // The new output is a build from nothing's.
        try build(root, work.appending("full"), force: true, remover: nil)
        #expect(try Tree(output).differences(from: Tree(work.appending("full"))) == [])
        // Given to a remover that never ran (nobody holds its lock), each is a leftover to the
        // next build, which hands it to its own remover, once; one a remover holds is not. Without
        // a remover, the build removes them itself.
        do {
            let holding = work.appending(trash[1])
            guard case .acquired(let held) = FileLock.tryAcquireFolder(holding) else {
                Issue.record("\(holding) could not be locked")
                return
            }
            try edit(root, "Big bear")
            let again = Handed()
            try build(root, output) { path in
                again.append(path)
                return true
            }
            #expect(again.all == [work.appending(trash[0])])
            #expect(FileManager.default.fileExists(atPath: holding + "/index.html"))  // left to its remover
            withExtendedLifetime(held) {}
        }
        try edit(root, "Brown bear")
        try build(root, output, remover: nil)
        #expect(try names(work.path).filter { $0.contains("trash") } == [])
    }

    /// A tree of this user's that waited ten minutes for a remover (one that cannot work here:
    /// it starts, then fails) is removed by the build itself, not handed on again and again.
    @Test func aTreeThatWaitedTooLongIsRemovedByTheBuild() throws {
        final class Aged: PassingFileSystem, @unchecked Sendable {
            override func folderInfos(below directory: String, _ paths: [String]) -> [FolderInfo?] {
                base.folderInfos(below: directory, paths).map { found in
                    found.map { FolderInfo(info: $0.info, changeTime: $0.changeTime - OutputWriter.trashPatience - 1_000_000_000) }
                }
            }
        }
        let (work, root, output) = try siteWithASpare()
        try work.write("x", to: ".out.bestiary-trash-1-2/animals/index.html")
        try edit(root, "Big bear")
        var options = BuildOptions(
            root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"], fileSystem: Aged(),
            time: FixedTimeSource(Date(timeIntervalSince1970: 1_767_225_600)))
        options.recordsPackVersions = false
        let handed = Handed()
        options.removesInBackground = { path in
            handed.append(path)
            return true
        }
        _ = try SiteBuilder(options: options).build()
        #expect(handed.all == [])
        #expect(try names(work.path).filter { $0.contains("trash") } == [])
    }

    @Test func withoutARemoverOrWhenNoneStartsTheBuildRemovesThem() throws {
        let (work, root, output) = try siteWithASpare()
        let handed = Handed()
        try build(root, output, force: true) { path in
            handed.append(path)
            return false
        }
        #expect(handed.all.count == 2)
        #expect(try names(work.path).filter { $0.contains("trash") || $0.contains("spare") || $0.contains("staging") } == [])
        try edit(root, "Big bear")
        try build(root, output, remover: nil)
        try build(root, output, force: true, remover: nil)
        #expect(try names(work.path).filter { $0.contains("trash") || $0.contains("spare") || $0.contains("staging") } == [])
    }

    /// What `bestiary remove-trash` does: only a folder named as a build names a discarded tree,
    /// never a link followed; a read-only folder in it goes too; one gone meanwhile is no error.
    @Test func removingADiscardedTreeRemovesNothingElse() throws {
        let work = TemporaryDirectory("bestiary-discard")
        let fm = FileManager.default
        try work.write("keep", to: "output/index.html")
        try work.write("keep", to: ".output.bestiary-spare/index.html")
        try work.write("keep", to: ".output.bestiary-trash-3-4/index.html")
        // Not next to an output's lock: a folder that only looks like one.
        #expect(throws: DiagnosticError.self) { try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-3-4")) }
        #expect(try work.read(".output.bestiary-trash-3-4/index.html") == "keep")
        try work.write("", to: ".output.bestiary-lock")
        for wrong in ["output", ".output.bestiary-spare", ".bestiary-trash-1", ".output.bestiary-trash-", ".output.bestiary-trash-1x", "missing"] {
            #expect(throws: DiagnosticError.self) { try SiteBuilder.removeDiscarded(at: work.appending(wrong)) }
        }
        #expect(try work.read("output/index.html") == "keep")
        // Held by another remover: left to it.
        do {
            guard case .acquired(let held) = FileLock.tryAcquireFolder(work.appending(".output.bestiary-trash-3-4")) else {
                Issue.record("the folder could not be locked")
                return
            }
            try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-3-4"))
            #expect(try work.read(".output.bestiary-trash-3-4/index.html") == "keep")
            withExtendedLifetime(held) {}
        }
        try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-3-4"))
        // A link named as a discarded tree: left as it is, and what it leads to too.
        try fm.createSymbolicLink(atPath: work.appending(".output.bestiary-trash-7-1"), withDestinationPath: work.appending("output"))
        try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-7-1"))
        #expect(try work.read("output/index.html") == "keep")
        // A tree with a read-only folder in it.
        try work.write("x", to: ".output.bestiary-trash-1-2/animals/bear/index.html")
        try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: work.appending(".output.bestiary-trash-1-2/animals/bear"))
        try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-1-2"))
        #expect(try names(work.path) == [".output.bestiary-lock", ".output.bestiary-spare", ".output.bestiary-trash-7-1", "output"])
        // Gone already (another process took it): nothing to do.
        try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-1-2"))
    }

    /// A file the remover may not remove (another user's): what stays is left as a killed build's
    /// staging folder, which the next build tries once more and names with what to do, not as a
    /// discarded tree whose removal each build would start again.
    @Test func whatCannotBeRemovedIsLeftForTheNextBuildToName() throws {
        final class Refusing: PassingFileSystem, @unchecked Sendable {
            // The file `theirs`, and so the folder holding it, cannot be removed.
            override func remove(_ path: String) throws {
                if path.hasSuffix("/theirs") || FileManager.default.fileExists(atPath: path + "/theirs") {
                    throw CocoaError(.fileWriteNoPermission)
                }
                try base.remove(path)
            }
        }
        let work = TemporaryDirectory("bestiary-discard")
        try work.write("", to: ".output.bestiary-lock")
        try work.write("x", to: ".output.bestiary-trash-1-2/theirs")
        try work.write("x", to: ".output.bestiary-trash-1-2/animals/bear/index.html")
        try SiteBuilder.removeDiscarded(at: work.appending(".output.bestiary-trash-1-2"), fileSystem: Refusing())
        #expect(try names(work.path) == [".output.bestiary-lock", ".output.bestiary-staging-\(getpid())"])
        #expect(try names(work.appending(".output.bestiary-staging-\(getpid())")) == ["theirs"])
    }
}
