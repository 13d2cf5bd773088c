import BestiaryStorage
import BestiaryTemplate

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
        func isBoundary(_ i: Int) -> Bool { i == bytes.count || bytes[i] & 0xC0 != 0x80 }
        var sections: [String: [String: Range<Int>]] = [:]
        for entry in entries {
            guard entry.offset >= 0, entry.length >= 0, entry.offset <= bytes.count, entry.length <= bytes.count - entry.offset else { return nil }
            let end = entry.offset + entry.length
            guard isBoundary(entry.offset), isBoundary(end) else { return nil }
            sections[entry.section, default: [:]][entry.item] = entry.offset..<end
        }
        return KeptBytes(bytes: bytes, sections: sections)
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
    private lazy var kept: KeptBytes? = previous?.keptFragments(path, salt: salt)

    init(path: String, previous: PageReuse?, salt: @escaping () -> String) {
        self.path = path
        self.previous = previous
        self.makeSalt = salt
    }

    func bytes(section: String, item: String) -> ArraySlice<UInt8>? {
        kept?.bytes(section: section, item: item)
    }
}

/// A list page's file from the previous build, with where each card is in it.
struct KeptBytes: KeptFragments {
    let bytes: [UInt8]
    let sections: [String: [String: Range<Int>]]

    func bytes(section: String, item: String) -> ArraySlice<UInt8>? {
        sections[section]?[item].map { bytes[$0] }
    }
}
