@testable import BestiaryFetch
import BestiarySync
import BestiaryTestSupport
import Foundation
import Testing

/// The HTTP transport the command line syncs with, against real servers on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct CurlPackTransportTests {
    /// Runs `body` with a transport to `server`, closing both on every path (a client left
    /// running stops a debug build's test process, not just the test).
    func with(
        _ server: LoopbackServer, at path: String, _ body: (CurlPackTransport) async throws -> Void
    ) async throws {
        let transport = CurlPackTransport(baseURL: URL(string: server.baseURL + path)!)
        do {
            try await body(transport)
        } catch {
            await transport.close()
            await server.stop()
            throw error
        }
        await transport.close()
        await server.stop()
    }

    /// A server that sends without end: the reader stops at its limit, and the transfer ends with
    /// it (the connection is closed) instead of filling the memory with what still arrives.
    @Test func aReaderThatStopsEndsAnEndlessTransfer() async throws {
        let server = try await LoopbackServer.start { _ in .endlessBody() }
        try await with(server, at: "/packs") { transport in
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
        }
    }

    /// A whole file is asked for with `Accept-Encoding: gzip` and comes decoded, its length
    /// unknown (the header's counts the compressed bytes); a part is asked for without, so that
    /// its offset counts the file's own bytes (an app maker's server that compressed JSON made
    /// the sync fail with `sizeMismatch`).
    @Test func aCompressedFileComesDecoded() async throws {
        let plain = try Fixtures.data("wikipedia/en__Third_Council_of_the_Lateran.json")
        let gz = try Fixtures.data("wikipedia/generated__en__Third_Council_of_the_Lateran.json.gz")
        let server = try await LoopbackServer.start { request in
            if request.header("range") != nil {
                return (request.header("accept-encoding") ?? "identity") == "identity"
                    ? LoopbackServer.Reply(status: 206, headers: [("Content-Range", "bytes 5-\(plain.count - 1)/\(plain.count)")], body: [UInt8](plain.dropFirst(5)))
                    : .status(400)
            }
            return request.header("accept-encoding")?.contains("gzip") == true
                ? LoopbackServer.Reply(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: [UInt8](gz))
                : .status(400)
        }
        try await with(server, at: "/packs") { transport in
            let whole = try await transport.open("v/1.json", from: 0)
            #expect(whole.status == .full && whole.length == nil)
            var body = Data()
            for try await chunk in whole.body { body.append(chunk) }
            #expect(body == plain)
            let part = try await transport.open("media/a.json", from: 5)
            #expect(part.status == .partial(start: 5))
            var rest = Data()
            for try await chunk in part.body { rest.append(chunk) }
            #expect(rest == plain.dropFirst(5))
        }
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
        try await with(server, at: "/packs/") { transport in
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
        }
    }

    /// The proxy comes from the environment, as curl and URLSession read it.
    @Test func theProxyComesFromTheEnvironment() {
        let https = URL(string: "https://example.org/packs/")!
        let http = URL(string: "http://packs.example.org/")!
        let proxy = CurlPackTransport.proxy
        #expect(proxy(https, [:]) == nil)
        let env = ["https_proxy": "http://me:p%40ss@proxy.lan:3128", "http_proxy": "proxy.lan"]
        let secure = proxy(https, env)
        #expect(secure?.host == "proxy.lan" && secure?.port == 3128 && secure?.user == "me" && secure?.password == "p@ss")
        let plain = proxy(http, env)
        #expect(plain?.host == "proxy.lan" && plain?.port == 80 && plain?.user == nil)
        #expect(proxy(http, env.merging(["no_proxy": "localhost, .example.org"]) { $1 }) == nil)
        #expect(proxy(https, env.merging(["NO_PROXY": "example.org"]) { $1 }) == nil)
        #expect(proxy(https, env.merging(["no_proxy": "*"]) { $1 }) == nil)
        #expect(proxy(https, env.merging(["no_proxy": "other.org,ample.org"]) { $1 })?.host == "proxy.lan")
        #expect(proxy(URL(string: "http://127.0.0.1:8000/packs")!, env) == nil)
        #expect(proxy(URL(string: "http://localhost/packs")!, env) == nil)
        // A name that starts like a loopback address is a name.
        #expect(proxy(URL(string: "http://127.packs.test/")!, env)?.host == "proxy.lan")
        // Addresses and ranges of them, for a server written as an address (a museum's own
        // network behind a proxy to the outside).
        let lan = URL(string: "http://10.20.30.40/packs/")!
        let six = URL(string: "http://[fd12::7]:8080/packs/")!
        for (list, direct) in [
            ("10.0.0.0/8", true), ("10.20.30.40", true), ("10.20.30.0/24", true), ("10.20.31.0/24", false),
            ("10.0.0.0/33", false), ("0.0.0.0/0", true), ("fd00::/8", false), ("example.org, 10.20.0.0/16", true),
        ] {
            #expect((proxy(lan, env.merging(["no_proxy": list]) { $1 }) == nil) == direct, "\(list)")
        }
        for (list, direct) in [("fd00::/8", true), ("[fd12::7]", true), ("[fd12::]/16", true), ("fe80::/10", false), ("10.0.0.0/8", false)] {
            #expect((proxy(six, env.merging(["no_proxy": list]) { $1 }) == nil) == direct, "\(list)")
        }
        // A range never matches a name, and a domain never an address.
        #expect(proxy(http, env.merging(["no_proxy": "0.0.0.0/0"]) { $1 })?.host == "proxy.lan")
        #expect(proxy(lan, env.merging(["no_proxy": "30.40, .30.40"]) { $1 })?.host == "proxy.lan")
        // A link-local address's zone is not part of it.
        #expect(addressRange("fe80::/10", contains: "fe80::1%eth0") == true)
        #expect(addressRange("[fe80::1]", contains: "[fe80::1%25eth0]") == true)
        // HTTP_PROXY in capitals is not read, as curl does not (a CGI program gets it from a
        // request's `Proxy:` header); HTTPS_PROXY and NO_PROXY are.
        #expect(proxy(http, ["HTTP_PROXY": "proxy.lan"]) == nil)
        #expect(proxy(https, ["HTTPS_PROXY": "proxy.lan"])?.host == "proxy.lan")
        // all_proxy when the scheme's own is not set; an https proxy on 443 by default.
        #expect(proxy(http, ["all_proxy": "https://secure.lan"])?.port == 443)
        #expect(proxy(https, ["ALL_PROXY": "socks.lan:1080", "https_proxy": "proxy.lan"])?.host == "proxy.lan")
    }
}
