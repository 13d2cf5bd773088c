import BestiaryContent
import BestiaryStorage
import Foundation

/// The quiz's data: every animal with its names, group, difficulty, media and page, as the web
/// app's modules expect it (format 1; see docs/theming.md). One file for all languages, so search
/// finds any name; its name carries a content hash like every asset. The animals' short texts,
/// which only the quiz's "Read aloud" uses after an answer, are in a file per language that the
/// catalogue names (`descriptions`): at 10,000 animals they were half of its 13 MB, which the
/// home, quiz and settings pages each downloaded and parsed before showing anything.
public enum CatalogJSON {
    /// The catalogue, the descriptions' files (sorted by path), and where each animal's part is
    /// in each file.
    struct Files {
        var catalog: OutputFile
        var descriptions: [OutputFile]
        /// By path; empty when the animals' digests were not given.
        var tables: [String: FragmentTable]
        var all: [OutputFile] { [catalog] + descriptions }
    }

    /// What the previous build's files hold, for copying the parts of unchanged animals.
    struct Kept {
        var catalog: KeptBytes
        /// By language.
        var descriptions: [String: KeptBytes]
        /// The languages the previous build wrote no descriptions for (it had no text in them).
        var without: Set<String>
    }

    /// The files, and where each animal's object (and its description's member) is in them (by
    /// the animal's input digest, under a salt of the settings every part depends on), so that
    /// the next build copies the parts of unchanged animals: `kept`, when given, is these tables
    /// of the previous files with their bytes, and `digests` the animals' digests in catalogue
    /// order.
    static func files(input: RenderInput, digests: [String]? = nil, kept previous: Kept? = nil) -> Files {
        let config = input.catalog.config
        let languages = config.languages
        // Written straight into bytes, each object's keys in sorted order by hand (the order
        // `JSONText` gives them): boxing 10,000 animals in `[String: Any]` cost 3 × as much.
        let animals = input.catalog.animals
        /// An unchanged animal's object and description members, when the previous files hold all.
        func kept(_ digest: String, at index: Int) -> [ArraySlice<UInt8>]? {
            guard let previous, let object = previous.catalog.bytes(section: "", item: digest, at: index), isObject(object) else { return nil }
            var parts = [object]
            for lang in languages {
                if previous.without.contains(lang) {
                    parts.append([])
                } else {
                    guard let text = previous.descriptions[lang]?.bytes(section: "", item: digest, at: index), isMember(text) else { return nil }
                    parts.append(text)
                }
            }
            return parts
        }
        // The objects are written in parallel, a run of animals per task, and joined in catalogue
        // order (written in turn, they were 0.2 s of a full build with the other core idle). A
        // run's streams: the catalogue's objects, then each language's description members (an
        // animal without a text in it has an empty part there).
        let run = 128
        var runs = Parallel.map(Array(stride(from: 0, to: animals.count, by: run)), chunk: 1) { first -> [Stream] in
            var streams = [Stream](repeating: Stream(), count: 1 + languages.count)
            for index in first..<min(animals.count, first + run) {
                if let digest = digests?[index], let parts = kept(digest, at: index) {
                    for (i, part) in parts.enumerated() { streams[i].append(kept: part) }
                } else {
                    var json = JSONObjectWriter()
                    let description = object(animals[index], input: input, into: &json)
                    streams[0].append(made: json.out[...])
                    for (i, lang) in languages.enumerated() {
                        var member: [UInt8] = []
                        if let text = description[lang] {
                            JSONText.writeString(animals[index].id, into: &member)
                            member.append(UInt8(ascii: ":"))
                            JSONText.writeString(text, into: &member)
                        }
                        streams[1 + i].append(made: member[...])
                    }
                }
            }
            return streams
        }
        let salt = salt(config)
        /// One file's parts joined with commas between `open` and `close`, how many are not empty,
        /// and where each animal's part is (an empty one where it would be).
        /// `tail`: bytes the caller appends, reserved too (a 6.5 MB buffer is not copied for them).
        func joined(_ stream: Int, open: String, close: String, tail: Int = 0) -> (bytes: Data, table: FragmentTable?, written: Int) {
            // Made as the file's `Data` itself: a copy into one made the catalogue's 6.5 MB twice.
            var out = Data(capacity: runs.reduce(open.utf8.count + close.utf8.count + tail) { $0 + $1[stream].byteCount + $1[stream].count })
            out.append(contentsOf: open.utf8)
            var table = digests.map { _ in FragmentTable(salt: salt, entries: []) }
            table?.entries.reserveCapacity(animals.count)
            var index = 0, written = 0
            for streams in runs {
                streams[stream].forEachPart { part in
                    // An empty part (no description) takes no comma and is recorded where it would be.
                    if !part.isEmpty, written > 0 { out.append(UInt8(ascii: ",")) }
                    if let digests {
                        table?.entries.append(FragmentTable.Entry(section: "", item: digests[index], offset: out.count, length: part.count))
                    }
                    if !part.isEmpty { written += 1 }
                    part.withUnsafeBufferPointer { out.append($0) }
                    index += 1
                }
            }
            out.append(contentsOf: close.utf8)
            return (out, table, written)
        }
        var tables: [String: FragmentTable] = [:]
        var descriptionFiles: [OutputFile] = []
        /// Each language's file, as the catalogue names it.
        var paths: [String: String] = [:]
        for (i, lang) in languages.enumerated() {
            let (data, table, written) = joined(1 + i, open: "{", close: "}")
            guard written > 0 else { continue }
            let digest = Hashing.sha256Hex(data)
            let file = OutputFile(path: descriptionsPath(lang, sha256: digest), data: data, sha256: digest)
            descriptionFiles.append(file)
            paths[lang] = file.path
            tables[file.path] = table
        }
        descriptionFiles.sort { $0.path < $1.path }
        let rest: [String: Any] = [
            "format": 1,
            "languages": config.languages,
            "quiz": ["questions": config.quiz.questions, "choices": config.quiz.choices],
        ]
        var restJSON: [UInt8] = []
        JSONText.write(rest, into: &restJSON)
        restJSON[0] = UInt8(ascii: ",")  // its "{" becomes the comma after the member before
        // The descriptions' member (about 60 bytes a language) and the fingerprint's (81).
        let tail = restJSON.count + 81 + 20 + descriptionFiles.reduce(0) { $0 + $1.path.utf8.count + 12 }
        var (json, table, _) = joined(0, open: #"{"animals":["#, close: "]", tail: tail)
        runs = []
        // The fingerprint names the catalogue's content (daily challenges are seeded with it): the
        // SHA-256 of the object without it and without the descriptions' names (a text mended
        // leaves the day's questions as they were). Keys are sorted: "descriptions" and then
        // "fingerprint" come right after "animals" and before all of `rest`'s, so both forms are
        // made from one encoding of the animals (megabytes) and of the rest.
        let fingerprint = Hashing.sha256Hex(parts: [json, Data(restJSON)])
        var members: [UInt8] = []
        members.append(contentsOf: #","descriptions":"#.utf8)
        JSONText.write(paths, into: &members)
        members.append(contentsOf: #","fingerprint":"#.utf8)
        JSONText.writeString(fingerprint, into: &members)
        members.append(contentsOf: restJSON)
        json.append(contentsOf: members)
        let data = json
        let digest = Hashing.sha256Hex(data)
        let catalog = OutputFile(path: path(sha256: digest), data: data, sha256: digest)
        tables[catalog.path] = table
        return Files(catalog: catalog, descriptions: descriptionFiles, tables: digests == nil ? [:] : tables)
    }

    /// One run's parts of one file, in order: those made by this build back to back in `made`,
    /// those kept from the last build's file left where they are (a rebuild copied all 10,000
    /// animals' parts of the three files into its streams, 17 MB at the bench corpus's peak).
    struct Stream {
        private var made: [UInt8] = []
        /// Each part: a range of `made`, or a kept slice.
        private var parts: [Part] = []
        private(set) var byteCount = 0

        private enum Part {
            case made(Range<Int>)
            case kept(ArraySlice<UInt8>)
        }

        var count: Int { parts.count }

        mutating func append(made part: ArraySlice<UInt8>) {
            let start = made.count
            made.append(contentsOf: part)
            parts.append(.made(start..<made.count))
            byteCount += part.count
        }

        mutating func append(kept part: ArraySlice<UInt8>) {
            parts.append(.kept(part))
            byteCount += part.count
        }

        func forEachPart(_ body: (ArraySlice<UInt8>) -> Void) {
            for part in parts {
                switch part {
                case .made(let range): body(made[range])
                case .kept(let slice): body(slice)
                }
            }
        }
    }

    private static func isObject(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}")
    }

    /// A description's member as kept: `"id":"text"`, or nothing (no text in that language).
    private static func isMember(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.isEmpty || (bytes.count >= 5 && bytes.first == UInt8(ascii: "\"") && bytes.last == UInt8(ascii: "\""))
    }

    /// One animal's object, its keys in sorted order; returns its short text in each language
    /// that has one (the descriptions' files).
    private static func object(_ animal: Animal, input: RenderInput, into json: inout JSONObjectWriter) -> [String: String] {
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
        return description
    }

    /// Named by the SHA-256 of its bytes (``Hashing/shortHash(_:length:)``'s first 10 digits).
    static func path(sha256: String) -> String { "assets/catalog.\(sha256.prefix(10)).json" }

    static func isPath(_ path: String) -> Bool { path.hasPrefix("assets/catalog.") && path.hasSuffix(".json") }

    /// A language's descriptions, named by the SHA-256 of their bytes as the catalogue is.
    static func descriptionsPath(_ language: String, sha256: String) -> String {
        "assets/descriptions.\(language).\(sha256.prefix(10)).json"
    }

    /// The language of a descriptions' file's path, or nil when it is not one
    /// (`assets/descriptions.LANG.HASH.json`: the hash has no dot).
    static func descriptionsLanguage(_ path: String) -> String? {
        guard path.hasPrefix("assets/descriptions."), path.hasSuffix(".json") else { return nil }
        let middle = path.dropFirst("assets/descriptions.".count).dropLast(".json".count)
        guard let dot = middle.lastIndex(of: "."), dot > middle.startIndex else { return nil }
        return String(middle[..<dot])
    }

    /// The catalogue's or a language's descriptions' path without its content hash
    /// (`assets/catalog.json`, `assets/descriptions.de.json`): the same file of another build.
    /// Nil for any other path.
    public static func unhashedPath(_ path: String) -> String? {
        if isPath(path) { return "assets/catalog.json" }
        return descriptionsLanguage(path).map { "assets/descriptions.\($0).json" }
    }

    /// What every animal's object depends on besides the animal's own inputs (its digest): the
    /// languages, and the fallbacks that pick its descriptions.
    static func salt(_ config: SiteConfig) -> String {
        var feed = DigestFeed()
        feed.add("catalog 2")
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
