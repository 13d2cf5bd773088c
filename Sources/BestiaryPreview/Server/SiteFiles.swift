import BestiaryStorage
import BestiaryHTTP
import Foundation

/// Serves the files of the output folder as a careful static host would: the right Content-Type,
/// strong ETags with `If-None-Match` (304), single byte ranges (206, 416) for audio seeking,
/// `index.html` for folders (and a redirect to add the trailing slash), the site's own `404.html`
/// for unknown paths, and nothing outside the folder. HTML responses get the live-reload snippet.
///
/// Pages and other files with stable names say `Cache-Control: no-cache`: the browser may keep a
/// copy but must ask again (a cheap 304) before using it, so a reload after a rebuild never shows
/// a stale page. Content-addressed files (`assets/css/site.0123456789.css`, `media/<sha>.ogg`)
/// are cached as immutable, as a deployed site should serve them: their bytes can never change
/// under that name, and a reload after an edit then asks only for the page itself.
struct SiteFiles: Sendable {
    /// The output folder as given.
    let directory: String
    let live: LiveReload?

    /// Files up to this size are read at once; larger ones (sounds) are streamed.
    static let wholeFileLimit = 1 << 20
    static let chunkSize = 128 << 10

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var headers = HTTPHeaders()
            headers["Allow"] = "GET, HEAD"
            return Self.text(405, "method not allowed: the preview serves GET and HEAD\n", headers: headers)
        }
        if live != nil, request.headers["Service-Worker"] == "script" {
            // A service worker would cache pages and defeat live reload; the deployed site keeps it.
            // A worker that removes itself (rather than a 404) keeps the browser's console clean.
            var headers = HTTPHeaders()
            headers["Content-Type"] = "text/javascript; charset=utf-8"
            headers["Cache-Control"] = "no-store"
            return Self.bytes(200, Array(LiveAssets.selfRemovingWorker.utf8), headers: headers, head: request.method == "HEAD")
        }
        let root = RequestPath.canonicalRoot(directory)
        switch RequestPath.resolve(request.path, in: root) {
        case .file(let path):
            let relative = String(path.dropFirst(root.count + 1))
            return serve(path: path, relative: relative, status: 200, request: request)
        case .redirect(let location):
            var headers = HTTPHeaders()
            headers["Location"] = location + (request.query.map { "?" + $0 } ?? "")
            return Self.text(301, "moved to \(location)\n", headers: headers)
        case .refused(let status, let reason):
            return Self.text(status, "refused: \(reason)\n")
        case .notFound:
            return notFound(request: request, root: root)
        }
    }

    private func notFound(request: HTTPRequest, root: String) -> HTTPResponse {
        if case .file(let page) = RequestPath.resolve("/404.html", in: root) {
            // No file name for the page: any successful rebuild reloads it (the missing page may
            // have just been created).
            return serve(path: page, relative: "404.html", pageFile: "", status: 404, request: request, conditional: false)
        }
        var body = Array(LiveAssets.fallbackPage.utf8)
        if let live { body = live.inject(into: body, file: "", built: false) }
        var headers = HTTPHeaders()
        headers["Content-Type"] = "text/html; charset=utf-8"
        headers["Cache-Control"] = "no-cache"
        return Self.bytes(404, body, headers: headers, head: request.method == "HEAD")
    }

    /// `pageFile` is the output file the live-reload script watches for changes (`relative` unless given).
    private func serve(
        path: String, relative: String, pageFile: String? = nil, status: Int, request: HTTPRequest, conditional: Bool = true
    ) -> HTTPResponse {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return Self.text(404, "not found\n") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            return Self.text(500, "cannot read \(relative)\n")
        }
        let size = Int(st.st_size)
        let contentType = ContentTypes.forPath(path)
        var headers = HTTPHeaders()
        headers["Content-Type"] = contentType
        headers["Cache-Control"] = Self.isContentAddressed(relative) ? "public, max-age=31536000, immutable" : "no-cache"
        headers["Accept-Ranges"] = "bytes"
        headers["X-Content-Type-Options"] = "nosniff"

        // HTML is read whole and gets the snippet; its ETag is the digest of what is sent.
        var whole: [UInt8]?
        let etag: String
        if size <= Self.wholeFileLimit || (live != nil && ContentTypes.isHTML(contentType)) {
            var bytes = Self.readAll(fd, size: size)
            close(fd)
            if let live, ContentTypes.isHTML(contentType) { bytes = live.inject(into: bytes, file: pageFile ?? relative) }
            etag = "\"" + String(Hashing.sha256Hex(bytes).prefix(32)) + "\""
            whole = bytes
        } else {
            etag = "\"" + [UInt64(st.st_dev), UInt64(st.st_ino), UInt64(size), Self.modificationNanoseconds(st)]
                .map { String($0, radix: 16) }.joined(separator: "-") + "\""
            headers["Last-Modified"] = Self.httpDate(seconds: Int(Self.modificationNanoseconds(st) / 1_000_000_000))
        }
        headers["ETag"] = etag
        let length = whole?.count ?? size

        if conditional, let match = request.headers["If-None-Match"], Self.matches(match, etag) {
            if whole == nil { close(fd) }
            return HTTPResponse(status: 304, headers: headers)
        }

        var range: ClosedRange<Int>?
        if conditional, let header = request.headers["Range"] {
            let ifRange = request.headers["If-Range"]
            if ifRange == nil || ifRange == etag {
                switch ByteRange.parse(header, size: length) {
                case .satisfiable(let r): range = r
                case .unsatisfiable:
                    if whole == nil { close(fd) }
                    headers["Content-Range"] = "bytes */\(length)"
                    headers["Content-Type"] = "text/plain; charset=utf-8"
                    // An answer about this request, not the file: never kept (the file's own
                    // `immutable` would keep the refusal for a year).
                    headers["Cache-Control"] = "no-store"
                    return Self.bytes(416, Array("range not satisfiable: the file has \(length) bytes\n".utf8), headers: headers, head: false)
                case .ignored: break
                }
            }
        }
        var responseStatus = status
        if let range {
            responseStatus = 206
            headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
        }
        let span = range ?? 0...(max(length, 1) - 1)
        let count = length == 0 ? 0 : span.count
        headers["Content-Length"] = String(count)

        if request.method == "HEAD" {
            if whole == nil { close(fd) }
            return HTTPResponse(status: responseStatus, headers: headers)
        }
        if let whole {
            return HTTPResponse(status: responseStatus, headers: headers, body: .bytes(count == 0 ? [] : Array(whole[span])))
        }
        let descriptor = FileDescriptorBox(fd)
        let body = HTTPResponse.Body.stream(length: count) { writer in
            defer { descriptor.closeOnce() }
            var offset = span.lowerBound
            var remaining = count
            var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
            while remaining > 0 {
                let want = min(remaining, Self.chunkSize)
                let got = buffer.withUnsafeMutableBytes { pread(descriptor.fd, $0.baseAddress, want, off_t(offset)) }
                guard got > 0 else { throw FileReadError() }
                try writer.write(buffer[0..<got])
                offset += got
                remaining -= got
            }
        }
        return HTTPResponse(status: responseStatus, headers: headers, body: body)
    }

    // MARK: Helpers

    /// True for the output's content-hashed names: `assets/…/NAME.HEX.EXT` (10+ hex digits) and
    /// `media/HEX.EXT` (16+), which the build derives from the bytes (after rewriting references).
    static func isContentAddressed(_ relative: String) -> Bool {
        guard relative.hasPrefix("assets/") || relative.hasPrefix("media/") else { return false }
        let name = relative.split(separator: "/").last ?? ""
        let parts = name.split(separator: ".")
        guard parts.count >= 2 else { return false }
        func isHex(_ s: Substring, atLeast n: Int) -> Bool {
            s.count >= n && s.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        }
        if relative.hasPrefix("media/") && parts.count == 2 { return isHex(parts[0], atLeast: 16) }
        return parts.count >= 3 && isHex(parts[parts.count - 2], atLeast: 10)
    }

    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        for candidate in ifNoneMatch.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }  // weak comparison (RFC 9110 §13.1.2)
            if tag == etag { return true }
        }
        return false
    }

    static func readAll(_ fd: Int32, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if got <= 0 { break }
            done += got
        }
        return Array(bytes[0..<done])
    }

    static func modificationNanoseconds(_ st: stat) -> UInt64 {
        #if os(Linux)
        UInt64(st.st_mtim.tv_sec) * 1_000_000_000 + UInt64(st.st_mtim.tv_nsec)
        #else
        UInt64(st.st_mtimespec.tv_sec) * 1_000_000_000 + UInt64(st.st_mtimespec.tv_nsec)
        #endif
    }

    static func httpDate(seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func text(_ status: Int, _ message: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "text/plain; charset=utf-8"
        headers["Cache-Control"] = "no-cache"
        return bytes(status, Array(message.utf8), headers: headers, head: false)
    }

    static func bytes(_ status: Int, _ body: [UInt8], headers: HTTPHeaders, head: Bool) -> HTTPResponse {
        var headers = headers
        headers["Content-Length"] = String(body.count)
        return HTTPResponse(status: status, headers: headers, body: .bytes(head ? [] : body))
    }
}

struct FileReadError: Error {}

/// Closes a file descriptor exactly once, from whichever task finishes with it.
final class FileDescriptorBox: @unchecked Sendable {
    let fd: Int32
    private let lock = NSLock()
    private var open = true

    init(_ fd: Int32) { self.fd = fd }

    func closeOnce() {
        let shouldClose = lock.withLock {
            defer { open = false }
            return open
        }
        if shouldClose { close(fd) }
    }

    deinit { closeOnce() }
}
