import BestiaryContent
import BestiaryMarkdown

/// What pages, lists and the quiz show of one animal in one language.
struct AnimalView {
    let animal: Animal
    let language: String
    let input: RenderInput

    var config: SiteConfig { input.catalog.config }
    var fallback: [String] { config.fallback(for: language) }

    var name: (text: String, language: String) {
        animal.name.resolve(language, fallback: fallback) ?? (animal.id, language)
    }

    var summary: SummaryView? { input.summaries[animal.id]?[language] }

    /// The summary a page shows as the animal's text: one in another language (a fallback) only
    /// when the record has no `description` in the page's language. The author's own text in the
    /// reader's language comes before another language's summary (a German page showed the
    /// English summary over the German description the author wrote).
    var textSummary: SummaryView? {
        guard let s = summary else { return nil }
        return animal.prefersOwnDescription(in: language, overSummaryIn: s.language) ? nil : s
    }

    /// The record's own picture, else the Wikipedia lead image.
    var image: ImageInfo? {
        if let ref = animal.image {
            switch ref.source {
            case .file(let path):
                guard let out = input.media[path] else { return nil }
                return ImageInfo(
                    src: out.path, srcset: [], width: out.width, height: out.height, focus: ref.focus,
                    alt: ref.alt.resolve(language, fallback: fallback)?.text ?? name.text,
                    altLanguage: ref.alt.resolve(language, fallback: fallback)?.language ?? name.language,
                    credit: ref.credit, license: ref.license, licenseURL: nil, source: ref.sourceURL, fromWikipedia: false, bytes: out.bytes)
            case .url(let url):
                return ImageInfo(
                    src: url, srcset: [], width: nil, height: nil, focus: ref.focus,
                    alt: ref.alt.resolve(language, fallback: fallback)?.text ?? name.text,
                    altLanguage: ref.alt.resolve(language, fallback: fallback)?.language ?? name.language,
                    credit: ref.credit, license: ref.license, licenseURL: nil, source: ref.sourceURL, fromWikipedia: false, external: true)
            }
        }
        guard let wiki = summary?.image, let largest = wiki.variants.last else { return nil }
        // The language of the article the picture leads: the text's, or another's whose picture
        // it borrowed (the text's article has none).
        let leadLanguage = wiki.articleLanguage ?? summary?.language
        // The page size: the smallest variant at least 500 px wide, else the largest.
        let main = wiki.variants.first { ($0.width ?? 0) >= 500 } ?? largest
        return ImageInfo(
            src: main.path, srcset: wiki.variants.filter { $0.width != nil }, width: main.width, height: main.height,
            focus: animal.leadImageFocus,
            // The record's text for it in the language of the article it leads (another language's
            // article may lead with another picture), else the animal's name.
            alt: leadLanguage.flatMap { animal.leadImageAlt.values[$0] } ?? name.text,
            altLanguage: leadLanguage.flatMap { l in animal.leadImageAlt.values[l].map { _ in l } } ?? name.language,
            // Without a description page (Commons said nothing of the file), the article it leads.
            credit: wiki.credit, license: wiki.license, licenseURL: wiki.licenseURL, source: wiki.sourceURL ?? wiki.articleURL ?? summary?.articleURL,
            fromWikipedia: true, bytes: main.bytes)
    }

    struct ImageInfo {
        var src: String
        var srcset: [MediaOutput]
        var width: Int?
        var height: Int?
        var focus: String?
        var alt: String
        /// The language `alt` is in (another than the page's when it falls back).
        var altLanguage: String
        var credit: String?
        var license: String?
        var licenseURL: String?
        var source: String?
        var fromWikipedia: Bool
        var external: Bool = false
        var bytes: Int? = nil
    }

    struct SoundInfo {
        var src: String
        var type: String
        var credit: String?
        var license: String?
        var source: String?
        var external: Bool
        var bytes: Int? = nil
    }

    var sound: SoundInfo? {
        guard let ref = animal.sound else { return nil }
        switch ref.source {
        case .file(let path):
            guard let out = input.media[path] else { return nil }
            return SoundInfo(
                src: out.path, type: ref.format.mimeType, credit: ref.credit, license: ref.license, source: ref.sourceURL, external: false,
                bytes: out.bytes)
        case .url(let url):
            return SoundInfo(src: url, type: ref.format.mimeType, credit: ref.credit, license: ref.license, source: ref.sourceURL, external: true)
        }
    }

    /// The Markdown body in this language, else along the fallback list.
    var body: (markdown: String, language: String)? {
        for lang in fallback {
            if let body = animal.bodies[lang], !body.isBlank { return (body.markdown, lang) }
        }
        return nil
    }

    /// A short text: the summary's (``textSummary``), else the record's description.
    var shortText: (text: String, language: String)? {
        if let s = textSummary { return (s.text, s.language) }
        return animal.description.resolve(language, fallback: fallback)
    }
}

extension RenderInput {
    /// Whether an ``AnimalView``'s `image` is not nil, with no view made (the home page counts
    /// them on every build: a view per animal and language copied both, 50 ms on 10,000).
    func hasImage(_ animal: Animal, language: String) -> Bool {
        if let ref = animal.image {
            switch ref.source {
            case .file(let path): return media[path] != nil
            case .url: return true
            }
        }
        // Read in place through the indices: `summaries[id]?[language]` copied the whole view
        // (each of its strings retained) for 20,000 lookups on every build.
        guard let i = summaries.index(forKey: animal.id), let j = summaries.values[i].index(forKey: language) else { return false }
        return summaries.values[i].values[j].image?.variants.isEmpty == false
    }

    /// Whether an ``AnimalView``'s `sound` is not nil (the catalogue has the animal's recording).
    func hasSound(_ animal: Animal) -> Bool {
        guard let ref = animal.sound else { return false }
        switch ref.source {
        case .file(let path): return media[path] != nil
        case .url: return true
        }
    }
}
