import BestiaryDiagnostics
import BestiaryRender

/// Builds the markup the preview adds to HTML responses and puts it in place.
enum HTMLInjection {
    static let overlayID = "__bestiary-overlay"

    /// The stylesheet, the script (with the status the page was served with) and, while the last
    /// build failed, the overlay listing its diagnostics, so the errors show even before the
    /// script has connected (or without JavaScript).
    static func snippet(status: LiveStatus, file: String, built: Bool = true) -> String {
        var s = "\n<!-- bestiary serve: live reload (never part of `bestiary build` output) -->\n"
        s += "<link rel=\"stylesheet\" href=\"\(LiveReload.prefix)live.css?v=\(LiveAssets.version)\">\n"
        s += "<script src=\"\(LiveReload.prefix)live.js?v=\(LiveAssets.version)\" data-session=\"\(escape(status.session))\" "
        s += "data-generation=\"\(status.generation)\" data-file=\"\(escape(file))\"\(built ? "" : " data-built=\"no\"")></script>\n"
        if status.phase == .failed { s += overlay(status.diagnostics, built: built) }
        return s
    }

    /// The overlay's heading: over the last good build, or over nothing built yet (the server's
    /// not-found page, which it said was "the last good build").
    static func overlayTitle(built: Bool) -> String {
        built ? "Build failed: this page shows the last good build" : "Build failed: nothing is built at this address yet"
    }

    /// The error overlay. Every piece of text is escaped: messages quote the user's input.
    static func overlay(_ diagnostics: [Diagnostic], built: Bool = true) -> String {
        // English, left to right, whatever the page's language (an Arabic page turned the
        // diagnostics round: `…not 9 [load] .1`).
        var s = "<div id=\"\(overlayID)\" role=\"alertdialog\" aria-labelledby=\"\(overlayID)-title\" lang=\"en\" dir=\"ltr\">"
        s += "<div class=\"__bestiary-panel\">"
        s += "<h2 id=\"\(overlayID)-title\" class=\"__bestiary-title\">\(overlayTitle(built: built))</h2>"
        s += "<ol class=\"__bestiary-list\">"
        for d in diagnostics {
            let place = d.location.map(\.description) ?? "bestiary"
            s += "<li class=\"__bestiary-item __bestiary-\(d.severity.rawValue)\">"
            s += "<code class=\"__bestiary-where\">\(escape(place))</code> "
            s += "<span class=\"__bestiary-severity\">\(d.severity.rawValue):</span> "
            s += "<span class=\"__bestiary-message\">\(escape(d.message))</span>"
            if let stage = d.stage { s += " <span class=\"__bestiary-stage\">[\(escape(stage))]</span>" }
            s += "</li>"
        }
        s += "</ol><p class=\"__bestiary-hint\">Fix the file and save: this page updates by itself.</p>"
        s += "<button type=\"button\" class=\"__bestiary-close\">Hide</button></div></div>\n"
        return s
    }

    /// Inserts `snippet` before the last `</body>` (any case), or appends it when there is none.
    static func inject(_ snippet: String, into html: [UInt8]) -> [UInt8] {
        let needle = Array("</body".utf8)
        var index = html.count - needle.count
        while index >= 0 {
            var match = true
            for j in 0..<needle.count where lower(html[index + j]) != needle[j] {
                match = false
                break
            }
            if match { break }
            index -= 1
        }
        var out = [UInt8]()
        out.reserveCapacity(html.count + snippet.utf8.count)
        if index >= 0 {
            out.append(contentsOf: html[..<index])
            out.append(contentsOf: snippet.utf8)
            out.append(contentsOf: html[index...])
        } else {
            out.append(contentsOf: html)
            out.append(contentsOf: snippet.utf8)
        }
        return out
    }

    private static func lower(_ b: UInt8) -> UInt8 {
        (b >= 65 && b <= 90) ? b + 32 : b
    }

    /// HTML text and attribute escaping.
    static func escape(_ s: String) -> String { Escape.xml(s) }
}
