import BestiaryContent
import Foundation

/// A CSV file read by RFC 4180: fields separated by commas, records by CRLF or LF, fields in double
/// quotes may hold separators, line breaks and doubled quotes (`""`). A UTF-8 byte-order mark is
/// skipped. Spreadsheets set to a German or French locale write `;` between fields: when the
/// header line holds more semicolons (or tabs) outside quotes than commas, that is the
/// separator, unless only another gives it an `id` column (``detectSeparator(_:)``); a first
/// line `sep=;` (as Excel writes it) names the separator instead.
///
/// Each record keeps the line and column where each field starts, so errors point into the file.
public struct CSVTable: Sendable, Equatable {
    public var header: [CSVField]
    public var records: [CSVRecord]
    /// `,`, `;` or a tab.
    public var separator: Character
}

public struct CSVField: Sendable, Equatable {
    public var text: String
    public var line: Int
    public var column: Int
}

public struct CSVRecord: Sendable, Equatable {
    /// The row's number as a spreadsheet shows it: 2 for the first record (the header is 1).
    public var number: Int
    public var fields: [CSVField]
    /// The line the record starts on.
    public var line: Int { fields.first?.line ?? 0 }
}

public enum CSVParser {
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var line: Int
        public var column: Int

        public init(message: String, line: Int, column: Int) {
            self.message = message
            self.line = line
            self.column = column
        }
    }

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> CSVTable {
        var body = bytes
        if let workbook = workbook(bytes) {
            throw Failure(message: "this is \(workbook), not a CSV file; open it in the spreadsheet and save it as CSV UTF-8 (Excel: Save As, CSV UTF-8; LibreOffice: Save As, Text CSV, character set Unicode (UTF-8))", line: 1, column: 1)
        }
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            throw Failure(message: "the file is UTF-16; save it as CSV UTF-8", line: 1, column: 1)
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            let location = SourceText.invalidUTF8(in: Data(body), path: "")?.location
            throw Failure(message: "the file is not valid UTF-8; save it as CSV UTF-8", line: location?.line ?? 1, column: location?.column ?? 1)
        }
        // An app's JSON export given as CSV (its quotes were "malformed CSV" in line 3).
        if let first = text.first(where: { !$0.isWhitespace }), first == "[" || first == "{",
            (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil
        {
            throw Failure(
                message: "this is JSON, not CSV: an app's export is imported with its own --format (nuthatch, dogceo or wildsound: docs/import.md)",
                line: 1, column: 1)
        }
        let scalars = Array(text.unicodeScalars)
        var separator = detectSeparator(scalars)
        // Excel's first line `sep=;` names the separator; it is no header.
        let named = scalars.count >= 5 && String(String.UnicodeScalarView(scalars[0..<4])).lowercased() == "sep="
            && (scalars.count == 5 || scalars[5] == "\n" || scalars[5] == "\r")
        if named { separator = scalars[4] }
        var rows = try split(scalars, separator: separator)
        if named, !rows.isEmpty { rows.removeFirst() }
        func blank(_ row: [CSVField]) -> Bool { row.count == 1 && row[0].text.isEmpty }
        let leading = rows.prefix(while: blank).count  // blank lines above the header: rows too
        rows = Array(rows.dropFirst(leading))
        guard !rows.isEmpty else { throw Failure(message: "the file is empty; it needs a header line naming the columns", line: 1, column: 1) }
        let header = rows.removeFirst()
        // Numbered as a spreadsheet numbers its rows (the header 1 when it is the first line): a
        // blank line is a row too, as a row of empty cells (`,,`) is, though neither is a record.
        let records = rows.enumerated().compactMap { blank($0.element) ? nil : CSVRecord(number: leading + $0.offset + 2, fields: $0.element) }
        return CSVTable(header: header, records: records, separator: Character(separator))
    }

    /// A spreadsheet's own file given as CSV: an Excel or LibreOffice workbook (`.xlsx` and `.ods`
    /// are ZIP files, `.xls` a Compound File), said as what it is (its bytes were "not valid UTF-8").
    static func workbook(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a spreadsheet workbook (.xlsx, .ods or .numbers: a ZIP file)" }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "an Excel 97–2003 workbook (.xls)" }
        return nil
    }

    /// The separator of the header line: the one of `,`, `;` and tab it has most of outside
    /// quotes (a German spreadsheet's header `id;name.de;Notiz, intern` has one comma, in a
    /// column's name, and three semicolons: it is separated by `;`). But a header has an `id`
    /// column: when splitting by the most common one gives none and splitting by another does,
    /// that other is the separator (`id;Notiz, intern`, one of each, is split by `;`). Else `,`
    /// on a tie.
    static func detectSeparator(_ s: [Unicode.Scalar]) -> Unicode.Scalar {
        let candidates: [Unicode.Scalar] = [",", ";", "\t"]
        var counts: [Unicode.Scalar: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        var headerEnd = s.endIndex
        for (i, c) in s.enumerated() {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == "\n" || c == "\r") { headerEnd = i; break }
            if !quoted, counts[c] != nil { counts[c]! += 1 }
        }
        // Most first; on a tie in the order of `candidates`.
        let ranked = candidates.enumerated().sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }.map(\.element)
        let header = s[..<headerEnd]
        return ranked.first { counts[$0]! > 0 && namesAnID(header, separator: $0) } ?? ranked[0]
    }

    /// Whether a header line split by `separator` has a column named `id` (split as the file
    /// is: a header it cannot split has none).
    private static func namesAnID(_ header: ArraySlice<Unicode.Scalar>, separator: Unicode.Scalar) -> Bool {
        guard let cells = (try? split(Array(header), separator: separator))?.first else { return false }
        return cells.contains { $0.text.trimmingCharacters(in: .whitespaces).lowercased() == "id" }
    }

    private static func split(_ s: [Unicode.Scalar], separator: Unicode.Scalar) throws(Failure) -> [[CSVField]] {
        var rows: [[CSVField]] = []
        var row: [CSVField] = []
        var i = 0, line = 1, column = 1

        func atLineEnd(_ i: Int) -> Bool { i >= s.count || s[i] == "\n" || s[i] == "\r" }

        while i < s.count || !row.isEmpty {
            // One field starts here.
            let fieldLine = line, fieldColumn = column
            var value = String.UnicodeScalarView()
            if i < s.count && s[i] == "\"" {
                i += 1; column += 1
                while true {
                    guard i < s.count else {
                        throw Failure(
                            message: "the quoted field that starts here is never closed with '\"'", line: fieldLine, column: fieldColumn)
                    }
                    let c = s[i]
                    if c == "\"" {
                        if i + 1 < s.count && s[i + 1] == "\"" {
                            value.append("\""); i += 2; column += 2
                            continue
                        }
                        i += 1; column += 1
                        break
                    }
                    if c == "\r" {
                        // CRLF or a lone CR inside quotes is a line break in the value: stored as LF.
                        value.append("\n"); i += 1
                        if i < s.count && s[i] == "\n" { i += 1 }
                        line += 1; column = 1
                        continue
                    }
                    if c == "\n" { line += 1; column = 1 } else { column += 1 }
                    value.append(c); i += 1
                }
                if !(atLineEnd(i) || s[i] == separator) {
                    throw Failure(
                        message: "unexpected '\(Character(s[i]))' after a closing quote; a quote inside a quoted field is written twice (\"\")",
                        line: line, column: column)
                }
            } else {
                while !atLineEnd(i) && s[i] != separator {
                    if s[i] == "\"" {
                        throw Failure(
                            message: "a '\"' inside a field that does not start with one; put the whole field in quotes and double the quote (\"\")",
                            line: line, column: column)
                    }
                    value.append(s[i]); i += 1; column += 1
                }
            }
            row.append(CSVField(text: String(value), line: fieldLine, column: fieldColumn))
            if i < s.count && s[i] == separator {
                i += 1; column += 1
                continue
            }
            // End of the record.
            if i < s.count {
                if s[i] == "\r" { i += 1 }
                if i < s.count && s[i] == "\n" { i += 1 }
                line += 1; column = 1
            }
            // A blank line too (one empty field): ``parse(_:)`` numbers it and leaves it out.
            rows.append(row)
            row = []
            if i >= s.count { break }
        }
        return rows
    }
}
