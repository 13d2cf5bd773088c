import BestiaryStorage
import BestiaryTemplate
import Foundation

/// Where each card of a list page (the collection, the sightings checklist, the credits: 10,000
/// items each on the bench corpus) went in the page's file, so that the next build in another
/// process copies the cards of unchanged animals from that file instead of making and rendering
/// them again.
///
/// A card's key is its section (``RenderedPage/Fragment/section``) and the digest of its
/// animal's inputs (``PageDigests``); the table's ``salt`` stands for everything else a card can
/// depend on: the site-wide inputs, every template's text and the page's context apart from its
/// keyed lists (``contextDigest(_:)``). A card that looks up a member holding a keyed list is
/// never recorded (`BestiaryTemplate`'s renderer), so the salt need not cover those.
public struct FragmentTable: Sendable, Equatable {
    public typealias Entry = RenderedPage.Fragment

    public var salt: String
    public var entries: [Entry]

    public init(salt: String, entries: [Entry]) {
        self.salt = salt
        self.entries = entries
    }

    /// The cards of `bytes` (the page's file as this table's build wrote it), by section and key;
    /// nil when an entry lies outside the file or does not begin and end between two characters
    /// (a damaged table: a card cut inside a character would change the bytes around it).
    func kept(in bytes: [UInt8]) -> KeptBytes? {
        bytes.withUnsafeBytes { sections(in: $0) }.map { KeptBytes(bytes: bytes, sections: $0) }
    }

    /// ``kept(in:)`` of a page's file read in place (mapped), whose cards the renderer leaves
    /// there: the page is written in parts (``KeptBytes/file``).
    func kept(inFile file: Data) -> KeptBytes? {
        file.withUnsafeBytes { sections(in: $0) }.map { KeptBytes(file: file, sections: $0) }
    }

    private func sections(in bytes: UnsafeRawBufferPointer) -> [String: KeptSection]? {
        func isBoundary(_ i: Int) -> Bool { i == bytes.count || bytes[i] & 0xC0 != 0x80 }
        // Each section's items in the table's order, which is the order they were rendered in: a
        // section is looked up once per run of its entries, not once per entry.
        var sections: [String: (items: [String], ranges: [Range<Int>])] = [:]
        var run: (section: String, items: [String], ranges: [Range<Int>])?
        func close() {
            guard let done = run else { return }
            sections[done.section, default: ([], [])].items.append(contentsOf: done.items)
            sections[done.section]!.ranges.append(contentsOf: done.ranges)
            run = nil
        }
        for entry in entries {
            guard entry.offset >= 0, entry.length >= 0, entry.offset <= bytes.count, entry.length <= bytes.count - entry.offset else { return nil }
            let end = entry.offset + entry.length
            guard isBoundary(entry.offset), isBoundary(end) else { return nil }
            if run?.section != entry.section {
                close()
                run = (entry.section, [], [])
            }
            run!.items.append(entry.item)
            run!.ranges.append(entry.offset..<end)
        }
        close()
        return sections.mapValues { KeptSection(items: $0.items, ranges: $0.ranges) }
    }

    /// A digest of a page's context that is the same in every process: members in key order,
    /// every value tagged with its kind (``DigestFeed``); a keyed list and a lambda count only as
    /// their kind (the cards key the former, the site-wide digest covers the latter's assets).
    static func contextDigest(_ context: [String: TemplateValue]) -> String {
        var feed = DigestFeed()
        feed.add(.object(context))
        return feed.finish()
    }
}

extension DigestFeed {
    fileprivate mutating func add(_ value: TemplateValue) {
        switch value {
        case .string(let s):
            add(count: 1)
            add(s)
        case .int(let n):
            add(count: 2)
            add(n)
        case .double(let d):
            add(count: 3)
            add(count: Int(truncatingIfNeeded: d.bitPattern))
        case .bool(let b): add(count: b ? 4 : 5)
        case .null: add(count: 6)
        case .lambda: add(count: 7)
        case .keyed: add(count: 8)
        case .list(let items):
            add(count: 9)
            add(count: items.count)
            for item in items { add(item) }
        case .object(let members):
            add(count: 10)
            add(count: members.count)
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                add(key)
                add(member)
            }
        }
    }
}

/// The cards a page's previous file holds (``PageReuse/keptFragments(_:salt:)``), looked for only
/// once the page renders a keyed list: most pages have none, and their context is never digested.
final class PageCards: KeptFragments {
    private let path: String
    private let previous: PageReuse?
    private let makeSalt: () -> String
    /// What the page's cards depend on besides their keys (``FragmentTable/salt``).
    private(set) lazy var salt: String = makeSalt()
    private lazy var kept: KeptBytes? = previous?.keptPage(path, salt: salt)

