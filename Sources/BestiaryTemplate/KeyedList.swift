/// A list whose items each have a key that stands for everything the item is made from (Bestiary:
/// the digest of an animal's inputs), so that a renderer can take an item's output from an earlier
/// rendering of the same template instead of making the item and rendering it again. The items
/// are made only when rendered (``item``).
///
/// For every other purpose (`{{^list}}`, printing, lambdas) it is the list of its items.
public struct KeyedList: Sendable {
    public let keys: [String]
    public let item: @Sendable (Int) -> TemplateValue

    public init(keys: [String], item: @escaping @Sendable (Int) -> TemplateValue) {
        self.keys = keys
        self.item = item
    }

    /// Every item, made.
    public var items: [TemplateValue] { keys.indices.map(item) }
}

/// Output bytes of keyed items from an earlier rendering (``RenderedPage/Fragment``).
public protocol KeptFragments {
    /// The bytes item `item` of section `section` rendered to, if known; nil renders it.
    func bytes(section: String, item: String) -> ArraySlice<UInt8>?
    /// The same, for the item at `position` of its list: an earlier rendering whose items came in
    /// the same order finds it there, without a lookup by key.
    func bytes(section: String, item: String, at position: Int) -> ArraySlice<UInt8>?
    /// About how many bytes the earlier rendering was (0: not known): the renderer makes room for
    /// them once, instead of growing its output while copying them.
    var byteCount: Int { get }
    /// Where the item at `position` is in the earlier rendering, when the caller writes the page
    /// in parts: the renderer leaves those bytes where they are and notes the place
    /// (``RenderedPage/splices``) instead of copying them. Nil (the default): they are copied.
    func keptRange(section: String, item: String, at position: Int) -> Range<Int>?
    /// Byte `offset` of the earlier rendering, for a ``keptRange(section:item:at:)`` given: the
    /// renderer looks at the last bytes written (whether a line ended, for a partial's indentation).
    func keptByte(at offset: Int) -> UInt8
}

extension KeptFragments {
    public func bytes(section: String, item: String, at position: Int) -> ArraySlice<UInt8>? { bytes(section: section, item: item) }
    public var byteCount: Int { 0 }
    public func keptRange(section: String, item: String, at position: Int) -> Range<Int>? { nil }
    public func keptByte(at offset: Int) -> UInt8 { preconditionFailure("keptByte(at:) without keptRange(section:item:at:)") }
}

/// A rendered template, with where each keyed item's output is in it.
public struct RenderedPage: Sendable {
    /// One keyed item's output: `bytes[offset ..< offset + length]`. The same section and
    /// item render to the same bytes as long as the templates and the page's value apart from its
    /// keyed lists are the same (the caller keys those).
    public struct Fragment: Sendable, Equatable {
        /// The section's block, the content type, indentation and overrides it was rendered with.
        public var section: String
        /// The item's own key (``KeyedList/keys``).
        public var item: String
        public var offset: Int
        public var length: Int

        public init(section: String, item: String, offset: Int, length: Int) {
            self.section = section
            self.item = item
            self.offset = offset
            self.length = length
        }
    }

    /// The output, UTF-8 (every piece is: the templates' text, values, escapes, and kept items
    /// cut between two characters).
    /// (The page's own bytes: with ``splices``, the kept items go between them.)
    public var bytes: [UInt8]
    /// Where each keyed item is in the whole page (own bytes and spliced).
    public var fragments: [Fragment]
    /// How many items were copied from ``KeptFragments`` rather than rendered.
    public var reused: Int
    /// The earlier rendering's bytes left where they were (``KeptFragments/keptRange(section:item:at:)``):
    /// `range` of it goes before `bytes[at]`, in order; runs that follow one another in both are one.
    public var splices: [Splice] = []

    public struct Splice: Sendable, Equatable {
        /// Where it goes among ``RenderedPage/bytes``.
        public var at: Int
        /// Where it is in the earlier rendering.
        public var range: Range<Int>
    }

    /// The whole page, when it has no ``splices`` (else its own bytes only).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public init(bytes: [UInt8], fragments: [Fragment], reused: Int, splices: [Splice] = []) {
        self.bytes = bytes
        self.fragments = fragments
        self.reused = reused
        self.splices = splices
    }

    public init(text: String, fragments: [Fragment], reused: Int) {
        self.init(bytes: Array(text.utf8), fragments: fragments, reused: reused)
    }
}
