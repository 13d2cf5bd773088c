import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// The species API dump: `GET /species` as a JSON array of
/// `{id, common_name, scientific_name, image_url, description, habitat, conservation_status}`.
///
/// - id: `nuthatch-<source id>`. The source id is the one key the API keeps when a bird is renamed
///   or moved to another genus (scientific names change with taxonomy), and the prefix keeps these
///   records apart from hand-made ones and other imports. The API's ids are whole numbers from 1
///   (`7`, or as text `"7"`); anything else is an error (``RecordID/fromNuthatchID(_:)``).
/// - Carried: `common_name` → `name.<lang>`, `scientific_name` → `scientific`, `description`,
///   `habitat` → `description.<lang>`, `habitat.<lang>`, `conservation_status` → `conservation`,
///   `image_url` → `image.url` (when its type can be told from its ending; else a warning).
/// - Derived defaults: `group: bird`; `wikipedia.<lang>` = the scientific name (Wikipedia redirects
///   a species' scientific name to its article).
/// Other members are ignored; the language is English unless `--language` says otherwise.
public enum NuthatchReader {
    public static let idPrefix = "nuthatch-"

    public static func read(_ bytes: [UInt8], context: ImportContext) -> ([ImportRow], [Diagnostic]) {
        var source = JSONSource(context: context)
        guard let root = source.parse(bytes, format: .nuthatch),
            let entries = source.entries(root, what: "species", wrappers: ["species", "data", "entities"])
        else { return ([], source.diagnostics) }
        let lang = context.language
        var rows: [ImportRow] = []
        for (i, entry) in entries.enumerated() {
            var label = "species \(i + 1)"
            guard case .object = entry else {
                source.error("\(label) must be an object like {\"id\": 1, \"common_name\": …}, not \(entry.kindName)", at: entry.position)
                continue
            }
            let idValue: JSONValue
            switch entry["id"] {
            case nil, .null?:
                source.error("\(label) has no 'id'", at: entry.position)
                continue
            case let value?: idValue = value
            }
            let id: String
            switch RecordID.fromNuthatchID(idValue) {
            case .success(let valid): id = valid
            case .failure(let problem):
                source.error("\(label): \(problem.message)", at: idValue.position)
                continue
            }
            label += " (id \(id.dropFirst(idPrefix.count)))"
            guard source.requiredText(entry, "common_name", label: label) != nil else { continue }
            var row = ImportRow(id: id, origin: ImportOrigin(label: label, location: context.location(entry.position)))
            func carry(_ key: String, _ field: RecordField) {
                if let value = source.text(entry, key, label: label) { row.fields.append(FieldValue(field, value)) }
            }
            carry("common_name", .localized(.name, language: lang))
            carry("scientific_name", .scientific)
            carry("description", .localized(.description, language: lang))
            carry("habitat", .localized(.habitat, language: lang))
            carry("conservation_status", .conservation)
            if let url = source.text(entry, "image_url", label: label) {
                let path = String(url.split(separator: "?").first ?? Substring(url))
                if URLCheck.problem(absoluteHTTP: url) != nil {
                    source.warning("\(label): image_url '\(url)' is not an http(s) URL; the picture was left out", at: entry["image_url"]!.position)
                } else if RecordField.format(ofPath: path, kind: .image) == nil {
                    source.warning(
                        "\(label): cannot tell the picture type of '\(url)' (it does not end in \(RecordField.extensions(.image))); the picture was left out and the page shows the Wikipedia image",
                        at: entry["image_url"]!.position)
                } else {
                    row.fields.append(FieldValue(.media(.image, .url), url))
                }
            }
            row.defaults.append(FieldValue(.group, "bird"))
            if let scientific = source.text(entry, "scientific_name", label: label) {
                row.defaults.append(FieldValue(.wikipedia(language: lang), scientific))
            }
            rows.append(row)
        }
        return (rows, source.diagnostics)
    }
}
