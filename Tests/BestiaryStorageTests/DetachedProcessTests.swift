import BestiaryStorage
import Foundation
import Testing

/// A detached process holds nothing of its caller's: not a pipe the caller's reader waits on (a
/// script reading `bestiary build`'s output would wait until the tree the build discarded was
/// gone), not its session (a terminal's Ctrl-C), not its working folder.
@Suite struct DetachedProcessTests {
    @Test func itHoldsNoDescriptorSessionOrFolderOfItsCaller() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // inherited across exec unless closed there
        let started = try #require(DetachedProcess.start("/bin/sleep", name: "sleep", arguments: ["3"]))
        defer { kill(started, SIGKILL) }
        close(ends[1])
        let before = Date()
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 0)  // the end at once: no process holds the writing end
        close(ends[0])
        #expect(Date().timeIntervalSince(before) < 2)
        #expect(getsid(started) == started)
        #if os(Linux)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(started)/cwd")) == "/")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(started)/fd").compactMap(Int.init).sorted()
        #expect(descriptors == [0, 1, 2])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(started)/fd/1")) == "/dev/null")
        #endif
    }

    @Test func aProgramThatCannotStartIsNil() {
        #expect(DetachedProcess.start("/nonexistent/program", name: "program", arguments: []) == nil)
    }
}
