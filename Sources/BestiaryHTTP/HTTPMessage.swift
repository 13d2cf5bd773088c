/// Header fields in the order they came or will be sent. Lookups ignore the name's case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { fields.append((name, value)) }
    }

    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { self.fields.append((name, value)) }
    }

    /// The first field called `name`, or nil. Setting replaces every field of that name (nil
    /// removes them); a new field goes at the end.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.same($0.name, name) }
                return
            }
            if let i = fields.firstIndex(where: { Self.same($0.name, name) }) {
                fields[i].value = newValue
                var index = fields.count - 1
                while index > i {
                    if Self.same(fields[index].name, name) { fields.remove(at: index) }
                    index -= 1
                }
            } else {
                fields.append((name, newValue))
            }
        }
    }

    /// Adds a field, keeping any of the same name.
    public mutating func append(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}

/// A request as it came: its head only (the server reads and drops any body).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent (`/a%20b?x=1`, or `http://host/a` through a proxy).
    public var target: String
    /// The path, percent-encoded as sent, without the query; an absolute target's path
    /// (`http://host/a?x` gives `/a`).
    public var path: String
    public var query: String?
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    public var headers: HTTPHeaders

    public init(method: String, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        var rest = Substring(target)
        for scheme in ["http://", "https://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            rest = rest.firstIndex(where: { $0 == "/" || $0 == "?" }).map { rest[$0...] } ?? ""
        }
        if let mark = rest.firstIndex(of: "?") {
            path = String(rest[..<mark])
            query = String(rest[rest.index(after: mark)...])
        } else {
            path = String(rest)
            query = nil
        }
        if path.isEmpty { path = "/" }
    }

    /// Whether the client lets the connection stay open after the answer.
    public var keepsAlive: Bool {
        let tokens = (headers["Connection"] ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }
}

/// An answer: a status, header fields and a body.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        /// These bytes (none for a HEAD request or a 304: the server never sends a body then).
        case bytes([UInt8])
        /// Written by the closure on the connection's own thread, which may block. With a length,
        /// exactly that many bytes must be written; without one the body is sent chunked. When the
        /// closure throws or writes the wrong number of bytes, the connection is closed: the client
        /// sees a body cut short.
        case stream(length: Int?, @Sendable (HTTPBodyWriter) throws -> Void)
    }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The status line's reason phrase (RFC 9110's names; "Unknown" for others).
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    /// A status with no body allowed (1xx, 204, 304).
    static func forbidsBody(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }
}
