import BestiaryDiagnostics
import Foundation

/// A text file of the site decoded the one way the pipeline accepts: UTF-8, with an optional
/// byte-order mark dropped and CRLF (or lone CR) line ends turned into LF. Line numbers stay those
/// an editor shows.
public struct SourceText: Sendable {
    /// Path relative to the site root.
    public let path: String
    /// The decoded text with `\n` line ends only.
    public let text: String
    /// What is wrong with the text that does not stop it being read (a direction control, a
    /// control character), for
    /// the parser to report with its own problems: a record is still parsed, so the catalogue
    /// knows its files (an import must not replace a file only a record with an error uses).
    public var problems: [Diagnostic] = []

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// Decodes `data`, or reports where the first byte that is not UTF-8 sits.
    public static func decode(_ data: Data, path: String) throws(DiagnosticError) -> SourceText {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let (location, message) = encodingProblem(bytes, path: path) {
            throw DiagnosticError(.error(message, at: location, stage: "load"))
        }
        if let nul = bytes.firstIndex(of: 0) {
            let (line, column) = position(of: nul, in: bytes)
            throw DiagnosticError(.error(
                "file contains a NUL byte; is it a text file?", at: SourceLocation(path: path, line: line, column: column),
                stage: "load"))
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.utf8.contains(13) {
            text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        var source = SourceText(path: path, text: text)
        if let control = ControlCharacter.first(in: bytes) {
            let (line, column) = position(of: control.offset, in: bytes)
            source.problems.append(.error(
                "file contains \(ControlCharacter.describe(control.scalar)), \(ControlCharacter.why)",
                at: SourceLocation(path: path, line: line, column: column), stage: "load"))
        }
        if let (offset, scalar) = DirectionControl.first(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            source.problems.append(.error(
                "file contains \(DirectionControl.describe(scalar)), \(DirectionControl.why)",
                at: SourceLocation(path: path, line: line, column: column), stage: "load"))
        }
        return source
    }

    /// Why `data` (a file's bytes, a UTF-8 byte-order mark taken off) is no UTF-8 text, where:
    /// UTF-16, or its first byte that is not UTF-8; nil when it is UTF-8. Records, pages and the
    /// theme's text files (templates, stylesheets, modules) are told so alike.
    public static func encodingProblem(_ data: some Collection<UInt8>, path: String) -> (location: SourceLocation, message: String)? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return (SourceLocation(path: path, line: 1, column: 1), "file is UTF-16; save it as UTF-8")
        }
        guard let (location, problem) = invalidUTF8(in: Array(data), path: path) else { return nil }
        return (location, "file is not valid UTF-8 (\(problem)); save it as UTF-8")
    }

    /// Where the first byte of `data` that is not UTF-8 sits, and what it says: for another
    /// text file than a record (`content/packs.lock`) to name its line and column as
    /// ``decode(_:path:)`` does. Nil when all of it is UTF-8.
    public static func invalidUTF8(in data: Data, path: String) -> (location: SourceLocation, problem: String)? {
        invalidUTF8(in: [UInt8](data), path: path)
    }

    static func invalidUTF8(in bytes: [UInt8], path: String) -> (location: SourceLocation, problem: String)? {
        guard let bad = firstInvalidUTF8(bytes) else { return nil }
        let (line, column) = position(of: bad, in: bytes)
        return (SourceLocation(path: path, line: line, column: column), "byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at offset \(bad)")
    }

