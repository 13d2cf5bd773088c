/// Walks a parsed template over a context stack of ``TemplateValue``s, appending to one buffer.
/// The rules are swift-mustache's (`Template+Render.swift`, `Context.swift`), including its
/// partial indentation: a node's output gets the indentation when the output of the template
/// being rendered so far ends with a line feed.
struct Renderer {
    /// What a nesting level renders with, besides the stack: swift-mustache's context minus the
    /// stack.
    struct Frame {
        var indentation: [UInt8] = []
        /// The `{{$block}}` overrides in force, outermost first (the outermost one wins).
        var overrides: [Override] = []
        var contentType = ContentType.html
    }

    let library: TemplateLibrary
    var stack: [TemplateValue]
    var output = Output()

    /// Output of keyed items from an earlier rendering (``TemplateLibrary/render(_:_:keeping:)``).
    var kept: (any KeptFragments)?
    /// Where each recorded keyed item went, in order.
    var fragments: [RenderedPage.Fragment] = []
    /// Items copied from ``kept``.
    var reused = 0
    /// Where each value on the stack above the root came from: the section's block (-1 for a
    /// lambda's result) and the item's index in its list (-1 for a value that is not a list's).
    var origins: [(serial: Int, index: Int)] = []
    /// The root's members that hold a keyed list: the caller keys a page by its value without
    /// them, so an item that looks one of them up is not recorded (its key would not cover it).
    /// Found when the first keyed list is rendered (most pages have none: no walk of their value).
    var rootMembersWithKeyedLists: Set<String>?
    /// While a keyed list's items are rendered: the stack index of its items.
    var keyedBase: Int?
    /// While a keyed item is rendered: whether it looked up a value holding a keyed list below it.
    var lookedUpKeyedListBelow = false

    init(library: TemplateLibrary, root: TemplateValue) {
        self.library = library
        self.stack = [root]
        stack.reserveCapacity(16)
        origins.reserveCapacity(16)
    }

    mutating func render(_ nodes: [Node], _ initial: Frame) {
        var frame = initial
        if frame.indentation.isEmpty {
            for node in nodes { render(node, &frame) }
            return
        }
        let start = output.bytes.count
        for node in nodes {
            guard output.endsWithNewline(since: start) else {
                render(node, &frame)
                continue
            }
            output.append(frame.indentation)
            let before = output.bytes.count
            render(node, &frame)
            if output.bytes.count == before { output.bytes.removeLast(frame.indentation.count) }
        }
    }

    mutating func render(_ node: Node, _ frame: inout Frame) {
        switch node {
        case .text(let bytes):
            output.append(bytes)

        case .variable(let name, let escaped):
            guard let value = lookup(name) else { return }
            switch value {
            case .null: return
            case .lambda(let lambda):
                let result = lambda("")
                renderLambdaResult(escaped ? escape(result, frame.contentType) : result, frame)
            default:
                if escaped { appendEscaped(value, frame.contentType) } else { appendPrinted(value) }
            }

        case .section(let name, let body):
            let value = lookup(name)
            if case .lambda(let lambda)? = value {
                renderLambdaResult(lambda(body.source), frame)
            } else {
                renderSection(value, body, frame)
            }

        case .inverted(let name, let body):
            switch lookup(name) {
            case .list(let items)?:
                guard items.isEmpty else { return }
                push(.list(items), from: body, at: -1)
                render(body.nodes, frame)
                pop()
            case .keyed(let list)?:
                guard list.keys.isEmpty else { return }
                push(.list([]), from: body, at: -1)
                render(body.nodes, frame)
                pop()
            case .bool(let value)?:
                if !value { render(body.nodes, frame) }
            case nil, .null?:
                render(body.nodes, frame)
            default:
                return
            }

        case .block(let id, let defaultBody, let indentation):
            let body = frame.overrides.first { $0.id == id }?.block ?? defaultBody
            var inner = frame
            inner.indentation += indentation
            render(body.nodes, inner)

        case .partial(let template, let indentation, let overrides):
            guard let template else { return }
            renderPartial(library.templates[template], indentation, overrides, frame)

        case .dynamicPartial(let name, let indentation, let overrides):
            guard case .string(let partialName)? = lookup(name), let template = library.index[partialName] else { return }
            renderPartial(library.templates[template], indentation, overrides, frame)

        case .contentType(let type):
            frame.contentType = type

        case .override:
            return
        }
    }

    /// A section over `value`: lists iterate, booleans decide, null renders nothing, and any
    /// other value is pushed on the stack for the body.
    mutating func renderSection(_ value: TemplateValue?, _ body: Block, _ frame: Frame) {
        switch value {
        case .list(let items)?:
            for (i, item) in items.enumerated() {
                push(item, from: body, at: i)
                render(body.nodes, frame)
                pop()
            }
        case .keyed(let list)?:
            renderKeyed(list, body, frame)
        case .bool(let condition)?:
            if condition { render(body.nodes, frame) }
        case nil, .null?:
            return
        case let value?:
            push(value, from: body, at: -1)
            render(body.nodes, frame)
            pop()
        }
    }

    /// Puts a section's value (item `index` of a list, -1 for another value) on the stack.
    mutating func push(_ value: TemplateValue, from body: Block, at index: Int) {
        stack.append(value)
        origins.append((body.serial, index))
    }

