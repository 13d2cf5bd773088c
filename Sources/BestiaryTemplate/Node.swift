/// A parsed template, as the parser makes it; ``Program`` flattens a library's blocks for
/// rendering. Everything that can be decided once is decided at parse time: names are split at
/// their dots, partials are indices into the library, block names are small integers, text is
/// UTF-8 bytes ready to be copied.
final class Block: Sendable {
    let nodes: [Node]
    /// The raw text between a section's tags: what a lambda section receives.
    let source: String
    /// Its number in the library, in parse order (the same for the same sources in every
    /// process): what names a section's items in a ``KeptFragments`` key. -1 for a lambda's
    /// result, whose items are never kept.
    let serial: Int

    init(_ nodes: [Node], source: String, serial: Int = -1) {
        self.nodes = nodes
        self.source = source
        self.serial = serial
    }
}

enum Node: Sendable {
    case text([UInt8])
    case variable(Name, escaped: Bool)
    case section(Name, Block)
    case inverted(Name, Block)
    /// `{{$name}}default{{/name}}` outside a parent: the override in force, else the default.
    case block(id: Int, default: Block, indentation: [UInt8])
    /// `{{>name}}` or `{{<name}}…{{/name}}`; `template` is nil for a name the library lacks.
    case partial(template: Int?, indentation: [UInt8], overrides: [Override])
    /// `{{>*name}}`: the partial named by the value of `name`.
    case dynamicPartial(Name, indentation: [UInt8], overrides: [Override])
    case contentType(ContentType)
    /// `{{$name}}…{{/name}}` directly inside `{{<parent}}`; only the parser sees these.
    case override(Override)
}

/// A block body that replaces the parent's `{{$name}}`.
struct Override: Sendable {
    let id: Int
    let block: Block
}

/// A tag's name, split at its dots once.
struct Name: Sendable {
    /// Empty for `{{.}}` (and `{{}}`): the top of the context stack.
    let parts: [String]
    /// `.name`: looked up in the top of the stack only, never further down.
    let anchored: Bool

    init(_ text: String) {
        parts = text == "." ? [] : text.split(separator: ".").map(String.init)
        anchored = text.hasPrefix(".")
    }
}
