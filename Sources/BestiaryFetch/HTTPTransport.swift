import Foundation

/// A finished HTTP exchange: status, headers and the whole body (already size-capped).
public struct HTTPResult: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        self.body = body
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }
}

/// Why a request produced no response.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer within the time allowed.
    case timeout
    /// The answer began, then nothing more came within the time allowed (after `received` bytes
    /// of its body).
    case stalled(received: Int)
    /// The answer was coming, but not whole within the time allowed for the whole request
    /// (`received` bytes of its body came).
    case incomplete(received: Int)
    /// Connecting failed, or the connection broke (also a body cut short).
    case connection(String)
    /// No connection could be made at all: refused, no such host, no route (offline).
    case unreachable(String)
    /// The body is larger than the cap.
    case tooLarge(limit: Int)
    /// The URL cannot be requested.
    case invalidURL(String)
    /// The answer came but cannot be read (a body that is not in the encoding it names): asking
    /// again gets the same.
    case malformed(String)

    public var description: String {
        switch self {
        case .timeout: "no answer in time"
        case .stalled(let received):
            received == 0
                ? "the answer's head came, then nothing more in time"
                : "the answer stopped after \(received) bytes of its body (nothing more came in time)"
        case .incomplete(let received): "the answer did not come whole in the time allowed (\(received) bytes of its body came)"
        case .connection(let why): "connection failed (\(why))"
        case .unreachable(let why): "no connection (\(why))"
        case .tooLarge(let limit): "the answer is larger than \(limit >> 10) KiB"
        case .invalidURL(let url): "'\(url)' is not a URL that can be requested"
        case .malformed(let why): "the answer cannot be read: \(why)"
        }
    }

    /// Worth trying again: the server or the network may recover.
    public var isTransient: Bool {
        switch self {
        case .timeout, .stalled, .incomplete, .connection, .unreachable: true
        case .tooLarge, .invalidURL, .malformed: false
        }
    }
}

/// One GET, no redirects followed, no retries: the policy (``PoliteClient``) sits on top.
/// The real implementation is ``CurlTransport`` (libcurl); tests may inject others.
public protocol HTTPTransport: Sendable {
    func get(_ url: String, headers: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> HTTPResult
    /// Releases connections; call once when done.
    func shutdown() async
}
