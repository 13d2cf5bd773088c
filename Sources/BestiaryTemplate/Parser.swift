/// Turns template text into a ``Block`` with exactly swift-mustache's rules for whitespace:
/// which tags are standalone (alone on their line, so the line disappears), which whitespace
/// becomes a partial's or a block's indentation, and how a block's body is unindented inside
/// `{{<parent}}`. It works on `Character`s as swift-mustache does (so `\r\n` is one newline),
/// and makes each run of them into a `String` from its bytes.
struct Parser {
    /// What one nesting level of the template is inside.
    struct State {
        /// The name the closing tag must repeat, with the opening tag's sigil (`#animal`) for errors.
        var section: (name: String, tag: String, at: Int)?
        /// At the start of a line: leading spaces and tabs are held back until it is known
        /// whether the line is a standalone tag.
        var newLine = true
        /// Inside `{{<parent}}…{{/parent}}`, and directly there (not inside one of its blocks).
        var inParent = false
        var atParentTop = false
        /// Inside a parent's block: how many leading whitespace characters the block's first
        /// line had; every later line loses that many.
        var blockIndent: Int?
        var open: [Character] = ["{", "{"]
        var close: [Character] = ["}", "}"]
        /// The names of the sections (`{{#name}}`, `{{^name}}`) around this point, outermost first.
        var sections: [String] = []

        func entering(_ name: String, tag: String, at: Int, newLine: Bool) -> State {
            var state = self
            state.section = (name, tag, at)
            state.atParentTop = false
            if !newLine { state.newLine = false }
            return state
        }
    }

    let text: [Character]
    /// The template's UTF-8, and where each of ``text``'s characters starts in it (one more at
    /// the end): a run of characters is made into a `String` from its bytes, not appended one
    /// `Character` at a time (the theme's parse was an eighth of a small site's rebuild).
    let utf8: [UInt8]
    let offsets: [Int]
    var position = 0
    let contentTypes: [String: ContentType]
    let partials: [String: Int]
    /// Block names → ids, shared by every template of a library so overrides match by number.
    var blockIDs: [String: Int]
    /// Where the tag being parsed starts (its opening delimiter), for errors.
    var tagStart = 0
    /// Every `{{>name}}` and `{{<name}}` (not `{{>*name}}`): the name and where its tag starts.
    var references: [TemplateReference] = []
    /// Every name a tag looks up in the context (variables, sections, inverted sections, dynamic
    /// partials; not `{{.}}`), where its tag starts (offsets into ``text``, in order).
    var lookups: [(name: String, offset: Int, sections: [String])] = []
    /// Every `{{$name}}` directly inside `{{<parent}}` (an override), with the parent's name as
    /// its only section.
    var overrides: [(name: String, offset: Int, sections: [String])] = []
    /// Comments (`{{! …}}`) that hold a tag's opening (`{{`): one whose closing was left out, so
    /// it ran on to the next tag's end and swallowed the markup between (the Mustache spec's
    /// reading, without a word). Where each starts.
    var openComments: [(name: String, offset: Int, sections: [String])] = []
    /// The names of the `{{$name}}` blocks this template defines (outside a parent).
    var blockNames = Set<String>()
    /// The next block's ``Block/serial``, counted across a library's templates; nil when parsing
    /// a lambda's result (its blocks get -1).
    var nextSerial: Int?

