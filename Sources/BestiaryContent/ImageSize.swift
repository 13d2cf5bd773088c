import Foundation

/// Pixel dimensions read from a picture's header, so pages can reserve space for it (no layout
/// shift) without an image library.
public enum ImageSize {
    /// More pixels than this (4096 × 4096) and a picture is too large for the quiz: every
    /// question that shows it downloads and decodes all of it, and phones show such a picture
    /// slowly or not at all.
    public static let largestPixels = 4096 * 4096

    /// Why a picture of `width` × `height` is too large to show well, or nil (never for SVG,
    /// which has no pixels of its own). What `check` and `build` say about the file.
    public static func problem(width: Int, height: Int, format: MediaFormat) -> String? {
        guard format != .svg, width * height > largestPixels else { return nil }
        let megapixels = (width * height + 500_000) / 1_000_000
        return "it is \(width) × \(height) pixels (\(megapixels) megapixels): phones show a picture over about 16 megapixels slowly or not at all, and the quiz never shows one wider than about 2,000 pixels; scale it down to about 2,000 pixels on its longer side"
    }

    /// Width and height, or nil when the header does not say (or the format has none, like SVG
    /// without width/height attributes).
    /// As the picture is shown: a phone's portrait photo is stored sideways with an EXIF
    /// orientation of 5 to 8, which browsers apply, so its width and height are swapped (the
    /// page gave it the stored size: found by a teacher).
    public static func of(_ data: Data, format: MediaFormat) -> (width: Int, height: Int)? {
        guard let stored = stored(data, format: format) else { return nil }
        guard format == .jpeg || format == .png || format == .webp, let orientation = PictureLocation.orientation(data, format: format),
            (5...8).contains(orientation)
        else { return stored }
        return (stored.height, stored.width)
    }

    /// Width and height as the header stores them.
    static func stored(_ data: Data, format: MediaFormat) -> (width: Int, height: Int)? {
        let b = [UInt8](data.prefix(format == .jpeg ? 1 << 20 : 4096))
        func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : 0 }
        func be32(_ i: Int) -> Int { i + 3 < b.count ? Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : 0 }
        func le24(_ i: Int) -> Int { i + 2 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 : 0 }
        func valid(_ w: Int, _ h: Int) -> (Int, Int)? { w > 0 && h > 0 && w < 100_000 && h < 100_000 ? (w, h) : nil }
        switch format {
        case .png:
            return b.count >= 24 ? valid(be32(16), be32(20)) : nil
        case .gif:
            return b.count >= 10 ? valid(le16(6), le16(8)) : nil
        case .webp:
            guard b.count >= 30 else { return nil }
            let chunk = String(decoding: b[12..<16], as: UTF8.self)
            switch chunk {
            case "VP8 ": return valid(le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return valid((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X": return valid(le24(24) + 1, le24(27) + 1)
            default: return nil
            }
        case .jpeg:
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                let length = be16(i + 2)
                if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                    return valid(be16(i + 7), be16(i + 5))
                }
                i += 2 + length
            }
            return nil
        case .svg:
            let text = String(decoding: b, as: UTF8.self)
            guard let start = text.range(of: "<svg") else { return nil }
            let tagEnd = text[start.upperBound...].firstIndex(of: ">") ?? text.endIndex
            let tag = String(text[start.upperBound..<tagEnd])
            func attribute(_ name: String) -> Int? {
                guard let r = tag.range(of: " \(name)=\"") else { return nil }
                let digits = tag[r.upperBound...].prefix { $0.isNumber || $0 == "." }
                return Double(digits).map { Int($0.rounded()) }
            }
            if let w = attribute("width"), let h = attribute("height") { return valid(w, h) }
            if let r = tag.range(of: "viewBox=\"") {
                let numbers = tag[r.upperBound...].prefix { $0 != "\"" }.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                if numbers.count == 4 { return valid(Int(numbers[2].rounded()), Int(numbers[3].rounded())) }
            }
            return nil
        default:
            return nil
        }
    }
}
