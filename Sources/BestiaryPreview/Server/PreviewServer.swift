import BestiaryHTTP
import Foundation

/// The preview's HTTP server (``HTTPServer``): the output folder through ``SiteFiles``, plus the
/// live side under `/__bestiary/` when a ``LiveReload`` is given:
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
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port, serverName: "bestiary")
        } catch {
            throw ServeError(host: host, port: port, underlying: error)
        }
        let files = SiteFiles(directory: outputDirectory, live: live)
        let live = self.live
        let shown = host.contains(":") ? "[\(host)]" : host
        await onReady("http://\(shown):\(server.port)/", server.port)
        await server.run { request in
            if let live, request.path.hasPrefix(LiveReload.prefix) {
                return Self.liveResponse(request, live: live)
            }
            return files.respond(to: request)
        }
    }

    static func liveResponse(_ request: HTTPRequest, live: LiveReload) -> HTTPResponse {
        let name = request.path.dropFirst(LiveReload.prefix.count)
        var headers = HTTPHeaders()
        // live.js and live.css are asked for with ?v=VERSION: cache them for good.
        headers["Cache-Control"] = request.query == nil ? "no-cache" : "public, max-age=31536000, immutable"
        let head = request.method == "HEAD"
        switch name {
        case "events":
            headers["Content-Type"] = "text/event-stream; charset=utf-8"
            headers["X-Accel-Buffering"] = "no"
            let stream = live.events()
            return HTTPResponse(status: 200, headers: headers, body: .stream(length: nil) { writer in
                try writer.forward(stream)
            })
        case "live.js":
            headers["Content-Type"] = "text/javascript; charset=utf-8"
            return SiteFiles.bytes(200, Array(LiveAssets.script.utf8), headers: headers, head: head)
        case "live.css":
            headers["Content-Type"] = "text/css; charset=utf-8"
            return SiteFiles.bytes(200, Array(LiveAssets.stylesheet.utf8), headers: headers, head: head)
        case "status":
            headers["Content-Type"] = "application/json; charset=utf-8"
            return SiteFiles.bytes(200, Array((live.status.json + "\n").utf8), headers: headers, head: head)
        default:
            return SiteFiles.text(404, "no such preview endpoint\n")
        }
    }
}

/// The server could not listen, with a message that says why and what to do.
public struct ServeError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var underlying: any Error

    public var code: Int32? { (underlying as? HTTPListenError)?.errnoCode }

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
            if let listen = underlying as? HTTPListenError, case .cannotResolve = listen.kind {
                return "cannot listen on \(place): \(host) is neither an address of this machine nor a name it can look up; use --host 127.0.0.1 (or 0.0.0.0 for every interface)"
            }
            return "cannot listen on \(place): \(underlying)"
        }
    }
}
