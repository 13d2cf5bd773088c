import Foundation

/// Whether a picture carries where it was taken: the GPS block of its EXIF data, which phones
/// write into every photo unless told not to. A build publishes the file as it is (its bytes name
/// it), so a class trip's photos would tell the web where the children were (found by a teacher):
/// `check` and `add`/`import` warn. Only the EXIF structure is walked (JPEG's APP1 segment, PNG's
/// `eXIf` chunk, WebP's `EXIF` chunk, then the TIFF directory): nothing is decoded or changed.
public enum PictureLocation {
    /// The warning for a picture whose EXIF data holds a position, or nil.
    public static func problem(_ data: Data, format: MediaFormat) -> String? {
        guard let exif = exifBlock(data, format: format), hasPosition(exif) else { return nil }
        return "it holds the place where it was taken (GPS coordinates in its EXIF data), and the site publishes the file as it is; remove them first (exiftool -gps:all= FILE, or your phone's or photo program's option to share without location)"
    }

    /// The TIFF structure of the EXIF data (from its byte-order mark on), or nil.
    static func exifBlock(_ data: Data, format: MediaFormat) -> Data? {
        // A JPEG's and a PNG's EXIF data come before the picture; a WebP's may follow it.
        let b = [UInt8](format == .webp ? data : data.prefix(1 << 18))
        switch format {
        case .jpeg:
            var i = 2
            while i + 4 <= b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                if marker == 0xDA || marker == 0xD9 { return nil }  // the scan: no more metadata
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2, i + 2 + length <= b.count else { return nil }
                if marker == 0xE1, length >= 8, b[(i + 4)..<(i + 10)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                    return Data(b[(i + 10)..<(i + 2 + length)])
                }
                i += 2 + length
            }
            return nil
        case .png:
            var i = 8
            while i + 12 <= b.count {
                let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
                let type = b[(i + 4)..<(i + 8)]
                guard length >= 0, i + 12 + length <= b.count else { return nil }
                if type.elementsEqual("eXIf".utf8) { return Data(b[(i + 8)..<(i + 8 + length)]) }
                if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
                i += 12 + length
            }
            return nil
        case .webp:
            var i = 12
            while i + 8 <= b.count {
                let length = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
                guard i + 8 + length <= b.count else { return nil }
                if b[i..<(i + 4)].elementsEqual("EXIF".utf8) {
                    var block = Data(b[(i + 8)..<(i + 8 + length)])
                    // Some writers keep JPEG's "Exif\0\0" in front.
                    if block.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { block = block.dropFirst(6) }
                    return Data(block)
                }
                i += 8 + length + (length & 1)
            }
            return nil
        default:
            return nil
        }
    }

    /// The EXIF orientation (1–8) of a picture, or nil when it has none.
    static func orientation(_ data: Data, format: MediaFormat) -> Int? {
        guard let exif = exifBlock(data, format: format) else { return nil }
        return ifd0(exif).first { $0.tag == 0x0112 }?.short
    }

    /// IFD0's entries (the TIFF structure's first directory).
    static func ifd0(_ tiff: Data) -> [TIFF.Entry] {
        guard let tiff = TIFF(tiff), let offset = tiff.u32(4) else { return [] }
        return tiff.entries(at: offset)
    }

    /// IFD0 points at a GPS directory (tag 0x8825) holding a latitude or longitude (tags 2 and 4).
    static func hasPosition(_ data: Data) -> Bool {
        guard let tiff = TIFF(data), let offset = tiff.u32(4), let gps = tiff.entries(at: offset).first(where: { $0.tag == 0x8825 })?.long
        else { return false }
        return tiff.entries(at: gps).contains { $0.tag == 2 || $0.tag == 4 }
    }

    /// The TIFF structure EXIF data is: a byte order, then directories of 12-byte entries.
    struct TIFF {
        /// A directory entry: its tag, its value as a long, and as a short (a short is in the
        /// value's first two bytes, whatever the byte order).
        typealias Entry = (tag: Int, long: Int, short: Int)
        let b: [UInt8]
        let little: Bool

        init?(_ data: Data) {
            b = [UInt8](data)
            guard b.count >= 8, (b[0] == 0x49 && b[1] == 0x49) || (b[0] == 0x4D && b[1] == 0x4D) else { return nil }
            little = b[0] == 0x49
        }

        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }

        func u32(_ o: Int) -> Int? {
            guard let hi = u16(little ? o + 2 : o), let lo = u16(little ? o : o + 2) else { return nil }
            return hi << 16 | lo
        }

        /// The entries of the directory at `offset` (none past the data's end).
        func entries(at offset: Int) -> [Entry] {
            guard let count = u16(offset), count < 1000 else { return [] }
            return (0..<count).compactMap { n in
                let e = offset + 2 + 12 * n
                guard let tag = u16(e), let long = u32(e + 8), let short = u16(e + 8) else { return nil }
                return (tag, long, short)
            }
        }
    }
}
