/// Warnings that say the same thing in many places, folded for a reader: a catalogue of 10,000
/// generated animals printed 3,688 "name … is also …'s" warnings before the two about its
/// `site.yml`, which scrolled out of sight.
///
/// Two diagnostics are alike when they have the same severity and stage and their messages the
/// same shape (``shape(of:)``). Errors are never folded; JSON output is never folded (a script
/// reads every line).
public enum AlikeWarnings {
    /// A kind of warning with more than ``threshold`` members: the first ``shown`` are printed
    /// and the rest counted.
    public struct Fold: Equatable, Sendable {
        /// The first folded one, to say what they are like.
        public var example: Diagnostic
        /// How many were not printed.
        public var count: Int

        public init(example: Diagnostic, count: Int) {
            self.example = example
            self.count = count
        }
    }

    public static let threshold = 20
    public static let shown = 10

    /// `sorted` (as ``DiagnosticBag/sorted`` orders them) with every kind of more than
    /// ``threshold`` warnings or notes cut to its first ``shown``, and what was cut per kind, in the
    /// order each kind first appears.
    public static func fold(_ sorted: [Diagnostic]) -> (printed: [Diagnostic], folded: [Fold]) {
        var members: [String: Int] = [:]
        var shapes: [String?] = []
        for d in sorted {
            let shape = d.severity == .error ? nil : "\(d.severity.rawValue) \(d.stage ?? "") \(self.shape(of: d.message))"
            shapes.append(shape)
            if let shape { members[shape, default: 0] += 1 }
        }
        var printed: [Diagnostic] = []
        var seen: [String: Int] = [:]
        var folds: [String: Int] = [:]
        var order: [Fold] = []
        for (d, shape) in zip(sorted, shapes) {
            guard let shape, let total = members[shape], total > threshold else {
                printed.append(d)
                continue
            }
            let index = seen[shape, default: 0]
            seen[shape] = index + 1
            if index < shown {
                printed.append(d)
            } else if let at = folds[shape] {
                order[at].count += 1
            } else {
                folds[shape] = order.count
                order.append(Fold(example: d, count: 1))
            }
        }
        return (printed, order)
    }

    /// The line that stands for a fold's warnings.
    public static func summary(_ fold: Fold) -> String {
        let kind = fold.example.severity == .note ? "note" : "warning"
        let plural = fold.count == 1 ? "" : "s"
        let message = fold.example.message
        let head = afterColon(message).map { String(message[..<$0]) + "…" } ?? message
        var line = "note: \(fold.count) more \(kind)\(plural) like \"\(head)\" are not shown (\(shown) of them are above); --all-warnings prints every one"
        if let stage = fold.example.stage { line += " [\(stage)]" }
        return line
    }

    /// A message with what differs from place to place left out: when it has a `: `, all before
    /// the first one (what and where: `name 'Fuchs' is also fox's`), keeping the explanation after
    /// it, the same for every record; text in quotes (`'…'` and `"…"` that open a word, `“…”`,
    /// `„…“`) and every word with a digit or a `/` in it (ids, counts, sizes, paths).
    public static func shape(of message: String) -> String {
        let start = afterColon(message)
        let text = start.map { message[$0...] } ?? message[...]
        // An ASCII explanation by its bytes: a build of 10,000 generated animals folds 3,690
        // warnings after its last stage, and grapheme breaking made that 60–80 ms of one core. In
        // ASCII each character is one byte (`\r\n` aside, which is two bytes of one word either
        // way), so the result is the same; any other text goes by `Character` (a combining mark
        // makes a quote or a space another character, and U+037E equals `;`).
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return characterShape(text) }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var closing: UInt8?
        var word: [UInt8] = []
        var wordHasDigitOrSlash = false
        func flushWord() {
            if wordHasDigitOrSlash { result.append(UInt8(ascii: "#")) } else { result.append(contentsOf: word) }
            word.removeAll(keepingCapacity: true)
            wordHasDigitOrSlash = false
        }
        for byte in text.utf8 {
            if let end = closing {
                if byte == end { closing = nil; result.append(contentsOf: "…".utf8) }
                continue
            }
            switch byte {
            case UInt8(ascii: "'") where word.isEmpty, UInt8(ascii: "\"") where word.isEmpty: closing = byte
            case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "("), UInt8(ascii: ")"):
                flushWord()
                result.append(byte)
            default:
                word.append(byte)
                if byte == UInt8(ascii: "/") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { wordHasDigitOrSlash = true }
            }
        }
        flushWord()
        return String(decoding: result, as: UTF8.self)
    }

    /// ``shape(of:)`` of the text after the colon, by `Character`: quotes, spaces and digits as
    /// the reader sees them.
    static func characterShape(_ text: Substring) -> String {
        var result = ""
        var closing: Character?
        var word = ""
        func flushWord() {
            result += word.contains(where: { $0.isNumber || $0 == "/" }) ? "#" : word
            word = ""
        }
        for c in text {
            if let end = closing {
                if c == end { closing = nil; result += "…" }
                continue
            }
            switch c {
            case "'" where word.isEmpty, "\"" where word.isEmpty: closing = c
            case "“": flushWord(); closing = "”"
            case "„": flushWord(); closing = "“"
            case " ", ",", ";", "(", ")":
                flushWord()
                result.append(c)
            default: word.append(c)
            }
        }
        flushWord()
        return result
    }

    /// Where the text after the first `: ` (two characters) starts. Found by its bytes where the
    /// text around it is ASCII; else by `Character`, since a mark before the colon or after the
    /// space joins it into another character.
    static func afterColon<S: StringProtocol>(_ text: S) -> S.Index? {
        let bytes = text.utf8
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let byte = bytes[i]
            i = bytes.index(after: i)
            if previous == UInt8(ascii: ":") && byte == UInt8(ascii: " ") {
                if beforePrevious < 0x80 && (i == bytes.endIndex || bytes[i] < 0x80) { return i }
                return characterAfterColon(text)
            }
            beforePrevious = previous
            previous = byte
        }
        return nil
    }

    static func characterAfterColon<S: StringProtocol>(_ text: S) -> S.Index? {
        var previous: Character?
        for i in text.indices {
            if previous == ":" && text[i] == " " { return text.index(after: i) }
            previous = text[i]
        }
        return nil
    }
}
