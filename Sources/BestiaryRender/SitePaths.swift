/// Where each page lives in `output/`, and relative URLs between pages.
///
/// The default language lives at the root (`animals/ID/index.html`), every other language under
/// its code (`en/animals/ID/index.html`), as Hugo does without `defaultContentLanguageInSubdir`.
/// Links between pages are relative, so the output works under any base path and in `serve`.
public struct SitePaths: Sendable {
    public let defaultLanguage: String

    public init(defaultLanguage: String) {
        self.defaultLanguage = defaultLanguage
    }

    /// `""` for the default language, `"en/"` otherwise.
    public func languagePrefix(_ language: String) -> String {
        language == defaultLanguage ? "" : language + "/"
    }

    /// Directory of a page relative to the output root, ending in `/` (or empty for the home).
    public func home(_ language: String) -> String { languagePrefix(language) }
    public func animal(_ id: String, _ language: String) -> String { languagePrefix(language) + "animals/\(id)/" }
    public func collection(_ language: String) -> String { languagePrefix(language) + "collection/" }
    public func quiz(_ language: String) -> String { languagePrefix(language) + "quiz/" }
    public func credits(_ language: String) -> String { languagePrefix(language) + "credits/" }
    public func sightings(_ language: String) -> String { languagePrefix(language) + "sightings/" }
    public func settings(_ language: String) -> String { languagePrefix(language) + "settings/" }
    /// Where the service worker sends a learner who opens a page that is not saved for offline use.
    public func offline(_ language: String) -> String { languagePrefix(language) + "offline/" }
    public func page(_ slug: String, _ language: String) -> String { languagePrefix(language) + "\(slug)/" }

    /// The relative URL from the page in `from` (a directory) to the output root: `../../`.
    public static func rootRelative(from directory: String) -> String {
        let depth = directory.split(separator: "/").count
        return depth == 0 ? "./" : String(repeating: "../", count: depth)
    }

    /// The shortest relative URL from the page in directory `from` to the output path `to`
    /// (a directory ending in `/`, or a file).
    ///
    /// Pages call this a dozen times each (navigation, cards, media), so ASCII paths, which all
    /// generated paths are, take a walk over their UTF-8 bytes that allocates nothing but the
    /// result. Other paths take ``relativeBySplitting(from:to:)``, whose results this one equals:
    /// for ASCII, splitting on the `Character` `/` is splitting on the byte, and comparing
    /// `Substring`s is comparing bytes (no ASCII grapheme cluster holds a `/`, and no two
    /// different ASCII strings are canonically equivalent).
    public static func relative(from directory: String, to path: String) -> String {
        var fromText = directory
        var toText = path
        return fromText.withUTF8 { from in
            toText.withUTF8 { to in
                relativeASCII(from: from, to: to) ?? relativeBySplitting(from: directory, to: path)
            }
        }
    }

    /// ``relative(from:to:)`` over the UTF-8 bytes of two ASCII paths; nil when either holds
    /// another byte.
    private static func relativeASCII(from: UnsafeBufferPointer<UInt8>, to: UnsafeBufferPointer<UInt8>) -> String? {
        let slash = UInt8(ascii: "/")
        for byte in from where byte >= 0x80 { return nil }
        for byte in to where byte >= 0x80 { return nil }
        // The target's directory part: all of it for a directory, up to its last `/` for a file
        // (whose name is what follows, never empty: a path ending in `/` is a directory).
        let isDirectory = to.isEmpty || to[to.count - 1] == slash
        var toEnd = to.count
        var fileStart = to.count
        if !isDirectory {
            var lastSlash = -1
            for i in stride(from: to.count - 1, through: 0, by: -1) where to[i] == slash {
                lastSlash = i
                break
            }
            toEnd = max(lastSlash, 0)
            fileStart = lastSlash + 1
        }
        // Skips the `/`s at `i`, then returns the end of the component starting there.
        func component(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, end: Int) -> Int {
            while i < end && bytes[i] == slash { i += 1 }
            var j = i
            while j < end && bytes[j] != slash { j += 1 }
            return j
        }
        // Walks the common leading components.
        var f = 0
        var t = 0
        while true {
            var fi = f
            var ti = t
            let fEnd = component(from, &fi, end: from.count)
            let tEnd = component(to, &ti, end: toEnd)
            guard fi < fEnd, ti < tEnd, fEnd - fi == tEnd - ti else { break }
            var same = true
            for k in 0..<(fEnd - fi) where from[fi + k] != to[ti + k] {
                same = false
                break
            }
            guard same else { break }
            f = fEnd
            t = tEnd
        }
        // One `../` per component of `from` left, then what is left of the target's directory,
        // each component followed by one `/`, then the file's name.
        var up = 0
        var i = f
        while true {
            let end = component(from, &i, end: from.count)
            if i == end { break }
            up += 1
            i = end
        }
        let capacity = max(2, 3 * up + (toEnd - t) + 1 + (to.count - fileStart))
        return String(unsafeUninitializedCapacity: capacity) { out in
            var n = 0
            func put(_ byte: UInt8) {
                out[n] = byte
                n += 1
            }
            for _ in 0..<up {
                put(UInt8(ascii: "."))
                put(UInt8(ascii: "."))
                put(slash)
            }
            var i = t
            while true {
                let end = component(to, &i, end: toEnd)
                if i == end { break }
                while i < end {
                    put(to[i])
                    i += 1
                }
                put(slash)
            }
            for k in fileStart..<max(fileStart, to.count) { put(to[k]) }
            if n == 0 {
                put(UInt8(ascii: "."))
                put(slash)
            }
            return n
        }
    }

    /// The shortest relative URL by splitting both paths into components: the reference
    /// ``relative(from:to:)`` equals, and what it does for paths that are not ASCII.
    static func relativeBySplitting(from directory: String, to path: String) -> String {
        let from = directory.split(separator: "/")
        let isDirectory = path.isEmpty || path.hasSuffix("/")
        var to = path.split(separator: "/")
        let file = isDirectory ? nil : to.popLast()
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let up = String(repeating: "../", count: from.count - common)
        let down = to[common...].map { $0 + "/" }.joined()
        let result = up + down + (file.map(String.init) ?? "")
        return result.isEmpty ? "./" : result
    }
}
