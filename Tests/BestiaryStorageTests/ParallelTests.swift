import BestiaryStorage
import Foundation
import Testing

/// `Parallel.map` keeps the input order and survives many workers writing results at once (its
/// result slots used to be an `Array` written through `withUnsafeMutableBufferPointer` from every
/// worker, which corrupted the heap now and then: the preview crashed while indexing its output).
@Suite struct ParallelTests {
    final class Box: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    @Test func resultsKeepTheInputOrderUnderContention() {
        let items = Array(0..<200_000)
        for _ in 0..<5 {
            // Cheap work and reference-counted results: the workers write their slots as fast as they can.
            let results = Parallel.map(items, chunk: 1) { i in (String(i), Box("#\(i)")) }
            #expect(results.count == items.count)
            #expect(results.enumerated().allSatisfy { $0.element.0 == String($0.offset) && $0.element.1.text == "#\($0.offset)" })
        }
    }

    @Test func aThrowingWorkerFailsTheWholeMap() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            _ = try Parallel.map(Array(0..<10_000), chunk: 1) { i -> Int in
                if i == 7_777 { throw Failure() }
                return i
            }
        }
    }

    /// Chunks go to whichever worker is free, yet the error is the one a sequential `map` throws:
    /// the first failing item in input order, however the failures are spread over the chunks.
    @Test func theErrorThrownIsTheFirstInInputOrder() {
        struct Failure: Error, Equatable { let item: Int }
        let failing: Set<Int> = [9_990, 4_321, 4_322, 8_000]
        for chunk in [1, 7, 64, 5_000] {
            do {
                _ = try Parallel.map(Array(0..<10_000), chunk: chunk) { i -> Int in
                    // The later failures come first in time: their workers reach them sooner.
                    if i == 4_321 { usleep(20_000) }
                    if failing.contains(i) { throw Failure(item: i) }
                    return i
                }
                Issue.record("no error thrown (chunk \(chunk))")
            } catch let failure as Failure {
                #expect(failure.item == 4_321, "chunk \(chunk)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    /// `Background` runs its work while the caller goes on, and gives its value (or its error)
    /// to every `value()`, however often it is asked; work inside it still uses `Parallel.map`.
    @Test func backgroundWorkGivesItsValueOrItsError() throws {
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let threaded = Parallel.jobs > 1  // with BESTIARY_JOBS=1 the work runs inside init
        let work = Background { () -> [Int] in
            if threaded {
                started.signal()
                go.wait()
            }
            return Parallel.map(Array(0..<1_000)) { $0 * 2 }
        }
        if threaded {
            // The work waits for the caller: only a thread of its own gets this far.
            started.wait()
            go.signal()
        }
        #expect(work.value() == (0..<1_000).map { $0 * 2 })
        #expect(work.value().count == 1_000, "asked again")

        struct Failure: Error, Equatable {}
        let failing = Background { () throws(Failure) -> Int in throw Failure() }
        #expect(throws: Failure.self) { try failing.value() }
        #expect(throws: Failure.self) { try failing.value() }
    }

    /// `take()` hands the value over: the caller's is its only holder (a dictionary taken is
    /// changed in place, not copied), where `value()` leaves the work holding it too.
    @Test func aTakenValueIsHeldByTheCallerAlone() {
        final class Box {}
        let kept = Background { Box() }
        var held = kept.value()
        #expect(!isKnownUniquelyReferenced(&held))
        let taken = Background { Box() }
        var alone = taken.take()
        #expect(isKnownUniquelyReferenced(&alone))
    }
}
