import BestiaryContent
import Foundation

/// Checks downloaded pictures by their bytes: the format they really are (not what the URL or
/// Content-Type claims) and that the file is complete. A connection that closes early leaves a
/// prefix that still starts with the right magic number; the end markers catch it.
public enum ImageBytes {
    /// Formats accepted as Wikipedia lead images (raster only: SVG thumbnails come as PNG).
    public static let acceptedFormats: Set<MediaFormat> = [.jpeg, .png, .gif, .webp]

    /// Why `data` is not a usable picture, or nil when it is one of ``acceptedFormats`` and whole.
    public static func problem(_ data: Data) -> String? {
        guard let format = MediaSniffer.sniff(data.prefix(MediaSniffer.headerLength)) else {
            return "the bytes are not a picture"
        }
        guard acceptedFormats.contains(format) else { return "the bytes are \(format.rawValue), not a raster picture" }
        return isComplete(data, format: format) ? nil : "the \(format.rawValue) file is cut short"
    }

    /// The format of acceptable picture bytes.
    public static func format(_ data: Data) -> MediaFormat? {
        problem(data) == nil ? MediaSniffer.sniff(data.prefix(MediaSniffer.headerLength)) : nil
    }

    /// True when the format's end marker is where it belongs.
    public static func isComplete(_ data: Data, format: MediaFormat) -> Bool {
        let bytes = [UInt8](data)
        switch format {
        case .jpeg:
            // End of image (FF D9), possibly followed by padding some encoders add.
            var end = bytes.count
            while end > 2 && (bytes[end - 1] == 0x00 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
            return end >= 4 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
        case .png:
            let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return bytes.count >= 20 && Array(bytes.suffix(8)) == iend
        case .gif:
            return bytes.count >= 14 && bytes.last == 0x3B
        case .webp:
            guard bytes.count >= 12 else { return false }
            let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            return size + 8 == bytes.count || size + 9 == bytes.count
        default:
            return false
        }
    }
}