    init(path: String, previous: PageReuse?, salt: @escaping () -> String) {
        self.path = path
        self.previous = previous
        self.makeSalt = salt
    }

    func bytes(section: String, item: String) -> ArraySlice<UInt8>? {
        kept?.bytes(section: section, item: item)
    }

    func bytes(section: String, item: String, at position: Int) -> ArraySlice<UInt8>? {
        kept?.bytes(section: section, item: item, at: position)
    }

    var byteCount: Int { kept?.byteCount ?? 0 }

    func keptRange(section: String, item: String, at position: Int) -> Range<Int>? {
        kept?.keptRange(section: section, item: item, at: position)
    }

    func keptByte(at offset: Int) -> UInt8 { kept!.keptByte(at: offset) }

    /// The previous file the page's ``RenderedPage/splices`` are of, when it was read in place.
    var file: Data? { kept?.file }
}

/// A list page's file from the previous build, with where each card is in it.
/// Its bytes copied into an array (`bytes`), whose cards are copied; or the file itself, mapped
/// (`file`), whose cards stay where they are (``RenderedPage/splices``: the page is written in parts).
struct KeptBytes: KeptFragments, Sendable {
    let bytes: [UInt8]
    let file: Data?
    let sections: [String: KeptSection]

    init(bytes: [UInt8], sections: [String: KeptSection]) {
        self.bytes = bytes
        self.file = nil
        self.sections = sections
    }

    init(file: Data, sections: [String: KeptSection]) {
        self.bytes = []
        self.file = file
        self.sections = sections
    }

    func bytes(section: String, item: String) -> ArraySlice<UInt8>? {
        guard file == nil else { return nil }
        return sections[section]?.range(of: item).map { bytes[$0] }
    }

    func bytes(section: String, item: String, at position: Int) -> ArraySlice<UInt8>? {
        guard file == nil else { return nil }
        return sections[section]?.range(of: item, at: position).map { bytes[$0] }
    }

    /// (No room is made for a file's bytes: they are not copied.)
    var byteCount: Int { bytes.count }

    func keptRange(section: String, item: String, at position: Int) -> Range<Int>? {
        guard file != nil else { return nil }
        return sections[section]?.range(of: item, at: position)
    }

    func keptByte(at offset: Int) -> UInt8 { file![file!.startIndex + offset] }
}

/// One section's items in a previous file, in the order it rendered them. An item is looked for
/// at its position in the new list first: while the order stands (an edit that keeps the names
/// keeps it), no table by key is made. The first few items not found there (a changed card, whose
/// key is new) are looked for from the end, item by item (about 10,000 comparisons of two strings
/// that differ in their first bytes); after ``scansBeforeTable`` of them (cards added, removed or
/// moved: the rest are each one place off), a table by key is made, once. (A table made for each
/// list page took about 2 % of the CPU of a preview rebuild of the bench corpus.)
final class KeptSection: @unchecked Sendable {
    let items: [String]
    let ranges: [Range<Int>]
    static let scansBeforeTable = 8
    private let lock = NSLock()
    private var scans = 0
    private var byKey: [String: Int]?

    init(items: [String], ranges: [Range<Int>]) {
        self.items = items
        self.ranges = ranges
    }

    func range(of item: String, at position: Int) -> Range<Int>? {
        if position >= 0, position < items.count, items[position] == item { return ranges[position] }
        return range(of: item)
    }

    /// Whether the table by key was made (for tests).
    var hasTable: Bool {
        lock.lock()
        defer { lock.unlock() }
        return byKey != nil
    }

    /// By key: the last item of that key, as a table filled in order keeps it. (At its place, the
    /// item there is taken, even if the key comes again later: a key is an animal's digest, which
    /// covers its id, so no section holds one twice; were one there twice, both were rendered from
    /// the same inputs to the same bytes.)
    func range(of item: String) -> Range<Int>? {
        lock.lock()
        if byKey == nil, scans < Self.scansBeforeTable {
            scans += 1
            lock.unlock()
            return items.lastIndex(of: item).map { ranges[$0] }
        }
        defer { lock.unlock() }
        if byKey == nil {
            var table: [String: Int] = [:]
            table.reserveCapacity(items.count)
            for (i, key) in items.enumerated() { table[key] = i }
            byKey = table
        }
        return byKey![item].map { ranges[$0] }
    }
}
