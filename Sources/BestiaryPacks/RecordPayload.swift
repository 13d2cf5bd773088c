import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage

/// Maps an ``Animal`` and what the build knows about it to the record a pack publishes: the
/// payload (everything an offline app shows) and the media files it needs.
///
/// Only content goes in, never build circumstances (times, paths on the build machine, fetch
/// dates), so that the same content always gives the same `rev`.
enum RecordPayload {
    static func record(
        for animal: Animal, texts: [String: PackText], media: [String: MediaDigest]
    ) throws(DiagnosticError) -> PackRecord {
        var p: [String: JSONValue] = ["id": .string(animal.id), "name": localized(animal.name)]
        var refs: [PackMediaRef] = []
        var attributions: [JSONValue] = []
        if let s = animal.scientific { p["scientific"] = .string(s) }
        if let g = animal.group { p["group"] = .string(g) }
        if let d = animal.difficulty { p["difficulty"] = .integer(Int64(d)) }
        p["tags"] = .array(animal.tags.map { .string($0) })
        if !animal.description.isEmpty { p["description"] = localized(animal.description) }
        if !animal.hint.isEmpty { p["hint"] = localized(animal.hint) }
        if !animal.habitat.isEmpty { p["habitat"] = localized(animal.habitat) }
        if let c = animal.conservation { p["conservation"] = .string(c) }
        if !animal.wikipedia.isEmpty { p["wikipedia"] = .object(animal.wikipedia.mapValues { .string($0) }) }
        let bodies = animal.bodies.filter { !$0.value.isBlank }
        if !bodies.isEmpty { p["body"] = .object(bodies.mapValues { .string($0.markdown) }) }

        for reference in [animal.sound, animal.image].compactMap({ $0 }) {
            var m: [String: JSONValue] = ["kind": .string(reference.kind.rawValue), "mime": .string(reference.format.mimeType)]
            switch reference.source {
            case .file(let path):
                guard let digest = media[path] else {
                    throw DiagnosticError(.error(
                        "\(reference.kind.rawValue).file '\(path)' has no media digest; the build must hash every media file before making packs",
                        at: reference.location, stage: "packs"))
                }
                m["sha256"] = .string(digest.sha256)
                m["bytes"] = .integer(Int64(digest.bytes))
                m["ext"] = .string(digest.format.fileExtension)
                m["mime"] = .string(digest.format.mimeType)
                refs.append(digest.ref)
            case .url(let url):
                m["url"] = .string(url)
            }
            if let c = reference.credit { m["credit"] = .string(c) }
            if let l = reference.license { m["license"] = .string(l) }
            if let s = reference.sourceURL { m["source"] = .string(s) }
            if let f = reference.focus { m["focus"] = .string(f) }
            if !reference.alt.isEmpty { m["alt"] = localized(reference.alt) }
            p[reference.kind.rawValue] = .object(m)
            if let a = attribution(for: reference.kind.rawValue, language: nil, credit: reference.credit, license: reference.license, source: reference.sourceURL) {
                attributions.append(a)
            }
        }

        var textMembers: [String: JSONValue] = [:]
        for language in texts.keys.sorted() {
            let t = texts[language]!
            var o: [String: JSONValue] = ["source": .string(t.source.rawValue), "text": .string(t.text)]
            if let v = t.language, v != language { o["language"] = .string(v) }
            if let v = t.title { o["title"] = .string(v) }
            if let v = t.url { o["url"] = .string(v) }
            if let v = t.license { o["license"] = .string(v) }
            if let v = t.licenseURL { o["license_url"] = .string(v) }
            if let v = t.revision { o["revision"] = .string(v) }
            let credit = t.credit ?? (t.source == .wikipedia ? "Wikipedia contributors" : nil)
            if let v = credit { o["credit"] = .string(v) }
            if let image = t.image {
                var m: [String: JSONValue] = [
                    "kind": "image", "sha256": .string(image.media.sha256), "bytes": .integer(Int64(image.media.bytes)),
                    "ext": .string(image.media.format.fileExtension), "mime": .string(image.media.format.mimeType),
                ]
                if let c = image.credit { m["credit"] = .string(c) }
                if let l = image.license { m["license"] = .string(l) }
                if let s = image.sourceURL { m["source"] = .string(s) }
                if let f = animal.leadImageFocus { m["focus"] = .string(f) }
                // The record's text in place of the picture (`image: {alt: …}`) in the language of the
                // article it leads (another's may lead with another picture), keyed as a record's own picture's.
                let articleLanguage = t.language ?? language
                if let alt = animal.leadImageAlt.values[articleLanguage] { m["alt"] = .object([articleLanguage: .string(alt)]) }
                o["image"] = .object(m)
                refs.append(image.media.ref)
            }
            textMembers[language] = .object(o)
            if t.source == .wikipedia || t.license != nil,
                let a = attribution(for: "text", language: language, credit: credit, license: t.license, source: t.url)
            {
                attributions.append(a)
            }
            if let image = t.image,
                let a = attribution(for: "image", language: language, credit: image.credit, license: image.license, source: image.sourceURL)
            {
                attributions.append(a)
            }
        }
        if !textMembers.isEmpty { p["texts"] = .object(textMembers) }
        if !attributions.isEmpty { p["attributions"] = .array(attributions) }
        return PackRecord.compact(id: animal.id, media: refs, payload: .object(p))
    }

