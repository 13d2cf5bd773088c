/// The Content-Type for each file extension a Bestiary site can contain.
///
/// `.opus` is `audio/ogg; codecs=opus` (an Ogg Opus file; `audio/opus` is the RTP payload type),
/// and text types carry their charset: the preview serves what a well-configured static host
/// serves, so that what works in the preview works when deployed.
public enum ContentTypes {
    public static let byExtension: [String: String] = [
        // Pages and data
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json; charset=utf-8",
        "xml": "application/xml; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "sig": "application/octet-stream",
        "wasm": "application/wasm",
        // Sounds
        "mp3": "audio/mpeg",
        "ogg": "audio/ogg",
        "oga": "audio/ogg",
        "opus": "audio/ogg; codecs=opus",
        "m4a": "audio/mp4",
        "aac": "audio/aac",
        "wav": "audio/wav",
        "flac": "audio/flac",
        "weba": "audio/webm",
        // Pictures
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        // Video and fonts
        "mp4": "video/mp4",
        "webm": "video/webm",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
    ]

    /// The type for `path` by its extension (case-insensitive); `application/octet-stream` otherwise.
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// True for types the preview injects its live-reload script into.
    public static func isHTML(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/html")
    }
}
