import BestiaryDiagnostics
import Foundation

/// Names a theme's ES module imports (`import { a, b } from "./x.js"`) that the module it names
/// does not export. A browser refuses such a module, and with it every page that loads it (the
/// quiz stops). It happens when a site keeps its own copy of a module from an earlier Bestiary
/// and a module of this version imports something added since, or the other way round.
enum ModuleExports {
    /// One warning per import that asks for a missing name, where one of the two modules is the
    /// site's own (the default theme's modules agree with each other: its tests check that).
    static func missingNames(in theme: Theme) -> [Diagnostic] {
        guard theme.files.contains(where: { $0.key.hasPrefix("assets/") && $0.key.hasSuffix(".js") && $0.value.isOverride }) else { return [] }
        var cache: [String: Set<String>?] = [:]
        func exported(_ path: String, _ file: Theme.File) -> Set<String>? {
            if let known = cache[path] { return known }
            let names = exportedNames(code(String(decoding: file.data, as: UTF8.self)))
            cache.updateValue(names, forKey: path)
            return names
        }
        var problems: [Diagnostic] = []
        for (path, file) in theme.files.sorted(by: { $0.key < $1.key }) where path.hasPrefix("assets/") && path.hasSuffix(".js") {
            for statement in namedImports(code(String(decoding: file.data, as: UTF8.self))) {
                guard let target = AssetPipeline.resolve(statement.reference, from: String(path.dropFirst("assets/".count))),
                    let targetFile = theme.files["assets/" + target], file.isOverride || targetFile.isOverride,
                    let names = exported("assets/" + target, targetFile)
                else { continue }
                let missing = statement.names.filter { !names.contains($0) }
                guard !missing.isEmpty else { continue }
                let own = [file, targetFile].filter(\.isOverride).map(\.origin)
                problems.append(.warning(
                    "imports \(missing.map { "'\($0)'" }.joined(separator: ", ")) from \(statement.reference), which does not export \(missing.count == 1 ? "it" : "them"): browsers refuse this module, and the pages that load it stop working. \(own.joined(separator: " and ")) \(own.count == 1 ? "is the site's own copy" : "are the site's own copies"), maybe from an earlier Bestiary: compare with this version's (`bestiary init /tmp/theme`) and bring in what changed, or delete \(own.count == 1 ? "it" : "them") to use the default theme's",
                    at: SourceLocation(path: file.origin, line: statement.line, column: 1), stage: "render"))
            }
        }
        return problems
    }

    /// `text` with its comments blanked, character for character (lines kept).
    static func code(_ text: String) -> String {
        var inComment = false
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(AssetPipeline.codeOnly(Array($0), css: false, inComment: &inComment)) }
            .joined(separator: "\n")
    }

    /// `import { a, b as c } from "./x.js"` (also after a default import, and over several
    /// lines): the names as the module exports them, the reference, and the statement's line.
    static func namedImports(_ code: String) -> [(names: [String], reference: String, line: Int)] {
        let ns = code as NSString
        return importPattern.matches(in: code, range: NSRange(location: 0, length: ns.length)).map { match in
            let names = ns.substring(with: match.range(at: 1)).split(separator: ",").compactMap { part in
                part.split(whereSeparator: \.isWhitespace).first.map(String.init)
            }
            let line = SourceLocation.position(after: ns.substring(to: match.range.location)).line
            return (names, ns.substring(with: match.range(at: 2)), line)
        }
    }

    /// The names `code` exports; nil when its `export` statements do not say them all to this
    /// reading (`export *`, a destructuring or a list of declarations): such a module is not
    /// checked.
    static func exportedNames(_ code: String) -> Set<String>? {
        let range = NSRange(location: 0, length: (code as NSString).length)
        if unknownExport.firstMatch(in: code, range: range) != nil { return nil }
        var names = Set<String>()
        for match in declaredExport.matches(in: code, range: range) {
            names.insert((code as NSString).substring(with: match.range(at: 1)))
        }
        for match in listedExport.matches(in: code, range: range) {
            for part in (code as NSString).substring(with: match.range(at: 1)).split(separator: ",") {
                // `a` or `a as b`: the last word is the exported name.
                if let name = part.split(whereSeparator: \.isWhitespace).last { names.insert(String(name)) }
            }
        }
        return names
    }

    private static let name = "[A-Za-z_$][\\w$]*"
    private static let importPattern = try! NSRegularExpression(
        pattern: "\\bimport\\s+(?:\(name)\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*[\"']([^\"']+)[\"']")
    private static let declaredExport = try! NSRegularExpression(
        pattern: "\\bexport\\s+(?:async\\s+)?(?:function\\s*\\*?|class|const|let|var)\\s*(\(name))")
    private static let listedExport = try! NSRegularExpression(pattern: "\\bexport\\s*\\{([^}]*)\\}")
    private static let unknownExport = try! NSRegularExpression(
        pattern: "\\bexport\\s*\\*|\\bexport\\s+(?:const|let|var)\\s*[\\[{]|\\bexport\\s+(?:const|let|var)\\s[^;\\n]*,\\s*\(name)\\s*=")
}
