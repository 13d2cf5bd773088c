import Foundation

/// Values as bytes, for the caches a build keeps next to its output (``FileFacts``, the records
/// cache): integers little-endian, texts as their UTF-8 length and bytes, optionals behind a 0/1
/// byte, dictionaries sorted by key. Not a published format: a cache written by another version
/// of the tool is never read (each cache's header names the binary).
public struct ByteWriter {
    public var bytes: [UInt8] = []

    @inlinable public init() {}

    @inlinable public mutating func int(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    @inlinable public mutating func count(_ n: Int) { int(Int64(n)) }
    @inlinable public mutating func flag(_ b: Bool) { bytes.append(b ? 1 : 0) }

    @inlinable public mutating func string(_ s: String) {
        count(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }

    @inlinable public mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        flag(value != nil)
        if let value { write(&self, value) }
    }

    @inlinable public mutating func strings(_ list: [String]) {
        count(list.count)
        for s in list { string(s) }
    }

    @inlinable public mutating func dictionary<T>(_ d: [String: T], _ write: (inout ByteWriter, T) -> Void) {
        entries(d.sorted(by: { $0.key < $1.key }), write)
    }

    /// A dictionary's entries, already sorted by key: as ``dictionary(_:_:)`` writes them.
    @inlinable mutating func entries<T>(_ sorted: [(key: String, value: T)], _ write: (inout ByteWriter, T) -> Void) {
        count(sorted.count)
        for (k, v) in sorted {
            string(k)
            write(&self, v)
        }
    }

    /// The entries whose keys begin with the bytes of `prefix`, each key written without it
    /// (``ByteReader/dictionary(keyPrefix:_:)`` puts it back); the others are left out.
    @inlinable public mutating func dictionary<T>(_ d: [String: T], droppingKeyPrefix prefix: String, _ write: (inout ByteWriter, T) -> Void) {
        guard !prefix.isEmpty else { return dictionary(d, write) }
        let n = prefix.utf8.count
        // By bytes: `hasPrefix` compares characters, and a combining mark after the prefix's
        // last byte would make it no prefix. (Distinct keys stay distinct without it: sorted as
        // they are, not put into a second dictionary first.)
        var under: [(key: String, value: T)] = []
        under.reserveCapacity(d.count)
        for (k, v) in d where k.utf8.starts(with: prefix.utf8) { under.append((String(decoding: k.utf8.dropFirst(n), as: UTF8.self), v)) }
        entries(under.sorted(by: { $0.key < $1.key }), write)
    }

    @inlinable public mutating func info(_ i: FileInfo) {
        bytes.append(ByteReader.kinds.firstIndex(of: i.kind).map(UInt8.init) ?? 3)
        count(i.size)
        int(i.modificationTime)
        int(Int64(bitPattern: i.inode))
        int(Int64(bitPattern: i.device))
    }
}

/// Reads what ``ByteWriter`` wrote; nil at the first byte that does not fit (a cache is then not
/// used at all).
public struct ByteReader {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    /// Keeps `bytes` alive (a file's mapping, or a copy).
    @usableFromInline let owner: FileBytes
    @usableFromInline var at = 0

    public init(_ file: FileBytes) {
        owner = file
        bytes = file.buffer
    }

    public init(_ bytes: [UInt8]) { self.init(FileBytes(copying: bytes)) }

    @inlinable public var atEnd: Bool { at == bytes.count }