    init(_ text: String, contentTypes: [String: ContentType], partials: [String: Int], blockIDs: [String: Int], nextSerial: Int? = nil) {
        self.text = Array(text)
        utf8 = Array(text.utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(self.text.count + 1)
        var at = 0
        for c in self.text {
            offsets.append(at)
            at += c.utf8.count
        }
        offsets.append(at)
        self.offsets = offsets
        self.contentTypes = contentTypes
        self.partials = partials
        self.blockIDs = blockIDs
        self.nextSerial = nextSerial
    }

    mutating func serial() -> Int {
        guard let next = nextSerial else { return -1 }
        nextSerial = next + 1
        return next
    }

    mutating func parseTemplate() throws(TemplateSyntaxError) -> Block {
        try parse(State())
    }

    // MARK: Nesting levels

    mutating func parse(_ initial: State) throws(TemplateSyntaxError) -> Block {
        var state = initial
        var nodes: [Node] = []
        var pendingWhitespace = ""
        let entry = position
        func flushWhitespace() {
            if !pendingWhitespace.isEmpty {
                nodes.append(.text(Array(pendingWhitespace.utf8)))
                pendingWhitespace = ""
            }
        }
        while position < text.count {
            if state.newLine {
                let whitespace = read(while: { $0 == " " || $0 == "\t" })
                if state.inParent && !state.atParentTop {
                    if let indent = state.blockIndent {
                        pendingWhitespace = String(whitespace.dropFirst(indent))
                    } else {
                        state.blockIndent = whitespace.count
                    }
                } else {
                    pendingWhitespace = whitespace
                }
            }
            let plain = try readTextUntilTag(state)
            if position < text.count, text[position].isNewline {
                nodes.append(.text(Array((pendingWhitespace + plain + String(text[position])).utf8)))
                state.newLine = true
                position += 1
                continue
            }
            if !plain.isEmpty {
                nodes.append(.text(Array((pendingWhitespace + plain).utf8)))
                pendingWhitespace = ""
                state.newLine = false
            }
            if position >= text.count { break }
            tagStart = position - state.open.count
            var standalone = false
            switch text[position] {
            case "#", "^":
                let inverted = text[position] == "^"
                let start = tagStart
                position += 1
                let name = try readName(state)
                lookup(name, at: start, in: state)
                if isStandalone(state) { standalone = true } else { flushWhitespace() }
                var inner = state.entering(name, tag: (inverted ? "^" : "#") + name, at: start, newLine: standalone)
                inner.sections.append(name)
                let body = try parse(inner)
                nodes.append(inverted ? .inverted(Name(name), body) : .section(Name(name), body))

            case "/":
                let slash = position
                position += 1
                let name = try readName(state)
                guard let section = state.section, section.name == name else {
                    throw error(.closingTagMismatch(open: state.section?.name, found: name, openLine: state.section.map { lineAndColumn(of: $0.at).line }))
                }
                if !isStandalone(state) { flushWhitespace() }
                // swift-mustache takes the raw text up to two characters before the '/'.
                let end = max(entry, slash - 2)
                return Block(nodes, source: string(entry..<end), serial: serial())

            case "!":
                position += 1
                try skipComment(state)
                standalone = isStandalone(state)

            case "{", "&":
                let triple = text[position] == "{"
                flushWhitespace()
                position += 1
                let name = try readName(state)
                lookup(name, at: tagStart, in: state)
                if triple {
                    guard position < text.count else { throw error(.unexpectedEnd) }
                    guard text[position] == "}" else { throw error(.unfinishedTag) }
                    position += 1
                }
                nodes.append(.variable(Name(name), escaped: false))

            case ">":
                position += 1
                _ = read(while: \.isWhitespace)
                let dynamic = position < text.count && text[position] == "*"
                if dynamic { position += 1 }
                let name = try readPartialName(state)
                if dynamic { lookup(name, at: tagStart, in: state) } else { reference(name, at: tagStart) }
                if !pendingWhitespace.isEmpty { nodes.append(.text(Array(pendingWhitespace.utf8))) }
                standalone = isStandalone(state)
                let indentation = standalone ? Array(pendingWhitespace.utf8) : []
                nodes.append(partial(name, dynamic: dynamic, indentation: indentation, overrides: []))
                pendingWhitespace = ""

            case "<":
                let start = tagStart
                position += 1
                _ = read(while: \.isWhitespace)
                let tagName = try readPartialName(state)
                if tagName.first == "*" { lookup(String(tagName.dropFirst()), at: start, in: state) } else { reference(tagName, at: start) }
                if !pendingWhitespace.isEmpty { nodes.append(.text(Array(pendingWhitespace.utf8))) }
                standalone = isStandalone(state)
                var inner = state
                inner.section = (tagName, "<" + tagName, start)
                inner.newLine = true
                inner.inParent = true
                inner.atParentTop = true
                let body = try parse(inner)
                var overrides: [Override] = []
                for node in body.nodes {
                    switch node {
                    case .override(let o):
                        // A later definition of the same block wins, as in swift-mustache.
                        overrides.removeAll { $0.id == o.id }
                        overrides.append(o)
                    case .text: break
                    default:
                        tagStart = start
                        throw error(.illegalInsideParent)
                    }
                }
                let dynamic = tagName.first == "*"
                let name = dynamic ? String(tagName.dropFirst()) : tagName
                nodes.append(partial(name, dynamic: dynamic, indentation: Array(pendingWhitespace.utf8), overrides: overrides))
                pendingWhitespace = ""

            case "$":
                let start = tagStart
                position += 1
                let name = try readName(state)
                let id = blockID(name)
                if state.atParentTop {
                    overrides.append((name, start, [state.section?.name ?? ""]))
                    standalone = isStandalone(state)
                    let body = try parse(state.entering(name, tag: "$" + name, at: start, newLine: standalone))
                    nodes.append(.override(Override(id: id, block: body)))
                } else {
                    blockNames.insert(name)
                    if !pendingWhitespace.isEmpty { nodes.append(.text(Array(pendingWhitespace.utf8))) }
                    standalone = isStandalone(state)
                    let body = try parse(state.entering(name, tag: "$" + name, at: start, newLine: standalone))
                    nodes.append(.block(id: id, default: body, indentation: Array(pendingWhitespace.utf8)))
                    pendingWhitespace = ""
                }

            case "=":
                position += 1
                try setDelimiters(&state)
                standalone = isStandalone(state)

            case "%":
                position += 1
                nodes.append(.contentType(try readPragma(state)))
                standalone = isStandalone(state)

            default:
                flushWhitespace()
                let name = try readName(state)
                lookup(name, at: tagStart, in: state)
                nodes.append(.variable(Name(name), escaped: true))
            }
            state.newLine = standalone
        }
        if let open = state.section {
            tagStart = open.at
            throw error(.unclosedSection(open.tag))
        }
        return Block(nodes, source: string(entry..<position), serial: serial())
    }

    mutating func blockID(_ name: String) -> Int {
        if let id = blockIDs[name] { return id }
        let id = blockIDs.count
        blockIDs[name] = id
        return id
    }

    mutating func reference(_ name: String, at offset: Int) {
        let (line, column) = lineAndColumn(of: offset)
        references.append(TemplateReference(name: name, line: line, column: column))
    }

    mutating func lookup(_ name: String, at offset: Int, in state: State) {
        if !name.isEmpty, name != "." { lookups.append((name, offset, state.sections)) }
    }

    /// ``lookups`` (or other names found at offsets) with their lines and columns, counted in
    /// one pass over the text.
    func lookupReferences(_ items: [(name: String, offset: Int, sections: [String])]? = nil) -> [TemplateReference] {
        let items = items ?? lookups
        var result: [TemplateReference] = []
        result.reserveCapacity(items.count)
        var line = 1, column = 1, at = 0
        for (name, offset, sections) in items.sorted(by: { $0.offset < $1.offset }) {
            while at < offset, at < text.count {
                if text[at].isNewline { line += 1; column = 1 } else { column += 1 }
                at += 1
            }
            result.append(TemplateReference(name: name, line: line, column: column, sections: sections))
        }
        return result
    }

    func partial(_ name: String, dynamic: Bool, indentation: [UInt8], overrides: [Override]) -> Node {
        dynamic
            ? .dynamicPartial(Name(name), indentation: indentation, overrides: overrides)
            : .partial(template: partials[name], indentation: indentation, overrides: overrides)
    }

    // MARK: Reading

    /// Text up to a newline (left unread) or an opening delimiter (read).
    mutating func readTextUntilTag(_ state: State) throws(TemplateSyntaxError) -> String {
        let start = position
        while position < text.count {
            let c = text[position]
            if c == "\n" || c == "\r\n" { break }
            if c == state.open[0] {
                guard text.count - position >= state.open.count else {
                    tagStart = position
                    throw error(.unexpectedEnd)
                }
                if text[position..<position + state.open.count].elementsEqual(state.open) {
                    let plain = string(start..<position)
                    position += state.open.count
                    return plain
                }
            }
            position += 1
        }
        return string(start..<position)
    }

    mutating func read(while predicate: (Character) -> Bool) -> String {
        let start = position
        while position < text.count, predicate(text[position]) { position += 1 }
        return string(start..<position)
    }

    /// The characters of `range` (indices into ``text``) as a `String`, made from their bytes.
    func string(_ range: Range<Int>) -> String {
        String(decoding: utf8[offsets[range.lowerBound]..<offsets[range.upperBound]], as: UTF8.self)
    }

    mutating func readClosingDelimiter(_ state: State) throws(TemplateSyntaxError) {
        guard text.count - position >= state.close.count else { throw error(.unexpectedEnd) }
        guard text[position..<position + state.close.count].elementsEqual(state.close) else { throw error(.unfinishedTag) }
        position += state.close.count
    }

    /// A variable or section name and the closing delimiter.
    mutating func readName(_ state: State) throws(TemplateSyntaxError) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: { Self.isNameCharacter($0) || $0 == "(" || $0 == ")" })
        _ = read(while: \.isWhitespace)
        try readClosingDelimiter(state)
        if name.contains("(") || name.contains(")") { throw error(.transform(name)) }
        return name
    }

    mutating func readPartialName(_ state: State) throws(TemplateSyntaxError) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: { Self.isNameCharacter($0) || $0 == "(" || $0 == ")" || $0 == "/" })
        _ = read(while: \.isWhitespace)
        try readClosingDelimiter(state)
        return name
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        guard c.isASCII else { return false }
        return c.isLetter || c.isNumber || c == "." || c == "-" || c == "_" || c == "?" || c == "*"
    }

    /// Up to and past the closing delimiter, matched the way swift-mustache matches it.
    mutating func skipComment(_ state: State) throws(TemplateSyntaxError) {
        var matched = 0
        let start = position
        while position < text.count {
            if text[position] == state.close[matched] {
                matched += 1
                if matched == state.close.count {
                    position += 1
                    // The comment's own text (its closing delimiter left out) holding an opening one.
                    if string(start..<(position - state.close.count)).contains(String(state.open)) { openComments.append(("!", start - 1 - state.open.count, [])) }
                    return
                }
            } else {
                matched = 0
            }
            position += 1
        }
        throw error(.unexpectedEnd)
    }

    /// `{{=<% %>=}}`.
    mutating func setDelimiters(_ state: inout State) throws(TemplateSyntaxError) {
        _ = read(while: \.isWhitespace)
        let open = read(while: { !$0.isWhitespace })
        guard position < text.count else { throw error(.invalidSetDelimiter) }
        _ = read(while: \.isWhitespace)
        let close = read(while: { $0 != "=" && !$0.isWhitespace })
        guard position < text.count else { throw error(.invalidSetDelimiter) }
        _ = read(while: \.isWhitespace)
        guard position < text.count, text[position] == "=" else { throw error(.invalidSetDelimiter) }
        position += 1
        guard text.count - position >= state.close.count,
            text[position..<position + state.close.count].elementsEqual(state.close)
        else { throw error(.invalidSetDelimiter) }
        position += state.close.count
        guard !open.isEmpty, !close.isEmpty else { throw error(.invalidSetDelimiter) }
        state.open = Array(open)
        state.close = Array(close)
        state.atParentTop = false
    }

    /// `{{% CONTENT_TYPE: NAME }}`, the only pragma.
    mutating func readPragma(_ state: State) throws(TemplateSyntaxError) -> ContentType {
        let word: (Character) -> Bool = { Self.isNameCharacter($0) }
        _ = read(while: \.isWhitespace)
        let variable = read(while: word)
        _ = read(while: \.isWhitespace)
        guard position < text.count, text[position] == ":" else { throw error(.invalidPragma) }
        position += 1
        _ = read(while: \.isWhitespace)
        let value = read(while: word)
        _ = read(while: \.isWhitespace)
        guard text.count - position >= state.close.count,
            text[position..<position + state.close.count].elementsEqual(state.close)
        else { throw error(.invalidPragma) }
        position += state.close.count
        guard !variable.isEmpty, !value.isEmpty else { throw error(.invalidPragma) }
        guard variable == "CONTENT_TYPE" else { throw error(.invalidPragma) }
        guard let type = contentTypes[value] else { throw error(.unknownContentType(value)) }
        return type
    }

    /// Whether the tag just read is alone on its line; if so, the rest of the line (spaces,
    /// tabs, the newline) is consumed.
    mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if position >= text.count { return true }
        var p = position
        while p < text.count, text[p] == " " || text[p] == "\t" { p += 1 }
        guard p < text.count, text[p].isNewline else { return false }
        position = p + 1
        return true
    }

    // MARK: Errors

    func error(_ kind: TemplateSyntaxError.Kind) -> TemplateSyntaxError {
        let (line, column) = lineAndColumn(of: tagStart)
        return TemplateSyntaxError(kind: kind, line: line, column: column)
    }

    /// 1-based line and column (in characters) of the character at `offset`.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for c in text[..<min(offset, text.count)] {
            if c.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
