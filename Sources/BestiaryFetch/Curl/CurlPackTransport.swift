import BestiarySync
import CCurl
import Foundation

/// ``PackTransport`` over libcurl: what `bestiary sync` and `bestiary pack verify` read HTTP(S)
/// pack trees with. The body is read only as fast as the reader takes it, and a reader that
/// stops (at a size limit, say) ends the transfer: a server that sends without end fills no
/// memory. (Foundation's `URLSession` on Linux delivers data it has queued even after the task
/// is cancelled: 1 GB within seconds from a local server.) Redirects are followed, five at most
/// and never in a loop; a connection silent for `readTimeout` fails.
///
/// A response's body holds its transfer open until it is read to the end or dropped (its reader
/// waits meanwhile, its read timeout paused): read it or let it go. Call ``close()`` when done:
/// the connections kept for the next request are closed there.
public final class CurlPackTransport: PackTransport, @unchecked Sendable {
    /// The folder holding `latest.json`, ending with a slash.
    public var baseURL: URL { folder.baseURL }
    private let folder: HTTPPackFolder
    private let pool = CurlHandlePool()
    private let readTimeout: Duration
    private let connectTimeout: Duration
    private let environment: [String: String]
    static let maxRedirects = 5
    /// A server that sends less than this in a read timeout (60 s) is given up on: sync has no
    /// deadline of its own, and a trickle of a byte now and then would keep it going for hours.
    static let minimumBytesPerReadTimeout: Int64 = 1024

    /// `environment`: where the proxy settings come from (`https_proxy`, `http_proxy`, `no_proxy`,
    /// in either case), as curl and URLSession on Linux read them.
    public init(
        baseURL: URL, readTimeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.folder = HTTPPackFolder(baseURL)
        self.readTimeout = readTimeout
        self.connectTimeout = connectTimeout
        self.environment = environment
    }

    /// The proxy the environment names for `url` (see ``CurlProxy``), nil for none.
    public static func proxy(
        for url: URL, environment: [String: String]
    ) -> (host: String, port: Int, user: String?, password: String?)? {
        CurlProxy.from(environment: environment, for: url).map { ($0.host, $0.port, $0.user, $0.password) }
    }

    public var location: String { folder.location }

    public func open(_ path: String, from offset: Int) async throws -> PackResponse {
        let asked = try folder.url(of: path)
        var url = asked
        var seen: Set<String> = [url.absoluteString]
        var redirects = 0
        while true {
            let transfer = CurlTransfer(
                CurlTransfer.Request(
                    url: url.absoluteString,
                    headers: [("User-Agent", "Bestiary pack sync")] + HTTPPackFolder.headers(for: path, from: offset),
                    // A whole file may come compressed (a 39 MB manifest as a few MB), decoded
                    // here: sizes and hashes are the file's own bytes. A part (Range) comes as it
                    // is, so that its offset counts the file's bytes.
                    acceptEncoding: offset == 0 ? "gzip" : nil,
                    connectTimeout: connectTimeout, readTimeout: readTimeout,
                    proxy: CurlProxy.from(environment: environment, for: url),
                    minimumBytesPerReadTimeout: Self.minimumBytesPerReadTimeout),
                pool: pool)
            transfer.start()
            let head: CurlTransfer.Head
            do {
                head = try await transfer.head()
            } catch {
                throw describe(error, asked)
            }
            if [301, 302, 303, 307, 308].contains(head.status), let location = head.header("location") {
                transfer.cancel()
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
                else {
                    throw PackTransportError("\(HTTPPackFolder.shown(asked)): a redirect to '\(location)', which is not an http(s) URL", transient: false)
                }
                if !seen.insert(next.absoluteString).inserted {
                    throw PackTransportError("\(HTTPPackFolder.shown(asked)): the redirects go round in a loop", transient: false)
                }
                redirects += 1
                if redirects > Self.maxRedirects {
                    throw PackTransportError("\(HTTPPackFolder.shown(asked)): more than \(Self.maxRedirects) redirects", transient: false)
                }
                url = next
                continue
            }
            // A compressed body's Content-Length counts the compressed bytes, not the file's.
            let encoded = head.header("content-encoding").map { $0.lowercased() != "identity" } ?? false
            let length = encoded ? nil : head.header("content-length").flatMap(Int.init)
            let status: PackResponse.Status
            do {
                status = try HTTPPackFolder.status(
                    head.status, contentRange: head.header("content-range"), retryAfter: head.header("retry-after"), url: asked)
            } catch {
                transfer.cancel()
                throw error
            }
            switch status {
            case .full, .partial:
                return PackResponse(status: status, length: length, body: CurlBody.stream(transfer) { [self] in describe($0, asked) })
            case .notFound, .rangeNotSatisfiable:
                transfer.cancel()
                return .empty(status)
            }
        }
    }

    /// A transfer's failure in words: which URL, and what went wrong.
    private func describe(_ error: any Error, _ url: URL) -> any Error {
        guard let failure = error as? CurlTransfer.Failure else { return error }
        let window = "\(Int(readTimeout.nanoseconds / 1e9)) s"
        let silence = "the server sent nothing for \(window)"
        let what: String
        var transient = true
        switch failure.kind {
        case .cancelled:
            return CancellationError()
        case .silent:
            what = silence
        case .slow:
            what = "the server sent less than \(Self.minimumBytesPerReadTimeout) bytes in \(window)"
        case .tooLarge:
            what = "more than the limit"
            transient = false
        case .curl:
            transient = !Self.permanentFailures.contains(UInt32(failure.code))
            switch CURLcode(UInt32(failure.code)) {
            case CURLE_OPERATION_TIMEDOUT:
                what = failure.connected ? silence : "no connection could be made (timed out)"
            case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
                what = "the server closed the connection"
            default:
                let proxy = CurlProxy.from(environment: environment, for: url)
                what = CurlTransport.unreachable(failure, host: url.host ?? "", port: url.port, proxy: proxy).map { "no connection (\($0))" } ?? failure.message
            }
        }
        return PackTransportError("\(HTTPPackFolder.shown(url)): \(what)", transient: transient)
    }

    /// curl's failures that asking again does not get past: a URL or protocol it cannot use, a
    /// body not in its named encoding, a certificate that is not trusted.
    static let permanentFailures: Set<UInt32> = CurlTransport.untrustedCertificate.union(
        [CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING].map(\.rawValue))

    public func close() async {
        pool.close()
    }
}
