import BestiaryTestSupport
import Foundation

/// A generated site root on disk (not real animals): site.yml, records, media files.
final class TestSite {
    let directory = TemporaryDirectory("bestiary-site")
    var root: String { directory.path }

    init(packs: String = "{id: demo, keep_deltas: 10}", languages: String = "[en, de]") throws {
        try directory.write(
            """
            title: {en: Generated test site, de: Erzeugte Testseite}
            base_url: https://example.org/quiz/
            languages: \(languages)
            packs: \(packs)

            """, to: "content/site.yml")
    }

    func setPacks(_ packs: String) throws {
        let text = try directory.read("content/site.yml")
        let lines = text.split(separator: "\n").map { $0.hasPrefix("packs:") ? "packs: \(packs)" : String($0) }
        try directory.write(lines.joined(separator: "\n") + "\n", to: "content/site.yml")
    }

    /// Writes content/animals/ID.md with this front matter (YAML lines) and body.
    func animal(_ id: String, _ frontMatter: String, body: String = "") throws {
        try directory.write("---\n\(frontMatter)\n---\n\(body)", to: "content/animals/\(id).md")
    }

    func translation(_ id: String, _ language: String, _ body: String) throws {
        try directory.write(body, to: "content/animals/\(id).\(language).md")
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: directory.appending(relative))
    }

    func media(_ path: String, _ data: Data) throws {
        try directory.write(data, to: "content/" + path)
    }

    /// A generated record with a sound and a picture.
    func standardAnimal(_ id: String, name: String, sound: Int? = nil, image: Int? = nil, extra: String = "") throws {
        var lines = ["name: {en: \"\(name)\", de: \"\(name) (de)\"}", "group: generated"]
        if let sound {
            try media("sounds/\(id).ogg", GeneratedMedia.ogg(sound))
            lines.append("sound: {file: sounds/\(id).ogg, credit: Generated test data, license: CC0-1.0, source: \"https://example.org/s/\(id)\"}")
        }
        if let image {
            try media("images/\(id).png", GeneratedMedia.png(image))
            lines.append("image: {file: images/\(id).png, credit: Generated test data, license: CC0-1.0, focus: \"50% 20%\"}")
        }
        if !extra.isEmpty { lines.append(extra) }
        try animal(id, lines.joined(separator: "\n"))
    }
}
