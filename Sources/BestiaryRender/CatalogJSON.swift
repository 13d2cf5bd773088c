import BestiaryContent
import BestiaryStorage
import Foundation

/// The quiz's data: every animal with its names, group, difficulty, media and page, as the web
/// app's modules expect it (format 1; see docs/theming.md). One file for all languages, so search
/// finds any name; its name carries a content hash like every asset.
enum CatalogJSON {
    /// A JSON value or `null`.
    static func orNull(_ value: Any?) -> Any { value ?? NSNull() }

    static func file(input: RenderInput) -> OutputFile {
        let config = input.catalog.config
        var animals: [[String: Any]] = []
        for animal in input.catalog.animals {
            let view = AnimalView(animal: animal, language: config.defaultLanguage, input: input)
            var names: [String: String] = [:]
            for l in animal.name.languages { names[l] = animal.name[l] }
            var description: [String: String] = [:]
            for lang in config.languages {
                let v = AnimalView(animal: animal, language: lang, input: input)
                if let text = v.shortText, text.language == lang { description[lang] = text.text }
            }
            var item: [String: Any] = [
                "id": animal.id,
                "names": names,
                "scientific": orNull(animal.scientific),
                "group": orNull(animal.group),
                "difficulty": animal.difficulty ?? 1,
                "tags": animal.tags,
                "page": "animals/\(animal.id)/",
                "description": description,
            ]
            if let sound = view.sound {
                let entry: [String: Any] = [
                    "src": sound.src, "type": sound.type, "credit": orNull(sound.credit), "license": orNull(sound.license),
                    "source": orNull(sound.source), "bytes": orNull(sound.bytes),
                ]
                item["sound"] = entry
            } else {
                item["sound"] = NSNull()
            }
            if let image = view.image {
                let srcset: String? = image.srcset.count > 1
                    ? image.srcset.map { "\($0.path) \($0.width ?? 0)w" }.joined(separator: ", ") : nil
                let entry: [String: Any] = [
                    "src": image.src, "srcset": orNull(srcset), "width": orNull(image.width), "height": orNull(image.height),
                    "focus": orNull(image.focus), "credit": orNull(image.credit), "license": orNull(image.license),
                    "source": orNull(image.source), "bytes": orNull(image.bytes),
                ]
                item["image"] = entry
            } else {
                item["image"] = NSNull()
            }
            animals.append(item)
        }
        let body: [String: Any] = [
            "format": 1,
            "languages": config.languages,
            "quiz": ["questions": config.quiz.questions, "choices": config.quiz.choices],
            "animals": animals,
        ]
        // The fingerprint names the catalogue's content (daily challenges are seeded with it).
        let withoutFingerprint = JSONText.encode(body)
        var full = body
        full["fingerprint"] = Hashing.sha256Hex(withoutFingerprint)
        let data = Data(JSONText.encode(full).utf8)
        return OutputFile(path: "assets/catalog.\(Hashing.shortHash(data)).json", data: data)
    }
}
