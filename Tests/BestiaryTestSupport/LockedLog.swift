import Foundation

/// What callbacks noted from any thread (a build's stages, a timer), in the order they came.
public final class LockedLog<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    public init() {}

    public func append(_ item: Element) { lock.withLock { items.append(item) } }
    public var all: [Element] { lock.withLock { items } }
}
