import BestiaryContent
import BestiaryDiagnostics
import BestiaryTestSupport
import Foundation
import Testing

/// One defect per case: the loader reports it at the right `path:line:col` with a message that
/// says what is wrong. `check` prints exactly these lines.
@Suite struct InvalidContentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String: String] = [:]
        var binary: [String: Data] = [:]
        var siteYML: String? = TestSite.siteYML
        /// `path:line:col: error: fragment` — the fragment must be contained in the message.
        var expected: String
        var testDescription: String { name }
    }

    static let record = "content/animals/fox.md"

    static let cases: [Case] = [
        Case(name: "unknown key in site.yml", siteYML: TestSite.siteYML + "colour: red\n",
             expected: "content/site.yml:4:1: error: unknown key 'colour' in site.yml"),
        Case(name: "site.yml without languages", siteYML: "title: T\nbase_url: https://example.org/\n",
             expected: "content/site.yml:1:1: error: site.yml needs 'languages'"),
        // A teacher's `languages: [en-UK]`: each text was an error of its own, none at the list.
        Case(name: "content in a language the list has only with a region", files: [record: "---\nname: {en: Fox}\nwikipedia: {en: Red fox}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [en-UK]\n",
             expected: "content/site.yml:3:1: error: the content is written in 'en' (2 texts in 1 file), but languages lists 'en-UK', another code (the language with a region): list 'en' instead, or write the texts under 'en-UK'"),
        // A teacher's: a language's name, or its three-letter code, for its code.
        Case(name: "a language's name in a record", files: [record: "---\nname: {German: Fuchs}\n---\n"],
             expected: "\(record):2:8: error: name: 'German' is not a language code like en or de (did you mean 'de'?)"),
        Case(name: "a language's name in site.yml", siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [Français]\n",
             expected: "content/site.yml:3:13: error: 'Français' is not a language code like en, de or pt-BR (did you mean 'fr'?)"),
        Case(name: "a three-letter code where there is a two-letter one", files: [record: "---\nname: {en: Fox}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [eng]\n",
             expected: "content/site.yml:3:13: warning: 'eng' is written 'en' in the codes browsers, screen readers and Wikipedia use; write 'en'"),
        Case(name: "a text in typographic quotes", files: [record: "---\nname: {de: “Fuchs”}\ngroup: mammal\nhint: {de: Er lebt im Wald}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):2:12: warning: name.de '“Fuchs”' keeps its typographic quotes as part of the text: YAML quotes with straight ones (\" or '); write \"Fuchs\", or leave them out"),
        // A volunteer's spreadsheet: UTF-8 opened as Windows-1252 and saved again.
        Case(name: "a text misread by a spreadsheet", files: [record: "---\nname: {de: \"GroÃŸer Brachvogel\"}\ndescription: {de: Bei 20Â°C singt er}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):2:12: warning: name.de looks like UTF-8 read as Windows-1252 (as a spreadsheet opens a CSV it was not told is UTF-8): 'GroÃŸer' was 'Großer'; mend it here, and in the file it came from"),
        // A translator's: a body named with a dash, and a translation left where its record was.
        Case(name: "a translation named with a dash", files: ["content/animals/fox-en.md": "The fox.\n"],
             expected: "content/animals/fox-en.md:1:1: error: a record starts with front matter: a line '---', fields such as 'name: {en: …}', and another '---'; if it is the body of fox.md in 'en', name it fox.en.md"),
        Case(name: "a translation whose record moved to a folder", files: ["content/animals/birds/owl.md": "---\nname: {de: Eule}\n---\n", "content/animals/owl.en.md": "The owl.\n"],
             expected: "content/animals/owl.en.md:0:0: error: translation without its record: there is no content/animals/owl.md, but content/animals/birds/owl.md is: move the translation next to it"),
        Case(name: "a translation named with a region the site does not list", files: ["content/pages/about.md": "---\ntitle: {de: Über}\n---\n", "content/pages/about.en-GB.md": "About.\n"],
             expected: "content/pages/about.en-GB.md:0:0: error: 'en-GB' is not one of the site's languages (de, en) (did you mean about.en.md? codes are written as in site.yml)"),
        Case(name: "a translation in capitals beside the one in site.yml's spelling", files: ["content/pages/about.md": "---\ntitle: {de: Über}\n---\n", "content/pages/about.EN.md": "About.\n", "content/pages/about.en.md": "About.\n"],
             expected: "content/pages/about.EN.md:0:0: error: 'EN' is not one of the site's languages (de, en) (about.en.md is there already: keep one of the two)"),
        // A translator's: the comment took the closing brace, and the parser stopped a line later.
        Case(name: "a ' #' inside braces", files: [record: "---\nname: {de: Hund}\nhint: {de: \"Er bellt.\", en: It barks #often}\ngroup: pet\n---\n"],
             expected: "\(record):3:38: error: invalid YAML: ' #' starts a comment, which took the rest of this line, its '}' too; a text with ' #' needs quotes: en: \"It barks #often\""),
        // An apostrophe in the text (not a quote), and the next language after a comma.
        Case(name: "a ' #' inside braces, after an apostrophe, before another language", files: [record: "---\nname: {de: Bär}\nhint: {de: \"Er brummt.\", en: The bear's growl #often, fr: Il grogne}\ngroup: pet\n---\n"],
             expected: "\(record):3:47: error: invalid YAML: ' #' starts a comment, which took the rest of this line, its '}' too; a text with ' #' needs quotes: en: \"The bear's growl #often\""),
        // A comment after closed braces is a comment: the next line's mistake is the one said.
        Case(name: "a comment after braces, and a colon in the next line's text", files: [record: "---\nname: {de: Bär} # en: later\nhint: {de: Achtung: er beißt}\n---\n"],
             expected: "\(record):3:19: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text with ': ' or ',' inside { } needs quotes: {de: \"Achtung: er beißt\"}"),
        Case(name: "a character a page does not show, pasted with a name", files: [record: "---\nname: {de: \"Fu\u{200B}chs\"}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):2:12: warning: name.de 'Fu\\u{200B}chs' holds U+200B (a zero-width space), which a page shows as nothing but search and typed answers see; remove it"),
        Case(name: "a Wikipedia article's address for its title", files: [record: "---\nname: {de: Fuchs}\nwikipedia: {de: \"https://de.wikipedia.org/wiki/Rotfuchs_(Art)#Merkmale\"}\n---\n"],
             expected: "\(record):3:17: error: wikipedia.de: 'https://de.wikipedia.org/wiki/Rotfuchs_(Art)#Merkmale' is the article's web address; write its title instead: wikipedia: {de: Rotfuchs (Art)}"),
        Case(name: "UK as a region", files: [record: "---\nname: {en: Fox}\n---\n"], siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [en-UK]\n",
             expected: "content/site.yml:3:13: warning: 'en-UK': UK is no region code; the United Kingdom's is GB (en-GB)"),
        Case(name: "content in a language the list lacks", files: [record: "---\nname: {de: Fuchs, en: Fox}\n---\n", "content/animals/cat.md": "---\nname: {de: Katze, en: Cat}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de]\n",
             expected: "content/site.yml:3:1: error: the content is written in 'en' (2 texts in 2 files), which languages does not list (de): add 'en' to it, or remove those texts (a record copied from a site in more languages), or write them under a listed code"),
        // A teacher's: 22 errors, one per text, when site.yml's own title was in the unlisted
        // language too (site.yml unusable), and the one line that says why never.
        Case(name: "a language listed with a region, site.yml's own title in the plain code",
             files: [record: "---\nname: {de: Fuchs, en: Fox}\n---\n"], siteYML: "title: {de: T, en: T}\nbase_url: https://example.org/\nlanguages: [de, en-GB]\n",
             expected: "content/site.yml:3:1: error: the content is written in 'en' (2 texts in 2 files), but languages lists 'en-GB', another code (the language with a region): list 'en' instead"),
        Case(name: "a language code with its letters turned round",
             files: [record: "---\nname: {ar: ثعلب, en: Fox}\n---\n"], siteYML: "title: {ar: T, en: T}\nbase_url: https://example.org/\nlanguages: [ra, en]\n",
             expected: "content/site.yml:3:1: error: the content is written in 'ar' (2 texts in 2 files), and languages lists 'ra', which is no language's code: did you mean 'ar'? Write 'ar' in languages"),
        Case(name: "base_url not absolute", siteYML: "title: T\nbase_url: /quiz/\nlanguages: [en]\n",
             expected: "content/site.yml:2:11: error: base_url '/quiz/' must be an absolute URL starting with https:// (or http://)"),
        Case(name: "base_url without its scheme", siteYML: "title: T\nbase_url: 127.0.0.1:8731/birds/\nlanguages: [en]\n",
             expected: "content/site.yml:2:11: error: base_url '127.0.0.1:8731/birds/' must be an absolute URL starting with https:// (or http://); did you mean 'https://127.0.0.1:8731/birds/'?"),
        Case(name: "base_url a host without its scheme", siteYML: "title: T\nbase_url: museum.example.org/birds/\nlanguages: [en]\n",
             expected: "content/site.yml:2:11: error: base_url 'museum.example.org/birds/' must be an absolute URL starting with https:// (or http://); did you mean 'https://museum.example.org/birds/'?"),
        Case(name: "base_url with a query and a fragment", siteYML: "title: T\nbase_url: \"https://e.org/h/?a=1#x\"\nlanguages: [en]\n",
             expected: "content/site.yml:2:11: error: base_url 'https://e.org/h/?a=1#x' has a query (?…) or a fragment (#…)"),
        Case(name: "bad language code", siteYML: "title: T\nbase_url: https://e.org/\nlanguages: [English]\n",
             expected: "content/site.yml:3:13: error: 'English' is not a language code"),
        Case(name: "language code in capitals, at its place in the list", siteYML: "title: T\nbase_url: https://e.org/\nlanguages: [de, EN]\n",
             expected: "content/site.yml:3:17: error: 'EN' is not a language code like en, de or pt-BR (did you mean 'en'?)"),
        Case(name: "language code in other case, with a script and a region", siteYML: "title: T\nbase_url: https://e.org/\nlanguages: [de, ZH-hant-tw]\n",
             expected: "content/site.yml:3:17: error: 'ZH-hant-tw' is not a language code like en, de or pt-BR (did you mean 'zh-Hant-TW'?)"),
        Case(name: "language listed twice, at the second", siteYML: "title: T\nbase_url: https://e.org/\nlanguages: [de, de]\n",
             expected: "content/site.yml:3:17: error: language 'de' is listed twice"),
        Case(name: "tags as a list", siteYML: TestSite.siteYML + "tags: [wild, farm]\n",
             expected: "content/site.yml:4:7: error: tags must map each tag to its label, like tags: {north-america: {de: Nordamerika, en: North America}}"),
        Case(name: "a tag's label in a language the site lacks", siteYML: TestSite.siteYML + "tags:\n  wild: {de: Wildtier, fr: Sauvage}\n",
             expected: "content/site.yml:5:24: error: tags.wild: language 'fr' is not in site.yml's languages"),
        Case(name: "a tag's label as a list", siteYML: TestSite.siteYML + "tags:\n  wild: [Wildtier]\n",
             expected: "content/site.yml:5:9: error: tags.wild must be text or a mapping of language to text"),
        Case(name: "a key without its colon, at its own line (not the next)", files: [record: "---\nname: {de: Fuchs}\ngroup mammal\ndifficulty: 1\n---\n"],
             expected: "\(record):3:1: error: 'group mammal' has no ':' after its key; write 'group: mammal'"),
        Case(name: "a key without its colon inside a mapping", files: [record: "---\nname: {de: Fuchs}\nsound:\n  file: sounds/a.ogg\n  credit GCompris\n---\n"],
             expected: "\(record):5:3: error: 'credit GCompris' has no ':' after its key; write 'credit: GCompris'"),
        Case(name: "a language in capitals in a record", files: [record: "---\nname: {DE: Fuchs}\n---\n"],
             expected: "\(record):2:8: error: name: 'DE' is not a language code like en or de (did you mean 'de'?)"),
        Case(name: "languages written as one text", siteYML: "title: T\nbase_url: https://e.org/\nlanguages: de, en\n",
             expected: "content/site.yml:3:12: error: 'de, en' is not a language code like en, de or pt-BR; write a list: languages: [de, en]"),
        Case(name: "a media path from the site's root", files: [record: "---\nname: {de: Fuchs}\nsound: {file: content/sounds/a.ogg}\n---\n"],
             binary: ["content/sounds/a.ogg": TestMedia.ogg],
             expected: "\(record):3:15: error: sound.file 'content/sounds/a.ogg': no such file under content/; did you mean 'sounds/a.ogg'? (paths are relative to content/)"),
        // Indentation, as a museum's volunteer got it wrong: libyaml's words said nothing of it.
        Case(name: "a key indented more than the one above", files: [record: "---\nname: {de: Fuchs}\nsound:\n  file: sounds/a.ogg\n   credit: GCompris\n---\n"],
             expected: "\(record):5:4: error: invalid YAML: this key is indented more than the line above it (3 spaces against 2), which has its value already; the keys of one mapping start in the same column"),
        Case(name: "a key indented less than the one above, more than its mapping's", files: [record: "---\nname:\n  en: Cat\n de: Katze\n---\n"],
             expected: "\(record):4:2: error: invalid YAML: this line is indented 1 space, the line above it 2 and the keys that hold them 0; the keys of one mapping start in the same column"),
        // ... and not where the mistake is another (the reviewer's cases).
        Case(name: "a colon in a text on its own line is a colon, not an indentation", files: [record: "---\nname:\n  de: Achtung: beißt\n---\n"],
             expected: "\(record):3:14: error: invalid YAML: mapping values are not allowed in this context; a text with ': ' inside needs quotes: de: \"Achtung: beißt\""),
        // A translator's: a text in a word processor's quotes with a colon in it was told to
        // write `de: "“Achtung: beißt”"`, which publishes the quotes without a further word.
        Case(name: "a colon in a text in typographic quotes: the quotes become straight ones", files: [record: "---\nname:\n  de: “Achtung: beißt”\n---\n"],
             expected: "\(record):3:15: error: invalid YAML: mapping values are not allowed in this context; a text with ': ' inside needs quotes: de: \"Achtung: beißt\""),
        Case(name: "a text with the same closing quote at both ends", files: [record: "---\nname: {de: ”Fuchs”}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):2:12: warning: name.de '”Fuchs”' keeps its typographic quotes as part of the text"),
        Case(name: "a text in German guillemets pointing inwards", files: [record: "---\nname: {de: »Fuchs«}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):2:12: warning: name.de '»Fuchs«' keeps its typographic quotes as part of the text"),
        Case(name: "a comma inside a text in braces", files: [record: "---\nname: {de: Schäferhund, es: Perro, pastor}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, es]\n",
             expected: "\(record):2:36: error: name: 'pastor' is not a language code like en or de; a text with ',' inside { } needs quotes: {es: \"Perro, pastor\"}"),
        // A translator's `sp`, taken without a word and published as `<html lang="sp">`.
        Case(name: "a country's code for a language in site.yml", files: [record: "---\nname: {de: Fuchs}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, sp]\n",
             expected: "content/site.yml:3:17: warning: 'sp' is no language code browsers, screen readers and Wikipedia know (ISO 639-1 has no 'sp') (did you mean 'es'?)"),
        Case(name: "a locale with an underscore in site.yml", siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [es_ES]\n",
             expected: "content/site.yml:3:13: error: 'es_ES' is not a language code like en, de or pt-BR (did you mean 'es-ES'?)"),
        Case(name: "a country's code for a listed language in a record", files: [record: "---\nname: {de: Fuchs, sp: Zorro}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, es]\n",
             expected: "\(record):2:19: error: name: language 'sp' is not in site.yml's languages (de, es) (did you mean 'es'? codes are written as in site.yml)"),
        Case(name: "a listed language with a region in a record", files: [record: "---\nname: {de: Fuchs, es-ES: Zorro}\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, es]\n",
             expected: "\(record):2:19: error: name: language 'es-ES' is not in site.yml's languages (de, es) (did you mean 'es'? codes are written as in site.yml)"),
        Case(name: "a translation file named with a country's code", files: [record: "---\nname: {de: Fuchs, es: Zorro}\n---\n", "content/animals/fox.sp.md": "Un zorro.\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, es]\n",
             expected: "content/animals/fox.sp.md:0:0: error: 'sp' is not one of the site's languages (de, es) (did you mean fox.es.md? codes are written as in site.yml)"),
        Case(name: "a line indented deeper than both its neighbours is no line between them", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n  credit: x\n---\n"],
             expected: "\(record):4:3: error: invalid YAML: did not find expected key while parsing a block mapping"),
        Case(name: "a comma left out between two languages is named, with the braces mended", files: [record: "---\nname: {de: Fuchs en: Fox}\n---\n"],
             expected: "\(record):2:20: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a comma is missing before 'en:' (the languages in { } are separated by commas: {de: Fuchs, en: Fox})"),
        Case(name: "a comma left out before a language with a region", files: [record: "---\nname: {de: Fuchs, en: Fox pt-BR: Raposa}\n---\n"],
             expected: "\(record):2:32: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a comma is missing before 'pt-BR:' (the languages in { } are separated by commas: {de: Fuchs, en: Fox, pt-BR: Raposa})"),
        // A teacher's, on an Arabic keyboard: the hint kept its comma, and the name was published with it.
        Case(name: "an Arabic comma between two languages is named, and the braces mended without it",
             files: [record: "---\nname: {ar: ماعز، en: Goat}\n---\n"], siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [ar, en]\n",
             expected: "\(record):2:20: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; '،' before 'en:' is the Arabic comma, which YAML reads as part of the text: the languages in { } are separated by ',' ({ar: ماعز, en: Goat})"),
        Case(name: "a name that ends with another script's comma",
             files: [record: "---\nname: {ar: ماعز،, en: Goat}\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [ar, en]\n",
             expected: "\(record):2:12: warning: name.ar 'ماعز،' ends with '،', the Arabic comma: a name does not, so take it out (the languages in { } are separated by ',')"),
        Case(name: "a name that ends with a comma", files: [record: "---\nname:\n  de: Fuchs,\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):3:7: warning: name.de 'Fuchs,' ends with ',': a name does not, so take it out"),
        // A volunteer's spreadsheet cell with Alt+Enter in it, imported as it was.
        Case(name: "a name on two lines", files: [record: "---\nname:\n  de: |-\n    Haus-\n    katze\nscientific: \"Felis\\ncatus\"\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):3:7: warning: name.de is on more than one line (a line break in a spreadsheet's cell?); pages, cards, the quiz and the packs show the break: write it on one line ('Haus- katze')"),
        Case(name: "a scientific name on two lines", files: [record: "---\nname: {de: Katze}\nscientific: \"Felis\\ncatus\"\n---\n", "content/animals/x.md": "---\ngroop: x\n---\n"],
             expected: "\(record):3:13: warning: scientific is on more than one line (a line break in a spreadsheet's cell?); pages, cards, the quiz and the packs show the break: write it on one line ('Felis catus')"),
        Case(name: "a difficulty in Arabic-Indic digits", files: [record: "---\nname: {de: Fuchs}\ndifficulty: ٢\n---\n"],
             expected: "\(record):3:13: error: difficulty must be a whole number from 1 to 3 (written with the digits 0–9: 2)"),
        Case(name: "a text's colon after a word that may be a language: both ways out", files: [record: "---\nname: {de: Fuchs}\nhint: {de: Der Fuchs ist: rot}\n---\n"],
             expected: "\(record):3:25: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a comma is missing before 'ist:' (the languages in { } are separated by commas: {de: Der Fuchs, ist: rot}), or, if the ': ' is the text's, it needs quotes: {de: \"Der Fuchs ist: rot\"}"),
        // A teacher's: the quotes the old hint offered were published (`'Farmer's sheep'`, with them).
        Case(name: "an apostrophe inside single quotes, in braces", files: [record: "---\nname: {de: 'Bauer's Schaf', en: Sheep}\n---\n"],
             expected: "\(record):2:19: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text in single quotes ends at its next ' (the one in Bauer's): put it in double quotes: name: {de: \"Bauer's Schaf\", en: Sheep}"),
        Case(name: "an apostrophe inside the second of two single-quoted texts", files: [record: "---\nname: {en: 'Sheep', de: 'Bauer's Schaf'}\n---\n"],
             expected: "\(record):2:32: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text in single quotes ends at its next ' (the one in Bauer's): put it in double quotes: name: {en: 'Sheep', de: \"Bauer's Schaf\"}"),
        Case(name: "an apostrophe inside the first of two single-quoted texts", files: [record: "---\nname: {de: 'Bauer's Schaf', en: 'Sheep'}\n---\n"],
             expected: "\(record):2:19: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text in single quotes ends at its next ' (the one in Bauer's): put it in double quotes: name: {de: \"Bauer's Schaf\", en: 'Sheep'}"),
        Case(name: "an apostrophe inside single quotes, on its own line", files: [record: "---\nname: {de: Schaf}\nhint: 'It's woolly'\n---\n"],
             expected: "\(record):3:11: error: invalid YAML: did not find expected key while parsing a block mapping; a text in single quotes ends at its next ' (the one in It's): put it in double quotes: hint: \"It's woolly\""),
        Case(name: "a credit in a record with no sound or picture", files: [record: "---\nname: {de: Fuchs}\ncredit: me\n---\n"],
             expected: "\(record):3:1: error: unknown key 'credit' in the record; allowed: id,"),
        Case(name: "a sound's key not indented under it", files: [record: "---\nname: {de: Fuchs}\nsound:\n  file: sounds/a.ogg\ncredit: GCompris\n---\n"],
             expected: "\(record):5:1: error: unknown key 'credit' in the record (a key of sound: indent it like the keys under it); allowed: id,"),
        Case(name: "the only key of a sound without its colon", files: [record: "---\nname: {de: Fuchs}\nsound:\n  file sounds/a.ogg\n---\n"],
             expected: "\(record):4:3: error: 'file sounds/a.ogg' under sound has no ':' after its key; write 'file: sounds/a.ogg'"),
        Case(name: "a colon inside braces, with the way out", files: [record: "---\nname: {de: Fuchs}\nhint: {de: Achtung: beißt}\n---\n"],
             expected: "\(record):3:19: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text with ': ' or ',' inside { } needs quotes: {de: \"Achtung: beißt\"}"),
        Case(name: "a list's bracket never closed, at the bracket (not the next line)", files: [record: "---\nname: {de: Fuchs}\ntags: [wald, europa\ngroup: mammal\n---\n"],
             expected: "\(record):3:7: error: invalid YAML: the '[' here is never closed with ']' (what follows it was read as part of it); close it, or put the whole text in quotes"),
        // An editor's: libyaml read on to the next quote, lines below, and failed there.
        Case(name: "a double quote not closed, at the quote (not where the next one is)",
             files: [record: "---\nname: {de: Hund}\nscientific: \"Canis familiaris\ngroup: mammal\nsound: {file: sounds/dog.ogg, credit: \"A B\"}\n---\n"],
             expected: "\(record):3:13: error: invalid YAML: the double quote opened here is not closed on its line, so what follows, up to the next \" (line 5), was read as its text; close it on this line"),
        Case(name: "a single quote not closed", files: [record: "---\nname: {de: Hund}\nhint: {de: 'Er bellt}\ngroup: mammal\nscientific: 'C. f.'\n---\n"],
             expected: "\(record):3:12: error: invalid YAML: the single quote opened here is not closed on its line, so what follows, up to the next ' (line 5), was read as its text; close it on this line"),
        // A quote inside a `|-` text is text: the mistake below is said, not the quote (review).
        Case(name: "a quote in a block text is no quote left open",
             files: [record: "---\nname: {de: Rabe}\ndescription:\n  de: |-\n    Sein Ruf: \"krah,\n    dann: ein \"kak\".\ngroup: bird\n  difficulty: 2\n---\n"],
             expected: "\(record):8:3: error: invalid YAML: this key is indented more than the line above it"),
        // Another `{…}` below closes its own brace, not this one (site.yml's `quiz:` was told to
        // put a text in quotes, at the next line: found by an editor).
        Case(name: "a brace never closed above another flow mapping", files: ["content/animals/.keep": ""],
             siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [en]\nquiz: {questions: 10, choices: 4\npacks: {id: x}\n",
             expected: "content/site.yml:4:7: error: invalid YAML: the '{' here is never closed with '}' (what follows it was read as part of it); close it, or put the whole text in quotes"),
        Case(name: "no site.yml", files: ["content/animals/.keep": ""], siteYML: nil,
             expected: "content/site.yml:0:0: error: content/ has no site.yml"),
        // No content/ at all (a mistyped --root): at no file, not at the working folder's content/site.yml.
        Case(name: "no content folder", siteYML: nil,
             expected: "-: error: '"),
        Case(name: "sound given as a path", files: [record: "---\nname: {de: Fuchs}\nsound: sounds/fox.ogg\n---\n"],
             expected: "\(record):3:8: error: sound must be a mapping of keys to values; write sound: {file: sounds/fox.ogg}"),
        Case(name: "image given as an address", files: [record: "---\nname: {de: Fuchs}\nimage: https://e.org/fox.jpg\n---\n"],
             expected: "\(record):3:8: error: image must be a mapping of keys to values; write image: {url: \"https://e.org/fox.jpg\"}"),
        Case(name: "a value read as a YAML tag", files: [record: "---\nname: {de: Fuchs}\nhint: !Bang\n---\n"],
             expected: "\(record):3:7: error: '!Bang' is read as a YAML tag, not as text (a value that starts with '!'); put the whole value in quotes"),
        Case(name: "one Wikipedia title", files: [record: "---\nname: {de: Fuchs}\nwikipedia: Rotfuchs\n---\n"],
             expected: "\(record):3:12: error: wikipedia must map languages to article titles; write wikipedia: {de: Rotfuchs}"),
        Case(name: "one Wikipedia title with a comma, quoted in the suggestion", files: [record: "---\nname: {de: Fuchs}\nwikipedia: Fuchs, rot\n---\n"],
             expected: "\(record):3:12: error: wikipedia must map languages to article titles; write wikipedia: {de: \"Fuchs, rot\"}"),
        Case(name: "one Wikipedia address: its language and title written for it", files: [record: "---\nname: {de: Fuchs}\nwikipedia: https://en.wikipedia.org/wiki/Red_fox\n---\n"],
             expected: "\(record):3:12: error: wikipedia must map languages to article titles; 'https://en.wikipedia.org/wiki/Red_fox' is the address of the 'en' article 'Red fox': write wikipedia: {en: Red fox}"),
        Case(name: "one Wikipedia address in a language the site lacks", files: [record: "---\nname: {de: Fuchs}\nwikipedia: https://fr.m.wikipedia.org/wiki/Renard_roux\n---\n"],
             expected: "\(record):3:12: error: wikipedia must map languages to article titles; 'https://fr.m.wikipedia.org/wiki/Renard_roux' is the address of the 'fr' article 'Renard roux', in a language the site does not have (languages in content/site.yml); write the title of an article in one it has, like wikipedia: {de: Title}"),
        Case(name: "difficulty in quotes", files: [record: "---\nname: {de: Fuchs}\ndifficulty: \"2\"\n---\n"],
             expected: "\(record):3:13: error: difficulty must be a whole number from 1 to 3 (without quotes: 2)"),
        Case(name: "misspelt record key with suggestion", files: [record: "---\nname: {de: Fuchs}\ngroop: mammal\n---\n"],
             expected: "\(record):3:1: error: unknown key 'groop' in the record (did you mean 'group'?)"),
        Case(name: "record without name", files: [record: "---\ngroup: mammal\n---\n"],
             expected: "\(record):2:1: error: the record needs a 'name'"),
        Case(name: "name without the default language", files: [record: "---\nname: {en: Fox}\n---\n"],
             expected: "\(record):2:7: error: name needs the default language 'de'"),
        Case(name: "name in a language the site lacks", files: [record: "---\nname: {de: Fuchs, fr: Renard}\n---\n"],
             expected: "\(record):2:19: error: name: language 'fr' is not in site.yml's languages"),
        Case(name: "invalid id from the file name", files: ["content/animals/Red Fox.md": "---\nname: {de: Fuchs}\n---\n"],
             expected: "content/animals/Red Fox.md:1:1: error: the file name gives the id 'Red Fox', which is not 1–64 characters of a-z, 0-9, '_' and '-'; rename the file (red-fox.md, say) or set 'id:'"),
        Case(name: "an escape in the file name is said as an escape (it would colour the terminal)", files: ["content/animals/x\u{1B}[31my.md": "---\nname: {de: Fuchs}\n---\n"],
             expected: "content/animals/x\u{1B}[31my.md:1:1: error: the file name gives the id 'x\\u{1b}[31my', which is not 1–64 characters of a-z, 0-9, '_' and '-'; rename the file (x-31my.md, say) or set 'id:'"),
        Case(name: "invalid id in front matter", files: [record: "---\nid: Fox!\nname: {de: Fuchs}\n---\n"],
             expected: "\(record):2:5: error: id 'Fox!' must be 1–64 characters"),
        // Said at the `id:` that takes another record's name, not in the record named so (a
        // tester's `id: dog` in cat.md was reported in dog.md, which nobody had touched).
        Case(name: "duplicate id", files: [
            "content/animals/a.md": "---\nid: fox\nname: {de: A}\n---\n", record: "---\nname: {de: B}\n---\n"],
             expected: "content/animals/a.md:2:1: error: id 'fox' is already used by \(record)"),
        Case(name: "duplicate id, both said in front matter: the one not named so (review)", files: [
            "content/animals/a.md": "---\nid: fox\nname: {de: A}\n---\n", record: "---\nid: fox\nname: {de: B}\n---\n"],
             expected: "content/animals/a.md:2:1: error: id 'fox' is already used by \(record)"),
        Case(name: "duplicate id, both said in front matter: the second by path", files: [
            "content/animals/a.md": "---\nid: fox\nname: {de: A}\n---\n", "content/animals/b.md": "---\nid: fox\nname: {de: B}\n---\n"],
             expected: "content/animals/b.md:2:1: error: id 'fox' is already used by content/animals/a.md"),
        Case(name: "difficulty out of range", files: [record: "---\nname: {de: Fuchs}\ndifficulty: 7\n---\n"],
             expected: "\(record):3:13: error: difficulty must be from 1 to 3, not 7"),
        Case(name: "difficulty not a number", files: [record: "---\nname: {de: Fuchs}\ndifficulty: hard\n---\n"],
             expected: "\(record):3:13: error: difficulty must be a whole number from 1 to 3"),
        Case(name: "tags as a mapping", files: [record: "---\nname: {de: Fuchs}\ntags: {a: b}\n---\n"],
             expected: "\(record):3:7: error: tags must be a list like [a, b]"),
        Case(name: "tags written as one text with commas (one tag)", files: [record: "---\nname: {de: Fuchs}\ntags: garden, forest\n---\n"],
             expected: "\(record):3:7: error: tags: 'garden, forest' would be one tag; for 2 tags, write tags: [garden, forest] (for one, in quotes: tags: [\"garden, forest\"])"),
        Case(name: "wikipedia in an unknown language", files: [record: "---\nname: {de: Fuchs}\nwikipedia: {fr: Renard}\n---\n"],
             expected: "\(record):3:13: error: wikipedia: 'fr' is not one of the site's languages"),
        Case(name: "sound with file and url", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg, url: https://e.org/a.ogg}\n---\n"],
             expected: "\(record):3:8: error: sound has both 'file' and 'url'"),
        Case(name: "sound without file or url", files: [record: "---\nname: {de: Fuchs}\nsound: {credit: me}\n---\n"],
             expected: "\(record):3:8: error: sound needs 'file: sounds/…'"),
        Case(name: "path leaving content with ..", files: [record: "---\nname: {de: Fuchs}\nsound: {file: ../secret.ogg}\n---\n"],
             expected: "\(record):3:15: error: sound.file '../secret.ogg': path must not contain '..'"),
        Case(name: "absolute path", files: [record: "---\nname: {de: Fuchs}\nimage: {file: /etc/passwd.png}\n---\n"],
             expected: "\(record):3:15: error: image.file '/etc/passwd.png': path must be relative to content/"),
        Case(name: "a picture's place on a Windows computer", files: [record: "---\nname: {de: Fuchs}\nimage: {file: 'C:\\Users\\anna\\fox.jpg'}\n---\n"],
             expected: "\(record):3:15: error: image.file 'C:\\Users\\anna\\fox.jpg': is where the file is on a Windows computer, which the build cannot read; copy the file into content/ (content/images/, say) and write its path from there, such as images/fox.jpg"),
        Case(name: "missing media file", files: [record: "---\nname: {de: Fuchs}\nsound:\n  file: sounds/none.ogg\n---\n"],
             expected: "\(record):4:9: error: sound.file 'sounds/none.ogg': no such file under content/"),
        Case(name: "media path in the wrong case, with the file meant", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/fox.wav}\n---\n"],
             binary: ["content/sounds/Fox.wav": TestMedia.wav],
             expected: "\(record):3:15: error: sound.file 'sounds/fox.wav': no such file under content/; did you mean 'sounds/Fox.wav'? (letters' case counts"),
        Case(name: "media path with another extension, with the file meant", files: [record: "---\nname: {de: Fuchs}\nimage: {file: images/fox.jpg}\n---\n"],
             binary: ["content/images/fox.png": TestMedia.png],
             expected: "\(record):3:15: error: image.file 'images/fox.jpg': no such file under content/; did you mean 'images/fox.png'?"),
        Case(name: "media path with a misspelt folder, with the file meant", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sound/fox.wav}\n---\n"],
             binary: ["content/sounds/fox.wav": TestMedia.wav],
             expected: "\(record):3:15: error: sound.file 'sound/fox.wav': no such file under content/; did you mean 'sounds/fox.wav'?"),
        Case(name: "unsupported sound extension", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.flac}\n---\n"],
             expected: "\(record):3:15: error: sound.file 'sounds/a.flac': unsupported sound type '.flac'"),
        Case(name: "sound named by a folder", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds}\n---\n"],
             expected: "\(record):3:15: error: sound.file 'sounds': the file name has no type; use one of .mp3"),
        Case(name: "picture referenced as a sound", files: [record: "---\nname: {de: Fuchs}\nsound: {file: images/a.png}\n---\n"],
             binary: ["content/images/a.png": TestMedia.png],
             expected: "\(record):3:15: error: sound.file 'images/a.png': '.png' is a picture, not a sound (it goes under image:); a sound is one of .mp3"),
        Case(name: "text renamed to .ogg", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n", "content/sounds/a.ogg": "not a sound"],
             expected: "\(record):3:15: error: sound.file 'sounds/a.ogg': its bytes are not a supported sound or picture"),
        Case(name: "PNG named .jpg", files: [record: "---\nname: {de: Fuchs}\nimage: {file: images/a.jpg}\n---\n"],
             binary: ["content/images/a.jpg": TestMedia.png],
             expected: "\(record):3:15: error: image.file 'images/a.jpg' holds png data, not what '.jpg' says; rename the file to 'images/a.png' and write that here"),
        Case(name: "WAV named .ogg", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n"],
             binary: ["content/sounds/a.ogg": TestMedia.wav],
             expected: "\(record):3:15: error: sound.file 'sounds/a.ogg' holds wav data, not what '.ogg' says"),
        Case(name: "empty media file", files: [record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n", "content/sounds/a.ogg": ""],
             expected: "\(record):3:15: error: sound.file 'sounds/a.ogg': file is empty"),
        Case(name: "SVG with a script", files: [
            record: "---\nname: {de: Fuchs}\nimage: {file: images/a.svg}\n---\n",
            "content/images/a.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"],
             expected: "\(record):3:15: error: image.file 'images/a.svg': SVG contains a <script> element"),
        Case(name: "SVG with an event handler", files: [
            record: "---\nname: {de: Fuchs}\nimage: {file: images/a.svg}\n---\n",
            "content/images/a.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"></svg>"],
             expected: "\(record):3:15: error: image.file 'images/a.svg': SVG contains an event-handler attribute (onload)"),
        Case(name: "focus that would inject CSS", files: [record: "---\nname: {de: Fuchs}\nimage: {url: https://e.org/a.jpg, focus: \"50%; background: url(x)\"}\n---\n"],
             expected: "\(record):3:42: error: image.focus '50%; background: url(x)' must be a CSS position"),
        Case(name: "media URL that is not http", files: [record: "---\nname: {de: Fuchs}\nsound: {url: ftp://e.org/a.mp3}\n---\n"],
             expected: "\(record):3:14: error: sound.url 'ftp://e.org/a.mp3' must start with https://"),
        Case(name: "media URL without a known extension", files: [record: "---\nname: {de: Fuchs}\nsound: {url: https://e.org/play?id=3}\n---\n"],
             expected: "\(record):3:14: error: sound.url: cannot tell the sound type of 'https://e.org/play?id=3'"),
        Case(name: "source that is not a URL", files: [record: "---\nname: {de: Fuchs}\nimage: {url: https://e.org/a.jpg, source: somewhere}\n---\n"],
             expected: "\(record):3:43: error: image.source 'somewhere' must be an absolute URL"),
        Case(name: "front matter not closed", files: [record: "---\nname: {de: Fuchs}\n"],
             expected: "\(record):1:1: error: front matter is not closed"),
        Case(name: "no front matter", files: [record: "Just text.\n"],
             expected: "\(record):1:1: error: a record starts with front matter"),
        Case(name: "a brace closed on the next line, with a colon inside: the colon's message", files: [record: "---\nname: {de: Fuchs,\n  en: Note: it bites}\n---\n"],
             expected: "\(record):3:11: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping; a text with ': ' or ',' inside { } needs quotes"),
        Case(name: "a brace never closed, at the brace (not the next line)", files: [record: "---\nname: {de: Fuchs\ngroup: bird\n---\n"],
             expected: "\(record):2:7: error: invalid YAML: the '{' here is never closed with '}' (what follows it was read as part of it); close it, or put the whole text in quotes"),
        Case(name: "tab indentation", files: [record: "---\nname:\n\tde: Fuchs\n---\n"],
             expected: "\(record):3:1: error: invalid YAML: found character that cannot start any token while scanning for the next token; a tab cannot indent YAML: use spaces"),
        Case(name: "duplicate key", files: [record: "---\nname: {de: Fuchs}\ngroup: a\ngroup: b\n---\n"],
             expected: "\(record):4:1: error: duplicate key 'group' (also at line 3: keep one)"),
        Case(name: "duplicate key, quoted, nested", files: [record: "---\nname:\n  de: Fuchs\n  \"de\": Wolf\n---\n"],
             expected: "\(record):4:3: error: duplicate key 'de'"),
        Case(name: "duplicate key in a flow mapping, the same key below", files: [
            record: "---\nname: {de: Fuchs, de: Wolf}\ndescription:\n  de: Ein Fuchs.\nhint:\n  de: Rot.\n---\n"],
             expected: "\(record):2:8: error: duplicate key 'de'"),
        Case(name: "duplicate key after a nested mapping", files: [
            record: "---\nname:\n  de: Fuchs\ndescription:\n  de: Ein Fuchs.\nname: {de: Wolf}\n---\n"],
             expected: "\(record):6:1: error: duplicate key 'name' (also at line 2: keep one)"),
        Case(name: "two letters swapped in a key", files: [record: "---\nname: {de: Fuchs}\ngruop: bird\n---\n"],
             expected: "\(record):3:1: error: unknown key 'gruop' in the record (did you mean 'group'?)"),
        Case(name: "translation in a language the site lacks", files: [
            record: "---\nname: {de: Fuchs}\n---\n", "content/animals/fox.fr.md": "Renard."],
             expected: "content/animals/fox.fr.md:0:0: error: 'fr' is not one of the site's languages"),
        Case(name: "translation into the default language", files: [
            record: "---\nname: {de: Fuchs}\n---\n", "content/animals/fox.de.md": "Fuchs."],
             expected: "content/animals/fox.de.md:0:0: error: 'de' is the default language: its text belongs in fox.md itself"),
        Case(name: "translation without its record", files: ["content/animals/wolf.en.md": "Wolf."],
             expected: "content/animals/wolf.en.md:0:0: error: translation without its record"),
        Case(name: "translation with front matter", files: [
            record: "---\nname: {de: Fuchs}\n---\n", "content/animals/fox.en.md": "---\n# the English name\nname: {en: Fox}\n---\nFox."],
             expected: "content/animals/fox.en.md:3:1: error: a translation holds only Markdown text; put fields such as name and description in fox.md"),
        Case(name: "translation with empty front matter", files: [
            record: "---\nname: {de: Fuchs}\n---\n", "content/animals/fox.en.md": "---\n# nothing\n\n---\nFox."],
             expected: "content/animals/fox.en.md:1:1: error: a translation holds only Markdown text: remove its empty front matter (the --- lines at the top)"),
        Case(name: "file name with two languages", files: ["content/animals/fox.en.de.md": "x"],
             expected: "content/animals/fox.en.de.md:0:0: error: file name has too many dots"),
        Case(name: "page without title", files: ["content/pages/about.md": "---\nweight: 1\n---\nText"],
             expected: "content/pages/about.md:2:1: error: the page needs a 'title'"),
        Case(name: "page with a reserved name", files: ["content/pages/quiz.md": "---\ntitle: Quiz\n---\n"],
             expected: "content/pages/quiz.md:1:1: error: page name 'quiz' is taken by a generated part of the site"),
        Case(name: "page named like a language of the site", files: ["content/pages/en.md": "---\ntitle: {de: X}\n---\n"],
             expected: "content/pages/en.md:1:1: error: page name 'en' is one of the site's languages (site.yml), whose codes name the folders of its pages in other languages (/en/)"),
        Case(name: "page named like the default language, whose pages are at the root", files: ["content/pages/de.md": "---\ntitle: {de: X}\n---\n"],
             expected: "content/pages/de.md:1:1: error: page name 'de' is one of the site's languages (site.yml), whose codes name the folders of its pages in other languages (/en/)"),
        Case(name: "record larger than the limit", files: [record: "---\nname: {de: Fuchs}\n---\n" + String(repeating: "x", count: 1_100_000)],
             expected: "\(record):0:0: error: file is 1074 KiB; records and pages are limited to 1024 KiB"),
    ]

    @Test(arguments: cases)
    func reportsTheDefect(_ c: Case) throws {
        let site = try TestSite(c.files, binary: c.binary, siteYML: c.siteYML)
        let result = site.load()
        let lines = site.lines()
        #expect(result.diagnostics.hasErrors, "no error for \(c.name)")
        #expect(lines.contains { $0.hasPrefix(c.expected) }, "expected a line starting with\n  \(c.expected)\ngot\n  \(lines.joined(separator: "\n  "))")
    }

    /// A misspelt code of a listed language is said at its place, with the code meant: not also
    /// as a language to add to site.yml (a translator was told both for `sp` beside `es`).
    @Test func aMisspeltListedLanguageIsNotALanguageToAdd() throws {
        let site = try TestSite([
            Self.record: "---\nname: {de: Fuchs, sp: Zorro, es-ES: Zorro}\n---\n", "content/animals/fox.sp.md": "Un zorro.\n",
        ], siteYML: "title: T\nbase_url: https://example.org/\nlanguages: [de, es]\n")
        let messages = ContentLoader(root: site.root).load().diagnostics.items.map(\.message)
        #expect(messages.count { $0.contains("did you mean") } == 3, "\(messages)")
        #expect(!messages.contains { $0.contains("add '") }, "\(messages)")
    }

    @Test func everyProblemOfAFileIsReportedInOneRun() throws {
        let site = try TestSite([
            Self.record: "---\nname: {de: Fuchs}\ngroop: x\ndifficulty: 9\nsound: {file: sounds/none.ogg}\n---\n",
            "content/animals/owl.md": "---\nname: {en: Owl}\n---\n",
        ])
        let errors = site.load().diagnostics.items.filter { $0.severity == .error }
        #expect(errors.count == 4)
        #expect(Set(errors.compactMap { $0.location?.path }) == [Self.record, "content/animals/owl.md"])
    }

    /// A record whose file name is not UTF-8 (`eule\xff.md`, from a system with another encoding)
    /// was reported as "cannot read the file: No such file or directory": the name is the problem.
    @Test func aFileNameThatIsNotUTF8IsNamedSo() throws {
        let site = try TestSite(["content/animals/owl.md": "---\nname: {de: Eule}\n---\n"])
        let bytes: [UInt8] = Array((site.root + "/content/animals/eule").utf8) + [0xFF] + Array(".md".utf8) + [0]
        let fd = bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        try #require(fd >= 0)
        close(fd)
        let errors = site.load().diagnostics.items.filter { $0.severity == .error }
        #expect(errors.map(\.message) == [
            "the file's name is not UTF-8 text (shown here with \u{FFFD} where it is not), and the build cannot open it by that name; rename it"
        ])
        #expect(errors.first?.location?.path == "content/animals/eule\u{FFFD}.md")
        // A file that is no record is only "ignored", whatever its name.
        let note: [UInt8] = Array((site.root + "/content/animals/notiz").utf8) + [0xE4] + Array(".txt".utf8) + [0]
        let noteFD = note.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        try #require(noteFD >= 0)
        close(noteFD)
        let items = site.load().diagnostics.items
        #expect(items.filter { $0.severity == .error }.count == 1)
        #expect(items.contains { $0.severity == .warning && $0.message.hasPrefix("not a Markdown file") && $0.location?.path == "content/animals/notiz\u{FFFD}.txt" })
    }

    /// What an editor leaves beside a record (emacs' `owl.md~` and `#owl.md#`, `.bak`, `.orig`)
    /// is passed over, as the preview's watcher and the theme pass it: it was "not a Markdown
    /// file; ignored" on every build. Another file is still named.
    @Test func editorsBackupsBesideRecordsAreNotWarnedAbout() throws {
        let record = "---\nname: {de: Eule}\n---\n"
        let site = try TestSite([
            "content/animals/owl.md": record, "content/animals/owl.md~": record, "content/animals/#owl.md#": record,
            "content/animals/owl.md.bak": record, "content/pages/about.md.orig": "---\ntitle: {de: Über}\n---\n",
            "content/animals/notes.txt": "x",
        ])
        // Emacs' lock while a record is being edited: a link that leads nowhere (it failed the
        // build); and a hidden folder, as the watcher ignores it.
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/animals/.#owl.md", withDestinationPath: "user@host.1234:1700000000")
        try FileManager.default.createDirectory(atPath: site.root + "/content/animals/.drafts", withIntermediateDirectories: true)
        try "---\nname: {de: Entwurf}\n---\n".writeReplacing(toFile: site.root + "/content/animals/.drafts/draft.md")
        let loaded = site.load()
        let items = loaded.diagnostics.items
        #expect(items.map { $0.location?.path ?? "" } == ["content/animals/notes.txt"], "\(items)")
        #expect(loaded.catalog?.animals.map(\.id) == ["owl"])
    }

    /// The translation of a record that fails (or repeats another's id) is not said to be
    /// "without its record": that record's own error is the one to fix (found by an author).
    @Test func aFailedRecordsTranslationIsNotCalledAnOrphan() throws {
        let site = try TestSite([
            Self.record: "---\nname: {de: Fuchs}\n",
            "content/animals/fox.en.md": "Fox.",
            "content/animals/wolf.md": "---\nname: {de: Wolf}\n---\n",
            "content/animals/wolf2.md": "---\nid: wolf\nname: {de: Wolf}\n---\n",
            "content/animals/wolf2.en.md": "Wolf.",
            "content/pages/help/how-to-play.md": "---\ntitle: {de: Spielen}\n---\n",
            "content/pages/how-to-play.md": "---\ntitle: {de: Spielen}\n---\n",
            "content/pages/how-to-play.en.md": "Play.",
        ])
        let lines = site.lines()
        #expect(!lines.contains { $0.contains("translation without its") }, "\(lines)")
        #expect(lines.filter { $0.contains(": error: ") }.count == 3, "\(lines)")
    }

    /// A record at the top of content/ or in a misspelt folder was ignored without a word (found
    /// by an author); notes such as ATTRIBUTION.md and the media's folders are not warned about.
    @Test func recordsWhereNothingReadsThemAreWarnedAbout() throws {
        let site = try TestSite([
            "content/pig.md": "---\nname: {de: Schwein}\n---\n",
            "content/animal/cow.md": "---\nname: {de: Kuh}\n---\n",
            "content/Pages/about.md": "---\ntitle: {de: Über}\n---\n",
            "content/ATTRIBUTION.md": "# Credits\n",
            "content/README.md": "----\nA rule above.\n",
            "content/images/notes.md": "---\n",
            "content/cages/notes.txt": "media of cages",
            "content/pages2/notes.txt": "old pages",
        ], binary: ["content/sounds/a.ogg": TestMedia.ogg])
        let warnings = site.lines().filter { $0.contains(" is not read: ") }
        #expect(warnings == [
            "content/Pages:0:0: warning: folder 'Pages' is not read: records go in content/animals/, pages in content/pages/ (did you mean 'pages'?)",
            "content/animal:0:0: warning: folder 'animal' is not read: records go in content/animals/, pages in content/pages/ (did you mean 'animals'?)",
            "content/pig.md:0:0: warning: pig.md starts with front matter but is not read: records go in content/animals/, pages in content/pages/",
        ], "\(warnings)")
    }

    @Test func symbolicLinkOutOfContentIsRefused() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n"])
        try site.directory.write(TestMedia.ogg, to: "outside/a.ogg")
        try FileManager.default.createDirectory(atPath: site.directory.appending("content/sounds"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.directory.appending("content/sounds/a.ogg"), withDestinationPath: "../../outside/a.ogg")
        #expect(site.lines().contains { $0.hasPrefix("\(Self.record):3:15: error: sound.file 'sounds/a.ogg': is a symbolic link that leads out of content/") })
    }

    @Test func symbolicLinkInsideContentIsFine() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n"], binary: ["content/library/a.ogg": TestMedia.ogg])
        try FileManager.default.createDirectory(atPath: site.directory.appending("content/sounds"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.directory.appending("content/sounds/a.ogg"), withDestinationPath: "../library/a.ogg")
        #expect(!site.load().diagnostics.hasErrors, "\(site.lines())")
    }

    @Test func recordFileLinkedFromOutsideIsRefused() throws {
        let site = try TestSite()
        try site.directory.write("---\nname: {de: Fuchs}\n---\n", to: "elsewhere/fox.md")
        try FileManager.default.createDirectory(atPath: site.directory.appending("content/animals"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.directory.appending(Self.record), withDestinationPath: "../../elsewhere/fox.md")
        #expect(site.lines().contains { $0.hasPrefix("\(Self.record):0:0: error: is a symbolic link that leads out of content/") })
    }

    /// A pipe where site.yml or a sound should be is refused at once: reading it would block the
    /// build until something writes to it (`check` and `build` hung: found by a tester).
    @Test func pipesAreRefusedInsteadOfRead() throws {
        let site = try TestSite([Self.record: "---\nname: {de: Fuchs}\nsound: {file: sounds/a.ogg}\n---\n"])
        try FileManager.default.createDirectory(atPath: site.directory.appending("content/sounds"), withIntermediateDirectories: true)
        #expect(mkfifo(site.directory.appending("content/sounds/a.ogg"), 0o644) == 0)
        #expect(site.lines().contains { $0.hasPrefix("\(Self.record):3:15: error: sound.file 'sounds/a.ogg': not a regular file (a pipe, a device or a socket, or a folder)") },
                "\(site.lines())")

        let pipe = try TestSite(siteYML: nil)
        try FileManager.default.createDirectory(atPath: pipe.directory.appending("content"), withIntermediateDirectories: true)
        #expect(mkfifo(pipe.directory.appending("content/site.yml"), 0o644) == 0)
        #expect(pipe.lines() == ["content/site.yml:0:0: error: not a regular file (a pipe, a device or a socket); put a text file here"])
    }
}
