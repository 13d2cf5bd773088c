import BestiaryHTTP
import Foundation

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
    private let server: HTTPServer
    private let log: RequestLog

    /// Every request received so far, in order.
    public var requests: [Request] { log.all }

    private init(port: Int, server: HTTPServer, log: RequestLog, endless: EndlessLog) {
        self.port = port
        self.server = server
        self.log = log
        self.endless = endless
    }

    public static func start(_ handler: @escaping @Sendable (Request) async -> Reply) async throws -> LoopbackServer {
        let log = RequestLog()
        let endless = EndlessLog()
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { request in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.lowercased()] = field.value }
            let seen = Request(method: request.method, path: request.path, query: request.query, headers: headers)
            log.append(seen)
            // The handler is async: this connection's thread runs it (not Swift's shared pool,
            // which the tests' builds can hold for seconds, past the client's timeout).
            let reply = CallingThreadExecutor.run { await handler(seen) }
            // A delay ends early when the server stops (a test's stop() does not wait it out).
            let until = ContinuousClock.now + reply.delay
            while ContinuousClock.now < until && !server.isStopping { Thread.sleep(forTimeInterval: 0.02) }
            let fields = HTTPHeaders(reply.headers)
            if reply.endless {
                let chunk = [UInt8](repeating: 0x20, count: 8192)
                return HTTPResponse(status: reply.status, headers: fields, body: .stream(length: nil) { writer in
                    while !writer.isStopping {
                        do {
                            try writer.write(chunk)
                        } catch {
                            // Counted only when the client ended it, not the server's stop.
                            if !writer.isStopping { endless.end() }
                            throw error
                        }
                        endless.add(chunk.count)
                        // 8 MB/s at most: endless all the same, without taking the cores
                        // other tests running meanwhile need.
                        Thread.sleep(forTimeInterval: 0.001)
                    }
                    throw TruncatedOnPurpose()
                })
            }
            if let interval = reply.trickleEvery {
                return HTTPResponse(status: reply.status, headers: fields, body: .stream(length: nil) { writer in
                    while !writer.isStopping {
                        try writer.write([0x20])
                        Thread.sleep(forTimeInterval: interval.seconds)
                    }
                    throw TruncatedOnPurpose()
                })
            }
            if let stall = reply.stallAfter {
                let full = reply.body
                return HTTPResponse(status: reply.status, headers: fields, body: .stream(length: full.count) { writer in
                    try writer.write(full.prefix(stall))
                    // Silent until the server stops.
                    while !writer.isStopping { Thread.sleep(forTimeInterval: 0.05) }
                    throw TruncatedOnPurpose()
                })
            }
            if let cut = reply.truncateAfter {
                let full = reply.body
                return HTTPResponse(status: reply.status, headers: fields, body: .stream(length: full.count) { writer in
                    try writer.write(full.prefix(cut))
                    throw TruncatedOnPurpose()
                })
            }
            return HTTPResponse(status: reply.status, headers: fields, body: .bytes(reply.body))
        }
        return LoopbackServer(port: server.port, server: server, log: log, endless: endless)
    }

    public func stop() async {
        server.stop()
        await server.stopped()
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

struct TruncatedOnPurpose: Error {}

/// A flag one thread sets and others read.
public final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    public init() {}
    public func set() { lock.withLock { value = true } }
    public var isSet: Bool { lock.withLock { value } }
}

/// Runs blocking work off Swift's cooperative thread pool. Reads wait up to a minute: while the
/// whole suite runs in parallel, synchronous tests (full builds) can hold both of a 2-core
/// machine's cooperative threads for seconds, and the server under test answers only then.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [LoopbackServer.Request] = []
    func append(_ r: LoopbackServer.Request) { lock.withLock { items.append(r) } }
    var all: [LoopbackServer.Request] { lock.withLock { items } }
}

/// A TCP connection to 127.0.0.1:`port` (a blocking socket), or nil with `errno` set.
public func connectToLoopback(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
        let failure = errno
        close(fd)
        errno = failure
        return nil
    }
    return fd
}
