/// Reads a request's head (the request line and header fields, RFC 9112 §2–5) from the bytes a
/// connection has received so far.
enum RequestHead {
    /// The most a head may take; more is answered 414 (the request line alone) or 431.
    static let limit = 64 << 10

    enum Outcome: Equatable {
        /// The head is not complete yet: read more.
        case incomplete
        /// A request, whose head took `length` bytes of the buffer, and the length of its body.
        case request(HTTPRequestHeadBox, length: Int, bodyLength: Int)
        /// The bytes are not a request this server takes: answer `status` and close.
        case refused(status: Int, reason: String)
    }

    /// A head over the limit: 414 when the request line alone is (its target is too long),
    /// else 431 (too many or too long header fields).
    static func tooLarge(_ buffer: ArraySlice<UInt8>) -> Outcome {
        let line = buffer.firstIndex(of: 10).map { $0 - buffer.startIndex } ?? buffer.count
        if line > limit { return .refused(status: 414, reason: "the request's target is over \(limit >> 10) KiB") }
        return .refused(status: 431, reason: "the request's head is over \(limit >> 10) KiB")
    }

    /// Parses the head at the start of `buffer`.
    static func parse(_ whole: ArraySlice<UInt8>) -> Outcome {
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        let buffer = whole.drop { $0 == 13 || $0 == 10 }
        let skipped = buffer.startIndex - whole.startIndex
        guard let end = headEnd(buffer) else {
            if whole.count > limit { return tooLarge(buffer) }
            // Bytes that cannot begin a request (a TLS handshake sent to this plain-HTTP port,
            // say) are refused now, not after waiting for a head that will never end.
            if let bad = buffer.firstIndex(where: { !isTokenByte($0) }), buffer[bad] != 32 || bad == buffer.startIndex {
                return .refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x")
            }
            return .incomplete
        }
        if end.head > limit { return tooLarge(buffer) }
        // Lines end with LF, with or without CR (RFC 9112 §2.2 lets a recipient accept a bare LF).
        var lines = buffer[buffer.startIndex..<(buffer.startIndex + end.head)].split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy(isTokenByte), parts[1].allSatisfy({ $0 > 32 && $0 < 127 })
        else {
            return .refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            return version.hasPrefix("HTTP/")
                ? .refused(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served")
                : .refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x")
        }
        let target = String(decoding: parts[1], as: UTF8.self)
        guard target.hasPrefix("/") || target == "*" || target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") else {
            return .refused(status: 400, reason: "the request target is neither a path nor an absolute URL")
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: 58) else {
                return .refused(status: 400, reason: "a header line has no colon")
            }
            let name = line[line.startIndex..<colon]
            // No space before the colon (§5.1), and no folded lines (§5.2).
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .refused(status: 400, reason: "a header field's name is malformed")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
            while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
            guard !value.contains(where: { ($0 < 32 && $0 != 9) || $0 == 127 }) else {
                return .refused(status: 400, reason: "a header field's value has a control character")
            }
            headers.append(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        if headers["Transfer-Encoding"] != nil {
            return .refused(status: 501, reason: "request bodies sent chunked are not taken")
        }
        var bodyLength = 0
        // Digits only, and one value however often it is given (RFC 9112 §6.3): anything else
        // would leave where the next request starts in doubt.
        let lengths = Set(headers.filter { HTTPHeaders.same($0.name, "Content-Length") }.map { $0.value })
        if let field = lengths.first {
            guard lengths.count == 1, !field.isEmpty, field.utf8.count <= 18, field.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(field) else {
                return .refused(status: 400, reason: "Content-Length is not one number")
            }
            bodyLength = n
        }
        let request = HTTPRequest(method: String(decoding: parts[0], as: UTF8.self), target: target, minorVersion: minor, headers: headers)
        return .request(HTTPRequestHeadBox(request), length: skipped + end.total, bodyLength: bodyLength)
    }

    /// Where the head ends: the bytes before the empty line, and with it.
    static func headEnd(_ buffer: ArraySlice<UInt8>) -> (head: Int, total: Int)? {
        var i = buffer.startIndex
        while i < buffer.endIndex {
            if buffer[i] == 10 {
                let next = i + 1
                if next < buffer.endIndex, buffer[next] == 10 { return (i - buffer.startIndex, next + 1 - buffer.startIndex) }
                if next + 1 < buffer.endIndex, buffer[next] == 13, buffer[next + 1] == 10 {
                    return (i - buffer.startIndex, next + 2 - buffer.startIndex)
                }
            }
            i += 1
        }
        return nil
    }

    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }
}

/// An ``HTTPRequest`` that compares by its parts (for ``RequestHead/Outcome``'s tests).
struct HTTPRequestHeadBox: Equatable {
    let request: HTTPRequest
    init(_ request: HTTPRequest) { self.request = request }

    static func == (a: Self, b: Self) -> Bool {
        a.request.method == b.request.method && a.request.target == b.request.target
            && a.request.minorVersion == b.request.minorVersion
            && a.request.headers.fields.map { "\($0.name): \($0.value)" } == b.request.headers.fields.map { "\($0.name): \($0.value)" }
    }
}
