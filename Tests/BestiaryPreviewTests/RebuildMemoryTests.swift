import BestiaryDiagnostics
import BestiarySite
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

/// The preview's rebuilds keep the memory they free for the next one (``WarmMemory``), and a
/// build whose peak counts (the first, or one after the memo was forgotten) gives it back first.
@Suite struct RebuildMemoryTests {
    typealias Calls = LockedLog<String>

    @Test func rebuildsKeepFreedMemoryAndOtherBuildsGiveItBackFirst() throws {
        let dir = TemporaryDirectory("bestiary-rebuild-memory")
        let root = dir.appending("site"), output = dir.appending("out")
        try Fixtures.copy("sites/tuxpaint", to: root)
        let calls = Calls()
        let memory = WarmMemory(
            idle: 30, schedule: { delay, _ in calls.append("timer \(Int(delay)) s") }, keep: { calls.append("keep") },
            release: { calls.append("release") })
        let rebuilder = SiteRebuilder(
            options: BuildOptions(root: root, output: output, environment: ["SOURCE_DATE_EPOCH": "1767225600"]), warmMemory: memory)

        _ = try rebuilder.rebuild(changes: [.everything])
        #expect(calls.all == [], "the first build keeps nothing for later")

        let bear = root + "/content/animals/bear.md"
        let text = try String(contentsOfFile: bear, encoding: .utf8)
        try text.replacingOccurrences(of: "name: {en: Bear, de: Bär}", with: "name: {en: Brown bear, de: Braunbär}")
            .writeReplacing(toFile: bear)
        let rebuilt = try rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/bear.md")])
        #expect(!rebuilt.upToDate)
        #expect(calls.all == ["keep", "timer 30 s"])

        // A rebuild that fails keeps the memory too, and sets the timer again.
        try text.replacingOccurrences(of: "name: {en: Bear, de: Bär}", with: "name: {en: Bear, de: Bär}\ndifficulty: 9")
            .writeReplacing(toFile: bear)
        #expect(throws: DiagnosticError.self) { try rebuilder.rebuild(changes: [ChangedPath(classifying: "content/animals/bear.md")]) }
        #expect(calls.all == ["keep", "timer 30 s", "timer 30 s"])

        try text.writeReplacing(toFile: bear)
        // A change of unknown scope forgets the memo: that build is a whole one, and gives the kept memory back first.
        _ = try rebuilder.rebuild(changes: [.everything])
        #expect(calls.all == ["keep", "timer 30 s", "timer 30 s", "release"])
    }
}
