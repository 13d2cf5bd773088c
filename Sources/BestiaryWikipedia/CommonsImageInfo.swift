import Foundation

/// Decodes the Action API's `prop=imageinfo&iiprop=url|extmetadata` answer (Commons, or a
/// wiki proxying Commons) into an ``ImageAttribution``. Both `formatversion=2` (pages as an
/// array) and the older form (pages keyed by id) are understood; extmetadata values are HTML
/// and become plain text.
public enum CommonsImageInfo {
    /// The query to send for `file` (`File:Name.jpg`) to an `api.php` URL.
    public static func queryURL(api: String, file: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        let title = file.addingPercentEncoding(withAllowedCharacters: allowed) ?? file
        let separator = api.contains("?") ? "&" : "?"
        return api + separator
            + "action=query&format=json&formatversion=2&prop=imageinfo&iiprop=url%7Cextmetadata"
            + "&iiextmetadatafilter=Artist%7CCredit%7CLicenseShortName%7CLicenseUrl%7CAttributionRequired%7CUsageTerms"
            + "&titles=" + title
    }

    public enum Result: Hashable, Sendable {
        /// The file and what its page says (attribution fields may be empty).
        case found(ImageAttribution)
        /// The API knows no such file (a file local to one wiki, or deleted).
        case missing
    }

    /// Throws ``SummaryDecodingError`` when the body is not the expected JSON.
    public static func decode(_ data: Data) throws -> Result {
        guard let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw SummaryDecodingError("the imageinfo body is not a JSON object")
        }
        guard let query = json["query"] as? [String: Any] else {
            if let error = json["error"] as? [String: Any] {
                throw SummaryDecodingError("the API refused the query: \(error["info"] as? String ?? error["code"] as? String ?? "unknown error")")
            }
            throw SummaryDecodingError("the imageinfo body has no 'query'")
        }
        let pages: [[String: Any]]
        if let list = query["pages"] as? [[String: Any]] {
            pages = list
        } else if let map = query["pages"] as? [String: Any] {
            pages = map.keys.sorted().compactMap { map[$0] as? [String: Any] }
        } else {
            throw SummaryDecodingError("the imageinfo body has no 'query.pages'")
        }
        guard let page = pages.first, let info = (page["imageinfo"] as? [[String: Any]])?.first else {
            return .missing
        }
        let meta = info["extmetadata"] as? [String: Any] ?? [:]
        func value(_ key: String) -> String? {
            let raw: Any? = (meta[key] as? [String: Any])?["value"]
            let text: String?
            switch raw {
            case let s as String: text = s
            case let b as Bool: text = b ? "true" : "false"
            case let n as NSNumber: text = n.stringValue
            default: text = nil
            }
            guard let text else { return nil }
            let plain = HTMLText.plain(text)
            return plain.isEmpty ? nil : plain
        }
        let license: License? = value("LicenseShortName").map { License(name: $0, url: value("LicenseUrl").map(absoluteURL)) }
        let required = value("AttributionRequired").map { ["true", "1", "yes"].contains($0.lowercased()) } ?? true
        return .found(ImageAttribution(
            artist: value("Artist"), credit: value("Credit"), license: license, attributionRequired: required,
            descriptionURL: (info["descriptionurl"] as? String).map(absoluteURL)))
    }

    /// `//commons.wikimedia.org/…` → `https://commons.wikimedia.org/…`.
    static func absoluteURL(_ url: String) -> String {
        url.hasPrefix("//") ? "https:" + url : url
    }
}
