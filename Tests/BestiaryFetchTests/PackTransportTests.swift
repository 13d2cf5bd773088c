import BestiaryFetch
import BestiarySync
import BestiaryTestSupport
import Foundation
import Testing

/// The HTTP transport the command line syncs with, against real servers on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct AsyncHTTPPackTransportTests {
    /// A server that sends without end: the reader stops at its limit, and the transfer ends with
    /// it (the connection is closed) instead of filling the memory with what still arrives.
    @Test func aReaderThatStopsEndsAnEndlessTransfer() async throws {
        let server = try await LoopbackServer.start { _ in .endlessBody() }
        let transport = AsyncHTTPPackTransport(baseURL: URL(string: server.baseURL + "/packs")!)
        var read = 0
        do {
            let response = try await transport.open("latest.json", from: 0)
            #expect(response.status == .full)
            #expect(response.length == nil)
            for try await chunk in response.body {
                read += chunk.count
                if read > 65_536 { break }
            }
        }
        // The client closed the connection: the server's writing ended soon, not after gigabytes
        // (what it counts includes what its own buffers held and never reached the client).
        let deadline = ContinuousClock.now + .seconds(10)
        while server.endless.endedByClient == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.endless.endedByClient == 1)
        #expect(server.endless.bytes < 256 << 20, "\(server.endless.bytes) bytes sent")
        #expect(read > 65_536)
        await transport.close()
        await server.stop()
    }

    /// Each answer as the sync client expects it: a body, a part (Range), none.
    @Test func answersAreWhatTheServerSaid() async throws {
        let server = try await LoopbackServer.start { request in
            switch request.path {
            case "/packs/latest.json": return .json("{}")
            case "/packs/media/a.ogg":
                guard request.header("range") == "bytes=2-" else { return .status(400) }
                return LoopbackServer.Reply(status: 206, headers: [("Content-Range", "bytes 2-3/4")], body: [3, 4])
            case "/packs/old": return .status(301, headers: [("Location", "/packs/latest.json")])
            case "/packs/loop": return .status(302, headers: [("Location", "/packs/loop")])
            case "/packs/broken": return .status(500)
            default: return .status(404)
            }
        }
        let transport = AsyncHTTPPackTransport(baseURL: URL(string: server.baseURL + "/packs/")!)
        func body(_ response: PackResponse) async throws -> [UInt8] {
            var bytes: [UInt8] = []
            for try await chunk in response.body { bytes += chunk }
            return bytes
        }
        let latest = try await transport.open("latest.json", from: 0)
        #expect(latest.status == .full)
        #expect(try await body(latest) == Array("{}".utf8))
        #expect(server.requests.first?.header("cache-control") == "no-cache")
        let part = try await transport.open("media/a.ogg", from: 2)
        #expect(part.status == .partial(start: 2))
        #expect(try await body(part) == [3, 4])
        #expect(try await body(transport.open("old", from: 0)) == Array("{}".utf8))
        #expect(try await transport.open("v/9.json", from: 0).status == .notFound)
        await #expect { _ = try await transport.open("loop", from: 0) } throws: { error in
            "\(error)" == "\(server.baseURL)/packs/loop: the redirects go round in a loop"
        }
        await #expect { _ = try await transport.open("broken", from: 0) } throws: { error in
            "\(error)" == "\(server.baseURL)/packs/broken: HTTP 500"
        }
        #expect(transport.location == server.baseURL + "/packs")
        await transport.close()
        await server.stop()
    }
}
