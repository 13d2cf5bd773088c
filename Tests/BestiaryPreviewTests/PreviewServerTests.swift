import BestiaryDiagnostics
import BestiaryTestSupport
import Foundation
import Testing

@testable import BestiaryPreview

/// A running ``PreviewServer`` on a free loopback port.
struct RunningServer {
    let port: Int
    let task: Task<Void, any Error>

    static func start(directory: String, live: LiveReload?, port: Int = 0) async throws -> RunningServer {
        let (ready, continuation) = AsyncStream<Int>.makeStream()
        let server = PreviewServer(outputDirectory: directory, host: "127.0.0.1", port: port, live: live)
        let task = Task<Void, any Error> {
            defer { continuation.finish() }
            try await server.run { _, port in continuation.yield(port) }
        }
        for await port in ready { return RunningServer(port: port, task: task) }
        try await task.value
        throw RawHTTPConnection.Failure(description: "the server did not start")
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    func get(_ target: String, headers: [String: String] = [:], method: String = "GET") async throws -> RawHTTPConnection.Response {
        try await RawHTTPConnection.get(port: port, target, method: method, headers: headers)
    }
}

@Suite struct PreviewServerTests {
    /// A hand-made output folder: pages, a 404 page, media (one over the streaming limit), and a
    /// secret beside it that must never be served.
    func makeOutput() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("bestiary-serve")
        try dir.write("<!doctype html><html><body><h1>Home</h1></body></html>", to: "output/index.html")
        try dir.write("<!doctype html><html><body><h1>Fox</h1></body></html>", to: "output/animals/fox/index.html")
        try dir.write("<!doctype html><html><body><h1>Nicht gefunden</h1></body></html>", to: "output/404.html")
        try dir.write("{\"name\":\"x\"}", to: "output/manifest.webmanifest")
        try dir.write(Data((0..<1000).map { UInt8($0 % 251) }), to: "output/media/abc.ogg")
        try dir.write(Data((0..<(3 << 20)).map { UInt8($0 % 253) }), to: "output/media/big.opus")
        try dir.write("top secret", to: "secret.txt")
        try FileManager.default.createSymbolicLink(atPath: dir.appending("output/leak.txt"), withDestinationPath: "../secret.txt")
        return dir
    }

    @Test func servesPagesWithTheLiveSnippetAndETags() async throws {
        let dir = try makeOutput()
        let live = LiveReload(session: "s1")
        let server = try await RunningServer.start(directory: dir.appending("output"), live: live)
        defer { Task { await server.stop() } }

        let home = try await server.get("/")
        #expect(home.status == 200)
        #expect(home.header("content-type") == "text/html; charset=utf-8")
        #expect(home.header("cache-control") == "no-cache")
        #expect(home.text.contains("<h1>Home</h1>"))
        #expect(home.text.contains("<script src=\"/__bestiary/live.js?v=\(LiveAssets.version)\" data-session=\"s1\" data-generation=\"0\" data-file=\"index.html\">"))
        #expect(Int(home.header("content-length") ?? "") == home.body.count)
        let etag = try #require(home.header("etag"))
        #expect(try await server.get("/", headers: ["If-None-Match": etag]).status == 304)

        // After a rebuild the page is another: a new ETag, so the browser takes the new copy.
        live.succeeded(changed: ["index.html"])
        let again = try await server.get("/", headers: ["If-None-Match": etag])
        #expect(again.status == 200)
        #expect(again.text.contains("data-generation=\"1\""))

        let fox = try await server.get("/animals/fox")
        #expect(fox.status == 301)
        #expect(fox.header("location") == "/animals/fox/")
        #expect(try await server.get("/animals/fox/?x=1").text.contains("<h1>Fox</h1>"))
        #expect(try await server.get("/manifest.webmanifest").header("content-type") == "application/manifest+json; charset=utf-8")
    }

