/// The rendered page, as UTF-8 bytes in one growing buffer: every node appends to it, nothing
/// builds intermediate strings.
struct Output {
    var bytes: [UInt8] = []
    /// An earlier rendering's bytes left where they were (``RenderedPage/splices``), and how many.
    var splices: [RenderedPage.Splice] = []
    var splicedCount = 0
    /// The page so far: its own bytes and those spliced.
    var count: Int { bytes.count + splicedCount }

    /// `range` of the earlier rendering goes here (joined to the last splice when it follows it
    /// there and nothing was written since).
    mutating func splice(_ range: Range<Int>) {
        // An empty one is not noted: an op that wrote nothing takes its indentation back, which
        // would leave it past the own bytes, and the next splice before it (a reviewer's case).
        guard !range.isEmpty else { return }
        splicedCount += range.count
        if let last = splices.last, last.at == bytes.count, last.range.upperBound == range.lowerBound {
            splices[splices.count - 1].range = last.range.lowerBound..<range.upperBound
        } else {
            splices.append(RenderedPage.Splice(at: bytes.count, range: range))
        }
    }

    /// Byte `position` of the page so far (one of its last: the splices are gone through from
    /// the last), its own or one of `kept`'s.
    func byte(_ position: Int, kept: (any KeptFragments)?) -> UInt8 {
        var after = count
        var own = bytes.count
        for splice in splices.reversed() {
            // The own bytes after this splice, then the splice itself.
            let ownAfter = own - splice.at
            if position >= after - ownAfter { return bytes[own - (after - position)] }
            after -= ownAfter
            own = splice.at
            if position >= after - splice.range.count {
                guard let kept else { preconditionFailure("a spliced byte asked for without the kept rendering it is of") }
                return kept.keptByte(at: splice.range.upperBound - (after - position))
            }
            after -= splice.range.count
        }
        return bytes[position]
    }

    mutating func append(_ text: [UInt8]) {
        bytes.append(contentsOf: text)
    }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `text` with `< > & " '` replaced by entities: runs without them are copied in one append.
    mutating func appendHTMLEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            var i = 0
            while i < utf8.count {
                let entity: StaticString
                switch utf8[i] {
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'"): entity = "&#39;"
                default:
                    i += 1
                    continue
                }
                if (i + 1 < utf8.count && utf8[i + 1] >= 0x80) || (i > 0 && utf8[i - 1] >= 0x80), !Self.isOwnCharacter(utf8, at: i) {
                    i += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
                i += 1
                run = i
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
        }
    }

    /// swift-mustache escapes per `Character`: a `<` followed by a combining mark (or after a
    /// prepended mark) is part of another character, not `<`, and stays as it is. Only asked
    /// when a neighbouring byte is not ASCII.
    static func isOwnCharacter(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let c = Unicode.Scalar(utf8[i])
        var previousStart = i
        if i > 0 {
            previousStart -= 1
            while previousStart > 0, utf8[previousStart] & 0xC0 == 0x80, i - previousStart < 4 { previousStart -= 1 }
        }
        let before = previousStart < i ? scalar(in: utf8, from: previousStart) : nil
        let after = scalar(in: utf8, from: i + 1)
        for (first, second) in [(before, Optional(c)), (Optional(c), after)] {
            guard let first, let second else { continue }
            var pair = String.UnicodeScalarView()
            pair.append(first)
            pair.append(second)
            if String(pair).count == 1 { return false }
        }
        return true
    }

    static func scalar(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Unicode.Scalar? {
        guard start < utf8.count else { return nil }
        var iterator = utf8[start...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// Whether what was appended since `start` ends with a line feed that is its own character
    /// (swift-mustache's `string.last == "\n"`: a `\r\n` is one character and does not count).
    /// (`start` and the bytes are the whole page's, spliced ones included: those are `kept`'s.)
    func endsWithNewline(since start: Int, kept: (any KeptFragments)? = nil) -> Bool {
        let count = self.count
        guard count > start, byte(count - 1, kept: kept) == UInt8(ascii: "\n") else { return false }
        return !(count - start >= 2 && byte(count - 2, kept: kept) == UInt8(ascii: "\r"))
    }
}
