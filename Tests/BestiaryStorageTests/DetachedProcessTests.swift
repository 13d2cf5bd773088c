import BestiaryStorage
import Foundation
import Testing

/// A detached process holds nothing of its caller's: not a pipe the caller's reader waits on (a
/// script reading `bestiary build`'s output would wait until the tree the build discarded was
/// gone), not its session (a terminal's Ctrl-C), not its environment, not its working folder.
@Suite struct DetachedProcessTests {
    #if os(Linux)
    @Test func itHoldsNoDescriptorSessionEnvironmentOrFolderOfItsCaller() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // inherited across exec unless closed there
        defer { close(ends[0]); close(ends[1]) }
        #expect(!ProcessInfo.processInfo.environment.isEmpty)
        // (posix_spawn returns once the program runs: what it holds can be looked at now.)
        let started = try #require(DetachedProcess.start("/bin/sleep", name: "sleep", arguments: ["30"]))
        defer {
            kill(started, SIGKILL)
            var status: Int32 = 0
            waitpid(started, &status, 0)
        }
        let fm = FileManager.default
        // (The program may hold files of its own as it starts: its libraries, as they load.)
        let ours = try fm.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let held = try fm.contentsOfDirectory(atPath: "/proc/\(started)/fd").compactMap { try? fm.destinationOfSymbolicLink(atPath: "/proc/\(started)/fd/" + $0) }
        #expect(!held.contains(ours), "\(held)")
        for descriptor in 0...2 { #expect((try? fm.destinationOfSymbolicLink(atPath: "/proc/\(started)/fd/\(descriptor)")) == "/dev/null") }
        #expect(getsid(started) == started)
        #expect((try? fm.destinationOfSymbolicLink(atPath: "/proc/\(started)/cwd")) == "/")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "/proc/\(started)/environ")).isEmpty)
    }
    #endif

    @Test func aProgramThatCannotStartIsNil() {
        #expect(DetachedProcess.start("/nonexistent/program", name: "program", arguments: []) == nil)
    }
}
