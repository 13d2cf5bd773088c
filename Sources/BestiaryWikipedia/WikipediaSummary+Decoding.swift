import Foundation

/// Why a summary body could not be used. The message names the missing or broken field.
public struct SummaryDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension WikipediaSummary {
    /// Decodes a response body. Throws ``SummaryDecodingError`` for bodies that are not JSON,
    /// not an object, or lack a required field; callers decide on the HTTP status first and
    /// never parse error bodies (a 404 body has changed shape twice).
    public static func decode(_ data: Data) throws -> WikipediaSummary {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw SummaryDecodingError("the body is not valid JSON (\(data.count) bytes)")
        }
        guard let json = object as? [String: Any] else {
            throw SummaryDecodingError("the body is JSON but not an object")
        }
        func string(_ key: String, in dict: [String: Any]) -> String? {
            dict[key] as? String
        }
        func required(_ key: String) throws -> String {
            guard let value = string(key, in: json) else {
                throw SummaryDecodingError("the summary has no '\(key)' string")
            }
            return value
        }
        let type = try required("type")
        let titles = json["titles"] as? [String: Any] ?? [:]
        // `titles` appeared in 2019; `title` (deprecated, with spaces) is the fallback.
        let canonical = string("canonical", in: titles)
            ?? (string("normalized", in: titles) ?? string("title", in: json)).map { $0.replacingOccurrences(of: " ", with: "_") }
        let normalized = string("normalized", in: titles) ?? string("title", in: json)
            ?? canonical.map { $0.replacingOccurrences(of: "_", with: " ") }
        guard let canonical, let normalized, !canonical.isEmpty else {
            throw SummaryDecodingError("the summary has neither 'titles.canonical' nor 'title'")
        }
        // `revision` was a number in some years and a string in others.
        let revision: String
        if let s = json["revision"] as? String {
            revision = s
        } else if let n = integer(json["revision"]) {
            revision = String(n)
        } else {
            throw SummaryDecodingError("the summary has no 'revision'")
        }
        let language = try required("lang")
        let extract = try required("extract")
        let extractHTML = try required("extract_html")
        let urls = json["content_urls"] as? [String: Any]
        let desktop = urls?["desktop"] as? [String: Any]
        return WikipediaSummary(
            type: type,
            canonicalTitle: canonical,
            normalizedTitle: normalized,
            displayTitle: string("displaytitle", in: json) ?? string("display", in: titles),
            pageID: integer(json["pageid"]),
            revision: revision,
            timestamp: string("timestamp", in: json),
            language: language,
            direction: string("dir", in: json) == "rtl" ? "rtl" : "ltr",
            description: string("description", in: json),
            wikibaseItem: string("wikibase_item", in: json),
            pageURL: desktop.flatMap { string("page", in: $0) },
            extract: extract,
            extractHTML: extractHTML,
            thumbnail: imageSource(json["thumbnail"]),
            originalImage: imageSource(json["originalimage"])
        )
    }

    private static func imageSource(_ value: Any?) -> ImageSource? {
        guard let dict = value as? [String: Any], let url = dict["source"] as? String, !url.isEmpty,
            let width = integer(dict["width"]), let height = integer(dict["height"]),
            width > 0, height > 0
        else { return nil }
        return ImageSource(url: url, width: width, height: height)
    }

    /// A JSON number as an integer, whichever way Foundation boxed it.
    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let i as Int: i
        case let d as Double where d.rounded() == d && abs(d) < 1e15: Int(d)
        case let n as NSNumber: n.intValue
        default: nil
        }
    }
}
