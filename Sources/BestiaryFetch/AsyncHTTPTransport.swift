import AsyncHTTPClient
import Foundation
import NIOCore

/// ``HTTPTransport`` over swift-server/async-http-client. Redirects are not followed here
/// (``PoliteClient`` follows them itself, to resolve protocol-relative `Location`s and detect
/// loops); the read timeout catches servers that stall in the middle of a body.
public final class AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient
    private let userAgent: String

    /// - Parameter readTimeout: how long a connection may stay silent.
    public init(userAgent: String, readTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10)) {
        // gzip, as Wikimedia's API etiquette asks: summaries shrink to a third.
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(Int64(connectTimeout.nanoseconds)), read: .nanoseconds(Int64(readTimeout.nanoseconds))),
            decompression: .enabled(limit: .ratio(100)))
        configuration.httpVersion = .automatic
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.userAgent = userAgent
    }

    public func get(_ url: String, headers: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> HTTPResult {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https", parsed.host != nil else {
            throw TransportError.invalidURL(url)
        }
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.nanoseconds)))
            // Content-Length counts the bytes on the wire; with gzip they differ from the body's.
            let encoded = response.headers.first(name: "content-encoding").map { $0.lowercased() != "identity" } ?? false
            let length = encoded ? nil : response.headers.first(name: "content-length").flatMap(Int.init)
            if let length, length > maxBytes {
                throw TransportError.tooLarge(limit: maxBytes)
            }
            var body = Data()
            for try await chunk in response.body {
                if body.count + chunk.readableBytes > maxBytes { throw TransportError.tooLarge(limit: maxBytes) }
                body.append(contentsOf: chunk.readableBytesView)
            }
            if let length, length != body.count {
                throw TransportError.connection("the body ended after \(body.count) of \(length) bytes")
            }
            return HTTPResult(
                status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) }, body: body)
        } catch let error as TransportError {
            throw error
        } catch let error as HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) { throw TransportError.timeout }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { throw TransportError.invalidURL(url) }
            throw Self.transportError(error, host: parsed.host ?? "")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.transportError(error, host: parsed.host ?? "")
        }
    }

    /// A failure to connect at all (``TransportError/unreachable(_:)``) in a few words, else a
    /// broken connection as the client describes it.
    static func transportError(_ error: any Error, host: String) -> TransportError {
        readable(error, host: host).map(TransportError.unreachable) ?? .connection("\(error)")
    }

    /// The cause of a connection that could not be made, in a few words (NIO's descriptions
    /// nest: "connection reset (error set): Connection refused (errno: 111)"); nil for others.
    static func readable(_ error: any Error, host: String) -> String? {
        let text = "\(error)"
        let causes = [
            ("Connection refused", "\(host) refused the connection"),
            ("Name or service not known", "the name \(host) could not be looked up"),
            ("Temporary failure in name resolution", "the name \(host) could not be looked up"),
            ("No address associated", "the name \(host) could not be looked up"),
            ("nodename nor servname", "the name \(host) could not be looked up"),
            ("Network is unreachable", "the network is unreachable"),
            ("No route to host", "no route to \(host)"),
        ]
        return causes.first { text.contains($0.0) }?.1
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}

extension Duration {
    var nanoseconds: Double {
        let (s, atto) = components
        return Double(s) * 1e9 + Double(atto) / 1e9
    }
}
