import BestiaryTestSupport
import Foundation

/// A deliberately raw HTTP/1.1 client over a POSIX socket: it sends the request line exactly as
/// written (`GET /../etc/passwd`), which URL-normalising clients would not, and can read an
/// event stream line by line.
///
/// Its calls block, so tests call them through the `async` wrappers at the bottom, which run them
/// on a Dispatch thread: blocking the few threads of Swift's cooperative pool would starve the
/// server under test, which runs on the same pool.
final class RawHTTPConnection: @unchecked Sendable {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        guard let fd = connectToLoopback(port: port) else {
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ method: String, _ target: String, headers: [String: String] = [:]) throws {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send failed") }
    }

    /// Reads more bytes; false on end of stream or timeout.
    private func fill(deadline: Date) throws -> Bool {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw Failure(description: "timed out") }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, Int32(remaining * 1000))
        guard ready > 0 else { throw Failure(description: "timed out") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Reads one response (status, headers, and a body of Content-Length bytes, or none for HEAD/304).
    func readResponse(head: Bool = false, timeout: TimeInterval = 60) throws -> Response {
        let deadline = Date().addingTimeInterval(timeout)
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if let r = buffer.indices.dropLast(3).first(where: { Array(buffer[$0..<($0 + 4)]) == separator }) {
                end = r
                break
            }
            guard try fill(deadline: deadline) else { throw Failure(description: "connection closed in the headers") }
        }
        let headText = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        if !head && status != 304, let length = headers["content-length"].flatMap(Int.init) {
            while buffer.count < length {
                guard try fill(deadline: deadline) else { throw Failure(description: "connection closed in the body") }
            }
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads the headers of a streamed response, leaving the body to ``readEvent(timeout:)``.
    func readStreamHead(timeout: TimeInterval = 60) throws -> Response {
        try readResponse(head: true, timeout: timeout)
    }

    /// The next server-sent event (name and data), skipping comments and `retry:` lines. Handles
    /// chunked transfer encoding by ignoring the chunk-size lines.
    func readEvent(timeout: TimeInterval = 60) throws -> (name: String, data: String) {
        let deadline = Date().addingTimeInterval(timeout)
        var name = "message"
        var data: [String] = []
        while true {
            guard let newline = buffer.firstIndex(of: 10) else {
                guard try fill(deadline: deadline) else { throw Failure(description: "event stream closed") }
                continue
            }
            var line = String(decoding: buffer[0..<newline], as: UTF8.self)
            buffer.removeFirst(newline + 1)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            else if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            else if line.isEmpty && !data.isEmpty { return (name, data.joined(separator: "\n")) }
        }
    }

    /// The next event called `name`, skipping others (`building`, a second `reload`).
    func readEvent(named name: String, timeout: TimeInterval = 60) throws -> (name: String, data: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let event = try readEvent(timeout: max(0.001, deadline.timeIntervalSinceNow))
            if event.name == name { return event }
        }
    }

    /// True when the streamed response ended (its last chunk arrived, or the server closed the
    /// connection) within `timeout`.
    func waitForClose(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let lastChunk = Array("0\r\n\r\n".utf8)
        while true {
            if buffer.count >= lastChunk.count,
                buffer.indices.dropLast(lastChunk.count - 1).contains(where: { i in
                    Array(buffer[i..<(i + lastChunk.count)]) == lastChunk && (i == 0 || buffer[i - 1] == 10)
                })
            {
                return true
            }
            do {
                if try !fill(deadline: deadline) { return true }
            } catch {
                return false
            }
        }
    }

    /// One request on a fresh connection.
    static func fetch(port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> Response {
        let connection = try RawHTTPConnection(port: port)
        try connection.send(method, target, headers: headers.merging(["Connection": "close"]) { a, _ in a })
        return try connection.readResponse(head: method == "HEAD")
    }
}

extension RawHTTPConnection.Response: @unchecked Sendable {}

extension RawHTTPConnection {
    static func opened(port: Int) async throws -> RawHTTPConnection {
        try await offPool { try RawHTTPConnection(port: port) }
    }

    static func get(port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Response {
        try await offPool { try fetch(port: port, target, method: method, headers: headers) }
    }

    func head(timeout: TimeInterval = 60) async throws -> Response {
        try await offPool { try self.readStreamHead(timeout: timeout) }
    }

    func event(timeout: TimeInterval = 60) async throws -> (name: String, data: String) {
        let e = try await offPool { try self.readEvent(timeout: timeout) }
        return e
    }

    func event(named name: String, timeout: TimeInterval = 60) async throws -> (name: String, data: String) {
        try await offPool { try self.readEvent(named: name, timeout: timeout) }
    }

    func closed(timeout: TimeInterval) async -> Bool {
        (try? await offPool { self.waitForClose(timeout: timeout) }) ?? false
    }
}
