/// A set of named templates compiled together, so `{{> name}}` and `{{< name}}` resolve to
/// templates at compile time. Immutable and `Sendable`: one library renders pages on every
/// thread at once.
public struct TemplateLibrary: Sendable {
    /// The templates that failed to compile, each with its error.
    public struct CompileError: Error, Sendable {
        public let failures: [(name: String, error: TemplateSyntaxError)]
        /// As ``TemplateLibrary/references``, as far as each template was read.
        public let references: [String: [TemplateReference]]
    }

    /// Every template, flattened (``Program``): template `i` of ``index`` is root `i`.
    let program: Program
    let index: [String: Int]
    let contentTypes: [String: ContentType]
    let blockIDs: [String: Int]
    /// Each template's `{{>name}}` and `{{<name}}` tags, in order.
    public let references: [String: [TemplateReference]]
    /// Each template's names looked up in the context (`{{name}}`, `{{#a.b}}`, `{{>*name}}`), in
    /// order, with the position of their tags: what a theme check compares with the values pages
    /// have, since a name no context holds renders as nothing.
    public let lookups: [String: [TemplateReference]]
    /// Comments that hold a tag's opening `{{`, by template: where each starts (most likely a
    /// comment whose `}}` was left out, which hides the markup up to the next tag's end).
    public let openComments: [String: [TemplateReference]]
    /// Each template's overrides of its parent's blocks (`{{<parent}}{{$name}}…`): the block's
    /// name, its position, and the parent's name as its only section.
    public let overrides: [String: [TemplateReference]]
    /// The blocks each template defines (`{{$name}}default{{/name}}` outside a parent).
    public let blocks: [String: Set<String>]

    /// Compiles `sources` (name → template text). `contentTypes` adds to `HTML` and `TEXT` for
    /// `{{% CONTENT_TYPE: NAME }}`. Throws every template's error, not just the first. A partial
    /// that names no template renders nothing, as in swift-mustache: ``references`` lets the
    /// caller refuse them.
    public init(_ sources: [String: String], contentTypes: [ContentType] = []) throws(CompileError) {
        let names = sources.keys.sorted()
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var types = ["HTML": ContentType.html, "TEXT": ContentType.text]
        for type in contentTypes { types[type.name] = type }
        var blockIDs: [String: Int] = [:]
        var templates: [Block] = []
        var failures: [(name: String, error: TemplateSyntaxError)] = []
        var references: [String: [TemplateReference]] = [:]
        var lookups: [String: [TemplateReference]] = [:]
        var overrides: [String: [TemplateReference]] = [:]
        var openComments: [String: [TemplateReference]] = [:]
        var blocks: [String: Set<String>] = [:]
        var nextSerial = 0
        for name in names {
            var parser = Parser(sources[name]!, contentTypes: types, partials: index, blockIDs: blockIDs, nextSerial: nextSerial)
            do {
                templates.append(try parser.parseTemplate())
            } catch {
                failures.append((name, error))
                templates.append(Block([], source: ""))
            }
            blockIDs = parser.blockIDs
            nextSerial = parser.nextSerial ?? nextSerial
            references[name] = parser.references
            lookups[name] = parser.lookupReferences()
            overrides[name] = parser.lookupReferences(parser.overrides)
            if !parser.openComments.isEmpty { openComments[name] = parser.lookupReferences(parser.openComments) }
            blocks[name] = parser.blockNames
        }
        guard failures.isEmpty else { throw CompileError(failures: failures, references: references) }
        self.program = Program(roots: templates)
        self.index = index
        self.contentTypes = types
        self.blockIDs = blockIDs
        self.references = references
        self.lookups = lookups
        self.overrides = overrides
        self.openComments = openComments
        self.blocks = blocks
    }

    /// Renders template `name` with `value` at the bottom of the context stack; nil when the
    /// library has no such template.
    public func render(_ name: String, _ value: TemplateValue) -> String? {
        render(name, value, keeping: nil)?.text
    }

    /// Renders template `name` like ``render(_:_:)``, and says where in the result each item of
    /// a ``KeyedList`` went (``RenderedPage/Fragment``: its section and key). An item `kept`
    /// knows is not rendered: its bytes are copied from there. Items of a keyed list inside a
    /// keyed item or a lambda's result are not recorded (their bytes could depend on the item
    /// around them), nor is an item that looks up a value holding a keyed list.
    public func render(_ name: String, _ value: TemplateValue, keeping kept: (any KeptFragments)?) -> RenderedPage? {
        guard let i = index[name] else { return nil }
        var renderer = Renderer(library: self, root: value)
        let template = renderer.template(Int32(i))
        renderer.kept = kept
        renderer.output.bytes.reserveCapacity(max(4096, program.sources[Int(template.block)].utf8.count * 2))
        renderer.render(template, Renderer.Frame())
        return RenderedPage(bytes: renderer.output.bytes, fragments: renderer.fragments, reused: renderer.reused, splices: renderer.output.splices)
    }

    /// Whether a lambda's result is plain text: without a `{` or a line break, it parses to one
    /// text node (none when empty), so it is not parsed.
    static func isPlain(_ text: String) -> Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "\n") })
    }

    /// A lambda's result, parsed as a template of this library (errors render nothing, as in
    /// swift-mustache). `blockIDs` are the library's and those of the lambda results parsed
    /// before in the same rendering: a block name no template has gets a new id, the same in
    /// every result that uses it (overrides match blocks by name).
    func lambdaTemplate(_ text: String, blockIDs: inout [String: Int]) -> Block? {
        var parser = Parser(text, contentTypes: contentTypes, partials: index, blockIDs: blockIDs)
        defer { blockIDs = parser.blockIDs }
        return try? parser.parseTemplate()
    }
}
