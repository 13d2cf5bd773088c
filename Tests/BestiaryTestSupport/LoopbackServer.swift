import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A real HTTP server on 127.0.0.1 (a free port) for network tests: each request goes to a
/// handler the test writes, so tests can answer 429s, redirects, slow or truncated bodies.
///
///     let server = try await LoopbackServer.start { request in
///         request.path == "/x" ? .text("hello") : .status(404)
///     }
///     defer { await server.stop() }
///     // use server.baseURL
public final class LoopbackServer: Sendable {
    /// A request as the handler sees it.
    public struct Request: Sendable {
        public var method: String
        /// The path, percent-encoded as sent (without the query).
        public var path: String
        public var query: String?
        public var headers: [String: String]
        /// Lower-cased header lookup.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// What the handler answers.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// Wait this long before sending anything (timeouts, slow servers).
        public var delay: Duration = .zero
        /// Send only this many body bytes, then close the connection (truncated downloads).
        public var truncateAfter: Int? = nil
        /// Send 8 KiB chunks without end, one a millisecond, until the client closes the
        /// connection (``endless``: what was sent, and whether the client ended it).
        public var endless = false
        /// Send only this many body bytes, then nothing, the connection held open (a server
        /// that stalls in the middle of a body), until the server stops.
        public var stallAfter: Int? = nil
        /// Send one body byte every this long, without end (a server that is never silent but
        /// never gets anywhere), until the client closes the connection or the server stops.
        public var trickleEvery: Duration? = nil

        public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], delay: Duration = .zero, truncateAfter: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.truncateAfter = truncateAfter
        }

        public static func status(_ code: Int, headers: [(String, String)] = []) -> Reply {
            Reply(status: code, headers: headers)
        }

        public static func text(_ s: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Reply {
            Reply(status: status, headers: [("Content-Type", contentType)], body: Array(s.utf8))
        }

        public static func json(_ s: String, status: Int = 200) -> Reply {
            text(s, status: status, contentType: "application/json; charset=utf-8")
        }

        public static func bytes(_ b: [UInt8], status: Int = 200, contentType: String = "application/octet-stream") -> Reply {
            Reply(status: status, headers: [("Content-Type", contentType)], body: b)
        }

        /// A body without end (no Content-Length: chunked).
        public static func endlessBody() -> Reply {
            var reply = Reply(status: 200, headers: [("Content-Type", "application/json")])
            reply.endless = true
            return reply
        }
    }

    /// What the endless bodies sent so far: bytes, and how many the client ended.
    public final class EndlessLog: @unchecked Sendable {
        private let lock = NSLock()
        private var sent = 0, ended = 0
        func add(_ n: Int) { lock.withLock { sent += n } }
        func end() { lock.withLock { ended += 1 } }
        public var bytes: Int { lock.withLock { sent } }
        public var endedByClient: Int { lock.withLock { ended } }
    }

    public let endless: EndlessLog

    public let port: Int
    /// `http://127.0.0.1:PORT` (no trailing slash).
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let task: Task<Void, any Error>
    private let log: RequestLog

    /// Every request received so far, in order.
    public var requests: [Request] { log.all }

    private let stopping: StopFlag

    private init(port: Int, task: Task<Void, any Error>, log: RequestLog, endless: EndlessLog, stopping: StopFlag) {
        self.stopping = stopping
        self.port = port
        self.task = task
        self.log = log
        self.endless = endless
    }

    public static func start(_ handler: @escaping @Sendable (Request) async -> Reply) async throws -> LoopbackServer {
        let log = RequestLog()
        let endless = EndlessLog()
        let stopping = StopFlag()
        let ready = PortPromise()
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let uri = request.uri
            let seen = Request(method: request.method.rawValue, path: uri.path, query: uri.query, headers: headers)
            log.append(seen)
            let reply = await handler(seen)
            if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
            var fields = HTTPFields()
            for (name, value) in reply.headers {
                if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
            }
            let status = HTTPResponse.Status(code: reply.status)
            if reply.endless {
                let chunk = ByteBuffer(bytes: [UInt8](repeating: 0x20, count: 8192))
                let body = ResponseBody { writer in
                    do {
                        while true {
                            try await writer.write(chunk)
                            endless.add(chunk.readableBytes)
                            // 8 MB/s at most: endless all the same, without taking the event
                            // loops other tests running meanwhile need (a fetch test's 1.5 s
                            // timeout was missed while this sent 100 MB/s).
                            try await Task.sleep(for: .milliseconds(1))
                        }
                    } catch {
                        endless.end()
                        throw error
                    }
                }
                return Response(status: status, headers: fields, body: body)
            }
            if let interval = reply.trickleEvery {
                let body = ResponseBody { writer in
                    while !stopping.value {
                        try await writer.write(ByteBuffer(bytes: [0x20]))
                        try await Task.sleep(for: interval)
                    }
                    throw TruncatedOnPurpose()
                }
                return Response(status: status, headers: fields, body: body)
            }
            if let stall = reply.stallAfter {
                let full = reply.body
                let body = ResponseBody(contentLength: full.count) { writer in
                    try await writer.write(ByteBuffer(bytes: full.prefix(stall)))
                    // Silent until the server stops (a handler still running holds up its stop).
                    while !stopping.value { try await Task.sleep(for: .milliseconds(50)) }
                    throw TruncatedOnPurpose()
                }
                return Response(status: status, headers: fields, body: body)
            }
            if let cut = reply.truncateAfter {
                let full = reply.body
                let body = ResponseBody(contentLength: full.count) { writer in
                    try await writer.write(ByteBuffer(bytes: full.prefix(cut)))
                    throw TruncatedOnPurpose()
                }
                return Response(status: status, headers: fields, body: body)
            }
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in await ready.fulfil(channel.localAddress?.port ?? 0) },
            logger: {
                var l = Logger(label: "loopback")
                l.logLevel = .critical
                return l
            }()
        )
        let task = Task { try await app.run() }
        let port = await ready.value
        return LoopbackServer(port: port, task: task, log: log, endless: endless, stopping: stopping)
    }

    public func stop() async {
        stopping.set()
        task.cancel()
        _ = await task.result
    }
}

struct TruncatedOnPurpose: Error {}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    var value: Bool { lock.withLock { stopped } }
    func set() { lock.withLock { stopped = true } }
}

final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [LoopbackServer.Request] = []
    func append(_ r: LoopbackServer.Request) { lock.withLock { items.append(r) } }
    var all: [LoopbackServer.Request] { lock.withLock { items } }
}

actor PortPromise {
    private var port: Int?
    private var waiters: [CheckedContinuation<Int, Never>] = []

    func fulfil(_ p: Int) {
        port = p
        for w in waiters { w.resume(returning: p) }
        waiters = []
    }

    var value: Int {
        get async {
            if let port { return port }
            return await withCheckedContinuation { waiters.append($0) }
        }
    }
}
