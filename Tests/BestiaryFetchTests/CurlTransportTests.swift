import BestiaryFetch
import BestiarySync
import BestiaryTestSupport
import Foundation
import Testing

/// The libcurl transports against real servers on 127.0.0.1: what each way a server can fail
/// becomes, and that a transfer given up on ends on the wire too.
@Suite(.timeLimit(.minutes(1))) struct CurlTransportTests {
    /// One GET through a fresh transport; the error as the fetcher would say it, or the result.
    func get(
        _ url: String, headers: [(String, String)] = [], maxBytes: Int = 1 << 20, timeout: Duration = .seconds(20),
        readTimeout: Duration = .seconds(30), environment: [String: String] = [:]
    ) async -> Result<HTTPResult, any Error> {
        let transport = CurlTransport(userAgent: "bestiary-tests", readTimeout: readTimeout, environment: environment)
        defer { Task { await transport.shutdown() } }
        do {
            return .success(try await transport.get(url, headers: headers, maxBytes: maxBytes, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    /// 100,000 bytes announced, 1,000 sent, then silence.
    static var stalling: LoopbackServer.Reply {
        var reply = LoopbackServer.Reply.bytes([UInt8](repeating: 7, count: 100_000))
        reply.stallAfter = 1000
        return reply
    }

    func failure(_ result: Result<HTTPResult, any Error>) -> String? {
        if case .failure(let error) = result { return "\(error)" }
        return nil
    }

    @Test func anAnswerComesWithItsStatusHeadersAndBody() async throws {
        let server = try await LoopbackServer.start { _ in
            LoopbackServer.Reply(status: 201, headers: [("X-Thing", "a b")], body: Array("hello".utf8))
        }
        let result = try await get(server.baseURL + "/x", headers: [("Accept", "text/plain")]).get()
        #expect(result.status == 201)
        #expect(result.header("x-thing") == "a b")
        #expect(result.body == Data("hello".utf8))
        let request = try #require(server.requests.first)
        #expect(request.header("user-agent") == "bestiary-tests")
        #expect(request.header("accept") == "text/plain")
        // No Accept-Encoding asked for: none sent (pictures come as they are).
        #expect(request.header("accept-encoding") == nil)
        await server.stop()
    }

    /// A server that stops sending in the middle of a body, the connection open: the read
    /// timeout ends the wait (the whole request's limit is far longer), and the message says
    /// the answer began.
    @Test func aBodyThatStallsTimesOut() async throws {
        let server = try await LoopbackServer.start { _ in Self.stalling }
        let start = ContinuousClock.now
        // 3 s: under parallel test load a loopback server's head has come more than 1 s late.
        let result = await get(server.baseURL + "/stall", readTimeout: .seconds(3))
        #expect(failure(result) == "the answer stopped after 1000 bytes of its body (nothing more came in time)")
        #expect(ContinuousClock.now - start < .seconds(10))
        await server.stop()
    }

    /// A body without a length that goes past the limit: refused, and the transfer ended (the
    /// server's writing stops), not read to its end.
    @Test func aBodyPastTheLimitEndsTheTransfer() async throws {
        let server = try await LoopbackServer.start { _ in .endlessBody() }
        let result = await get(server.baseURL + "/big", maxBytes: 100_000)
        #expect(failure(result) == "the answer is larger than 97 KiB")
        let deadline = ContinuousClock.now + .seconds(10)
        while server.endless.endedByClient == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.endless.endedByClient == 1)
        await server.stop()
    }

    /// A length past the limit is refused before the body is read.
    @Test func aLengthPastTheLimitIsRefused() async throws {
        let server = try await LoopbackServer.start { _ in .bytes([UInt8](repeating: 1, count: 5000)) }
        #expect(failure(await get(server.baseURL + "/big", maxBytes: 4096)) == "the answer is larger than 4 KiB")
        await server.stop()
    }

    @Test func aBodyCutShortSaysHowMuchCame() async throws {
        let server = try await LoopbackServer.start { _ in
            LoopbackServer.Reply(status: 200, body: [UInt8](repeating: 1, count: 1000), truncateAfter: 40)
        }
        #expect(failure(await get(server.baseURL + "/cut")) == "connection failed (the body ended after 40 of 1000 bytes)")
        await server.stop()
    }

    /// A body that claims gzip but is not: said in words, not as a decoder's error code.
    @Test func aBodyThatIsNotTheGzipItClaimsIsSaidSo() async throws {
        let server = try await LoopbackServer.start { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Encoding", "gzip")], body: Array("plain text, not gzip".utf8))
        }
        let message = failure(await get(server.baseURL + "/fake", headers: [("Accept-Encoding", "gzip")]))
        #expect(message == "the answer cannot be read: the body is not in the encoding its Content-Encoding names")
        // Asking again gets the same: the client does not retry it.
        let transport = CurlTransport(userAgent: "bestiary-tests", environment: [:])
        let client = PoliteClient(
            transport: transport, limiter: RateLimiter(requestsPerSecond: nil), retry: RetryPolicy(baseDelay: .milliseconds(1)),
            timeout: .seconds(20))
        await #expect(throws: (any Error).self) {
            _ = try await client.get(server.baseURL + "/again", headers: [("Accept-Encoding", "gzip")], maxBytes: 1 << 20)
        }
        #expect(server.requests.filter { $0.path == "/again" }.count == 1)
        await transport.shutdown()
        #expect(server.requests.first?.header("accept-encoding") == "gzip")
        await server.stop()
    }

    /// `http_proxy` from the environment: the request goes to the proxy (a name that cannot be
    /// looked up is the proxy's business).
    @Test func aProxyFromTheEnvironmentIsUsed() async throws {
        let proxy = try await LoopbackServer.start { request in .text("via proxy \(request.path)") }
        let result = try await get("http://wikipedia.invalid/page", environment: ["http_proxy": proxy.baseURL]).get()
        #expect(String(decoding: result.body, as: UTF8.self) == "via proxy /page")
        // The machine itself is never reached through one.
        let direct = try await LoopbackServer.start { _ in .text("direct") }
        let local = try await get(direct.baseURL + "/x", environment: ["http_proxy": proxy.baseURL]).get()
        #expect(String(decoding: local.body, as: UTF8.self) == "direct")
        await proxy.stop()
        await direct.stop()
    }

    /// A server that takes no connection (its queue full, so the handshake gets no answer):
    /// said as a connection that could not be made, so the host is given up for the run, not
    /// as "no answer in time", which is retried.
    @Test func aConnectionNotTakenInTimeIsUnreachable() async throws {
        let (listener, address) = try UnreachableHostTests.boundSocket(listening: 0)
        defer { close(listener) }
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // Fill the queue: later handshakes are dropped, never answered.
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fillers.append(fd)
            _ = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let transport = CurlTransport(userAgent: "bestiary-tests", connectTimeout: .milliseconds(500), environment: [:])
        do {
            _ = try await transport.get("http://127.0.0.1:\(port)/x", headers: [], maxBytes: 1000, timeout: .seconds(20))
            Issue.record("a connection was made")
        } catch {
            #expect("\(error)" == "no connection (connecting to 127.0.0.1:\(port) took too long)")
        }
        await transport.shutdown()
    }

    /// A proxy that is down is named, not the server behind it.
    @Test func aProxyThatRefusesIsNamed() async throws {
        let port = try UnreachableHostTests.closedPort()
        let result = await get("http://wikipedia.invalid/page", environment: ["http_proxy": "http://127.0.0.1:\(port)"])
        #expect(failure(result) == "no connection (the proxy 127.0.0.1:\(port) refused the connection)")
    }

    /// https to a server that speaks plain HTTP: a failed handshake, which is also what a reset
    /// in the middle of one gives, so it is worth another try (an untrusted certificate is not).
    @Test func aFailedHandshakeIsSaidAndRetried() async throws {
        let server = try await LoopbackServer.start { _ in .text("plain") }
        let message = failure(await get("https://127.0.0.1:\(server.port)/x"))
        #expect(message?.hasPrefix("connection failed (the secure connection to 127.0.0.1 failed: ") == true, "\(message ?? "")")
        await server.stop()
    }

    /// A response dropped without its body being read ends the transfer (its thread would
    /// otherwise wait for a reader for ever, holding the connection).
    @Test func aPackResponseDroppedUnreadEndsTheTransfer() async throws {
        let server = try await LoopbackServer.start { _ in .endlessBody() }
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!)
        do {
            let response = try await transport.open("latest.json", from: 0)
            #expect(response.status == .full)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while server.endless.endedByClient == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.endless.endedByClient == 1)
        await transport.close()
        await server.stop()
    }

    /// One transport, its handles kept and reused: a proxied request, then a direct one, then
    /// one to a server that went away, each as if on a new handle.
    @Test func keptHandlesCarryNothingOver() async throws {
        let proxy = try await LoopbackServer.start { request in .text("via proxy \(request.path)") }
        let direct = try await LoopbackServer.start { _ in .text("direct") }
        let transport = CurlTransport(userAgent: "bestiary-tests", environment: ["http_proxy": proxy.baseURL])
        let viaProxy = try await transport.get("http://wikipedia.invalid/a", headers: [("X-One", "1")], maxBytes: 1000, timeout: .seconds(20))
        #expect(String(decoding: viaProxy.body, as: UTF8.self) == "via proxy /a")
        let plain = try await transport.get(direct.baseURL + "/b", headers: [], maxBytes: 1000, timeout: .seconds(20))
        #expect(String(decoding: plain.body, as: UTF8.self) == "direct")
        #expect(direct.requests.first?.header("x-one") == nil, "the first request's header stayed behind")
        await direct.stop()
        await #expect(throws: TransportError.self) {
            _ = try await transport.get(direct.baseURL + "/c", headers: [], maxBytes: 1000, timeout: .seconds(20))
        }
        await transport.shutdown()
        await proxy.stop()
    }

    /// The pack transport's silent server is named with its URL and the time waited. It stalls
    /// after more than 1 KiB: after less, a server is as much slow as silent, and which rule
    /// ends the transfer first is a matter of timing (CI once got "less than 1024 bytes"). Under
    /// load its head may come late: the slow rule's window starts at the head's end (CI got
    /// "less than 1024 bytes" again when the window started with the request).
    @Test func aPackBodyThatStallsSaysHowLongNothingCame() async throws {
        let server = try await LoopbackServer.start { _ in
            var reply = Self.stalling
            reply.stallAfter = 4096
            return reply
        }
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!, readTimeout: .seconds(1))
        // Under load the head itself may come late: the same silence, the same words.
        await #expect {
            let response = try await transport.open("media/a.ogg", from: 0)
            for try await _ in response.body {}
        } throws: { error in
            "\(error)" == "\(server.baseURL)/packs/media/a.ogg: the server sent nothing for 1 s"
        }
        await transport.close()
        await server.stop()
    }

    /// A pack source that sends a byte now and then is never silent; less than 1 KiB in a read
    /// timeout ends the transfer (sync has no deadline: it went on for hours).
    @Test func aPackSourceThatTricklesIsGivenUpOn() async throws {
        let server = try await LoopbackServer.start { _ in
            var reply = LoopbackServer.Reply.bytes([])
            reply.trickleEvery = .milliseconds(100)
            return reply
        }
        // 4 s, not 1: under `swift test --parallel` load the head alone came more than 1 s late
        // ("sent nothing"), and a trickle at 10 bytes a second stays far below 1 KiB in 4 s.
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!, readTimeout: .seconds(4))
        let start = ContinuousClock.now
        await #expect {
            let response = try await transport.open("media/a.ogg", from: 0)
            for try await _ in response.body {}
        } throws: { error in
            "\(error)" == "\(server.baseURL)/packs/media/a.ogg: the server sent less than 1024 bytes in 4 s"
        }
        // A bound against "hours", not a timing: alone it gives up in about 5 s, but in a fresh
        // clone's `swift test --parallel`, with nothing else on the machine, it once took 32.5 s.
        #expect(ContinuousClock.now - start < .seconds(120))
        await transport.close()
        await server.stop()
    }

    /// The slow rule counts body bytes from the head's end: an answer that took a while to begin,
    /// then trickles, gets a whole read timeout for its first KiB, not what was left of one
    /// counted from the request (it was ended at 5 s, the head come at 1 s). The head may come
    /// up to 4 s late under load before the test would see silence instead.
    @Test func theSlowRuleCountsFromTheHead() async throws {
        let server = try await LoopbackServer.start { _ in
            var reply = LoopbackServer.Reply.bytes([])
            reply.delay = .seconds(1)
            reply.trickleEvery = .milliseconds(100)
            return reply
        }
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!, readTimeout: .seconds(5))
        let start = ContinuousClock.now
        await #expect {
            let response = try await transport.open("media/a.ogg", from: 0)
            for try await _ in response.body {}
        } throws: { error in
            "\(error)" == "\(server.baseURL)/packs/media/a.ogg: the server sent less than 1024 bytes in 5 s"
        }
        // Load only makes it later: the head at 1 s or after, then 5 s of trickle.
        #expect(ContinuousClock.now - start >= .milliseconds(5900))
        await transport.close()
        await server.stop()
    }

    /// A reader slower than the server is not the server's silence or slowness: the transfer
    /// waits for it, however long.
    @Test func aSlowReaderIsNotASlowServer() async throws {
        let bytes = (0..<300_000).map { UInt8($0 % 251) }
        let server = try await LoopbackServer.start { _ in .bytes(bytes) }
        // A read timeout of 4 s (1 s was missed by the server's head alone under parallel test
        // load), and a reader that sleeps longer than that after its first piece.
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!, readTimeout: .seconds(4))
        let response = try await transport.open("media/a.ogg", from: 0)
        var read: [UInt8] = []
        for try await piece in response.body {
            if read.isEmpty { try await Task.sleep(for: .seconds(6)) }
            read += piece
        }
        #expect(read == bytes)
        await transport.close()
        await server.stop()
    }

    /// Nothing listening: the pack transport says so with the URL.
    @Test func aPackSourceThatRefusesIsNamed() async throws {
        let port = try UnreachableHostTests.closedPort()
        let transport = CurlPackTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/packs")!)
        await #expect { _ = try await transport.open("latest.json", from: 0) } throws: { error in
            "\(error)" == "http://127.0.0.1:\(port)/packs/latest.json: no connection (127.0.0.1:\(port) refused the connection)"
        }
        await transport.close()
    }
}
