import Foundation

/// Fans server-sent events out to every open page (`GET /__bestiary/events`).
///
/// Each subscriber gets its own stream, which starts with a `hello` event carrying the current
/// status, so a page that connects (or reconnects) after a build still learns about it. A comment
/// line every 15 seconds keeps idle connections open through proxies and lets the server notice
/// closed tabs. ``close()`` ends every stream, so that shutting the server down does not wait for
/// open tabs.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    private var closed = false
    private var heartbeat: (any DispatchSourceTimer)?

    init(heartbeat interval: Double = 15) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.broadcast(": keep-alive\n\n") }
        timer.resume()
        heartbeat = timer
    }

    deinit {
        heartbeat?.cancel()
    }

    /// The number of open event streams.
    var count: Int { lock.withLock { subscribers.count } }

    /// A new stream of SSE text chunks, starting with `first`.
    func subscribe(first: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        lock.lock()
        if closed {
            lock.unlock()
            continuation.finish()
            return stream
        }
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.yield(first)
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `event` with `data` (one line of JSON) to every subscriber.
    func publish(event: String, data: String) {
        broadcast(Self.format(event: event, data: data))
    }

    /// Ends every stream; later subscriptions end at once.
    func close() {
        let all: [AsyncStream<String>.Continuation] = lock.withLock {
            closed = true
            heartbeat?.cancel()
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }

    static func format(event: String, data: String) -> String {
        "event: \(event)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }

    private func broadcast(_ chunk: String) {
        let all = lock.withLock { Array(subscribers.values) }
        for continuation in all { continuation.yield(chunk) }
    }
}
