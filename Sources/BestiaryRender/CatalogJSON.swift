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
        let rest: [String: Any] = [
            "format": 1,
            "languages": config.languages,
            "quiz": ["questions": config.quiz.questions, "choices": config.quiz.choices],
        ]
        // The fingerprint names the catalogue's content (daily challenges are seeded with it): the
        // SHA-256 of the object without it. Keys are sorted, and "fingerprint" comes right after
        // "animals" and before all of `rest`'s, so both forms are made from one encoding of the
        // animals (megabytes) and of the rest: `{"animals":[…]` `,"fingerprint":"…"` `,"format":…}`.
        var animalsJSON: [UInt8] = Array(#"{"animals":"#.utf8)
        animalsJSON.reserveCapacity(animals.count * 900)
        JSONText.write(animals, into: &animalsJSON)
        var restJSON: [UInt8] = []
        JSONText.write(rest, into: &restJSON)
        restJSON[0] = UInt8(ascii: ",")  // its "{" becomes the comma after the member before
        let fingerprint = Hashing.sha256Hex(Data(animalsJSON + restJSON))
        var full = animalsJSON
        full.append(contentsOf: #","fingerprint":"#.utf8)
        JSONText.writeString(fingerprint, into: &full)
        full.append(contentsOf: restJSON)
        let data = Data(full)
        return OutputFile(path: "assets/catalog.\(Hashing.shortHash(data)).json", data: data)
    }
}
