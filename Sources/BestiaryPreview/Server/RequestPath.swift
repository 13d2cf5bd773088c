import Foundation

/// Maps a request's URL path to a file inside the output folder, and refuses anything that would
/// leave it: `..` segments (also percent-encoded, `%2e%2e`, `..%2f`), NUL bytes, backslashes, and
/// symbolic links that point outside the folder.
public enum RequestPath {
    public enum Resolution: Equatable, Sendable {
        /// A regular file inside the output folder (its canonical path).
        case file(String)
        /// A folder asked for without its trailing slash: redirect to this path.
        case redirect(String)
        case notFound
        /// The request tries to leave the output folder or is malformed (status, reason).
        case refused(status: Int, reason: String)
    }

    /// Resolves `rawPath` (percent-encoded, as sent, without the query) inside `root`. `root`
    /// should be canonical (``canonicalRoot(_:)``) so the containment check compares like with like.
    public static func resolve(_ rawPath: String, in root: String) -> Resolution {
        guard let decoded = percentDecoded(rawPath) else {
            return .refused(status: 400, reason: "the path has invalid percent-encoding")
        }
        if decoded.contains("\0") || decoded.contains("\\") {
            return .refused(status: 400, reason: "the path has a NUL byte or a backslash")
        }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." { return .refused(status: 400, reason: "the path leaves the site (..)") }
            // Hidden files (the output's marker file) are not part of the site; .well-known is.
            if segment.hasPrefix(".") && segment != ".well-known" { return .notFound }
            segments.append(segment)
        }
        let candidate = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
        guard let real = canonical(candidate) else { return .notFound }
        guard isInside(real, root) else {
            return .refused(status: 403, reason: "the path leads outside the site through a symbolic link")
        }
        var st = stat()
        guard stat(real, &st) == 0 else { return .notFound }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return rawPath.hasSuffix("/") ? .notFound : .file(real)
        case S_IFDIR:
            // The path as the site names it: `//animals` redirected to `//animals/`, which a
            // browser reads as another host (found by a security review).
            guard rawPath.hasSuffix("/") else {
                var location = Substring(rawPath)
                while location.hasPrefix("//") { location = location.dropFirst() }
                return .redirect(location + "/")
            }
            guard let index = canonical(real + "/index.html") else { return .notFound }
            guard isInside(index, root) else {
                return .refused(status: 403, reason: "the path leads outside the site through a symbolic link")
            }
            var ist = stat()
            guard stat(index, &ist) == 0, (ist.st_mode & S_IFMT) == S_IFREG else { return .notFound }
            return .file(index)
        default:
            return .notFound
        }
    }

    /// The canonical form of the output folder (`realpath`), or the path itself if it is missing.
    public static func canonicalRoot(_ path: String) -> String {
        canonical(path) ?? path
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Strict percent-decoding of UTF-8; nil for `%` not followed by two hex digits or invalid UTF-8.
    static func percentDecoded(_ s: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard let h = it.popFirst(), let l = it.popFirst(), let hi = hex(h), let lo = hex(l) else { return nil }
                bytes.append(hi << 4 | lo)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
