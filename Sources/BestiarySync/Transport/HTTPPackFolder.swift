import Foundation

/// What every HTTP(S) transport of a pack tree does alike, whatever client it sends with
/// (``URLSessionPackTransport``, BestiaryFetch's `CurlPackTransport`): the folder's URL,
/// a path resolved in it, the headers a request carries, and what an answer's status means.
public struct HTTPPackFolder: Sendable {
    /// The folder holding `latest.json`, ending with a slash.
    public let baseURL: URL

    public init(_ url: URL) {
        baseURL = url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }

    /// The folder's URL without the trailing slash, for messages.
    public var location: String {
        var s = Self.shown(baseURL)
        if s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// `url` as messages show it: a user name and password in it (`https://user:pw@host/…`, a
    /// protected folder's) left out, as curl and git leave them out; they went to the terminal
    /// and CI logs with every error (an app developer's).
    public static func shown(_ url: URL) -> String { shown(url.absoluteString) }

    /// The same for an address as typed, which may not even parse (a password with an unencoded
    /// `#` or `@`): everything between `://` and the last `@` before the path's first `/`.
    public static func shown(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authority = rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<scheme.upperBound]) + String(text[text.index(after: at)...])
    }

    /// `path`'s URL in the folder.
    public func url(of path: String) throws -> URL {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else {
            throw PackTransportError("cannot make a URL of \(location) and \(path)", transient: false)
        }
        return url
    }

    /// The headers of a request for `path` from byte `offset`: the pointer must be fresh
    /// (everything else is immutable and may come from any cache), and a resumed file asks for
    /// the rest.
    public static func headers(for path: String, from offset: Int) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if path == "latest.json" || path == "latest.json.sig" { headers.append(("Cache-Control", "no-cache")) }
        // A part's offset counts the file's own bytes: asked for uncompressed (URLSession would
        // otherwise ask for gzip, and a server could compress the part).
        if offset > 0 { headers += [("Range", "bytes=\(offset)-"), ("Accept-Encoding", "identity")] }
        return headers
    }

    /// What an answer with HTTP status `code` is (its `Content-Range` header for a 206); throws
    /// for any other status, naming `url`: a transient error for 408, 429 and 5xx, with the wait
    /// its `Retry-After` asks for.
    public static func status(_ code: Int, contentRange: String?, retryAfter: String? = nil, url: URL) throws -> PackResponse.Status {
        switch code {
        case 200:
            return .full
        case 206:
            guard let start = rangeStart(contentRange) else {
                throw PackTransportError("\(Self.shown(url)): HTTP 206 without a usable Content-Range", transient: false)
            }
            return .partial(start: start)
        case 404, 410:
            return .notFound
        case 416:
            return .rangeNotSatisfiable
        default:
            let wait = HTTPRetry.parseRetryAfter(retryAfter)
            // A wait at the cap was asked as that or more (a date in 2099): not as the cap itself.
            let asked = wait.map { $0 >= HTTPRetry.longestWait ? " (the server asks to wait a year or more)" : " (the server asks to wait \(Int(($0 / .seconds(1)).rounded(.up))) s)" } ?? ""
            throw PackTransportError(
                "\(Self.shown(url)): HTTP \(code)\(asked)", transient: HTTPRetry.isRetryable(status: code), retryAfter: wait)
        }
    }

    /// START of `bytes START-END/TOTAL`.
    public static func rangeStart(_ header: String?) -> Int? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int(spec[..<dash])
    }
}