    @Test func answersRangeRequests() async throws {
        let dir = try makeOutput()
        let server = try await RunningServer.start(directory: dir.appending("output"), live: LiveReload())
        defer { Task { await server.stop() } }
        let all = try await server.get("/media/abc.ogg")
        #expect(all.status == 200)
        #expect(all.header("content-type") == "audio/ogg")
        #expect(all.header("accept-ranges") == "bytes")
        #expect(all.header("cache-control") == "no-cache")
        #expect(all.body.count == 1000)

        let part = try await server.get("/media/abc.ogg", headers: ["Range": "bytes=10-19"])
        #expect(part.status == 206)
        #expect(part.header("content-range") == "bytes 10-19/1000")
        #expect(part.body == (10..<20).map { UInt8($0 % 251) })

        let tail = try await server.get("/media/abc.ogg", headers: ["Range": "bytes=-4"])
        #expect(tail.status == 206)
        #expect(tail.header("content-range") == "bytes 996-999/1000")

        let beyond = try await server.get("/media/abc.ogg", headers: ["Range": "bytes=1000-"])
        #expect(beyond.status == 416)
        #expect(beyond.header("content-range") == "bytes */1000")
        // A refusal of this request is never kept, not for a year as the file itself is.
        #expect(beyond.header("cache-control") == "no-store")

        // If-Range with another validator: the whole file.
        #expect(try await server.get("/media/abc.ogg", headers: ["Range": "bytes=0-1", "If-Range": "\"old\""]).status == 200)

        // A file over the in-memory limit is streamed; seek into the middle of it.
        let big = try await server.get("/media/big.opus", headers: ["Range": "bytes=2000000-2000099"])
        #expect(big.status == 206)
        #expect(big.header("content-type") == "audio/ogg; codecs=opus")
        #expect(big.body == (2_000_000..<2_000_100).map { UInt8($0 % 253) })
        let whole = try await server.get("/media/big.opus")
        #expect(whole.body.count == 3 << 20)
        let etag = try #require(whole.header("etag"))
        #expect(try await server.get("/media/big.opus", headers: ["If-None-Match": etag]).status == 304)

        let head = try await server.get("/media/abc.ogg", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.header("content-length") == "1000")
        #expect(head.body.isEmpty)
    }

    @Test func unknownPathsGetTheSites404Page() async throws {
        let dir = try makeOutput()
        let server = try await RunningServer.start(directory: dir.appending("output"), live: LiveReload())
        defer { Task { await server.stop() } }
        let missing = try await server.get("/no/such/page/")
        #expect(missing.status == 404)
        #expect(missing.text.contains("Nicht gefunden"))
        #expect(missing.text.contains("/__bestiary/live.js"))
        #expect(missing.text.contains("data-file=\"\""))  // reloads after any rebuild
        #expect(try await server.get("/.bestiary-output").status == 404)
        #expect(try await server.get("/__bestiary/nothing").status == 404)
    }

    @Test(arguments: [
        ("/../secret.txt", 400), ("/%2e%2e/secret.txt", 400), ("/media/..%2F..%2Fsecret.txt", 400),
        ("/%2E%2E/%2E%2E/etc/passwd", 400), ("/leak.txt", 403),
    ])
    func refusesPathsOutOfTheOutput(target: String, status: Int) async throws {
        let dir = try makeOutput()
        let server = try await RunningServer.start(directory: dir.appending("output"), live: nil)
        defer { Task { await server.stop() } }
        let response = try await server.get(target)
        #expect(response.status == status)
        #expect(!response.text.contains("top secret"))
    }

