/// Turns diagnostics into the two output forms of the command line (DESIGN.md §3).
public enum DiagnosticFormatter {
    /// `--diagnostics text|json`.
    public enum Format: String, Sendable, CaseIterable {
        case text
        case json
    }

    public static func format(_ diagnostic: Diagnostic, as format: Format) -> String {
        switch format {
        case .text: text(diagnostic)
        case .json: json(diagnostic)
        }
    }

    /// `path:line:col: severity: message [stage]`, or `bestiary: severity: message` without a file.
    public static func text(_ d: Diagnostic) -> String {
        let place = d.location.map { "\($0.description): " } ?? "bestiary: "
        let stage = d.stage.map { " [\($0)]" } ?? ""
        return "\(place)\(d.severity.rawValue): \(d.message)\(stage)"
    }

    /// One JSON object on one line, keys in a fixed order:
    /// `{"severity":…,"file":…,"line":…,"column":…,"message":…,"stage":…,"code":…}`.
    public static func json(_ d: Diagnostic) -> String {
        var fields: [String] = ["\"severity\":\(quote(d.severity.rawValue))"]
        if let loc = d.location {
            fields.append("\"file\":\(quote(loc.path))")
            fields.append("\"line\":\(loc.line)")
            fields.append("\"column\":\(loc.column)")
        } else {
            // The same keys on every line: 0 where a problem has no place (as README says).
            fields.append("\"file\":null")
            fields.append("\"line\":0")
            fields.append("\"column\":0")
        }
        fields.append("\"message\":\(quote(d.message))")
        fields.append("\"stage\":\(d.stage.map(quote) ?? "null")")
        fields.append("\"code\":\(d.code.map(quote) ?? "null")")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string literal; escapes quotes, backslashes and control characters.
    public static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
