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

    @Test func outputDoesNotDependOnWhereTheSiteIs() throws {
        let work = TemporaryDirectory()
        let copy = try copyOfFixture("minimal", into: work)
        try build(root: Fixtures.path("sites/minimal"), output: work.appending("a"))
        try build(root: copy, output: work.appending("b"))
        #expect(try Tree(work.appending("a")).differences(from: Tree(work.appending("b"))) == [])
    }
}
