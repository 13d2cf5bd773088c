import BestiaryContent
import BestiaryDiagnostics
import BestiaryPackFormat

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
