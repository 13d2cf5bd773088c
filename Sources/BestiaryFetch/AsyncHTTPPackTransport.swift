import AsyncHTTPClient
import BestiarySync
import Foundation
import NIOCore

/// ``PackTransport`` over async-http-client: what `bestiary sync` and `bestiary pack verify` read
/// HTTP(S) pack trees with. The body is read only as fast as the reader takes it (backpressure),
/// and a reader that stops (at a size limit, say) ends the transfer: a server that sends without
/// end fills no memory. (Foundation's `URLSession` on Linux delivers data it has queued even
/// after the task is cancelled: 1 GB within seconds from a local server.) Redirects are followed,
/// five at most and never in a loop; a connection silent for `readTimeout` fails.
///
/// Call ``close()`` when done: the client's connections are shut down there.
public final class AsyncHTTPPackTransport: PackTransport, @unchecked Sendable {
    /// The folder holding `latest.json`, ending with a slash.
    public var baseURL: URL { folder.baseURL }
    private let folder: HTTPPackFolder
    private let client: HTTPClient
    private let readTimeout: Duration

    /// `environment`: where the proxy settings come from (`https_proxy`, `http_proxy`, `no_proxy`,
    /// in either case), as curl and URLSession on Linux read them.
    public init(
        baseURL: URL, readTimeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        let folder = HTTPPackFolder(baseURL)
        self.folder = folder
        self.readTimeout = readTimeout
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: .nanoseconds(Int64(connectTimeout.nanoseconds)), read: .nanoseconds(Int64(readTimeout.nanoseconds))))
        if let proxy = Self.proxy(for: folder.baseURL, environment: environment) {
            configuration.proxy = proxy.user.map { user in
                .server(host: proxy.host, port: proxy.port, authorization: .basic(username: user, password: proxy.password ?? ""))
            } ?? .server(host: proxy.host, port: proxy.port)
        }
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The proxy the environment names for `url`: `https_proxy` for https, `http_proxy` for
    /// http (lower case first), unless `no_proxy` lists the host (`*`, a name, or a domain the
    /// host ends with) or the host is this machine (`localhost`, 127.x.x.x, ::1). A proxy URL without a port uses 80 (`http://`) or 443 (`https://`); with
    /// `user:password@`, basic authorization.
    public static func proxy(
        for url: URL, environment: [String: String]
    ) -> (host: String, port: Int, user: String?, password: String?)? {
        guard let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased() else { return nil }
        // This machine itself is never reached through a proxy.
        if host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]" { return nil }
        func value(_ name: String) -> String? {
            (environment[name] ?? environment[name.uppercased()]).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        if let noProxy = value("no_proxy") {
            for entry in noProxy.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
                if entry == "*" { return nil }
                let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
                if host == domain || host.hasSuffix("." + domain) { return nil }
            }
        }
        guard let setting = value(scheme == "https" ? "https_proxy" : "http_proxy") else { return nil }
        let text = setting.contains("://") ? setting : "http://" + setting
        guard let proxy = URL(string: text), let proxyHost = proxy.host, !proxyHost.isEmpty else { return nil }
        let port = proxy.port ?? (proxy.scheme?.lowercased() == "https" ? 443 : 80)
        return (proxyHost, port, proxy.user?.removingPercentEncoding, proxy.password?.removingPercentEncoding)
    }

    public var location: String { folder.location }

    public func open(_ path: String, from offset: Int) async throws -> PackResponse {
        let url = try folder.url(of: path)
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "Bestiary pack sync")
        for (name, value) in HTTPPackFolder.headers(for: path, from: offset) { request.headers.add(name: name, value: value) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .distantFuture)
        } catch {
            throw describe(error, url)
        }
        let length = response.headers.first(name: "content-length").flatMap(Int.init)
        let status = try HTTPPackFolder.status(Int(response.status.code), contentRange: response.headers.first(name: "content-range"), url: url)
        switch status {
        case .full, .partial:
            return PackResponse(status: status, length: length, body: stream(response.body, url))
        case .notFound, .rangeNotSatisfiable:
            return .empty(status)
        }
    }

    /// The body, each chunk read from the connection only when the reader asks for it. The
    /// iterator goes with the stream: a reader that stops reading ends the request.
    private func stream(_ body: HTTPClientResponse.Body, _ url: URL) -> AsyncThrowingStream<Data, any Error> {
        final class Reader: @unchecked Sendable {
            var iterator: HTTPClientResponse.Body.AsyncIterator
            init(_ body: HTTPClientResponse.Body) { iterator = body.makeAsyncIterator() }
        }
        let reader = Reader(body)
        return AsyncThrowingStream(unfolding: { [self] in
            do {
                return try await reader.iterator.next().map { Data($0.readableBytesView) }
            } catch {
                throw self.describe(error, url)
            }
        })
    }

    /// A transfer's failure in words: which URL, and what went wrong.
    private func describe(_ error: any Error, _ url: URL) -> any Error {
        if error is CancellationError { return error }
        let what: String
        switch error as? HTTPClientError {
        case .readTimeout?, .deadlineExceeded?:
            what = "the server sent nothing for \(Int(readTimeout.nanoseconds / 1e9)) s"
        case .connectTimeout?:
            what = "no connection could be made (timed out)"
        case .redirectLimitReached?:
            what = "more than 5 redirects"
        case .redirectCycleDetected?:
            what = "the redirects go round in a loop"
        case .remoteConnectionClosed?:
            what = "the server closed the connection"
        default:
            what = "\(error)"
        }
        return PackTransportError("\(url.absoluteString): \(what)")
    }

    public func close() async {
        try? await client.shutdown()
    }
}
