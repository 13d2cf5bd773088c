import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// The WildSound app's catalogue (its Firestore `animals` collection exported as a JSON array):
/// `{name, storagePath, wikiTitleDe, wikiTitleEn, imageCrop, soundSource}` per animal; the app's
/// own spellings `imageCropRaw` and `soundSourceRaw` are read too, its user state
/// (`isFavorite`, `guessedCount`, `updatedAT`, the random `id`) is not catalogue and is ignored.
///
/// - id: from `storagePath`, the key the app synced by (`sounds/Fuchs.mp3` → `fuchs`): the file
///   name without folders and extension, lowercased, `ä ö ü ß` spelt out, and otherwise already an
///   id (see ``RecordID/fromStoragePath(_:)``), else an error; two paths giving one id are reported
///   as a collision.
/// - Carried: `name` → `name.<lang>` (German: the app was German), `wikiTitleDe`/`wikiTitleEn` →
///   `wikipedia.de`/`.en` (for the site's languages), `imageCrop` → `image.focus` (the app cropped
///   the Wikipedia picture: `top` → `50% 0%`, …), `soundSource` → `sound.credit`.
/// - The sound: `storagePath` is looked up under `--media` (default: the file's folder); when it
///   is there, it is copied to `content/sounds/ID.EXT`. Otherwise the record comes without sound.
/// - Derived default: when the site's default language is not the source's, the default
///   language's name is taken from that language's Wikipedia title (`Red fox (animal)` → `Red fox`).
public enum WildsoundReader {
    /// The app's `ImageCrop` alignments as CSS object positions.
    public static let crops: [String: String] = [
        "center": "50% 50%", "top": "50% 0%", "bottom": "50% 100%", "leading": "0% 50%", "trailing": "100% 50%",
        "topleading": "0% 0%", "toptrailing": "100% 0%", "bottomleading": "0% 100%", "bottomtrailing": "100% 100%",
    ]

    /// The app's `SoundSource` cases as credits.
    public static let soundSources: [String: String] = ["xenocanto": "xeno-canto", "freesound": "Freesound"]

    static let titleKeys = ["de": "wikiTitleDe", "en": "wikiTitleEn"]

