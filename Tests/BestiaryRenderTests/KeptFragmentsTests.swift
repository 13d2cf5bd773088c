import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryRender

/// The cards of a previous list page are found at their place in the new list first
/// (``KeptSection``), and otherwise by key: either way, what a table by key gives.
struct KeptFragmentsTests {
    /// A page of `keys`' cards, each its key between brackets, and its table.
    static func page(_ keys: [String]) -> (bytes: [UInt8], table: FragmentTable) {
        var bytes: [UInt8] = Array("<ul>".utf8)
        var entries: [FragmentTable.Entry] = []
        for key in keys {
            let card = Array("[\(key)]".utf8)
            entries.append(.init(section: "1 html ", item: key, offset: bytes.count, length: card.count))
            bytes += card
        }
        return (bytes + Array("</ul>".utf8), FragmentTable(salt: "s", entries: entries))
    }

    /// Edits of a list of 300 keys: cards changed (a new key), added, removed and moved. Each new
    /// key at each place is found as a table by key finds it, and only while few are missing
    /// from their places is no table made.
    @Test func aCardIsFoundAtItsPlaceOrByKeyAsATableFindsIt() throws {
        var generator = SplitMix64(seed: 11)
        let before = (0..<300).map { "k\($0)" }
        let (bytes, table) = Self.page(before)
        for round in 0..<40 {
            var after = before
            let edits = Int(generator.next() % 12)
            for e in 0..<edits {
                let at = Int(generator.next() % UInt64(after.count))
                switch generator.next() % 4 {
                case 0: after[at] = "new\(round).\(e)"
                case 1: after.insert("added\(round).\(e)", at: at)
                case 2: after.remove(at: at)
                default: after.insert(after.remove(at: at), at: Int(generator.next() % UInt64(after.count)))
                }
            }
            let kept = try #require(table.kept(in: bytes))
            let section = try #require(kept.sections["1 html "])
            var missing = 0
            for (i, key) in after.enumerated() {
                let expected = before.contains(key) ? Array("[\(key)]".utf8) : nil
                #expect(kept.bytes(section: "1 html ", item: key, at: i).map(Array.init) == expected, "\(key) at \(i)")
                if i >= before.count || before[i] != key { missing += 1 }
            }
            #expect(section.hasTable == (missing > KeptSection.scansBeforeTable), "round \(round): \(missing) not at their place")
            #expect(kept.bytes(section: "2 html ", item: "k1", at: 1) == nil)
        }
        // The same key twice (which a build never writes): by key, the last one's bytes, as a table
        // filled in order keeps them; at a place that holds the key, that place's.
        var doubled = Self.page(["a", "b", "a"])
        doubled.bytes[doubled.table.entries[2].offset + 1] = UInt8(ascii: "A")
        let kept = try #require(doubled.table.kept(in: doubled.bytes))
        #expect(kept.bytes(section: "1 html ", item: "a", at: 5).map(Array.init) == Array("[A]".utf8))
        #expect(kept.bytes(section: "1 html ", item: "a", at: 1).map(Array.init) == Array("[A]".utf8))
        #expect(kept.bytes(section: "1 html ", item: "a", at: 2).map(Array.init) == Array("[A]".utf8))
        #expect(kept.bytes(section: "1 html ", item: "a", at: 0).map(Array.init) == Array("[a]".utf8))
        #expect(kept.bytes(section: "1 html ", item: "a").map(Array.init) == Array("[A]".utf8))
        // A section in two runs of the table (the same block rendered in two places): one list of
        // its items, the first run's then the second's.
        let split = FragmentTable(salt: "s", entries: [
            .init(section: "x", item: "p", offset: 0, length: 1), .init(section: "y", item: "q", offset: 1, length: 1),
            .init(section: "x", item: "r", offset: 2, length: 1),
        ])
        let keptSplit = try #require(split.kept(in: Array("PQR".utf8)))
        #expect(keptSplit.bytes(section: "x", item: "r", at: 1).map(Array.init) == Array("R".utf8))
        #expect(keptSplit.bytes(section: "x", item: "p", at: 0).map(Array.init) == Array("P".utf8))
        #expect(keptSplit.bytes(section: "y", item: "q", at: 0).map(Array.init) == Array("Q".utf8))
    }

    /// The catalogue's objects are looked up from both cores at once: with every card one place
    /// off, the scans and then the one table are made while other threads look too.
    @Test func cardsAreFoundFromManyThreadsAtOnce() throws {
        let before = (0..<3000).map { "k\($0)" }
        let (bytes, table) = Self.page(before)
        let after = ["new"] + before
        let kept = try #require(table.kept(in: bytes))
        final class Found: @unchecked Sendable {
            let lock = NSLock()
            var bytes: [[UInt8]?]
            init(_ count: Int) { bytes = Array(repeating: nil, count: count) }
        }
        let results = Found(after.count)
        DispatchQueue.concurrentPerform(iterations: after.count) { i in
            let bytes = kept.bytes(section: "1 html ", item: after[i], at: i).map(Array.init)
            results.lock.withLock { results.bytes[i] = bytes }
        }
        let found = results.bytes
        #expect(found[0] == nil)
        for i in 1..<after.count { #expect(found[i] == Array("[\(after[i])]".utf8), "\(after[i])") }
        #expect(try #require(kept.sections["1 html "]).hasTable)
    }

    /// An entry outside the file, or cut inside a character, makes the whole table unusable.
    @Test func aDamagedTableKeepsNothing() {
        let (bytes, table) = Self.page(["a", "b"])
        var outside = table
        outside.entries[1].length = bytes.count
        #expect(outside.kept(in: bytes) == nil)
        let (accented, accentedTable) = Self.page(["é"])
        var cut = accentedTable
        cut.entries[0].offset += 2  // inside the two bytes of "é"
        cut.entries[0].length -= 2
        #expect(cut.kept(in: accented) == nil)
    }
}
