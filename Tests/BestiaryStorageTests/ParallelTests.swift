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

    /// Two big folders and 3,000 folders of one item each, as the output's media links and pages are.
    static let outputLike = (0..<9_000).map { i in ["media/\(i)", "packs/media/\(i)", "animals/\(i)/index.html"][i % 3] }
    static func folder(_ path: String) -> Substring { path[..<path.lastIndex(of: "/")!] }

    /// `forEach(_:groupedBy:_:)`'s shares: each folder's items all in one share (making entries in
    /// one folder takes its lock in the kernel: a second thread there only waits), every item in
    /// exactly one, in input order; the two big folders on two threads, the shares balanced.
    @Test func forEachSharesOutWholeFolders() {
        let items = Self.outputLike
        let shares = Parallel.shares(items, groupedBy: Self.folder, workers: 2)
        #expect(shares.count == 2)
        #expect(shares.joined().sorted() == Array(items.indices), "every item once")
        #expect(shares.allSatisfy { $0 == $0.sorted() }, "in input order")
        let owner = Dictionary(grouping: shares.indices.flatMap { w in shares[w].map { (Self.folder(items[$0]), w) } }, by: \.0)
        #expect(owner.values.allSatisfy { Set($0.map(\.1)).count == 1 }, "a folder in one share")
        #expect(owner["media"]?.first?.1 != owner["packs/media"]?.first?.1, "the two big folders apart")
        #expect(abs(shares[0].count - shares[1].count) <= 1, "\(shares.map(\.count))")
        #expect(Parallel.shares(items, groupedBy: { _ in "media" }, workers: 2) == [Array(items.indices)], "one folder: one share")
        #expect(Parallel.shares(items, groupedBy: Self.folder, workers: 1) == [Array(items.indices)])
    }

    /// It does every item once, and never two items of one folder at the same time.
    @Test func forEachGivesEachFolderToOneThreadAtATime() {
        let items = Self.outputLike
        final class Watch: @unchecked Sendable {
            let lock = NSLock()
            var inside: [Substring: Int] = [:]
            var together: Set<Substring> = []
            var done: [String: Int] = [:]
        }
        let watch = Watch()
        Parallel.forEach(items, groupedBy: Self.folder) { path in
            let f = Self.folder(path)
            watch.lock.withLock {
                watch.inside[f, default: 0] += 1
                if watch.inside[f]! > 1 { watch.together.insert(f) }
            }
            usleep(path.hasSuffix("00") ? 300 : 10)  // so that the threads overlap
            watch.lock.withLock {
                watch.inside[f]! -= 1
                watch.done[path, default: 0] += 1
            }
        }
        #expect(watch.together.isEmpty, "folders worked in by two threads at once: \(watch.together.sorted().prefix(5))")
        #expect(watch.done.count == items.count && watch.done.values.allSatisfy { $0 == 1 })
    }

    /// Its error is the one a sequential loop throws: the first failing item in input order,
    /// whichever thread reached a later one first; and once an item failed, nothing after it is
    /// started (a failed staging does not go on making links).
    @Test func forEachThrowsTheFirstErrorInInputOrder() {
        struct Failure: Error, Equatable { let item: Int }
        let failing: Set<Int> = [9_990, 4_321, 4_322, 8_000, 15]
        var done = [Bool](repeating: false, count: 10_000)
        let lock = NSLock()
        do {
            try Parallel.forEach(Array(0..<10_000), groupedBy: { i in Substring(["a", "b", "c"][i % 3]) }) { i in
                if i == 15 { usleep(50_000) }  // the first failure comes last in time
                if failing.contains(i) { throw Failure(item: i) }
                lock.withLock { done[i] = true }
            }
            Issue.record("no error thrown")
        } catch let failure as Failure {
            #expect(failure.item == 15)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect((0..<15).allSatisfy { done[$0] }, "every item before the first failure was done")

        // One thread fails at once; the other, slow, stops at its next item instead of doing its
        // 6,666 (of the folders `b` and `c`).
        var later = 0
        do {
            try Parallel.forEach(Array(0..<10_000), groupedBy: { i in Substring(["a", "b", "c"][i % 3]) }) { i in
                if i == 3 { throw Failure(item: i) }
                if i % 3 != 0 {
                    usleep(100)
                    lock.withLock { later += 1 }
                }
            }
        } catch {}
        if Parallel.jobs > 1 { #expect(later < 3_000, "\(later) items done after a failure") }
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