    mutating func pop() {
        stack.removeLast()
        origins.removeLast()
    }

    /// A keyed list's items. Each item's output is recorded under its key and its section: the
    /// section's block, where on the page it is (the sections and list items it is inside), and
    /// what else the output depends on (the content type, the indentation, the overrides in force).
    /// An item ``kept`` knows is copied from there. Not recorded: an item that looked up a value
    /// holding a keyed list below itself on the stack (no key covers what such a list holds),
    /// and the items of a keyed list inside a keyed item or a lambda's result (rendered as a
    /// list's: the item around them is not what the caller keys the page by).
    mutating func renderKeyed(_ list: KeyedList, _ body: Block, _ frame: Frame) {
        guard body.serial >= 0, keyedBase == nil, origins.allSatisfy({ $0.serial >= 0 }) else {
            for i in list.keys.indices {
                push(list.item(i), from: body, at: i)
                render(body.nodes, frame)
                pop()
            }
            return
        }
        if rootMembersWithKeyedLists == nil, case .object(let members)? = stack.first {
            rootMembersWithKeyedLists = Set(members.filter { $0.value.holdsKeyedList }.map(\.key))
        }
        var section = ""
        for origin in origins { section += "\(origin.serial).\(origin.index)/" }
        section += "\(body.serial) \(frame.contentType.name) "
        for byte in frame.indentation { section += String(byte, radix: 16) + "." }
        for o in frame.overrides { section += " \(o.id):\(o.block.serial)" }
        keyedBase = stack.count
        defer { keyedBase = nil }
        for (i, item) in list.keys.enumerated() {
            let start = output.bytes.count
            if let bytes = kept?.bytes(section: section, item: item) {
                output.bytes.append(contentsOf: bytes)
                reused += 1
            } else {
                lookedUpKeyedListBelow = false
                push(list.item(i), from: body, at: i)
                render(body.nodes, frame)
                pop()
                if lookedUpKeyedListBelow { continue }
            }
            fragments.append(RenderedPage.Fragment(section: section, item: item, offset: start, length: output.bytes.count - start))
        }
    }

    /// A partial starts with HTML escaping, adds its indentation to the frame's, and keeps the
    /// overrides already in force over its own.
    mutating func renderPartial(_ template: Block, _ indentation: [UInt8], _ overrides: [Override], _ frame: Frame) {
        var inner = frame
        inner.indentation += indentation
        inner.contentType = .html
        for o in overrides where !frame.overrides.contains(where: { $0.id == o.id }) {
            inner.overrides.append(o)
        }
        render(template.nodes, inner)
    }

    /// A lambda's result is rendered as a template, as a section over the top of the stack.
    mutating func renderLambdaResult(_ text: String, _ frame: Frame) {
        guard let template = library.lambdaTemplate(text) else { return }
        renderSection(stack.last, template, frame)
    }

    // MARK: Names

    /// The value of `name`: its first part from the top of the stack down (the first value that
    /// has it, even as `null`), the other parts from that value only.
    mutating func lookup(_ name: Name) -> TemplateValue? {
        let parts = name.parts
        guard let first = parts.first else { return stack.last }
        var value: TemplateValue
        if name.anchored {
            guard let top = stack.last, let found = Self.member(first, of: top) else { return nil }
            value = found
        } else {
            var found: TemplateValue?
            for i in stack.indices.reversed() {
                if let v = Self.member(first, of: stack[i]) {
                    found = v
                    if let base = keyedBase, i < base, i == 0 ? rootMembersWithKeyedLists?.contains(first) == true : v.holdsKeyedList {
                        lookedUpKeyedListBelow = true
                    }
                    break
                }
            }
            guard let found else { return nil }
            value = found
        }
        for part in parts.dropFirst() {
            guard let next = Self.member(part, of: value) else { return nil }
            value = next
        }
        return value
    }

    @inline(__always)
    static func member(_ key: String, of value: TemplateValue) -> TemplateValue? {
        if case .object(let members) = value { return members[key] }
        return nil
    }

    // MARK: Printing

    mutating func appendPrinted(_ value: TemplateValue) {
        switch value {
        case .string(let s): output.append(s)
        default: output.append(Self.printed(value))
        }
    }

    mutating func appendEscaped(_ value: TemplateValue, _ type: ContentType) {
        switch (value, type.escape) {
        case (.string(let s), .html): output.appendHTMLEscaped(s)
        case (.int, .html), (.bool, .html): output.append(Self.printed(value))
        default: output.append(escape(Self.printed(value), type))
        }
    }

    func escape(_ text: String, _ type: ContentType) -> String {
        switch type.escape {
        case .html:
            var out = Output()
            out.appendHTMLEscaped(text)
            return String(decoding: out.bytes, as: UTF8.self)
        case .none: return text
        case .custom(let escape): return escape(text)
        }
    }

    /// What swift-mustache prints: Swift's `String(describing:)`.
    static func printed(_ value: TemplateValue) -> String {
        switch value {
        case .string(let s): return s
        case .int(let n): return String(n)
        case .double(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return ""
        case .list, .object, .lambda, .keyed: return String(describing: value.anyValue)
        }
    }
}
