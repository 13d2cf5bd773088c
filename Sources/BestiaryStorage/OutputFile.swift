import Foundation

/// One file of a build's output: its path under the output root and where its bytes come from.
public struct OutputFile: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        /// Bytes produced by the build.
        case data(Data)
        /// An existing file (media), hard-linked or copied as is.
        case file(String)
    }

    /// Relative to the output root, `/`-separated, never starting with `/`.
    public var path: String
    public var content: Content

    public init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    public init(path: String, data: Data) {
        self.init(path: path, content: .data(data))
    }

    public init(path: String, text: String) {
        self.init(path: path, content: .data(Data(text.utf8)))
    }

    public init(path: String, linking source: String) {
        self.init(path: path, content: .file(source))
    }
}
