import BestiaryContent
import BestiaryStorage
import Foundation

/// The quiz's data: every animal with its names, group, difficulty, media and page, as the web
/// app's modules expect it (format 1; see docs/theming.md). One file for all languages, so search
/// finds any name; its name carries a content hash like every asset.
enum CatalogJSON {
    /// The file, and where each animal's object is in it (by the animal's input digest, under a
    /// salt of the settings every object depends on), so that the next build copies the objects
    /// of unchanged animals from it: `kept`, when given, is this table of the previous catalogue
    /// with its bytes, and `digests` the animals' digests in catalogue order.
    static func file(input: RenderInput, digests: [String]? = nil, kept: KeptBytes? = nil) -> (OutputFile, FragmentTable?) {
        let config = input.catalog.config
        // Written straight into bytes, each object's keys in sorted order by hand (the order
        // `JSONText` gives them): boxing 10,000 animals in `[String: Any]` cost 3 × as much.
        let animals = input.catalog.animals
        // The objects are written in parallel, a run of animals per task, and joined in catalogue
        // order (written in turn, they were 0.2 s of a full build with the other core idle).
        let run = 128
        var runs = Parallel.map(Array(stride(from: 0, to: animals.count, by: run)), chunk: 1) { first -> ([UInt8], [Int]) in
            var json = JSONObjectWriter()
            var ends: [Int] = []
            for index in first..<min(animals.count, first + run) {
                if let digests, let bytes = kept?.bytes(section: "", item: digests[index]), bytes.first == UInt8(ascii: "{"),
                    bytes.last == UInt8(ascii: "}")
                {
                    json.out.append(contentsOf: bytes)
                } else {
                    object(animals[index], input: input, into: &json)
                }
                ends.append(json.out.count)
            }
            return (json.out, ends)
        }
        let rest: [String: Any] = [
            "format": 1,
            "languages": config.languages,
            "quiz": ["questions": config.quiz.questions, "choices": config.quiz.choices],
        ]
        var restJSON: [UInt8] = []
        JSONText.write(rest, into: &restJSON)
        restJSON[0] = UInt8(ascii: ",")  // its "{" becomes the comma after the member before
        var json = JSONObjectWriter()
        // The whole file's size (the fingerprint's member is 81 bytes), so that 13 MB are not
        // copied into a buffer twice their size for the last few bytes.
        json.out.reserveCapacity(runs.reduce(16 + 81 + restJSON.count) { $0 + $1.0.count + $1.1.count })
        json.out.append(contentsOf: #"{"animals":["#.utf8)
        var table = digests.map { _ in FragmentTable(salt: salt(config), entries: []) }
        table?.entries.reserveCapacity(animals.count)
        var index = 0
        for (bytes, ends) in runs {
            var start = 0
            for end in ends {
                if index > 0 { json.out.append(UInt8(ascii: ",")) }
                if let digests {
                    table?.entries.append(FragmentTable.Entry(section: "", item: digests[index], offset: json.out.count, length: end - start))
                }
                json.out.append(contentsOf: bytes[start..<end])
                start = end
                index += 1
            }
        }
        runs = []
        json.out.append(UInt8(ascii: "]"))
        // The fingerprint names the catalogue's content (daily challenges are seeded with it): the
        // SHA-256 of the object without it. Keys are sorted, and "fingerprint" comes right after
        // "animals" and before all of `rest`'s, so both forms are made from one encoding of the
        // animals (megabytes) and of the rest: `{"animals":[…]` `,"fingerprint":"…"` `,"format":…}`.
        let fingerprint = Hashing.sha256Hex(parts: [json.out, restJSON])
        json.out.append(contentsOf: #","fingerprint":"#.utf8)
        JSONText.writeString(fingerprint, into: &json.out)
        json.out.append(contentsOf: restJSON)
        let data = Data(json.out)
        let digest = Hashing.sha256Hex(data)
        return (OutputFile(path: path(sha256: digest), data: data, sha256: digest), table)
    }

    /// One animal's object, its keys in sorted order.
    private static func object(_ animal: Animal, input: RenderInput, into json: inout JSONObjectWriter) {
        let config = input.catalog.config
        let view = AnimalView(animal: animal, language: config.defaultLanguage, input: input)
        var description: [String: String] = [:]
        for lang in config.languages {
            let v = AnimalView(animal: animal, language: lang, input: input)
            if let text = v.shortText, text.language == lang { description[lang] = text.text }
        }
        var names: [String: String] = [:]
        for l in animal.name.languages { names[l] = animal.name[l] }
        json.object { json in
            json.raw("description") { JSONText.write(description, into: &$0) }
            json.int("difficulty", animal.difficulty ?? 1)
            json.string("group", animal.group)
            json.string("id", animal.id)
            if let image = view.image {
                let srcset: String? = image.srcset.count > 1
                    ? image.srcset.map { "\($0.path) \($0.width ?? 0)w" }.joined(separator: ", ") : nil
                json.object("image") { json in
                    json.int("bytes", image.bytes)
                    json.string("credit", image.credit)
                    json.string("focus", image.focus)
                    json.int("height", image.height)
                    json.string("license", image.license)
                    json.string("source", image.source)
                    json.string("src", image.src)
                    json.string("srcset", srcset)
                    json.int("width", image.width)
                }
            } else {
                json.string("image", nil)
            }
            json.raw("names") { JSONText.write(names, into: &$0) }
            json.string("page", "animals/\(animal.id)/")
            json.string("scientific", animal.scientific)
            if let sound = view.sound {
                json.object("sound") { json in
                    json.int("bytes", sound.bytes)
                    json.string("credit", sound.credit)
                    json.string("license", sound.license)
                    json.string("source", sound.source)
                    json.string("src", sound.src)
                    json.string("type", sound.type)
                }
            } else {
                json.string("sound", nil)
            }
            json.raw("tags") { JSONText.write(animal.tags, into: &$0) }
        }
    }

    /// Named by the SHA-256 of its bytes (``Hashing/shortHash(_:length:)``'s first 10 digits).
    static func path(sha256: String) -> String { "assets/catalog.\(sha256.prefix(10)).json" }

    static func isPath(_ path: String) -> Bool { path.hasPrefix("assets/catalog.") && path.hasSuffix(".json") }

    /// What every animal's object depends on besides the animal's own inputs (its digest): the
    /// languages, and the fallbacks that pick its descriptions.
    static func salt(_ config: SiteConfig) -> String {
        var feed = DigestFeed()
        feed.add("catalog 1")
        feed.add(config.defaultLanguage)
        feed.add(count: config.languages.count)
        for language in config.languages {
            feed.add(language)
            let fallback = config.fallback(for: language)
            feed.add(count: fallback.count)
            for l in fallback { feed.add(l) }
        }
        return feed.finish()
    }
}

/// JSON objects written member by member into bytes, keys given in sorted order by the caller.
struct JSONObjectWriter {
    var out: [UInt8] = []
    /// Per open object: no member written yet.
    private var first: [Bool] = []

    /// An object (at the top, or as an element of an array the caller writes).
    mutating func object(_ body: (inout JSONObjectWriter) -> Void) {
        out.append(UInt8(ascii: "{"))
        first.append(true)
        body(&self)
        first.removeLast()
        out.append(UInt8(ascii: "}"))
    }

    mutating func object(_ key: String, _ body: (inout JSONObjectWriter) -> Void) {
        name(key)
        object(body)
    }

    /// A member whose value `write` appends.
    mutating func raw(_ key: String, _ write: (inout [UInt8]) -> Void) {
        name(key)
        write(&out)
    }

    mutating func string(_ key: String, _ value: String?) {
        name(key)
        if let value { JSONText.writeString(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    mutating func int(_ key: String, _ value: Int?) {
        name(key)
        out.append(contentsOf: (value.map(String.init) ?? "null").utf8)
    }

    private mutating func name(_ key: String) {
        if first.last == false { out.append(UInt8(ascii: ",")) }
        first[first.count - 1] = false
        JSONText.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
    }
}
