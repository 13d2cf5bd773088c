/// The rendered page, as UTF-8 bytes in one growing buffer: every node appends to it, nothing
/// builds intermediate strings.
struct Output {
    var bytes: [UInt8] = []

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
    func endsWithNewline(since start: Int) -> Bool {
        let count = bytes.count
        guard count > start, bytes[count - 1] == UInt8(ascii: "\n") else { return false }
        return !(count - start >= 2 && bytes[count - 2] == UInt8(ascii: "\r"))
    }
}
