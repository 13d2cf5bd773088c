import CCurl
import Foundation

/// ``HTTPTransport`` over libcurl (the system's, as `curl` uses it). Redirects are not followed
/// here (``PoliteClient`` follows them itself, to resolve protocol-relative `Location`s and detect
/// loops); the read timeout catches servers that stall in the middle of a body. A proxy comes
/// from the environment as for `curl` (``CurlProxy``); connections are kept for the next request.
public final class CurlTransport: HTTPTransport {
    private let pool = CurlHandlePool()
    private let userAgent: String
    private let readTimeout: Duration
    private let connectTimeout: Duration
    private let environment: [String: String]

    /// - Parameter readTimeout: how long a connection may stay silent.
    public init(
        userAgent: String, readTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.userAgent = userAgent
        self.readTimeout = readTimeout
        self.connectTimeout = connectTimeout
        self.environment = environment
    }

    public func get(_ url: String, headers: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> HTTPResult {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.host, !host.isEmpty
        else {
            throw TransportError.invalidURL(url)
        }
        // An Accept-Encoding asked for is decoded by curl (gzip, as Wikimedia's etiquette asks:
        // summaries shrink to a third); without one the body comes as it is.
        let encoding = headers.first { $0.0.lowercased() == "accept-encoding" }?.1
        var sent = [(name: "User-Agent", value: userAgent)]
        sent += headers.filter { $0.0.lowercased() != "accept-encoding" }.map { (name: $0.0, value: $0.1) }
        let transfer = CurlTransfer(
            CurlTransfer.Request(
                url: url, headers: sent, acceptEncoding: encoding, connectTimeout: connectTimeout, readTimeout: readTimeout,
                deadline: timeout, proxy: CurlProxy.from(environment: environment, for: parsed), maxBytes: maxBytes),
            pool: pool)
        transfer.start()
        var length: Int?
        do {
            let head = try await transfer.head()
            // Content-Length counts the bytes on the wire; with gzip they differ from the body's.
            let encoded = head.header("content-encoding").map { $0.lowercased() != "identity" } ?? false
            length = encoded ? nil : head.header("content-length").flatMap(Int.init)
            if let length, length > maxBytes {
                transfer.cancel()
                throw TransportError.tooLarge(limit: maxBytes)
            }
            let body = try await transfer.body()
            if let length, length != body.count {
                throw TransportError.connection("the body ended after \(body.count) of \(length) bytes")
            }
            return HTTPResult(status: head.status, headers: head.headers, body: body)
        } catch let failure as CurlTransfer.Failure {
            throw Self.transportError(failure, host: host, length: length, maxBytes: maxBytes)
        }
    }

    /// What a failed transfer means to the fetcher.
    static func transportError(_ failure: CurlTransfer.Failure, host: String, length: Int?, maxBytes: Int) -> any Error {
        switch failure.kind {
        case .cancelled: return CancellationError()
        case .silent: return TransportError.timeout
        case .tooLarge: return TransportError.tooLarge(limit: maxBytes)
        case .curl: break
        }
        switch CURLcode(UInt32(failure.code)) {
        case CURLE_OPERATION_TIMEDOUT:
            return TransportError.timeout
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return TransportError.invalidURL(failure.message)
        case CURLE_PARTIAL_FILE:
            return TransportError.connection(
                length.map { "the body ended after \(failure.received) of \($0) bytes" } ?? "the body ended early")
        case CURLE_BAD_CONTENT_ENCODING:
            return TransportError.connection("the body is not in the encoding the server names (\(failure.message))")
        case CURLE_GOT_NOTHING:
            return TransportError.connection("the server closed the connection without answering")
        default:
            return unreachable(failure, host: host).map(TransportError.unreachable) ?? .connection(failure.message)
        }
    }

    /// The cause of a connection that could not be made, in a few words; nil for others.
    static func unreachable(_ failure: CurlTransfer.Failure, host: String) -> String? {
        switch CURLcode(UInt32(failure.code)) {
        case CURLE_COULDNT_RESOLVE_HOST:
            return "the name \(host) could not be looked up"
        case CURLE_COULDNT_RESOLVE_PROXY:
            return "the proxy's name could not be looked up"
        case CURLE_COULDNT_CONNECT:
            switch Int32(failure.osErrno) {
            case ECONNREFUSED: return "\(host) refused the connection"
            case ENETUNREACH: return "the network is unreachable"
            case EHOSTUNREACH: return "no route to \(host)"
            default: return failure.message
            }
        default:
            return nil
        }
    }

    public func shutdown() async {
        pool.close()
    }
}
