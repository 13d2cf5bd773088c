/// A parsed template set flattened for rendering: every ``Block`` becomes a run of ``Op``s in
/// one buffer, and text, names and overrides are indices into the program's tables.
///
/// Why: walking the ``Node`` tree copied each node out of its array, retaining its text, its
/// name's parts and its block; with both cores rendering pages from one library, those reference
/// counts sat on shared cache lines. `perf` put the copies and their `swift_retain`s at about 2 of
/// a full build's 13 CPU-seconds. An ``Op`` holds only integers, so taking one touches no
/// reference count, and the tables live in memory the program owns for its whole life.
final class Program: @unchecked Sendable {
    /// One step of a block. Blocks, names, text and override lists are indices into the
    /// program's tables (`Int32`: a program is far smaller than 2 GiB).
    enum Op {
        case text(start: Int32, count: Int32)
        case variable(name: Int32, escaped: Bool)
        case section(name: Int32, block: Int32)
        case inverted(name: Int32, block: Int32)
        /// `{{$name}}default{{/name}}` outside a parent: override `id`, else `block`.
        case block(id: Int32, block: Int32, indentation: Int32)
        /// `{{>name}}`: `template` is the library's template number (-1 for a name it lacks).
        case partial(template: Int32, indentation: Int32, overrides: Int32)
        case dynamicPartial(name: Int32, indentation: Int32, overrides: Int32)
        case contentType(Int32)
    }

    /// Where a block's ops are, and its ``Block/serial``.
    struct BlockInfo {
        var start: Int32
        var count: Int32
        var serial: Int32
    }

    /// A `(start, count)` run of one of the tables.
    struct Run {
        var start: Int32
        var count: Int32
        static let empty = Run(start: 0, count: 0)
    }

    /// A name: its parts (a run of ``View/parts``) and whether it is anchored (`.name`).
    struct NameInfo {
        var parts: Run
        var anchored: Bool
    }

    /// An override of a `{{$block}}`: its id and its body (a block of this program).
    struct OverrideInfo {
        var id: Int32
        var block: Int32
    }

    /// The tables as raw pointers, read-only: copying a view copies pointers only.
    struct View {
        let ops: UnsafeBufferPointer<Op>
        let blocks: UnsafeBufferPointer<BlockInfo>
        let bytes: UnsafeBufferPointer<UInt8>
        /// Indentations: runs of ``bytes``.
        let runs: UnsafeBufferPointer<Run>
        let names: UnsafeBufferPointer<NameInfo>
        let parts: UnsafeBufferPointer<String>
        let overrides: UnsafeBufferPointer<OverrideInfo>
        /// Override lists: runs of ``overrides``.
        let overrideLists: UnsafeBufferPointer<Run>
        /// The block each root became.
        let roots: UnsafeBufferPointer<Int32>
    }

    let view: View
    /// Each block's raw source (what a lambda section receives), by block number.
    let sources: [String]
    /// The content types of `{{% CONTENT_TYPE }}` pragmas, by the number in ``Op/contentType(_:)``.
    let contentTypes: [ContentType]

    /// Flattens `roots` (each a template) and every block they hold.
    init(roots: [Block]) {
        var compiler = Compiler()
        let rootNumbers = roots.map { compiler.add($0) }
        func table<T>(_ values: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
            _ = buffer.initialize(from: values)
            return UnsafeBufferPointer(rebasing: buffer[0..<values.count])
        }
        view = View(
            ops: table(compiler.ops), blocks: table(compiler.blocks), bytes: table(compiler.bytes), runs: table(compiler.runs),
            names: table(compiler.names), parts: table(compiler.parts), overrides: table(compiler.overrides),
            overrideLists: table(compiler.overrideLists), roots: table(rootNumbers))
        sources = compiler.sources
        contentTypes = compiler.contentTypes
    }

    deinit {
        // Each table holds exactly its initialized elements (``init(roots:)``).
        func free<T>(_ buffer: UnsafeBufferPointer<T>) {
            let start = UnsafeMutablePointer(mutating: buffer.baseAddress!)
            start.deinitialize(count: buffer.count)
            start.deallocate()
        }
        free(view.ops)
        free(view.blocks)
        free(view.bytes)
        free(view.runs)
        free(view.names)
        free(view.parts)
        free(view.overrides)
        free(view.overrideLists)
        free(view.roots)
    }

    /// Numbers blocks in the order they are met (a block's nested blocks after it), and lays
    /// out each block's ops in one run.
    private struct Compiler {
        var ops: [Op] = []
        var blocks: [BlockInfo] = []
        var sources: [String] = []
        var bytes: [UInt8] = []
        var runs: [Run] = [.empty]
        var names: [NameInfo] = []
        var parts: [String] = []
        var overrides: [OverrideInfo] = []
        var overrideLists: [Run] = [.empty]
        var contentTypes: [ContentType] = []

        /// Adds `block` and the blocks inside it; returns its number.
        mutating func add(_ block: Block) -> Int32 {
            let number = Int32(blocks.count)
            blocks.append(BlockInfo(start: 0, count: 0, serial: Int32(block.serial)))
            sources.append(block.source)
            // The block's own ops are made first (their nested blocks are numbered as they are
            // met), then laid out in one run.
            var own: [Op] = []
            own.reserveCapacity(block.nodes.count)
            for node in block.nodes {
                switch node {
                case .text(let text): own.append(.text(start: Int32(bytes.count), count: Int32(text.count))); bytes += text
                case .variable(let name, let escaped): own.append(.variable(name: add(name), escaped: escaped))
                case .section(let name, let body): own.append(.section(name: add(name), block: add(body)))
                case .inverted(let name, let body): own.append(.inverted(name: add(name), block: add(body)))
                case .block(let id, let body, let indentation):
                    own.append(.block(id: Int32(id), block: add(body), indentation: add(indentation: indentation)))
                case .partial(let template, let indentation, let list):
                    own.append(
                        .partial(template: Int32(template ?? -1), indentation: add(indentation: indentation), overrides: add(list)))
                case .dynamicPartial(let name, let indentation, let list):
                    own.append(.dynamicPartial(name: add(name), indentation: add(indentation: indentation), overrides: add(list)))
                case .contentType(let type):
                    own.append(.contentType(Int32(contentTypes.count)))
                    contentTypes.append(type)
                case .override:
                    // Only the parser sees these (a parent's overrides are in its partial node).
                    continue
                }
            }
            blocks[Int(number)].start = Int32(ops.count)
            blocks[Int(number)].count = Int32(own.count)
            ops += own
            return number
        }

        mutating func add(_ name: Name) -> Int32 {
            names.append(NameInfo(parts: Run(start: Int32(parts.count), count: Int32(name.parts.count)), anchored: name.anchored))
            parts += name.parts
            return Int32(names.count - 1)
        }

        /// An indentation's run of ``bytes`` (0: none).
        mutating func add(indentation: [UInt8]) -> Int32 {
            if indentation.isEmpty { return 0 }
            runs.append(Run(start: Int32(bytes.count), count: Int32(indentation.count)))
            bytes += indentation
            return Int32(runs.count - 1)
        }

        /// An override list's run of ``overrides`` (0: none).
        mutating func add(_ list: [Override]) -> Int32 {
            if list.isEmpty { return 0 }
            let made = list.map { OverrideInfo(id: Int32($0.id), block: add($0.block)) }
            overrideLists.append(Run(start: Int32(overrides.count), count: Int32(made.count)))
            overrides += made
            return Int32(overrideLists.count - 1)
        }
    }
}
