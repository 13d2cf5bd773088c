import BestiaryDiagnostics
import Foundation

/// The preview's live side: the current build status, the event stream open pages listen to, and
/// the snippet injected into every HTML response (script, stylesheet, and the error overlay
/// while the last build failed). Nothing of this is ever written into `output/`.
public final class LiveReload: @unchecked Sendable {
    /// The URL prefix the preview reserves for itself.
    public static let prefix = "/__bestiary/"

    private let lock = NSLock()
    private var current: LiveStatus
    let hub: EventHub

    public init(session: String = LiveReload.newSession()) {
        current = LiveStatus(session: session, generation: 0, phase: .building, diagnostics: [], changed: nil)
        hub = EventHub()
    }

    public static func newSession() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    public var status: LiveStatus { lock.withLock { current } }

    /// Number of pages listening.
    public var listeners: Int { hub.count }

    /// A rebuild started.
    public func building() {
        let status = lock.withLock { current }
        hub.publish(event: "building", data: status.json)
    }

    /// A rebuild succeeded: open pages reload (those whose file is in `changed`, or all when nil).
    public func succeeded(changed: Set<String>?) {
        let status = lock.withLock {
            current.generation += 1
            current.phase = .ok
            current.diagnostics = []
            current.changed = changed.map { $0.sorted() }
            return current
        }
        hub.publish(event: "reload", data: status.json)
    }

    /// A rebuild failed: open pages show `diagnostics` over the last good build.
    public func failed(_ diagnostics: [Diagnostic]) {
        let status = lock.withLock {
            current.generation += 1
            current.phase = .failed
            // The errors, which stopped the build, before the warnings it would have printed anyway.
            let sorted = DiagnosticBag(diagnostics).sorted
            current.diagnostics = sorted.filter { $0.severity == .error } + sorted.filter { $0.severity != .error }
            return current
        }
        hub.publish(event: "failed", data: status.json)
    }

    /// Ends every event stream (server shutdown).
    public func close() {
        hub.close()
    }

    /// A stream of SSE chunks for one page: a retry hint and a `hello` with the status, then events.
    func events() -> AsyncStream<String> {
        hub.subscribe(first: "retry: 1000\n\n" + EventHub.format(event: "hello", data: status.json))
    }

    /// `html` with the live-reload snippet for `file` (relative to output/) before `</body>`;
    /// `built`: false for the server's own not-found page, when no build made anything there.
    func inject(into html: [UInt8], file: String, built: Bool = true) -> [UInt8] {
        HTMLInjection.inject(HTMLInjection.snippet(status: status, file: file, built: built), into: html)
    }
}
