import BestiaryStorage
import Testing

/// Two lists already in one order merged as one (``Array/merging(_:_:by:)``).
@Suite struct SortedMergeTests {
    @Test func mergesInOrderAndKeepsTheFirstListsEqualElementsFirst() {
        let a = [(1, "a"), (3, "a"), (3, "a2"), (7, "a")]
        let b = [(0, "b"), (3, "b"), (8, "b")]
        let merged = [(Int, String)].merging(a, b) { $0.0 < $1.0 }
        #expect(merged.map(\.1) == ["b", "a", "a", "a2", "b", "a", "b"])
        #expect(merged.map(\.0) == [0, 1, 3, 3, 3, 7, 8])
        #expect([Int].merging([], [2, 1], by: <) == [2, 1])
        #expect([Int].merging([1, 5], [], by: <) == [1, 5])
    }
}