    @inlinable public mutating func int() -> Int64? {
        guard bytes.count - at >= 8 else { return nil }
        let v = withExtendedLifetime(owner) { UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        at += 8
        return Int64(bitPattern: UInt64(littleEndian: v))
    }

    /// A length or count: never more than the bytes there are, so a damaged file cannot ask for
    /// a huge allocation.
    @inlinable public mutating func count() -> Int? {
        guard let v = int(), v >= 0, v <= Int64(bytes.count) else { return nil }
        return Int(v)
    }

    @inlinable public mutating func number() -> Int? { int().map { Int($0) } }

    @inlinable public mutating func flag() -> Bool? {
        guard at < bytes.count else { return nil }
        let byte = withExtendedLifetime(owner) { bytes[at] }
        guard byte <= 1 else { return nil }
        at += 1
        return byte == 1
    }

    @inlinable public mutating func string() -> String? {
        guard let n = count(), bytes.count - at >= n else { return nil }
        defer { at += n }
        let utf8 = UnsafeBufferPointer(rebasing: bytes[at..<(at + n)])
        return withExtendedLifetime(owner) {
            // ASCII needs no validation (nearly every string kept: paths, ids, digests). The
            // generic validation costs a type-metadata lookup per string.
            if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
            return String(validating: utf8, as: UTF8.self)
        }
    }

    /// ``string()``, or `last` itself when the bytes are its own; `last` becomes the string read.
    /// Values that name one text in a run (every location in a parsed record names its file)
    /// then hold one copy of it, not one each.
    @inlinable public mutating func string(reusing last: inout String?) -> String? {
        let start = at
        guard let n = count(), bytes.count - at >= n else { return nil }
        if var previous = last, previous.utf8.count == n {
            let same = previous.withUTF8 { text in
                withExtendedLifetime(owner) { n == 0 || memcmp(text.baseAddress!, bytes.baseAddress! + at, n) == 0 }
            }
            if same {
                at += n
                return previous
            }
        }
        at = start
        let read = string()
        last = read
        return read
    }

    /// `.some(nil)` for an absent value, nil when the bytes do not fit.
    @inlinable public mutating func optional<T>(_ read: (inout ByteReader) -> T?) -> T?? {
        guard let present = flag() else { return nil }
        guard present else { return .some(nil) }
        return read(&self).map { .some($0) }
    }

    @inlinable public mutating func strings() -> [String]? {
        guard let n = count() else { return nil }
        var list: [String] = []
        for _ in 0..<n {
            guard let s = string() else { return nil }
            list.append(s)
        }
        return list
    }

    /// With `keyPrefix`, each key read is put after it (what
    /// ``ByteWriter/dictionary(_:droppingKeyPrefix:_:)`` took off).
    @inlinable public mutating func dictionary<T>(keyPrefix: String = "", _ read: (inout ByteReader) -> T?) -> [String: T]? {
        guard let n = count() else { return nil }
        var d: [String: T] = [:]
        d.reserveCapacity(min(n, (bytes.count - at) / 8))  // each key takes 8 bytes or more
        for _ in 0..<n {
            guard let k = string(), let v = read(&self) else { return nil }
            d[keyPrefix.isEmpty ? k : keyPrefix + k] = v
        }
        return d
    }

    @usableFromInline static let kinds: [FileKind] = [.file, .directory, .symlink, .other]

    @inlinable public mutating func info() -> FileInfo? {
        guard at < bytes.count else { return nil }
        let code = Int(withExtendedLifetime(owner) { bytes[at] })
        guard code < Self.kinds.count else { return nil }
        let kind = Self.kinds[code]
        at += 1
        guard let size = number(), let time = int(), let inode = int(), let device = int() else { return nil }
        return FileInfo(kind: kind, size: size, modificationTime: time, inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device))
    }
}

/// A cache a one-shot build keeps next to its output (`.NAME.bestiary-…`): a header naming its
/// format, the identity of the `bestiary` binary that wrote it, then its body. A file that is
/// missing, for another format or written by another binary is not read at all.
public enum CacheFile {
    /// A reader at the body of the file at `path`; nil when it is missing or not for `header`
    /// and `tool`.
    public static func reader(_ path: String, header: String, tool: String, fileSystem: any FileSystem) -> ByteReader? {
        guard let bytes = try? fileSystem.readShared(path) else { return nil }
        var reader = ByteReader(bytes)
        guard reader.string() == header, reader.string() == tool else { return nil }
        return reader
    }

    /// Writes the file atomically; on failure it is removed, so a later build never trusts a
    /// half-written one.
    public static func write(
        _ path: String, header: String, tool: String, fileSystem: any FileSystem, body: (inout ByteWriter) -> Void
    ) {
        var writer = ByteWriter()
        writer.string(header)
        writer.string(tool)
        body(&writer)
        do {
            // Written from the writer's own buffer, while the Wikipedia entries are still in memory.
            try fileSystem.writeAtomically(bytes: writer.bytes, to: path)
        } catch {
            try? fileSystem.remove(path)
        }
    }
}
