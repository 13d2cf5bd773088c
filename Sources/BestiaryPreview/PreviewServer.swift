import Foundation
import Hummingbird
import Logging
import NIOCore

/// Serves a built site from `output/` over HTTP, as a static host would: index.html lookup,
/// ETag and Range requests (FileMiddleware), and the site's own 404 page for unknown paths.
/// Binds to loopback unless told otherwise.
public struct PreviewServer: Sendable {
    public let outputDirectory: String
    public let host: String
    public let port: Int

    public init(outputDirectory: String, host: String = "127.0.0.1", port: Int = 8000) {
        self.outputDirectory = outputDirectory
        self.host = host
        self.port = port
    }

    /// Runs until the task is cancelled or the process gets SIGINT/SIGTERM; `onReady` receives the
    /// URL once the socket listens (with the real port when `port` is 0).
    public func run(onReady: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let root = outputDirectory
        var logger = Logger(label: "bestiary.serve")
        logger.logLevel = .warning
        let router = Router()
        // Outermost first: the 404 page wraps the file server, which wraps the (empty) router.
        router.add(middleware: NotFoundPage(outputDirectory: root))
        router.add(middleware: FileMiddleware(root, searchForIndexHtml: true, logger: logger))
        let host = self.host
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "bestiary"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onReady("http://\(shown):\(bound)/")
            },
            logger: logger
        )
        try await app.runService()
    }
}

/// Answers unknown paths with the site's `404.html` and status 404, as static hosts do.
struct NotFoundPage<Context: RequestContext>: RouterMiddleware {
    let outputDirectory: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let page = FileManager.default.contents(atPath: outputDirectory + "/404.html") else { throw error }
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .notFound, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: page)))
        }
    }
}
