import BestiaryTestSupport
import Foundation
import Testing

/// Two builds of the same inputs with the same SOURCE_DATE_EPOCH are byte-identical, whatever
/// the scheduling (DESIGN.md §4).
@Suite struct DeterminismTests {
    @Test(arguments: ["content", "sites/tuxpaint"])
    func twoBuildsAreByteIdentical(_ site: String) throws {
        let root = site == "content" ? Fixtures.repositoryRoot : Fixtures.path(site)
        let work = TemporaryDirectory()
        try build(root: root, output: work.appending("a"))
        try build(root: root, output: work.appending("b"))
        let a = try Tree(work.appending("a")), b = try Tree(work.appending("b"))
        #expect(a.files.count > 50)
        #expect(a.differences(from: b) == [])
    }

    @Test func sequentialAndParallelBuildsAreIdentical() throws {
        let work = TemporaryDirectory()
        let env = ["SOURCE_DATE_EPOCH": "1767225600"]
        let root = try copyOfFixture("tuxpaint", into: work)  // `build` records the pack version in it
        let one = try Binary.run(["build", "--root", root, "--output", work.appending("one")], environment: env.merging(["BESTIARY_JOBS": "1"]) { $1 })
        let many = try Binary.run(["build", "--root", root, "--output", work.appending("many")], environment: env.merging(["BESTIARY_JOBS": "4"]) { $1 })
        #expect(one.status == 0 && many.status == 0, "\(one.stderr)\n\(many.stderr)")
        #expect(try Tree(work.appending("one")).differences(from: Tree(work.appending("many"))) == [])
    }

    /// A one-character output folder, relative, also under a folder not made yet: the build
    /// crashed in Foundation (`deletingLastPathComponent` traps on "z"; found by a CI maintainer).
    /// And a one-character store for `sync`.
    @Test func aOneCharacterOutputFolderIsBuilt() throws {
        let work = TemporaryDirectory()
        let root = try copyOfFixture("tuxpaint", into: work)
        // Built now, whatever SOURCE_DATE_EPOCH CI sets (2026-01-01): `sync` checks the pointer's
        // expiry against this machine's clock.
        let now = ["SOURCE_DATE_EPOCH": String(Int(Date().timeIntervalSince1970))]
        for output in ["z", "q/s"] {
            let result = try Binary.run(["build", "--root", root, "--output", output], environment: now, currentDirectory: work.path)
            #expect(result.status == 0, "\(output): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: work.appending(output + "/index.html")), "\(output)")
        }
        let sync = try Binary.run(["sync", work.appending("z/packs"), "--db", "s"], currentDirectory: work.path)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appending("s")))
    }

    @Test func outputDoesNotDependOnWhereTheSiteIs() throws {
        let work = TemporaryDirectory()
        let copy = try copyOfFixture("minimal", into: work)
        try build(root: Fixtures.path("sites/minimal"), output: work.appending("a"))
        try build(root: copy, output: work.appending("b"))
        #expect(try Tree(work.appending("a")).differences(from: Tree(work.appending("b"))) == [])
    }
}
