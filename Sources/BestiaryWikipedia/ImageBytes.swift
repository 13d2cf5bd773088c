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

    /// True when the picture's bytes hold together to its end (``MediaIntegrity``, as `check`
    /// judges a site's own pictures).
    public static func isComplete(_ data: Data, format: MediaFormat) -> Bool {
        [.jpeg, .png, .gif, .webp].contains(format) && MediaIntegrity.problem(data, format: format) == nil
    }
}
