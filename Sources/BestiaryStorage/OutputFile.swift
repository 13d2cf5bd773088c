import Foundation

/// One file of a build's output: its path under the output root and where its bytes come from.
public struct OutputFile: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        /// Bytes produced by the build.
        case data(Data)
        /// Bytes produced by the build in parts, written one after the other (a rebuild's pack
        /// manifest: the runs of records it keeps from the last one are slices of that file).
        case parts([Data])
        /// An existing file (media), hard-linked or copied as is.
        case file(String)
    }

    /// Relative to the output root, `/`-separated, never starting with `/`.
    public var path: String
    public var content: Content {
        didSet { sha256 = nil }
    }
    /// The lower-case hex SHA-256 of `.data`'s bytes, when the stage that made them hashed them
    /// already (the catalogue, the pack manifest): the write stage takes it instead of hashing
    /// megabytes again. Forgotten when `content` changes; not part of equality (it is a function
    /// of the bytes).
    public private(set) var sha256: String?

    public init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    public init(path: String, data: Data, sha256: String? = nil) {
        self.init(path: path, content: .data(data), sha256: sha256)
    }

    /// `sha256`: the hex SHA-256 of the bytes of `.data` or `.parts`, when known.
    public init(path: String, content: Content, sha256: String?) {
        self.init(path: path, content: content)
        self.sha256 = sha256
    }

    /// This file with `digest`, the SHA-256 of its bytes, remembered.
    public func knowing(sha256 digest: String) -> OutputFile {
        var copy = self
        copy.sha256 = digest
        return copy
    }

    /// The hex SHA-256 of `.data`'s (or `.parts`') bytes: the one known, else computed. Nil for `.file`.
    public var dataSHA256: String? {
        switch content {
        case .data(let data): sha256 ?? Hashing.sha256Hex(data)
        case .parts(let parts): sha256 ?? Hashing.sha256Hex(parts: parts)
        case .file: nil
        }
    }

    /// The bytes of `.data` or `.parts` (joined); nil for `.file`.
    public var bytes: Data? {
        switch content {
        case .data(let data): data
        case .parts(let parts): Self.joined(parts)
        case .file: nil
        }
    }

    /// The size of `.data` or `.parts`; nil for `.file`.
    public var byteCount: Int? {
        switch content {
        case .data(let data): data.count
        case .parts(let parts): parts.reduce(0) { $0 + $1.count }
        case .file: nil
        }
    }

    /// `parts` in one buffer.
    public static func joined(_ parts: [Data]) -> Data {
        var whole = Data(capacity: parts.reduce(0) { $0 + $1.count })
        for part in parts { whole.append(part) }
        return whole
    }

    public static func == (a: OutputFile, b: OutputFile) -> Bool { a.path == b.path && a.content == b.content }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(content)
    }

    public init(path: String, text: String) {
        self.init(path: path, content: .data(Data(text.utf8)))
    }

    public init(path: String, linking source: String) {
        self.init(path: path, content: .file(source))
    }
}
