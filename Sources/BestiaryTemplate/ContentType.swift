/// How `{{name}}` escapes what it prints, chosen per template with `{{% CONTENT_TYPE: NAME }}`.
///
/// `HTML` (the default, and always the type a partial starts with) and `TEXT` are built in; a
/// caller registers more when it compiles a ``TemplateLibrary`` (Bestiary's `MARKDOWN`).
public struct ContentType: Sendable {
    enum Escape: Sendable {
        /// `< > & " '` → `&lt; &gt; &amp; &quot; &#39;`, over UTF-8 bytes.
        case html
        case none
        case custom(@Sendable (String) -> String)
    }

    public let name: String
    let escape: Escape

    /// A content type whose `{{name}}` output goes through `escape`.
    public init(name: String, escape: @escaping @Sendable (String) -> String) {
        self.name = name
        self.escape = .custom(escape)
    }

    init(name: String, _ escape: Escape) {
        self.name = name
        self.escape = escape
    }

    public static let html = ContentType(name: "HTML", .html)
    public static let text = ContentType(name: "TEXT", .none)
}
