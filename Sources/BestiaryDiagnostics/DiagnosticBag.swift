/// An ordered collection of diagnostics gathered during one run, so that a command can report
/// every problem at once instead of stopping at the first.
public struct DiagnosticBag: Sendable, Hashable, Sequence {
    public private(set) var items: [Diagnostic] = []

    public init(_ items: [Diagnostic] = []) {
        self.items = items
    }

    public mutating func append(_ diagnostic: Diagnostic) {
        items.append(diagnostic)
    }

    public mutating func append(contentsOf other: some Sequence<Diagnostic>) {
        items.append(contentsOf: other)
    }

    public mutating func error(_ message: String, at location: SourceLocation? = nil, stage: String? = nil) {
        append(.error(message, at: location, stage: stage))
    }

    public mutating func warning(_ message: String, at location: SourceLocation? = nil, stage: String? = nil) {
        append(.warning(message, at: location, stage: stage))
    }

    /// Drops the diagnostics `shouldRemove` picks (those a summary says for them).
    public mutating func removeAll(where shouldRemove: (Diagnostic) throws -> Bool) rethrows {
        try items.removeAll(where: shouldRemove)
    }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }
    public var errorCount: Int { items.count { $0.severity == .error } }
    public var warningCount: Int { items.count { $0.severity == .warning } }
    public var isEmpty: Bool { items.isEmpty }

    /// Diagnostics in a stable order: by file, line, column, then message. Problems without a
    /// location come first. Output order never depends on scheduling.
    public var sorted: [Diagnostic] {
        items.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            switch (la, lb) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                if x != y { return x < y }
                return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// Throws a ``DiagnosticError`` with everything collected when any error is present.
    public func throwIfErrors() throws(DiagnosticError) {
        if hasErrors { throw DiagnosticError(sorted) }
    }

    public func makeIterator() -> IndexingIterator<[Diagnostic]> { items.makeIterator() }
}
