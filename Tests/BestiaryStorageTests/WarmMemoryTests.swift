import BestiaryStorage
import Foundation
import Testing

/// ``WarmMemory`` keeps what a piece of work frees while work comes, and gives it back once none
/// came for its idle time. The timers are the test's: it fires them when it likes.
@Suite struct WarmMemoryTests {
    final class Probe: @unchecked Sendable {
        private let lock = NSLock()
        private var _kept = 0, _released = 0
        private var timers: [(Double, @Sendable () -> Void)] = []
        var kept: Int { lock.withLock { _kept } }
        var released: Int { lock.withLock { _released } }
        var delays: [Double] { lock.withLock { timers.map(\.0) } }

        func memory(idle: Double = 30) -> WarmMemory {
            WarmMemory(
                idle: idle,
                schedule: { delay, work in self.lock.withLock { self.timers.append((delay, work)) } },
                keep: { self.lock.withLock { self._kept += 1 } },
                release: { self.lock.withLock { self._released += 1 } })
        }

        func noteRelease() { lock.withLock { _released += 1 } }

        /// Runs the timer scheduled `index`-th (from 0), as if its time had come.
        func fire(_ index: Int) {
            let work = lock.withLock { timers[index].1 }
            work()
        }
    }

    @Test func memoryIsKeptWhileWorkComesAndGivenBackOnceItStops() {
        let probe = Probe()
        let memory = probe.memory(idle: 30)
        memory.begin()
        #expect(probe.kept == 1)
        memory.end()
        #expect(probe.delays == [30])
        #expect(probe.released == 0, "given back at the end of the work, not after the idle time")
        // More work before the idle time passed: the first timer finds it and gives nothing back.
        memory.begin()
        #expect(probe.kept == 1, "already kept")
        probe.fire(0)
        #expect(probe.released == 0)
        memory.end()
        probe.fire(0)
        #expect(probe.released == 0, "a timer set before the latest work began does nothing")
        probe.fire(1)
        #expect(probe.released == 1)
        // Given back once: a late timer does nothing more, and the next work keeps again.
        probe.fire(1)
        #expect(probe.released == 1)
        memory.begin()
        #expect(probe.kept == 2)
        memory.end()
        probe.fire(2)
        #expect(probe.released == 2)
    }

    /// Two pieces at once (the preview's never overlap, but nothing here says so): the first
    /// one's end gives nothing back while the second runs.
    @Test func nothingIsGivenBackWhileAnotherPieceRuns() {
        let probe = Probe()
        let memory = probe.memory()
        memory.begin()
        memory.begin()
        memory.end()
        probe.fire(0)
        #expect(probe.released == 0)
        memory.end()
        probe.fire(1)
        #expect(probe.released == 1)
    }

    /// Freed while keeping, it gives the memory back: no timer of it will.
    @Test func freedWhileKeepingItGivesTheMemoryBack() {
        let probe = Probe()
        var memory: WarmMemory? = probe.memory()
        memory?.begin()
        memory?.end()
        memory = nil
        #expect(probe.released == 1)
        probe.fire(0)
        #expect(probe.released == 1)
    }

    @Test func giveBackReleasesAtOnceButNotDuringWork() {
        let probe = Probe()
        let memory = probe.memory()
        memory.giveBack()
        #expect(probe.released == 0, "nothing kept yet")
        memory.begin()
        memory.giveBack()
        #expect(probe.released == 0, "work under way")
        memory.end()
        memory.giveBack()
        #expect(probe.released == 1)
        probe.fire(0)
        #expect(probe.released == 1, "already given back")
    }

    /// With the default timer: the memory goes back once the idle time has passed.
    @Test func theDefaultTimerGivesTheMemoryBack() async throws {
        let given = Probe()
        let memory = WarmMemory(idle: 0.05, keep: { ProcessMemory.keepFreedMemory() }, release: {
            ProcessMemory.returnLargeBlocksPromptly()
            ProcessMemory.releaseFreed()
            given.noteRelease()
        })
        memory.begin()
        memory.end()
        var waited = 0.0
        while given.released == 0, waited < 10 {
            try await Task.sleep(nanoseconds: 20_000_000)
            waited += 0.02
        }
        // Alive until here: freed, it would give the memory back itself.
        withExtendedLifetime(memory) {}
        #expect(given.released == 1, "not given back after \(waited) s")
    }
}
