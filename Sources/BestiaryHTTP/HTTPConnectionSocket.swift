import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection's socket, read and written with blocking calls. Its thread owns the
/// descriptor; the server only shuts it down (from another thread) to wake those calls.
final class HTTPConnectionSocket: @unchecked Sendable {
    let fd: Int32

    struct WriteFailed: Error {
        var errno: Int32
    }

    #if canImport(Glibc)
    /// Linux's POLLRDHUP (the peer shut its writing side), which Glibc's module does not export.
    static let peerClosedItsSide: Int16 = 0x2000
    #endif

    init(_ fd: Int32) {
        self.fd = fd
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Small answers go out at once, not held back for the client's acknowledgement (Nagle's
    /// algorithm would hold a body sent after its head for up to 40 ms on loopback).
    func setNoDelay() {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends every byte or throws (the client has gone, or the server shut the socket).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(fd, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw WriteFailed(errno: errno)
            }
            offset += sent
        }
    }

    /// Waits up to `seconds` for bytes and appends them; false when the connection closed, failed
    /// or stayed silent, or `stop` said so (it is asked every quarter of a second).
    func receive(into buffer: inout [UInt8], waitingAtMost seconds: Double, stop: () -> Bool) -> Bool {
        let start = ContinuousClock.now
        while true {
            if stop() { return false }
            let left = seconds - HTTPServer.seconds(since: start)
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(250, max(1, left * 1000))))
            if ready < 0 && errno != EINTR { return false }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<got])
            return true
        }
    }

    /// Ends the sending side (the client reads to the end of what was sent), then reads and drops
    /// what the client still sends, for up to `seconds` or `limit` bytes, so that closing does
    /// not reset the connection while unread bytes wait.
    func finishSending(drainingFor seconds: Double, atMost limit: Int) {
        shutdown(fd, Int32(SHUT_WR))
        var dropped: [UInt8] = []
        var total = 0
        let start = ContinuousClock.now
        while total < limit, receive(into: &dropped, waitingAtMost: seconds - HTTPServer.seconds(since: start), stop: { false }) {
            total += dropped.count
            dropped.removeAll(keepingCapacity: true)
        }
    }

    /// True when the client has closed its side or the connection failed. Bytes it sent meanwhile
    /// (another request on an event stream's connection) are left unread.
    var peerHasClosed: Bool {
        #if canImport(Glibc)
        var p = pollfd(fd: fd, events: Int16(POLLIN) | Self.peerClosedItsSide, revents: 0)
        #else
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #endif
        guard poll(&p, 1, 0) > 0 else { return false }
        if p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        #if canImport(Glibc)
        if p.revents & Self.peerClosedItsSide != 0 { return true }
        #endif
        var byte: UInt8 = 0
        let got = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }
}
