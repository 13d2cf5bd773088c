import Foundation

/// Writes a streamed body (``HTTPResponse/Body/stream(length:_:)``) to its connection: as is
/// when the length was given (never past it), in chunks otherwise. Its calls block.
public final class HTTPBodyWriter: @unchecked Sendable {
    let connection: HTTPConnectionSocket
    let length: Int?
    /// Without a length: chunks (HTTP/1.1), or the bytes as they are until the connection
    /// closes (HTTP/1.0).
    let chunked: Bool
    private let server: HTTPServer
    public private(set) var written = 0

    init(connection: HTTPConnectionSocket, length: Int?, chunked: Bool, server: HTTPServer) {
        self.connection = connection
        self.length = length
        self.chunked = chunked
        self.server = server
    }

    /// The body was cut short: the connection closes.
    public struct Cut: Error, CustomStringConvertible {
        public var description: String
    }

    public func write(_ bytes: some Collection<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        if let length {
            guard written + bytes.count <= length else {
                throw Cut(description: "a body of \(length) bytes was given \(written + bytes.count)")
            }
            try connection.send(Array(bytes))
        } else if !chunked {
            try connection.send(Array(bytes))
        } else {
            var framed = Array(String(bytes.count, radix: 16).utf8) + [13, 10]
            framed.append(contentsOf: bytes)
            framed += [13, 10]
            try connection.send(framed)
        }
        written += bytes.count
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// True once the server is stopping: a body that would go on for ever should end.
    public var isStopping: Bool { server.isStopping }

    /// True when the client has closed its side (a closed tab): nothing written would arrive.
    public var clientHasGone: Bool { connection.peerHasClosed }

    /// Writes each chunk of `stream` as it comes, until the stream ends, the client goes or the
    /// server stops. The stream is read on this connection's thread (``CallingThreadExecutor``).
    public func forward(_ stream: AsyncStream<String>) throws {
        let executor = CallingThreadExecutor()
        let pending = PendingChunks()
        let pump = Task(executorPreference: executor) {
            for await chunk in stream { pending.chunks.append(chunk) }
            pending.ended = true
        }
        defer {
            // The cancelled iteration ends on this thread too: run it, so the stream lets go of
            // its subscriber now.
            pump.cancel()
            executor.runJobs(until: { pending.ended }, waitingAtMost: 5)
        }
        while true {
            executor.runJobs(until: { !pending.chunks.isEmpty || pending.ended }, waitingAtMost: 0.25)
            let chunks = pending.chunks
            pending.chunks = []
            for chunk in chunks { try write(chunk) }
            if pending.ended || isStopping || clientHasGone { return }
        }
    }

    func finish() throws {
        if let length {
            guard written == length else { throw Cut(description: "a body of \(length) bytes ended after \(written)") }
        } else if chunked {
            try connection.send(Array("0\r\n\r\n".utf8))
        }
    }
}

/// What the stream's task has read and the connection's thread has yet to write. Both run on
/// that thread (``CallingThreadExecutor``), so no lock.
final class PendingChunks: @unchecked Sendable {
    var chunks: [String] = []
    var ended = false
}
