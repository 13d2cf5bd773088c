import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The preview's HTTP server (Hummingbird): the output folder through ``SiteFiles``, plus the live
/// side under `/__bestiary/` when a ``LiveReload`` is given:
///
/// - `GET /__bestiary/events`: server-sent events (`hello`, `building`, `reload`, `failed`);
/// - `GET /__bestiary/live.js`, `/__bestiary/live.css`: the injected script and overlay style;
/// - `GET /__bestiary/status`: the current ``LiveStatus`` as JSON (for tools and tests).
///
/// Binds to loopback unless told otherwise.
public struct PreviewServer: Sendable {
    public let outputDirectory: String
    public let host: String
    public let port: Int
    public let live: LiveReload?

    public init(outputDirectory: String, host: String = "127.0.0.1", port: Int = 8000, live: LiveReload? = nil) {
        self.outputDirectory = outputDirectory
        self.host = host
        self.port = port
        self.live = live
    }

    /// Listens and serves until the surrounding task is cancelled. `onReady` gets the base URL and
    /// the real port (when `port` is 0, a free one is chosen) once the socket listens.
    public func run(onReady: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws(ServeError) {
        var logger = Logger(label: "bestiary.serve")
        logger.logLevel = .critical
        let files = SiteFiles(directory: outputDirectory, live: live)
        let live = self.live
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            if let live, request.uri.path.hasPrefix(LiveReload.prefix) {
                return Self.liveResponse(request, live: live)
            }
            return try await files.respond(to: request)
        }
        let host = self.host
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "bestiary"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                await onReady("http://\(shown):\(bound)/", bound)
            },
            logger: logger
        )
        do {
            try await app.run()
        } catch is CancellationError {
            return
        } catch {
            throw ServeError(host: host, port: port, underlying: error)
        }
    }

    static func liveResponse(_ request: Request, live: LiveReload) -> Response {
        let name = request.uri.path.dropFirst(LiveReload.prefix.count)
        var headers = HTTPFields()
        // live.js and live.css are asked for with ?v=VERSION: cache them for good.
        headers[.cacheControl] = request.uri.query == nil ? "no-cache" : "public, max-age=31536000, immutable"
        switch name {
        case "events":
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
            let stream = live.events()
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                for await chunk in stream {
                    try await writer.write(ByteBuffer(string: chunk))
                }
                try await writer.finish(nil)
            })
        case "live.js":
            headers[.contentType] = "text/javascript; charset=utf-8"
            return SiteFiles.bytes(.ok, Array(LiveAssets.script.utf8), headers: headers, head: request.method == .head)
        case "live.css":
            headers[.contentType] = "text/css; charset=utf-8"
            return SiteFiles.bytes(.ok, Array(LiveAssets.stylesheet.utf8), headers: headers, head: request.method == .head)
        case "status":
            headers[.contentType] = "application/json; charset=utf-8"
            return SiteFiles.bytes(.ok, Array((live.status.json + "\n").utf8), headers: headers, head: request.method == .head)
        default:
            return SiteFiles.text(.notFound, "no such preview endpoint\n")
        }
    }
}

/// The server could not listen, with a message that says why and what to do.
public struct ServeError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var underlying: any Error

    public var code: Int32? { (underlying as? IOError)?.errnoCode }

    public var description: String {
        let place = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        switch code {
        case EADDRINUSE:
            return "cannot listen on \(place): the port is already in use (another `bestiary serve`?); stop that program or pass --port N (--port 0 picks a free port)"
        case EACCES:
            return "cannot listen on \(place): permission denied (ports below 1024 need privileges); pass --port 8000 or another port above 1023"
        case EADDRNOTAVAIL:
            return "cannot listen on \(place): \(host) is not an address of this machine; use --host 127.0.0.1 (or 0.0.0.0 for every interface)"
        default:
            // NIO's `SocketAddressError` (and its `UnknownHost`): the name or address cannot be resolved.
            if String(reflecting: type(of: underlying)).contains("SocketAddressError") {
                return "cannot listen on \(place): \(host) is neither an address of this machine nor a name it can look up; use --host 127.0.0.1 (or 0.0.0.0 for every interface)"
            }
            return "cannot listen on \(place): \(underlying)"
        }
    }
}
