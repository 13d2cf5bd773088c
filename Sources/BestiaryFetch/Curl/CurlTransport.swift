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
        let proxy = CurlProxy.from(environment: environment, for: parsed)
        let transfer = CurlTransfer(
            CurlTransfer.Request(
                url: url, headers: sent, acceptEncoding: encoding, connectTimeout: connectTimeout, readTimeout: readTimeout,
                deadline: timeout, proxy: proxy, maxBytes: maxBytes),
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
            throw Self.transportError(failure, url: url, host: host, port: parsed.port, proxy: proxy, length: length, maxBytes: maxBytes)
        }
    }

    /// What a failed transfer means to the fetcher.
    static func transportError(
        _ failure: CurlTransfer.Failure, url: String, host: String, port: Int? = nil, proxy: CurlProxy?, length: Int?, maxBytes: Int
    ) -> any Error {
        switch failure.kind {
        case .cancelled: return CancellationError()
        case .silent, .slow: return failure.answered ? TransportError.stalled(received: failure.received) : TransportError.timeout
        case .tooLarge: return TransportError.tooLarge(limit: maxBytes)
        case .curl: break
        }
        if let cause = unreachable(failure, host: host, port: port, proxy: proxy) { return TransportError.unreachable(cause) }
        switch CURLcode(UInt32(failure.code)) {
        case CURLE_OPERATION_TIMEDOUT:
            // The whole request's limit: after the head, the body was still coming (silence ends
            // a transfer as `.silent` above).
            return failure.answered ? TransportError.incomplete(received: failure.received) : TransportError.timeout
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return TransportError.invalidURL(url)
        case CURLE_PARTIAL_FILE:
            return TransportError.connection(
                length.map { "the body ended after \(failure.received) of \($0) bytes" } ?? "the body ended early")
        case CURLE_BAD_CONTENT_ENCODING:
            // The server's fault, and asking again gets the same.
            return TransportError.malformed("the body is not in the encoding its Content-Encoding names")
        case CURLE_GOT_NOTHING:
            return TransportError.connection("the server closed the connection without answering")
        case CURLE_SSL_CONNECT_ERROR:
            // A reset during the handshake as well as a server that speaks no TLS: worth another try.
            return TransportError.connection("the secure connection to \(host) failed: \(failure.message)")
        default:
            return TransportError.connection(failure.message)
        }
    }

    /// The cause of a connection that could not be made (or not made secure), in a few words;
    /// nil for others. With a proxy, the connection is the proxy's.
    static func unreachable(_ failure: CurlTransfer.Failure, host: String, port: Int? = nil, proxy: CurlProxy?) -> String? {
        // With the port an address names (a local stand-in: which server is not running).
        let peer = proxy.map { "the proxy \($0.host):\($0.port)" } ?? (port.map { "\(host):\($0)" } ?? host)
        switch CURLcode(UInt32(failure.code)) {
        case CURLE_COULDNT_RESOLVE_HOST:
            return "the name \(host) could not be looked up"
        case CURLE_COULDNT_RESOLVE_PROXY:
            return "the name of \(peer) could not be looked up"
        case CURLE_COULDNT_CONNECT:
            switch Int32(failure.osErrno) {
            case ECONNREFUSED: return "\(peer) refused the connection"
            case ENETUNREACH: return "the network is unreachable"
            case EHOSTUNREACH: return "no route to \(peer)"
            default: return "\(peer) could not be reached: \(failure.message)"
            }
        case CURLE_OPERATION_TIMEDOUT where !failure.connected:
            return "connecting to \(peer) took too long"
        case let code where untrustedCertificate.contains(code.rawValue):
            // The certificate is not trusted: the same every time.
            return "no secure connection to \(host) could be made: \(failure.message)"
        default:
            return nil
        }
    }

    /// curl's failures of a certificate that is not trusted (asking again gets the same): fetch
    /// gives the host up for the run, and sync does not ask again.
    static let untrustedCertificate: Set<UInt32> = Set(
        [
            CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
        ].map(\.rawValue))

    public func shutdown() async {
        pool.close()
    }
}