    private static func localized(_ text: LocalizedText) -> JSONValue {
        .object(text.values.mapValues { .string($0) })
    }

    /// One line of a credits screen: what (`sound`, `image`, `text`), in which language for
    /// texts, who, under which licence, from where. Nil when there is nothing to credit.
    private static func attribution(for what: String, language: String?, credit: String?, license: String?, source: String?) -> JSONValue? {
        guard credit != nil || license != nil else { return nil }
        var o: [String: JSONValue] = ["for": .string(what)]
        if let language { o["language"] = .string(language) }
        if let credit { o["credit"] = .string(credit) }
        if let license { o["license"] = .string(license) }
        if let source { o["source"] = .string(source) }
        return .object(o)
    }
}

extension RecordPayload {
    /// The media files ``record(for:texts:media:)`` lists (given every file's digest).
    static func mediaRefs(for animal: Animal, texts: [String: PackText], media: [String: MediaDigest]) -> [PackMediaRef] {
        var refs = [animal.sound, animal.image].compactMap { $0?.filePath.flatMap { media[$0]?.ref } }
        for text in texts.values { if let image = text.image { refs.append(image.media.ref) } }
        return refs
    }

    /// A digest of everything ``record(for:texts:media:)`` reads, the same in every process:
    /// equal digests make equal records, so a build takes an unchanged animal's record from the
    /// previous manifest instead of making and encoding it again (``KeptRecords``). Every value is
    /// tagged and length-prefixed, dictionaries in key order. Nil when a media file of the animal
    /// has no digest (making the record reports it). Where an error would be reported from
    /// (`location`s) and the record's own path do not change the record and are left out; a test
    /// lists the fields so that a new one is not forgotten here.
    static func inputDigest(for animal: Animal, texts: [String: PackText], media: [String: MediaDigest]) -> String? {
        var feed = DigestFeed()
        feed.add(animal.id)
        feed.add(animal.name.values)
        feed.add(animal.scientific)
        feed.add(animal.group)
        feed.add(animal.difficulty)
        feed.add(count: animal.tags.count)
        for tag in animal.tags { feed.add(tag) }
        feed.add(animal.wikipedia)
        feed.add(animal.description.values)
        feed.add(animal.hint.values)
        feed.add(animal.habitat.values)
        feed.add(animal.conservation)
        feed.add(animal.leadImageFocus)
        feed.add(animal.leadImageAlt.values)
        feed.add(animal.bodies.mapValues(\.markdown))
        for reference in [animal.sound, animal.image] {
            guard let reference else {
                feed.add(nil as String?)
                continue
            }
            feed.add(reference.kind.rawValue)
            feed.add(reference.format.rawValue)
            switch reference.source {
            case .file(let path):
                guard let digest = media[path] else { return nil }
                feed.add("file")
                feed.add(path)
                feed.add(digest)
            case .url(let url):
                feed.add("url")
                feed.add(url)
            }
            feed.add(reference.credit)
            feed.add(reference.license)
            feed.add(reference.sourceURL)
            feed.add(reference.focus)
            feed.add(reference.alt.values)
        }
        feed.add(count: texts.count)
        for language in texts.keys.sorted() {
            let t = texts[language]!
            feed.add(language)
            feed.add(t.source.rawValue)
            feed.add(t.text)
            feed.add(t.language)
            feed.add(t.title)
            feed.add(t.url)
            feed.add(t.license)
            feed.add(t.licenseURL)
            feed.add(t.credit)
            feed.add(t.revision)
            if let image = t.image {
                feed.add("image")
                feed.add(image.media)
                feed.add(image.credit)
                feed.add(image.license)
                feed.add(image.sourceURL)
            } else {
                feed.add(nil as String?)
            }
        }
        return feed.finish()
    }
}

extension DigestFeed {
    mutating func add(_ digest: MediaDigest) {
        add(digest.sha256)
        add(count: digest.bytes)
        add(digest.format.rawValue)
    }
}