    /// Index of the first byte that does not belong to a well-formed UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            var need = 0
            var minScalar: UInt32 = 0
            var scalar: UInt32 = 0
            switch b {
            case 0xC2...0xDF: need = 1; minScalar = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: need = 2; minScalar = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: need = 3; minScalar = 0x10000; scalar = UInt32(b & 0x07)
            default: return i
            }
            for k in 1...need {
                guard i + k < n, bytes[i + k] & 0xC0 == 0x80 else { return i }
                scalar = (scalar << 6) | UInt32(bytes[i + k] & 0x3F)
            }
            if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += need + 1
        }
        return nil
    }

    /// 1-based line and column (in Unicode scalars) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        var i = 0
        while i < offset && i < bytes.count {
            let b = bytes[i]
            if b == 10 {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}

/// Unicode's explicit direction controls: the embeddings and overrides (U+202A–U+202E) and the
/// isolates (U+2066–U+2069). They make text show in another order than it is stored, so a record
/// with one reads one way in review and another on the site (the "Trojan Source" trick). The site
/// sets each text's direction itself (`dir`), so a record never needs them; the marks U+200E and
/// U+200F, which only nudge neutral characters, are allowed.
public enum DirectionControl {
    /// What to do instead, for messages.
    public static let why =
        "a control character that makes text show in another order than it is stored, so it reads otherwise on the site than in review; remove it (the site sets each text's direction itself; U+200E or U+200F marks are allowed)"

    public static func isControl(_ scalar: UInt32) -> Bool {
        (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
    }

    /// The byte offset and scalar of the first direction control in UTF-8 `bytes`.
    public static func first(in bytes: [UInt8]) -> (Int, UInt32)? {
        var i = 0
        let n = bytes.count
        while i + 2 < n {
            if bytes[i] == 0xE2 {
                let scalar = 0x2000 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                if bytes[i + 1] & 0xC0 == 0x80, bytes[i + 2] & 0xC0 == 0x80, isControl(scalar) { return (i, scalar) }
            }
            i += 1
        }
        return nil
    }

    /// The first direction control in `text`.
    public static func first(in text: String) -> UInt32? {
        guard text.utf8.contains(0xE2) else { return nil }
        return text.unicodeScalars.first { isControl($0.value) }?.value
    }

    /// `U+202E (right-to-left override)`.
    public static func describe(_ scalar: UInt32) -> String {
        let names: [UInt32: String] = [
            0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
            0x202D: "left-to-right override", 0x202E: "right-to-left override", 0x2066: "left-to-right isolate",
            0x2067: "right-to-left isolate", 0x2068: "first strong isolate", 0x2069: "pop directional isolate",
        ]
        return "U+\(String(scalar, radix: 16, uppercase: true)) (\(names[scalar] ?? "direction control"))"
    }
}

/// Control characters a page cannot show (HTML counts them as errors): C0 but tab, line feed, form
/// feed and carriage return, DEL, and C1 (U+0080–U+009F). A record holds them only by mistake (a
/// paste from a terminal, an escape such as "\a" in YAML).
public enum ControlCharacter {
    public static let why = "which a page cannot show; remove it"

    public static func isControl(_ scalar: UInt32) -> Bool {
        (scalar < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(scalar)) || (0x7F...0x9F).contains(scalar)
    }

    /// The byte offset and scalar of the first such control in UTF-8 `bytes` (C1 controls are
    /// the two bytes C2 80–C2 9F).
    public static func first(in bytes: [UInt8]) -> (offset: Int, scalar: UInt32)? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F {
                if isControl(UInt32(b)) { return (i, UInt32(b)) }
            } else if b == 0xC2, i + 1 < n, (0x80...0x9F).contains(bytes[i + 1]) {
                return (i, UInt32(bytes[i + 1]))
            }
            i += 1
        }
        return nil
    }

    /// The first such control in `text`.
    public static func first(in text: String) -> UInt32? {
        guard mayHoldControl(text) else { return nil }
        return text.unicodeScalars.first { isControl($0.value) }?.value
    }

    /// Whether `text` has a byte that may begin a control (a C0 control, DEL, or 0xC2, which leads
    /// the C1 controls): a scan of its UTF-8 in place (Wikipedia's 20,000 summaries and their HTML
    /// on every build; `utf8.contains(where:)` went through the view's index one byte at a time).
    static func mayHoldControl(_ text: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in bytes where b < 0x20 || b == 0x7F || b == 0xC2 { return true }
            return false
        }
        var copy = text
        return copy.withUTF8(scan)
    }

    /// `text` without such controls: for text the user did not write and cannot mend in place
    /// (a Wikipedia summary, a Commons credit), where they are dropped as a browser would not show
    /// them anyway. The same string when there is none (the usual case costs one byte scan).
    public static func removed(from text: String) -> String {
        guard first(in: text) != nil else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.filter { !isControl($0.value) })
        return String(scalars)
    }

    /// `U+0007 (a control character)`.
    public static func describe(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) (a control character)"
    }
}
