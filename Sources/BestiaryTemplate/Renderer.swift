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
        var overrides: [OverrideRef] = []
        var contentType = ContentType.html
    }

    /// A block of one of ``programs``.
    struct BlockRef {
        var program: Int32
        var block: Int32
    }

    /// An override in force: its block id and its body.
    struct OverrideRef {
        var id: Int32
        var body: BlockRef
    }

    let library: TemplateLibrary
    /// The library's program, then the programs of the lambda results being rendered
    /// (innermost last); ``views`` are their tables.
    var programs: [Program]
    var views: [Program.View]
    var stack: [TemplateValue]
    var output = Output()

    /// The block ids of the library and of the lambda results parsed so far (nil until the
    /// first): two results that bring different new block names never share an id.
    var lambdaBlockIDs: [String: Int]?

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
    /// How many partials are being rendered inside each other.
    var partialDepth = 0
    static let maximumPartialDepth = 100

    init(library: TemplateLibrary, root: TemplateValue) {
        self.library = library
        self.programs = [library.program]
        self.views = [library.program.view]
        self.stack = [root]
        stack.reserveCapacity(16)
        origins.reserveCapacity(16)
    }

    /// Template `template` of the library (its number in ``TemplateLibrary``).
    func template(_ template: Int32) -> BlockRef {
        BlockRef(program: 0, block: views[0].roots[Int(template)])
    }

    func serial(of block: BlockRef) -> Int {
        Int(views[Int(block.program)].blocks[Int(block.block)].serial)
    }

    /// Renders a block's ops. Taking an op copies integers only (``Program``).
    mutating func render(_ block: BlockRef, _ initial: Frame) {
        let view = views[Int(block.program)]
        let info = view.blocks[Int(block.block)]
        let ops = Int(info.start)..<Int(info.start + info.count)
        var frame = initial
        if frame.indentation.isEmpty {
            for i in ops { render(view.ops[i], in: block.program, view, &frame) }
            return
        }
        let start = output.count
        for i in ops {
            guard output.endsWithNewline(since: start, kept: kept) else {
                render(view.ops[i], in: block.program, view, &frame)
                continue
            }
            output.append(frame.indentation)
            // (Counted with what is spliced: an op that spliced a kept item wrote something.)
            let before = output.count
            render(view.ops[i], in: block.program, view, &frame)
            if output.count == before { output.bytes.removeLast(frame.indentation.count) }
        }
    }

    /// One op of a block of program `program` (whose tables are `view`).
    mutating func render(_ op: Program.Op, in program: Int32, _ view: Program.View, _ frame: inout Frame) {
        switch op {
        case .text(let start, let count):
            output.append(UnsafeBufferPointer(rebasing: view.bytes[Int(start)..<Int(start + count)]))

        case .variable(let name, let escaped):
            guard let value = lookup(name, view) else { return }
            switch value {
            case .null: return
            case .lambda(let lambda):
                let result = lambda("")
                renderLambdaResult(escaped ? escape(result, frame.contentType) : result, frame)
            default:
                if escaped { appendEscaped(value, frame.contentType) } else { appendPrinted(value) }
            }

        case .section(let name, let block):
            let value = lookup(name, view)
            let body = BlockRef(program: program, block: block)
            if case .lambda(let lambda)? = value {
                renderLambdaResult(lambda(programs[Int(program)].sources[Int(block)]), frame)
            } else {
                renderSection(value, body, frame)
            }

        case .inverted(let name, let block):
            let body = BlockRef(program: program, block: block)
            switch lookup(name, view) {
            case .list(let items)?:
                guard items.isEmpty else { return }
                push(.list(items), from: body, at: -1)
                render(body, frame)
                pop()
            case .keyed(let list)?:
                guard list.keys.isEmpty else { return }
                push(.list([]), from: body, at: -1)
                render(body, frame)
                pop()
            case .bool(let value)?:
                if !value { render(body, frame) }
            case nil, .null?:
                render(body, frame)
            default:
                return
            }

        case .block(let id, let block, let indentation):
            let body = frame.overrides.first { $0.id == id }?.body ?? BlockRef(program: program, block: block)
            var inner = frame
            appendIndentation(indentation, view, to: &inner)
            render(body, inner)

        case .partial(let template, let indentation, let overrides):
            guard template >= 0 else { return }
            renderPartial(self.template(template), indentation, overrides, in: program, view, frame)

        case .dynamicPartial(let name, let indentation, let overrides):
            guard case .string(let partialName)? = lookup(name, view), let template = library.index[partialName] else { return }
            renderPartial(self.template(Int32(template)), indentation, overrides, in: program, view, frame)

        case .contentType(let type):
            frame.contentType = programs[Int(program)].contentTypes[Int(type)]
        }
    }

    /// A section over `value`: lists iterate, booleans decide, null renders nothing, and any
    /// other value is pushed on the stack for the body.
    mutating func renderSection(_ value: TemplateValue?, _ body: BlockRef, _ frame: Frame) {
        switch value {
        case .list(let items)?:
            for (i, item) in items.enumerated() {
                push(item, from: body, at: i)
                render(body, frame)
                pop()
            }
        case .keyed(let list)?:
            renderKeyed(list, body, frame)
        case .bool(let condition)?:
            if condition { render(body, frame) }
        case nil, .null?:
            return
        case let value?:
            push(value, from: body, at: -1)
            render(body, frame)
            pop()
        }
    }

    /// Puts a section's value (item `index` of a list, -1 for another value) on the stack.
    mutating func push(_ value: TemplateValue, from body: BlockRef, at index: Int) {
        stack.append(value)
        origins.append((serial(of: body), index))
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
    /// list's: the item around them is not what the caller keys the page by), nor the items under
    /// an override a lambda's result brings (its block has no serial to name it by in the section;
    /// the result pushes no value over a `true`, so the origins do not always show it).
    mutating func renderKeyed(_ list: KeyedList, _ body: BlockRef, _ frame: Frame) {
        guard serial(of: body) >= 0, keyedBase == nil, origins.allSatisfy({ $0.serial >= 0 }),
            frame.overrides.allSatisfy({ serial(of: $0.body) >= 0 })
        else {
            for i in list.keys.indices {
                push(list.item(i), from: body, at: i)
                render(body, frame)
                pop()
            }
            return
        }
        if rootMembersWithKeyedLists == nil, case .object(let members)? = stack.first {
            rootMembersWithKeyedLists = Set(members.filter { $0.value.holdsKeyedList }.map(\.key))
        }
        var section = ""
        for origin in origins { section += "\(origin.serial).\(origin.index)/" }
        section += "\(serial(of: body)) \(frame.contentType.name) "
        for byte in frame.indentation { section += String(byte, radix: 16) + "." }
        for o in frame.overrides { section += " \(o.id):\(serial(of: o.body))" }
        keyedBase = stack.count
        defer { keyedBase = nil }
        // Room for the earlier rendering's bytes at once (a list page of 10,000 cards is 5 MB).
        // (Not for an empty list: a page's kept file is read only once a card is looked for.)
        if !list.keys.isEmpty, let kept, output.bytes.capacity < kept.byteCount {
            output.bytes.reserveCapacity(kept.byteCount + kept.byteCount / 16)
        }
        for (i, item) in list.keys.enumerated() {
            let start = output.count
            if let range = kept?.keptRange(section: section, item: item, at: i) {
                output.splice(range)
                reused += 1
            } else if let bytes = kept?.bytes(section: section, item: item, at: i) {
                output.bytes.append(contentsOf: bytes)
                reused += 1
            } else {
                lookedUpKeyedListBelow = false
                push(list.item(i), from: body, at: i)
                render(body, frame)
                pop()
                if lookedUpKeyedListBelow { continue }
            }
            fragments.append(RenderedPage.Fragment(section: section, item: item, offset: start, length: output.count - start))
        }
    }

    /// Adds the indentation run `run` of `view` (0: none) to a frame's.
    func appendIndentation(_ run: Int32, _ view: Program.View, to frame: inout Frame) {
        guard run != 0 else { return }
        let r = view.runs[Int(run)]
        frame.indentation.append(contentsOf: UnsafeBufferPointer(rebasing: view.bytes[Int(r.start)..<Int(r.start + r.count)]))
    }

    /// A partial starts with HTML escaping, adds its indentation to the frame's, and keeps the
    /// overrides already in force over its own (override list `overrides` of program `program`).
    /// Beyond ``maximumPartialDepth`` partials inside each other, a partial renders nothing: a
    /// partial named by a value (`{{>*name}}`) can include itself, which the compiler cannot see.
    mutating func renderPartial(
        _ template: BlockRef, _ indentation: Int32, _ overrides: Int32, in program: Int32, _ view: Program.View, _ frame: Frame
    ) {
        guard partialDepth < Self.maximumPartialDepth else { return }
        partialDepth += 1
        defer { partialDepth -= 1 }
        var inner = frame
        appendIndentation(indentation, view, to: &inner)
        inner.contentType = .html
        if overrides != 0 {
            let list = view.overrideLists[Int(overrides)]
            for k in Int(list.start)..<Int(list.start + list.count) {
                let o = view.overrides[k]
                guard !frame.overrides.contains(where: { $0.id == o.id }) else { continue }
                inner.overrides.append(OverrideRef(id: o.id, body: BlockRef(program: program, block: o.block)))
            }
        }
        render(template, inner)
    }

    /// A lambda's result is rendered as a template, as a section over the top of the stack. Its
    /// program stays in ``programs`` while it renders (overrides in force may name its blocks).
    mutating func renderLambdaResult(_ text: String, _ frame: Frame) {
        if TemplateLibrary.isPlain(text) {
            // A block of one text op (none for ""), as a section over the top of the stack: the
            // text once per item, once for a value, never for false or null. Such a lambda (the
            // theme's `{{#asset}}`) is on every page: no program is made for it.
            let times: Int
            switch stack.last {
            case .list(let items)?: times = items.count
            case .keyed(let list)?: times = list.keys.count
            case .bool(let condition)?: times = condition ? 1 : 0
            case nil, .null?: times = 0
            default: times = 1
            }
            for _ in 0..<times { output.append(text) }
            return
        }
        var ids = lambdaBlockIDs ?? library.blockIDs
        let template = library.lambdaTemplate(text, blockIDs: &ids)
        lambdaBlockIDs = ids
        guard let template else { return }
        let program = Program(roots: [template])
        programs.append(program)
        views.append(program.view)
        defer {
            programs.removeLast()
            views.removeLast()
        }
        renderSection(stack.last, BlockRef(program: Int32(programs.count - 1), block: program.view.roots[0]), frame)
    }

    // MARK: Names

    /// The value of `name`: its first part from the top of the stack down (the first value that
    /// has it, even as `null`), the other parts from that value only.
    mutating func lookup(_ name: Int32, _ view: Program.View) -> TemplateValue? {
        let info = view.names[Int(name)]
        guard info.parts.count > 0 else { return stack.last }
        let first = view.parts[Int(info.parts.start)]
        var value: TemplateValue
        if info.anchored {
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
        for k in Int(info.parts.start) + 1..<Int(info.parts.start + info.parts.count) {
            guard let next = Self.member(view.parts[k], of: value) else { return nil }
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
