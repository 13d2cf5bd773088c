import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryHTTP

#if canImport(Glibc)
import Glibc
#endif

/// A raw client: bytes in, bytes out, so the tests see exactly what the server sends.
final class RawClient: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        guard let fd = connectToLoopback(port: port) else { throw Failure(what: "connect: errno \(errno)") }
        self.fd = fd
    }

    deinit { close(fd) }

    struct Failure: Error { var what: String }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `done` says the bytes so far suffice, the server closes, or `timeout` passes.
    /// `closed` is true when the server closed the connection.
    func read(timeout: Double = 60, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if done(String(decoding: bytes, as: UTF8.self)) { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
            bytes += chunk[0..<n]
        }
        return (String(decoding: bytes, as: UTF8.self), false)
    }

    /// Reads exactly the responses to come whose bodies end with `marker`.
    func readUntil(_ marker: String, timeout: Double = 60) -> String {
        read(timeout: timeout) { $0.hasSuffix(marker) }.text
    }
}

/// The head of a response with its Date field taken out (it changes by the second).
func withoutDate(_ text: String) -> String {
    text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
}

@Suite struct HTTPServerTests {
    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .bytes(Array("\(request.method) \(request.path)|".utf8)))
    }

    @Test func answersOnOneConnectionUntilTheClientSaysClose() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, serverName: "test")
        server.start(Self.echo)
        defer { server.stop() }
        let text = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = client.readUntil("|")
            // Pipelined: two requests in one write, with a request body to drop between them.
            client.send("POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /c?q HTTP/1.1\r\nConnection: close\r\n\r\n")
            let rest = client.read()
            #expect(rest.closed)
            return withoutDate(first) + "\n" + withoutDate(rest.text)
        }
        #expect(text == """
            HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 7\r\nServer: test\r\n\r\nGET /a|
            HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 8\r\nServer: test\r\n\r\nPOST /b|\
            HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 7\r\nServer: test\r\nConnection: close\r\n\r\nGET /c|
            """)
    }

    @Test func headGetsTheLengthButNoBody() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { request in
            var response = Self.echo(request)
            if request.path == "/stream" {
                response.body = .stream(length: 3) { writer in try writer.write("abc") }
            }
            return response
        }
        defer { server.stop() }
        let (plain, streamed) = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("HEAD /x HTTP/1.1\r\n\r\nHEAD /stream HTTP/1.1\r\nConnection: close\r\n\r\n")
            let text = client.read().text
            let parts = text.components(separatedBy: "HTTP/1.1 200 OK")
            return (withoutDate(parts[1]), withoutDate(parts[2]))
        }
        #expect(plain == "\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\n")
        #expect(streamed == "\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\n")
    }

    @Test func aBodyWithoutLengthIsChunkedOrEndsTheConnection() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { _ in
            HTTPResponse(status: 200, body: .stream(length: nil) { writer in
                try writer.write("hello ")
                try writer.write([UInt8]())
                try writer.write(String(repeating: "x", count: 20))
            })
        }
        defer { server.stop() }
        let (chunked, old) = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("GET / HTTP/1.1\r\n\r\n")
            let chunked = client.readUntil("0\r\n\r\n")
            let old = try RawClient(port: server.port)
            old.send("GET / HTTP/1.0\r\n\r\n")
            let answer = old.read()
            #expect(answer.closed)
            return (chunked, answer.text)
        }
        #expect(withoutDate(chunked).hasSuffix("Transfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n14\r\nxxxxxxxxxxxxxxxxxxxx\r\n0\r\n\r\n"))
        #expect(withoutDate(old).hasSuffix("Connection: close\r\n\r\nhello xxxxxxxxxxxxxxxxxxxx"))
        #expect(!old.contains("chunked"))
    }

    /// A body that throws, or ends before its length, closes the connection: the client sees it cut.
    @Test func aBodyCutShortClosesTheConnection() async throws {
        struct Broken: Error {}
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { request in
            HTTPResponse(status: 200, body: .stream(length: 10) { writer in
                try writer.write("abc")
                if request.path == "/throw" { throw Broken() }
            })
        }
        defer { server.stop() }
        for path in ["/throw", "/short"] {
            let answer = try await offPool {
                let client = try RawClient(port: server.port)
                client.send("GET \(path) HTTP/1.1\r\n\r\n")
                return client.read()
            }
            #expect(answer.closed, "\(path)")
            #expect(withoutDate(answer.text).hasSuffix("Content-Length: 10\r\n\r\nabc"), "\(path)")
        }
        // Writing past the length is refused, not sent.
        let over = try HTTPServer(host: "127.0.0.1", port: 0)
        over.start { _ in HTTPResponse(status: 200, body: .stream(length: 2) { writer in try writer.write("abc") }) }
        defer { over.stop() }
        let answer = try await offPool {
            let client = try RawClient(port: over.port)
            client.send("GET / HTTP/1.1\r\n\r\n")
            return client.read()
        }
        #expect(answer.closed)
        #expect(withoutDate(answer.text).hasSuffix("Content-Length: 2\r\n\r\n"))
    }

    @Test func badRequestsGetTheirStatusAndAClose() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start(Self.echo)
        defer { server.stop() }
        let cases = [
            ("hello\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad request: the request line is not METHOD TARGET HTTP/1.x\n"),
            ("GET / HTTP/3\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "bad request: only HTTP/1.0 and HTTP/1.1 are served\n"),
            ("GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 70_000), "HTTP/1.1 431 Request Header Fields Too Large", "bad request: the request's head is over 64 KiB\n"),
            // With a part of the body the server does not read: the answer still arrives (a
            // close with unread bytes would reset the connection before the client read it).
            ("POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n" + String(repeating: "z", count: 300_000), "HTTP/1.1 413 Content Too Large", "request bodies over 1 MiB are not taken\n"),
        ]
        for (request, status, body) in cases {
            let answer = try await offPool {
                let client = try RawClient(port: server.port)
                client.send(request)
                return client.read()
            }
            #expect(answer.closed)
            #expect(answer.text.hasPrefix(status + "\r\n"), "\(answer.text)")
            #expect(withoutDate(answer.text).hasSuffix("Connection: close\r\n\r\n" + body), "\(answer.text)")
        }
    }

    /// 204 and 304 carry no body and no framing, whatever the handler gave.
    @Test func noBodyStatusesGetNoFraming() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { request in
            HTTPResponse(status: request.path == "/a" ? 204 : 304, body: .stream(length: nil) { writer in try writer.write("never") })
        }
        defer { server.stop() }
        let text = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\nConnection: close\r\n\r\n")
            return withoutDate(client.read().text)
        }
        #expect(text == "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n")
    }

    @Test func aHeadThatNeverEndsTimesOut() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, headTimeout: 0.5)
        server.start(Self.echo)
        defer { server.stop() }
        let answer = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            return client.read(timeout: 20)
        }
        #expect(answer.closed)
        #expect(answer.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }

    /// stop() ends idle connections, a body waiting for events and the listener; stopped() then returns.
    @Test func stopEndsOpenConnectionsAndStoppedWaitsForThem() async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let forwarded = Flag()
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { request in
            if request.path == "/events" {
                return HTTPResponse(status: 200, body: .stream(length: nil) { writer in
                    try writer.forward(stream)
                    forwarded.set()
                })
            }
            return Self.echo(request)
        }
        let idle = try RawClient(port: server.port)
        let events = try RawClient(port: server.port)
        events.send("GET /events HTTP/1.1\r\n\r\n")
        continuation.yield("data: one\n\n")
        let first = try await offPool { events.readUntil("data: one\n\n\r\n") }
        #expect(first.hasSuffix("\r\n\r\nb\r\ndata: one\n\n\r\n"))
        idle.send("GET /a HTTP/1.1\r\n\r\n")
        _ = try await offPool { idle.readUntil("|") }

        let started = Date()
        server.stop()
        await server.stopped()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(forwarded.isSet)
        #expect(try await offPool { idle.read(timeout: 5).closed })
        #expect(try await offPool { events.read(timeout: 5).closed })
        #expect((try? RawClient(port: server.port)) == nil)
        continuation.finish()
    }

    /// A page closed while its event stream waits: the body notices within a second, though no
    /// event comes, and its thread ends.
    @Test func anEventStreamEndsWhenTheClientGoes() async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        defer { continuation.finish() }
        let forwarded = Flag()
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        server.start { _ in
            HTTPResponse(status: 200, body: .stream(length: nil) { writer in
                try writer.forward(stream)
                forwarded.set()
            })
        }
        defer { server.stop() }
        do {
            let client = try RawClient(port: server.port)
            client.send("GET /events HTTP/1.1\r\n\r\n")
            _ = try await offPool { client.readUntil("\r\n\r\n") }
        }
        let deadline = Date().addingTimeInterval(10)
        while !forwarded.isSet && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(forwarded.isSet)
    }

    @Test func runStopsWhenItsTaskIsCancelled() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0)
        // The task runs on a thread of its own: on Swift's shared pool it could wait longer than
        // the client below while the other suites' builds hold both of the pool's threads.
        let executor = CallingThreadExecutor()
        let ended = Flag()
        Thread {
            while !ended.isSet { executor.runJobs(until: { ended.isSet }, waitingAtMost: 0.1) }
        }.start()
        defer { ended.set() }
        let task = Task(executorPreference: executor) { await server.run(Self.echo) }
        let answer = try await offPool {
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.0\r\n\r\n")
            return client.read()
        }
        #expect(answer.text.hasSuffix("GET /x|"))
        task.cancel()
        await task.value
        #expect(server.isStopping)
    }

    @Test func listeningErrorsSayWhy() throws {
        let first = try HTTPServer(host: "127.0.0.1", port: 0)
        defer { first.stop() }
        #expect(throws: HTTPListenError(host: "127.0.0.1", port: first.port, kind: .system(EADDRINUSE))) {
            try HTTPServer(host: "127.0.0.1", port: first.port)
        }
        do {
            _ = try HTTPServer(host: "999.1.1.1", port: 0)
            Issue.record("listened on 999.1.1.1")
        } catch {
            guard case .cannotResolve = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(error.description.hasPrefix("cannot look up 999.1.1.1: "))
        }
        #expect(throws: HTTPListenError(host: "127.0.0.1", port: 70000, kind: .badPort)) {
            try HTTPServer(host: "127.0.0.1", port: 70000)
        }
        // IPv6 loopback, where the machine has it.
        if let six = try? HTTPServer(host: "::1", port: 0) {
            #expect(six.port > 0)
            six.stop()
        }
    }
}

extension HTTPListenError: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.host == b.host && a.port == b.port && a.kind == b.kind }
}

/// What `serve --host 0.0.0.0` names for other machines: this machine's IPv4 addresses on its
/// networks, never the loopback (no visitor's phone reaches 127.0.0.1).
@Suite struct LocalAddressesTests {
    @Test func theNetworksAddressesAreListedWithoutTheLoopback() throws {
        let addresses = LocalAddresses.ipv4()
        #expect(!addresses.contains { $0.hasPrefix("127.") }, "\(addresses)")
        #expect(Set(addresses).count == addresses.count)
        #expect(LocalAddresses.rank("192.168.1.23") < LocalAddresses.rank("172.17.0.1") && LocalAddresses.rank("10.0.0.2") < LocalAddresses.rank("172.20.0.1"))
        for address in addresses {
            let parts = address.split(separator: ".").compactMap { UInt8($0) }
            #expect(parts.count == 4, "\(address)")
        }
        // Among the addresses ip(8) shows, where it is installed to ask (it also shows bridges).
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return }
        let ip = Process()
        ip.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        ip.arguments = ["-4", "-o", "addr", "show", "up"]
        let pipe = Pipe()
        ip.standardOutput = pipe
        try ip.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ip.waitUntilExit()
        let shown = Set(text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "inet"), at + 1 < words.count else { return nil }
            let address = String(words[at + 1].prefix { $0 != "/" })
            return address.hasPrefix("127.") ? nil : address
        })
        #expect(Set(addresses).isSubset(of: shown), "\(text)")
    }
}