    @Test func refusesOtherMethodsAndServiceWorkers() async throws {
        let dir = try makeOutput()
        let server = try await RunningServer.start(directory: dir.appending("output"), live: LiveReload())
        defer { Task { await server.stop() } }
        let post = try await server.get("/", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
        let worker = try await server.get("/sw.js", headers: ["Service-Worker": "script"])
        #expect(worker.status == 200)
        #expect(worker.text.contains("self.registration.unregister()"))
        #expect(!worker.text.contains("fetch"))
        #expect(worker.header("cache-control") == "no-store")
        let script = try await server.get("/__bestiary/live.js")
        #expect(script.status == 200)
        #expect(script.header("content-type") == "text/javascript; charset=utf-8")
        #expect(script.text.contains("new EventSource('/__bestiary/events')"))
        #expect(try await server.get("/__bestiary/live.js?v=\(LiveAssets.version)").header("cache-control") == "public, max-age=31536000, immutable")
        #expect(try await server.get("/__bestiary/live.css").header("content-type") == "text/css; charset=utf-8")
    }

    @Test func withoutLiveReloadTheSiteIsServedAsDeployed() async throws {
        let dir = try makeOutput()
        try "self.addEventListener('fetch', () => {});\n".writeReplacing(toFile: dir.appending("output/sw.js"))
        let server = try await RunningServer.start(directory: dir.appending("output"), live: nil)
        defer { Task { await server.stop() } }
        let worker = try await server.get("/sw.js", headers: ["Service-Worker": "script"])
        #expect(worker.text == "self.addEventListener('fetch', () => {});\n")
        #expect(!(try await server.get("/")).text.contains("__bestiary"))
        #expect(try await server.get("/__bestiary/live.js").status == 404)
    }

    @Test func streamsBuildEvents() async throws {
        let dir = try makeOutput()
        let live = LiveReload(session: "s2")
        let server = try await RunningServer.start(directory: dir.appending("output"), live: live)
        defer { Task { await server.stop() } }
        let connection = try await RawHTTPConnection.opened(port: server.port)
        try connection.send("GET", "/__bestiary/events")
        let head = try await connection.head()
        #expect(head.status == 200)
        #expect(head.header("content-type") == "text/event-stream; charset=utf-8")
        let hello = try await connection.event()
        #expect(hello.name == "hello")
        #expect(hello.data.contains("\"phase\":\"building\""))

        live.failed([
            .warning("'Fox' is not in the Wikipedia cache", at: SourceLocation(path: "content/animals/bat.md", line: 3, column: 1), stage: "enrich"),
            .error("difficulty must be from 1 to 3, not 9", at: SourceLocation(path: "content/animals/fox.md", line: 5, column: 13), stage: "load"),
        ])
        // The error that stopped the build comes first, before the warnings.
        #expect(live.status.diagnostics.map(\.severity) == [.error, .warning])
        let failed = try await connection.event()
        #expect(failed.name == "failed")
        #expect(failed.data.contains("\"file\":\"content/animals/fox.md\",\"line\":5,\"column\":13"))
        // A page loaded now shows the overlay right away.
        let page = try await server.get("/animals/fox/")
        #expect(page.text.contains("__bestiary-overlay"))
        #expect(page.text.contains("content/animals/fox.md:5:13"))
        let status = try await server.get("/__bestiary/status")
        #expect(status.text.contains("\"phase\":\"failed\""))

        live.building()
        #expect(try await connection.event().name == "building")
        live.succeeded(changed: ["animals/fox/index.html"])
        let reload = try await connection.event()
        #expect(reload.name == "reload")
        #expect(reload.data.contains("\"changed\":[\"animals/fox/index.html\"]"))
        #expect(try await !(server.get("/animals/fox/").text.contains("__bestiary-overlay")))

        // Shutting down ends the stream, so no open tab keeps the server alive.
        #expect(live.listeners == 1)
        live.close()
        #expect(await connection.closed(timeout: 5))
    }

    @Test func aTakenPortIsAClearError() async throws {
        let dir = try makeOutput()
        let first = try await RunningServer.start(directory: dir.appending("output"), live: nil)
        defer { Task { await first.stop() } }
        let second = PreviewServer(outputDirectory: dir.appending("output"), host: "127.0.0.1", port: first.port)
        do {
            try await second.run()
            Issue.record("a second server on port \(first.port) started")
        } catch {
            #expect(error.code == EADDRINUSE)
            #expect(error.description.contains("127.0.0.1:\(first.port): the port is already in use"))
            #expect(error.description.contains("--port"))
        }
    }

    /// A --host that is no address (`999.1.1.1`) was reported in NIO's words
    /// ("SocketAddressError.UnknownHost: …"; found by a new user).
    @Test func aHostThatIsNoAddressIsAClearError() async throws {
        let dir = try makeOutput()
        let server = PreviewServer(outputDirectory: dir.appending("output"), host: "999.1.1.1", port: 0)
        do {
            try await server.run()
            Issue.record("a server on 999.1.1.1 started")
        } catch {
            #expect(error.description.hasPrefix(
                "cannot listen on 999.1.1.1:0: 999.1.1.1 is neither an address of this machine nor a name it can look up; use --host 127.0.0.1"),
                "\(error.description)")
        }
    }
}
