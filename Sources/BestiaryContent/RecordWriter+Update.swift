import Foundation
import Yams

extension RecordWriter {
    /// `original` (the text of a record file that parses as `old`) changed to say `new`.
    ///
    /// A surgical edit, so that people can keep editing by hand next to imports: only the top-level
    /// keys whose written value differs between `old` and `new` are touched. Such a key's lines are
    /// replaced (comments inside them go with the old value), a new key is inserted after the key
    /// that precedes it in ``keyOrder``, a key `new` lacks is removed. Every other line —
    /// comments, blank lines, quoting and order of untouched keys, the closing `---`, the body
    /// unless `new`'s differs — stays byte for byte, and so do a byte-order mark and CRLF line ends.
    /// When `old` and `new` write the same, the result is `original` itself.
    ///
    /// Front matter that is not a plain block mapping with its keys at the start of lines (a flow
    /// mapping `{…}` over the whole front matter) is written anew with ``document(for:fileID:)``;
    /// that keeps every field and the body, but not comments.
    public func update(_ original: String, from old: Animal, to new: Animal, fileID: String) -> String {
        var text = original
        let bom = text.unicodeScalars.first == "\u{FEFF}"
        if bom { text.unicodeScalars.removeFirst() }
        let crlf = text.contains("\r\n")
        if crlf { text = text.replacingOccurrences(of: "\r\n", with: "\n") }

        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "---",
            let close = lines.indices.dropFirst().first(where: { isDelimiter(lines[$0]) }),
            let spans = keySpans(Array(lines[1..<close]))
        else {
            return finish(document(for: new, fileID: fileID), bom: bom, crlf: crlf)
        }

        var yaml = Array(lines[1..<close])
        // Edits from the bottom up, so earlier line numbers stay valid.
        var edits: [(at: Int, remove: Int, insert: [String])] = []
        for key in Self.keyOrder {
            let before = entry(key, of: old, fileID: fileID)
            let after = entry(key, of: new, fileID: fileID)
            if before == after { continue }
            let newLines = after.map(Self.lines) ?? []
            if let span = spans.first(where: { $0.key == key }) {
                edits.append((span.start, span.end - span.start, newLines))
            } else if !newLines.isEmpty {
                edits.append((insertionPoint(for: key, spans: spans, leading: yaml.count), 0, newLines))
            }
        }
        // From the bottom up. At one position, a key's lines are replaced before keys are inserted
        // there (an insertion first would move the lines the replacement removes: a key written
        // before `name` in the file, then `name` changed and `difficulty` added, left two `name`s);
        // insertions go in reverse order, so that they end up in ``keyOrder``.
        let ordered = edits.enumerated().sorted { a, b in
            if a.element.at != b.element.at { return a.element.at > b.element.at }
            if (a.element.remove > 0) != (b.element.remove > 0) { return a.element.remove > 0 }
            return a.offset > b.offset
        }
        for edit in ordered.map(\.element) {
            yaml.replaceSubrange(edit.at..<(edit.at + edit.remove), with: edit.insert)
        }

        var result = ["---"] + yaml + [lines[close]]
        let oldBody = body(of: old), newBody = body(of: new)
        if oldBody == newBody {
            lines.removeFirst(close + 1)
            result += lines
            return finish(result.joined(separator: "\n"), bom: bom, crlf: crlf)
        }
        return finish(result.joined(separator: "\n") + "\n" + newBody, bom: bom, crlf: crlf)
    }

    private func finish(_ text: String, bom: Bool, crlf: Bool) -> String {
        var out = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        if bom { out = "\u{FEFF}" + out }
        return out
    }

    private func isDelimiter(_ line: String) -> Bool {
        var l = Substring(line)
        while l.last == " " || l.last == "\t" { l.removeLast() }
        return l == "---" || l == "..."
    }

    static func lines(_ entry: String) -> [String] {
        var parts = entry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// Where a top-level key's lines are: `start..<end` in the front matter's lines. A key owns
    /// its line and the indented lines after it; blank lines and comments at the start of a line
    /// between two keys belong to the next key (they usually describe it). Nil when the front
    /// matter is not a block mapping with one key per line at column 1.
    struct KeySpan {
        var key: String
        var start: Int
        var end: Int
    }

    func keySpans(_ yaml: [String]) -> [KeySpan]? {
        guard let root = try? Yams.compose(yaml: yaml.joined(separator: "\n")), case .mapping(let mapping) = root else {
            return nil
        }
        var starts: [(String, Int)] = []
        for (key, _) in mapping {
            guard case .scalar(let k) = key, let mark = key.mark, mark.column == 1 else { return nil }
            starts.append((k.string, mark.line - 1))
        }
        // One key per line, in increasing order (a block mapping).
        for i in starts.indices.dropFirst() where starts[i].1 <= starts[i - 1].1 { return nil }
        var spans: [KeySpan] = []
        for (i, (key, start)) in starts.enumerated() {
            var end = i + 1 < starts.count ? starts[i + 1].1 : yaml.count
            while end > start + 1 {
                let line = yaml[end - 1]
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { end -= 1 } else { break }
            }
            spans.append(KeySpan(key: key, start: start, end: end))
        }
        return spans
    }

    /// After the nearest key that comes before `key` in ``keyOrder``; with none, before the first key.
    func insertionPoint(for key: String, spans: [KeySpan], leading: Int) -> Int {
        guard let index = Self.keyOrder.firstIndex(of: key) else { return spans.last?.end ?? leading }
        for earlier in Self.keyOrder[..<index].reversed() {
            if let span = spans.first(where: { $0.key == earlier }) { return span.end }
        }
        return spans.map(\.start).min() ?? leading
    }
}
