import Foundation

/// Recognises media formats by their first bytes (magic numbers), so a text file renamed to
/// `.ogg` or a PNG saved as `.jpg` is caught at `check` time instead of failing in a browser.
public enum MediaSniffer {
    /// How many leading bytes `sniff` needs.
    public static let headerLength = 64

    /// The format the bytes are, or nil when they are none of the accepted ones.
    public static func sniff(_ header: some Collection<UInt8>) -> MediaFormat? {
        let b = Array(header.prefix(headerLength))
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            b.count >= offset + bytes.count && Array(b[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

        if at(0, ascii("OggS")) {
            // The first page's packet says which codec: "OpusHead" or "\u{1}vorbis" (or FLAC…).
            if let r = b.firstRange(of: ascii("OpusHead")), r.lowerBound < 64 { return .opus }
            return .ogg
        }
        if at(0, ascii("RIFF")) && at(8, ascii("WAVE")) { return .wav }
        if at(0, ascii("RIFF")) && at(8, ascii("WEBP")) { return .webp }
        if at(0, ascii("ID3")) { return .mp3 }
        if at(4, ascii("ftyp")) { return isStillImage(b) || isThreeGP(b) ? nil : .m4a }
        if b.count >= 2 && b[0] == 0xFF {
            // ADTS AAC: 0xFFF with layer bits 00; MPEG audio frame sync: 0xFFE with a valid layer.
            if b[1] & 0xF6 == 0xF0 { return .aac }
            if b[1] & 0xE0 == 0xE0 && b[1] & 0x06 != 0 && b.count >= 3 && b[2] & 0xF0 != 0xF0 { return .mp3 }
        }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, ascii("GIF87a")) || at(0, ascii("GIF89a")) { return .gif }
        if looksLikeSVG(b) { return .svg }
        return nil
    }

    /// An ISO media file (`ftyp`) that holds a picture, not a sound: HEIC/HEIF (what an iPhone
    /// takes photos in) and AVIF, which were taken for m4a sounds (found by a teacher).
    private static func isStillImage(_ b: [UInt8]) -> Bool {
        guard b.count >= 12 else { return false }
        let brand = String(decoding: b[8..<12], as: UTF8.self)
        return imageBrands.contains(brand)
    }

    /// A 3GP or 3G2 file (brand `3gp…`, `3g2…`): what phones' voice recorders save, mostly AMR
    /// speech, which no browser plays; browsers other than Safari play no 3GP at all. It was taken
    /// for an m4a sound (found by a teacher).
    private static func isThreeGP(_ b: [UInt8]) -> Bool {
        b.count >= 11 && b[8] == UInt8(ascii: "3") && b[9] == UInt8(ascii: "g") && (b[10] == UInt8(ascii: "p") || b[10] == UInt8(ascii: "2"))
    }

    private static let imageBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]

    /// What the bytes are when they are a known format Bestiary does not take, for the message
    /// that refuses them ("a HEIC picture: …"); nil for anything else.
    public static func unsupported(_ header: some Collection<UInt8>) -> String? {
        let b = Array(header.prefix(headerLength))
        if b.count >= 12, b[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if brand.hasPrefix("avi") { return "an AVIF picture, which not every browser shows; save it as JPEG (or WebP)" }
            if imageBrands.contains(brand) {
                return "a HEIC picture (as iPhones take them), which browsers other than Safari do not show; save it as JPEG (on the iPhone: Settings › Camera › Formats › Most Compatible), or convert it"
            }
        }
        if isThreeGP(b) {
            return "a 3GP recording (as phones' voice recorders save them, mostly AMR speech), which browsers other than Safari do not play; convert it to m4a or mp3"
        }
        if b.starts(with: Array("#!AMR".utf8)) { return "an AMR voice recording, which browsers do not play; convert it to mp3 or m4a" }
        if b.starts(with: Array("fLaC".utf8)) { return "a FLAC recording; convert it to ogg, m4a or mp3" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "a TIFF picture (or a camera's raw file), which browsers do not show; save it as JPEG"
        }
        if b.starts(with: Array("BM".utf8)) && b.count >= 14 { return "a BMP picture; save it as PNG or JPEG" }
        return nil
    }

    /// An XML or SVG start (`<?xml`, `<svg`, `<!--`, `<!DOCTYPE svg`), after an optional BOM and space.
    private static func looksLikeSVG(_ b: [UInt8]) -> Bool {
        var i = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 }
        let rest = String(decoding: b[i...], as: UTF8.self).lowercased()
        return rest.hasPrefix("<?xml") || rest.hasPrefix("<svg") || rest.hasPrefix("<!--") || rest.hasPrefix("<!doctype svg")
    }
}
