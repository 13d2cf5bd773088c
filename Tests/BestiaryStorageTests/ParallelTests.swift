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
            let results = Parallel.map(items, minimumChunk: 1) { i in (String(i), Box("#\(i)")) }
            #expect(results.count == items.count)
            #expect(results.enumerated().allSatisfy { $0.element.0 == String($0.offset) && $0.element.1.text == "#\($0.offset)" })
        }
    }

    @Test func aThrowingWorkerFailsTheWholeMap() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            _ = try Parallel.map(Array(0..<10_000), minimumChunk: 1) { i -> Int in
                if i == 7_777 { throw Failure() }
                return i
            }
        }
    }
}
