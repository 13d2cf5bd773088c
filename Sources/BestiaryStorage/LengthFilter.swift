/// A check before a dictionary lookup by a path: which lengths (in UTF-8 bytes) the keys of a
/// small table have. A path of another length is not among them, and is not hashed to find
/// that out. A rebuild of the bench corpus looks up each of the output's 83,000 paths among the
/// 48 files it staged and among the 20,000 pages' digests; 63,000 of the paths are media files
/// of one or two lengths, which few staged files and no page have.
public struct LengthFilter: Sendable {
    private var lengths: [Bool] = []

    public init(_ keys: some Sequence<String>) {
        for key in keys {
            let n = key.utf8.count
            if n >= lengths.count { lengths.append(contentsOf: repeatElement(false, count: n + 1 - lengths.count)) }
            lengths[n] = true
        }
    }

    /// False when no key has `key`'s length, so the table has no entry for it; true otherwise.
    @inline(__always)
    public func mayContain(_ key: String) -> Bool {
        mayContain(length: key.utf8.count)
    }

    /// False when no key is `n` bytes long (in UTF-8).
    @inline(__always)
    public func mayContain(length n: Int) -> Bool {
        n < lengths.count && lengths[n]
    }
}