    public static func read(_ bytes: [UInt8], context: ImportContext) -> ([ImportRow], [Diagnostic]) {
        var source = JSONSource(context: context)
        guard let root = source.parse(bytes, format: .wildsound),
            let entries = source.entries(root, what: "animals", wrappers: ["animals"])
        else { return ([], source.diagnostics) }
        let config = context.config
        let lang = context.language
        var missingSounds: [String] = []
        var skippedTitles: [String: Int] = [:]
        var rows: [ImportRow] = []
        for (i, entry) in entries.enumerated() {
            var label = "animal \(i + 1)"
            guard case .object = entry else {
                source.error("\(label) must be an object like {\"name\": …, \"storagePath\": …}, not \(entry.kindName)", at: entry.position)
                continue
            }
            guard let path = source.requiredText(entry, "storagePath", label: label) else { continue }
            label += " (storagePath \(path))"
            // The id from the path as the app wrote it (untrimmed: a space is part of the key).
            guard case .string(let rawPath, let pathPosition)? = entry["storagePath"] else { continue }
            let id: String
            switch RecordID.fromStoragePath(rawPath) {
            case .success(let valid): id = valid
            case .failure(let problem):
                source.error("\(label): \(problem.message)", at: pathPosition)
                continue
            }
            guard let name = source.requiredText(entry, "name", label: label) else { continue }
            var row = ImportRow(id: id, origin: ImportOrigin(label: label, location: context.location(entry.position)))
            row.fields.append(FieldValue(.localized(.name, language: lang), name))
            for (titleLang, key) in titleKeys.sorted(by: { $0.key < $1.key }) {
                guard let title = source.text(entry, key, label: label) else { continue }
                if config.languages.contains(titleLang) {
                    row.fields.append(FieldValue(.wikipedia(language: titleLang), title))
                    if titleLang == config.defaultLanguage && titleLang != lang {
                        row.defaults.append(FieldValue(.localized(.name, language: titleLang), nameFromTitle(title)))
                    }
                } else {
                    skippedTitles[key, default: 0] += 1
                }
            }
            // `imageCrop` when it has a value (null or missing: the app's raw spelling).
            let cropKey = source.text(entry, "imageCrop", label: label) != nil ? "imageCrop" : "imageCropRaw"
            if let crop = source.text(entry, cropKey, label: label) {
                let at = entry[cropKey].flatMap { value -> SourceLocation? in
                    if case .string(_, let position) = value { return context.location(position) }
                    return nil
                }
                if let focus = crops[crop.lowercased()] {
                    row.fields.append(FieldValue(.media(.image, .focus), focus, at: at))
                } else if crop.contains(where: { $0 == "%" || $0 == " " || $0.isNumber }) || ["left", "right"].contains(crop.lowercased()) {
                    // Already a position (`50% 20%`, `center top`, `left`): checked as `image.focus` is.
                    row.fields.append(FieldValue(.media(.image, .focus), crop, at: at))
                } else {
                    let words = ["center", "top", "bottom", "leading", "trailing", "topLeading", "topTrailing", "bottomLeading", "bottomTrailing"]
                    source.error(
                        "\(label): \(cropKey) '\(crop)' is neither one of the app's crops (\(words.joined(separator: ", "))) nor a CSS position like \"50% 20%\"; give one of those (it becomes the picture's image.focus)",
                        at: entry[cropKey].map(\.position) ?? entry.position)
                }
            }
            if let file = findSound(path, context: context) {
                row.media.append(ImportRow.MediaFile(kind: .sound, path: file, at: context.location(pathPosition)))
                if let s = source.text(entry, "soundSource", label: label) ?? source.text(entry, "soundSourceRaw", label: label) {
                    row.fields.append(FieldValue(.media(.sound, .credit), soundSources[s.lowercased()] ?? s))
                }
            } else {
                missingSounds.append(path)
            }
            rows.append(row)
        }
        for (key, count) in skippedTitles.sorted(by: { $0.key < $1.key }) {
            let language = key == "wikiTitleDe" ? "de" : "en"
            source.warning(
                "\(key) of \(count) animal\(count == 1 ? "" : "s") left out: '\(language)' is not in content/site.yml's languages (\(config.languages.joined(separator: ", ")))",
                at: root.position)
        }
        if !missingSounds.isEmpty {
            source.warning(
                "\(missingSounds.count) of \(rows.count) sound\(rows.count == 1 ? "" : "s") not found under '\(context.mediaDirectory)' (first: \(missingSounds[0])), "
                    + "so those records get no sound from this import (one they have stays). Put the app's storage files there, or pass --media DIR, and import again",
                at: root.position)
        }
        return (rows, source.diagnostics)
    }

    /// `storagePath` under the media folder; a bare name (`fuchs`) may have any sound extension.
    static func findSound(_ storagePath: String, context: ImportContext) -> String? {
        let fs = context.fileSystem
        var relative = storagePath
        while relative.hasPrefix("/") { relative.removeFirst() }
        if relative.split(separator: "/").contains("..") { return nil }
        let direct = context.mediaPath(relative)
        if fs.infoFollowingLinks(direct)?.kind == .file { return direct }
        if RecordField.format(ofPath: relative, kind: .sound) == nil {
            for ext in MediaFormat.soundExtensions {
                let candidate = direct + "." + ext
                if fs.infoFollowingLinks(candidate)?.kind == .file { return candidate }
            }
        }
        return nil
    }

    /// `Red fox (animal)` → `Red fox`, `Amsel` → `Amsel`; underscores as spaces.
    static func nameFromTitle(_ title: String) -> String {
        var t = title.replacingOccurrences(of: "_", with: " ")
        if t.hasSuffix(")"), let open = t.lastIndex(of: "("), open > t.startIndex {
            t = String(t[..<open]).trimmingCharacters(in: .whitespaces)
        }
        return t
    }
}
