/// A template that cannot be parsed: what is wrong, and where (1-based line and column, in
/// characters, of the tag at fault).
public struct TemplateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// `{{/name}}` closes a section that is not the open one (`open` is nil at the top level;
        /// `openLine` is where the open one starts).
        case closingTagMismatch(open: String?, found: String, openLine: Int? = nil)
        /// A tag without its closing delimiter, or with a character a name cannot hold.
        case unfinishedTag
        /// The template ends inside `{{#name}}`, `{{^name}}`, `{{$name}}` or `{{<name}}`.
        case unclosedSection(String)
        /// The template ends inside a comment or a tag delimiter.
        case unexpectedEnd
        case invalidSetDelimiter
        /// Something other than `{{$block}}` inside `{{<parent}}…{{/parent}}`.
        case illegalInsideParent
        case invalidPragma
        case unknownContentType(String)
        /// `{{uppercased(name)}}`: swift-mustache's transforms are not supported.
        case transform(String)
    }

    public let kind: Kind
    public let line: Int
    public let column: Int

    public var message: String {
        switch kind {
        case .closingTagMismatch(let open?, let found, _):
            return "{{/\(found)}} does not close the open section '\(open)'"
        case .closingTagMismatch(nil, let found, _):
            return "{{/\(found)}} closes a section that was never opened"
        case .unfinishedTag:
            return "a tag is not finished or its name holds a character names cannot have"
        case .unclosedSection(let name):
            return "the section {{\(name)}} is never closed"
        case .unexpectedEnd:
            return "the template ends inside a tag or a comment"
        case .invalidSetDelimiter:
            return "a set-delimiter tag {{=<% %>=}} is malformed"
        case .illegalInsideParent:
            return "only {{$block}} sections may appear inside {{<parent}}…{{/parent}}"
        case .invalidPragma:
            return "a {{% … }} pragma is malformed (the only one is {{% CONTENT_TYPE: NAME }})"
        case .unknownContentType(let name):
            return "unknown content type '\(name)'"
        case .transform(let name):
            return "'\(name)': transforms such as {{uppercased(name)}} are not supported"
        }
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// A static partial or parent tag: the template it names and where the tag starts.
public struct TemplateReference: Sendable, Equatable {
    public let name: String
    public let line: Int
    public let column: Int
    /// For a looked-up name: the sections around its tag, outermost first.
    public var sections: [String] = []
}
