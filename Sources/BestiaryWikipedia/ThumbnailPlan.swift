import Foundation

/// Which widths of a lead image to download.
///
/// Wikimedia serves only standard thumbnail widths (20, 40, 60, 120, 250, 330, 500, 960, 1280,
/// 1920, 3840) and answers others with HTTP 429. Bestiary stores a page width (330, what the
/// summary gives since 2026) and a large width (960) for `srcset`; a width at or above the
/// original's is never requested: the original file is used once instead.
public enum ThumbnailPlan {
    public static let standardWidths = [20, 40, 60, 120, 250, 330, 500, 960, 1280, 1920, 3840]
    /// The widths Bestiary keeps, narrowest first.
    public static let defaultWidths = [330, 960]

    /// One download to make.
    public struct Item: Hashable, Sendable {
        public var url: String
        public var width: Int
        public var height: Int
    }

    /// The downloads for a summary's image; empty when it has none.
    public static func items(thumbnail: ImageSource?, original: ImageSource?, widths: [Int] = defaultWidths) -> [Item] {
        guard let thumbnail else { return [] }
        guard let original, original.width > 0 else {
            return [Item(url: thumbnail.url, width: thumbnail.width, height: thumbnail.height)]
        }
        var items: [Item] = []
        var usedOriginal = false
        for width in widths.sorted() {
            if width < original.width {
                let height = max(1, Int((Double(original.height) * Double(width) / Double(original.width)).rounded()))
                if width == thumbnail.width {
                    items.append(Item(url: thumbnail.url, width: thumbnail.width, height: thumbnail.height))
                } else if let url = scaledURL(thumbnail.url, to: width) {
                    items.append(Item(url: url, width: width, height: height))
                } else if items.isEmpty {
                    // Not a Wikimedia thumbnail URL: keep the one width we were given.
                    items.append(Item(url: thumbnail.url, width: thumbnail.width, height: thumbnail.height))
                }
            } else if !usedOriginal && isWebRaster(original.url) {
                items.append(Item(url: original.url, width: original.width, height: original.height))
                usedOriginal = true
            } else if items.isEmpty {
                items.append(Item(url: thumbnail.url, width: thumbnail.width, height: thumbnail.height))
            }
        }
        var seen = Set<String>()
        return items.filter { seen.insert($0.url).inserted }
    }

    /// The thumbnail URL for another width: `…/330px-Name.jpg` → `…/960px-Name.jpg`. Nil when
    /// the last path segment has no `NNNpx-` (or `langXX-NNNpx-`) part.
    public static func scaledURL(_ url: String, to width: Int) -> String? {
        guard let slash = url.lastIndex(of: "/") else { return nil }
        let head = url[...slash]
        var segment = Substring(url[url.index(after: slash)...])
        var prefix = ""
        if segment.hasPrefix("lang"), let dash = segment.firstIndex(of: "-") {
            prefix = String(segment[...dash])
            segment = segment[segment.index(after: dash)...]
        }
        let digits = segment.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, segment.dropFirst(digits.count).hasPrefix("px-") else { return nil }
        return head + prefix + "\(width)" + segment.dropFirst(digits.count)
    }

    /// The file's title (`File:Harzer_Fuchs_Hündin_2.jpg`) from an upload URL, thumbnail or original.
    public static func fileTitle(fromUploadURL url: String) -> String? {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        let segments = path.split(separator: "/").map(String.init)
        guard let last = segments.last else { return nil }
        var name = last
        if let thumb = segments.firstIndex(of: "thumb"), segments.count >= thumb + 5 {
            name = segments[thumb + 3]
        }
        let decoded = name.removingPercentEncoding ?? name
        return decoded.isEmpty ? nil : "File:" + decoded
    }

    /// True when the upload is on Commons (shared) rather than on one wiki only.
    public static func isCommonsUpload(_ url: String) -> Bool {
        url.contains("/wikipedia/commons/")
    }

    private static func isWebRaster(_ url: String) -> Bool {
        let path = (url.split(separator: "?").first.map(String.init) ?? url).lowercased()
        return [".jpg", ".jpeg", ".png", ".gif", ".webp"].contains { path.hasSuffix($0) }
    }
}
