import Foundation

/// Serves a folder over real HTTP on 127.0.0.1 the way a static host does (200, 206 for
/// `Range: bytes=N-`, 416, 404), with a hook that lets a test answer a request differently
/// (cut a body, delay, fail).
public final class PackServer: Sendable {
    public let server: LoopbackServer
    public let root: String
    private let hook: Hook

    final class Hook: @unchecked Sendable {
        private let lock = NSLock()
        private var handler: (@Sendable (LoopbackServer.Request, LoopbackServer.Reply) -> LoopbackServer.Reply?)?
        func set(_ h: (@Sendable (LoopbackServer.Request, LoopbackServer.Reply) -> LoopbackServer.Reply?)?) { lock.withLock { handler = h } }
        func get() -> (@Sendable (LoopbackServer.Request, LoopbackServer.Reply) -> LoopbackServer.Reply?)? { lock.withLock { handler } }
    }

    private init(server: LoopbackServer, root: String, hook: Hook) {
        self.server = server
        self.root = root
        self.hook = hook
    }

    /// Serves `root` under `/packs/`.
    public static func start(root: String) async throws -> PackServer {
        let hook = Hook()
        let server = try await LoopbackServer.start { request in
            let normal = Self.serve(request, root: root)
            if let h = hook.get(), let reply = h(request, normal) { return reply }
            return normal
        }
        return PackServer(server: server, root: root, hook: hook)
    }

    /// `http://127.0.0.1:PORT/packs`.
    public var url: String { server.baseURL + "/packs" }

    /// Answers instead of the normal reply when the closure returns one (it sees the normal reply).
    public func intercept(_ h: (@Sendable (LoopbackServer.Request, LoopbackServer.Reply) -> LoopbackServer.Reply?)?) { hook.set(h) }

    public func requests(_ path: String) -> [LoopbackServer.Request] { server.requests.filter { $0.path == "/packs/" + path } }

    public func requests(prefix: String) -> [LoopbackServer.Request] { server.requests.filter { $0.path.hasPrefix("/packs/" + prefix) } }

    public func stop() async { await server.stop() }

    public static func serve(_ request: LoopbackServer.Request, root: String) -> LoopbackServer.Reply {
        guard request.path.hasPrefix("/packs/"), !request.path.contains("..") else { return .status(404) }
        let file = root + "/" + request.path.dropFirst("/packs/".count)
        guard let data = FileManager.default.contents(atPath: file) else { return .status(404) }
        let bytes = [UInt8](data)
        if let range = request.header("range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
            let start = Int(range.dropFirst("bytes=".count).dropLast())
        {
            guard start < bytes.count else { return .status(416, headers: [("Content-Range", "bytes */\(bytes.count)")]) }
            return LoopbackServer.Reply(
                status: 206, headers: [("Content-Range", "bytes \(start)-\(bytes.count - 1)/\(bytes.count)"), ("Accept-Ranges", "bytes")],
                body: Array(bytes[start...]))
        }
        return LoopbackServer.Reply(status: 200, headers: [("Accept-Ranges", "bytes")], body: bytes)
    }
}
