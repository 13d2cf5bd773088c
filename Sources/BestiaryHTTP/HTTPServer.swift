import CBestiarySystem
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server: one thread listens, and each connection gets a thread of its own, on
/// which the handler runs and may block (reading a file, waiting for the next live-reload
/// event). Connections stay open between requests (keep-alive) unless the client or the answer
/// says otherwise. Enough for a preview on one's own machine and for tests, not for the open
/// internet: at most ``maxConnections`` at once, request bodies up to 1 MiB, read and dropped.
///
///     let server = try HTTPServer(host: "127.0.0.1", port: 0)
///     await server.run { request in HTTPResponse(status: 200, body: .bytes(Array("hi".utf8))) }
///
/// `run` serves until its task is cancelled; ``start(_:)`` and ``stop()`` do the same from code
/// that is not async.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The port it listens on (the one chosen when 0 was asked for).
    public let port: Int
    /// Sent as `Server:` when set.
    public let serverName: String?
    /// A connection with no request for this long (seconds) is closed.
    public let idleTimeout: Double
    /// A request's head must come whole within this long (seconds) of its first byte.
    public let headTimeout: Double
    /// More connections than this at once are answered 503 and closed.
    public let maxConnections: Int
    static let bodyLimit = 1 << 20

    private let listener: Int32
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var stopping = false
    private var started = false
    private var listenerClosed = false
    private var threads = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Binds and listens on `host` (an address or a name: the first of its addresses this
    /// machine has) and `port` (0: a free one).
    public init(
        host: String, port: Int, serverName: String? = nil, idleTimeout: Double = 60, headTimeout: Double = 30, maxConnections: Int = 512
    ) throws(HTTPListenError) {
        let (fd, bound) = try Self.bindAndListen(host: host, port: port)
        listener = fd
        self.port = bound
        self.serverName = serverName
        self.idleTimeout = idleTimeout
        self.headTimeout = headTimeout
        self.maxConnections = maxConnections
    }

    deinit {
        if !listenerClosed { close(listener) }
    }

    /// True from ``stop()`` on.
    public var isStopping: Bool { lock.withLock { stopping } }

    /// Serves with `handler` until the calling task is cancelled, then stops and returns once
    /// every connection has closed.
    public func run(_ handler: @escaping Handler) async {
        start(handler)
        await withTaskCancellationHandler {
            await stopped()
        } onCancel: {
            stop()
        }
    }

    /// Starts taking connections on a thread of its own and returns.
    public func start(_ handler: @escaping Handler) {
        let go: Bool = lock.withLock {
            guard !started, !stopping else { return false }
            started = true
            threads += 1
            return true
        }
        guard go else { return }
        let thread = Thread { [self] in acceptLoop(handler) }
        thread.name = "http-accept"
        thread.start()
    }

    /// Stops taking connections and ends the open ones (a handler still running finishes, but
    /// its writes fail). Returns at once; ``stopped()`` waits for the end.
    public func stop() {
        let closeNow: Bool = lock.withLock {
            guard !stopping else { return false }
            stopping = true
            // Under the lock: a connection's thread takes its descriptor out of the set before
            // closing it, so none of these numbers can have been reused.
            for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
            if started {
                shutdown(listener, Int32(SHUT_RDWR))
                return false
            }
            listenerClosed = true
            return true
        }
        if closeNow {
            close(listener)
            resumeWaitersIfDone()
        }
    }

    /// Returns once the server has stopped and every connection's thread has ended.
    public func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = lock.withLock {
                if stopping && threads == 0 { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    // MARK: Threads

    private func acceptLoop(_ handler: @escaping Handler) {
        defer {
            lock.withLock { listenerClosed = true }
            close(listener)
            threadEnded()
        }
        while !isStopping {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 250) > 0 else { continue }
            // Close-on-exec, as every descriptor here: a program a test or the preview starts
            // meanwhile must not keep the connection open after this server closes it.
            let fd = cbestiary_accept_cloexec(listener)
            guard fd >= 0 else {
                // EAGAIN: the connection went away between poll and accept (the listener does
                // not block, so accept never waits).
                if errno == EMFILE || errno == ENFILE { usleep(100_000) }
                continue
            }
            let socket = HTTPConnectionSocket(fd)
            let admitted: Bool? = lock.withLock {
                if stopping { return nil }
                guard connections.count < maxConnections else { return false }
                connections.insert(fd)
                threads += 1
                return true
            }
            switch admitted {
            case true?:
                let thread = Thread { [self] in
                    serve(socket, handler)
                    lock.withLock { _ = connections.remove(fd) }
                    close(fd)
                    threadEnded()
                }
                thread.name = "http-connection"
                thread.start()
            case false?:
                try? socket.send(Self.plainResponse(503, "too many connections at once; try again\n", keepAlive: false, serverName: serverName))
                close(fd)
            case nil:
                close(fd)
            }
        }
    }

    private func threadEnded() {
        lock.withLock { threads -= 1 }
        resumeWaitersIfDone()
    }

    private func resumeWaitersIfDone() {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            guard stopping && threads == 0 else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in ready { waiter.resume() }
    }

    /// Answers requests on one connection until it closes, a request says close, or the server stops.
    private func serve(_ socket: HTTPConnectionSocket, _ handler: Handler) {
        socket.setNoDelay()
        var buffer: [UInt8] = []
        while !isStopping {
            // The head.
            var headStarted: ContinuousClock.Instant?
            var outcome = RequestHead.parse(buffer[...])
            while outcome == .incomplete {
                if headStarted == nil && !buffer.isEmpty { headStarted = .now }
                let wait = headStarted.map { headTimeout - Self.seconds(since: $0) } ?? idleTimeout
                guard wait > 0, socket.receive(into: &buffer, waitingAtMost: wait, stop: { [self] in isStopping }) else {
                    if let headStarted, Self.seconds(since: headStarted) >= headTimeout {
                        refuse(socket, 408, "the request's head did not come in time\n")
                    }
                    return
                }
                outcome = RequestHead.parse(buffer[...])
            }
            guard case .request(let box, let length, let bodyLength) = outcome else {
                if case .refused(let status, let reason) = outcome {
                    refuse(socket, status, "bad request: \(reason)\n")
                }
                return
            }
            buffer.removeFirst(length)
            // A body is read and dropped: nothing here takes one.
            guard bodyLength <= Self.bodyLimit else {
                refuse(socket, 413, "request bodies over 1 MiB are not taken\n")
                return
            }
            while buffer.count < bodyLength {
                guard socket.receive(into: &buffer, waitingAtMost: headTimeout, stop: { [self] in isStopping }) else { return }
            }
            buffer.removeFirst(bodyLength)

            let request = box.request
            let response = handler(request)
            let keepAlive = request.keepsAlive && !isStopping
            guard write(response, to: request, on: socket, keepAlive: keepAlive), keepAlive else { return }
        }
    }

    /// Answers with an error and closes without a reset: what the client sent and this server
    /// did not read would otherwise make the kernel reset the connection, and the client might
    /// never see the answer.
    private func refuse(_ socket: HTTPConnectionSocket, _ status: Int, _ message: String) {
        guard (try? socket.send(Self.plainResponse(status, message, keepAlive: false, serverName: serverName))) != nil else { return }
        socket.finishSending(drainingFor: 1, atMost: Self.bodyLimit)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        let (s, attoseconds) = elapsed.components
        return Double(s) + Double(attoseconds) / 1e18
    }

    /// Sends `response`; false when the connection must close (a body cut short, a write failed,
    /// or a body without length to an HTTP/1.0 client, which ends with the connection).
    private func write(_ response: HTTPResponse, to request: HTTPRequest, on socket: HTTPConnectionSocket, keepAlive: Bool) -> Bool {
        var headers = response.headers
        var keepAlive = keepAlive
        let noBody = request.method == "HEAD" || HTTPResponse.forbidsBody(response.status)
        var chunked = false
        switch response.body {
        case _ where HTTPResponse.forbidsBody(response.status):
            // No framing at all for 1xx, 204 and 304 (RFC 9112 §6.3), whatever the body says.
            headers["Transfer-Encoding"] = nil
            if response.status != 304 { headers["Content-Length"] = nil }
        case .bytes(let bytes):
            if headers["Content-Length"] == nil {
                headers["Content-Length"] = String(bytes.count)
            }
        case .stream(let length, _):
            if let length {
                if headers["Content-Length"] == nil { headers["Content-Length"] = String(length) }
            } else if request.minorVersion >= 1 {
                chunked = true
                headers["Transfer-Encoding"] = "chunked"
            } else {
                keepAlive = false
            }
        }
        var head = Self.head(response.status, headers, keepAlive: keepAlive, serverName: serverName)
        do {
            switch response.body {
            case .bytes(let bytes):
                if !noBody { head.append(contentsOf: bytes) }
                try socket.send(head)
            case .stream(let length, let body):
                try socket.send(head)
                if noBody { break }
                let writer = HTTPBodyWriter(connection: socket, length: length, chunked: chunked, server: self)
                try body(writer)
                try writer.finish()
            }
        } catch {
            return false
        }
        return keepAlive
    }

    static func head(_ status: Int, _ headers: HTTPHeaders, keepAlive: Bool, serverName: String?) -> [UInt8] {
        var headers = headers
        if headers["Date"] == nil { headers["Date"] = httpDate(time(nil)) }
        if let serverName, headers["Server"] == nil { headers["Server"] = serverName }
        if !keepAlive { headers["Connection"] = "close" }
        var text = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    static func plainResponse(_ status: Int, _ message: String, keepAlive: Bool, serverName: String?) -> [UInt8] {
        let body = Array(message.utf8)
        let headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8", "Content-Length": String(body.count)]
        return head(status, headers, keepAlive: keepAlive, serverName: serverName) + body
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
    static func httpDate(_ seconds: time_t) -> String {
        var t = seconds
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    // MARK: Listening

    private static func bindAndListen(host: String, port: Int) throws(HTTPListenError) -> (Int32, Int) {
        guard (0...65535).contains(port) else { throw HTTPListenError(host: host, port: port, kind: .badPort) }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPListenError(host: host, port: port, kind: .cannotResolve(String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var lastError = EADDRNOTAVAIL
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            #if canImport(Glibc)
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            #else
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            #endif
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, 128) == 0 else {
                lastError = errno
                close(fd)
                // The port is taken, or not ours to take, at this address: another of the
                // name's addresses would serve beside that other program, not instead of it.
                if lastError == EADDRINUSE || lastError == EACCES { break }
                continue
            }
            // accept never blocks: a connection given up between poll and accept is skipped.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var address = sockaddr_storage()
            var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
            }
            let family = Int32(address.ss_family)
            let bound: UInt16 = withUnsafePointer(to: &address) { pointer in
                if family == AF_INET6 {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
            return (fd, Int(bound))
        }
        throw HTTPListenError(host: host, port: port, kind: .system(lastError))
    }
}

/// Why a server could not listen.
public struct HTTPListenError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The host is neither an address nor a name that can be looked up (getaddrinfo's words).
        case cannotResolve(String)
        /// `socket`, `bind` or `listen` failed with this errno.
        case system(Int32)
        case badPort
    }

    public var host: String
    public var port: Int
    public var kind: Kind

    /// The errno of a failed `bind` or `listen` (EADDRINUSE, EACCES, EADDRNOTAVAIL, …).
    public var errnoCode: Int32? {
        if case .system(let code) = kind { return code }
        return nil
    }

    public var description: String {
        switch kind {
        case .cannotResolve(let why): "cannot look up \(host): \(why)"
        case .system(let code): "cannot listen on \(host):\(port): \(String(cString: strerror(code)))"
        case .badPort: "port \(port) is not between 0 and 65535"
        }
    }
}
