import BestiaryContent
import BestiaryDiagnostics
@testable import BestiaryImport
import BestiaryStorage
import BestiaryTestSupport
import Foundation
import Testing

/// Bad input: a clear message naming the file and the row or position, and nothing written at all.
@Suite struct ImportFailureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var format: ImportFormat
        var text: String
        /// `line:col: message` of every error.
        var errors: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "JSON with a trailing comma", format: .nuthatch,
            text: "[\n  {\"id\": 1, \"common_name\": \"Blue Jay\"},\n]\n",
            errors: ["3:1: not valid JSON: trailing comma before ']' (JSON allows none); a nuthatch file is JSON"]),
        Case(
            name: "species without id or name", format: .nuthatch,
            text: "[{\"id\": 7, \"common_name\": \"Killdeer\"},\n {\"common_name\": \"Sora\"},\n {\"id\": 9, \"common_name\": \" \"},\n {\"id\": true}]",
            errors: [
                "2:2: species 2 has no 'id'", "3:27: species 3 (id 9): 'common_name' is empty",
                "4:9: species 4: 'id' must be the API's species number (7 or \"7\"), not true/false",
            ]),
        Case(
            name: "species ids that are not the API's", format: .nuthatch,
            text: """
                [
                {"id": "Great Tit!", "common_name": "Great tit"},
                {"id": -3, "common_name": "Minus"},
                {"id": 1.5, "common_name": "Half"},
                {"id": 1e3, "common_name": "Thousand"},
                {"id": "üß", "common_name": "Letters"},
                {"id": 0, "common_name": "Zero"},
                {"id": "007", "common_name": "Padded"},
                {"id": " 7", "common_name": "Spaced"},
                {"id": "", "common_name": "Empty"},
                {"id": \(String(repeating: "9", count: 56)), "common_name": "Long"},
                {"id": "8", "common_name": "Valid"}
                ]
                """,
            errors: [
                "2:8: species 1: id \"Great Tit!\"" + Self.notASpeciesID, "3:8: species 2: id -3" + Self.notASpeciesID,
                "4:8: species 3: id 1.5" + Self.notASpeciesID, "5:8: species 4: id 1e3" + Self.notASpeciesID,
                "6:8: species 5: id \"üß\"" + Self.notASpeciesID, "7:8: species 6: id 0" + Self.notASpeciesID,
                "8:8: species 7: id \"007\"" + Self.notASpeciesID, "9:8: species 8: id \" 7\"" + Self.notASpeciesID,
                "10:8: species 9: id \"\"" + Self.notASpeciesID,
                "11:8: species 10: id \(String(repeating: "9", count: 56)) is too long: the record id nuthatch-ID may have at most 64 characters",
            ]),
        Case(
            name: "not a list", format: .nuthatch, text: "{\"count\": 2}",
            errors: ["1:1: expected a JSON list of species (\"[{…}, {…}]\"), found an object"]),
        Case(
            name: "Dog CEO error reply", format: .dogceo,
            text: "{\"message\": \"Breed not found (master breed does not exist)\", \"status\": \"error\", \"code\": 404}",
            errors: ["1:72: the reply's status is 'error', not 'success': Breed not found (master breed does not exist); save the list again"]),
        Case(
            name: "Dog CEO sub-breeds not a list", format: .dogceo,
            text: "{\"message\": {\"pug\": [], \"poodle\": \"toy\"}, \"status\": \"success\"}",
            errors: ["1:35: breed 'poodle': sub-breeds must be a list like [\"toy\", \"miniature\"], not text"]),
        Case(
            name: "WildSound paths that collide", format: .wildsound,
            text: """
                [
                  {"name": "Fuchs", "storagePath": "sounds/Fuchs.mp3", "wikiTitleDe": "Rotfuchs"},
                  {"name": "Rotfuchs", "storagePath": "archive/fuchs.ogg", "wikiTitleDe": "Rotfuchs"}
                ]
                """,
            errors: [
                "3:3: animal 2 (storagePath archive/fuchs.ogg) gives the id 'fuchs', like animal 1 (storagePath sounds/Fuchs.mp3) at line 2: two entries cannot become one record; change one of them in the source"
            ]),
        Case(
            name: "WildSound path without letters", format: .wildsound,
            text: "[{\"name\": \"Tier\", \"storagePath\": \"sounds/???.mp3\"}]",
            errors: ["1:34: animal 1 (storagePath sounds/???.mp3): the file name '???' is not a record id: '?' is not an id character" + Self.storagePathRule]),
        Case(
            name: "WildSound paths whose file names are not ids", format: .wildsound,
            text: """
                [
                {"name": "Meise", "storagePath": "sounds/Great Tit.mp3"},
                {"name": "Nichts", "storagePath": "sounds/.mp3"},
                {"name": "Elan", "storagePath": "sounds/Élan.wav"},
                {"name": "Fuchs", "storagePath": "sounds/Fuchs.backup.mp3"},
                {"name": "Ordner", "storagePath": "sounds/"},
                {"name": "Leer", "storagePath": "sounds/Dachs.mp3 "},
                {"name": "Rötelmaus", "storagePath": "sounds/Rötelmaus.mp3", "wikiTitleEn": "Bank vole"}
                ]
                """,
            errors: [
                "2:34: animal 1 (storagePath sounds/Great Tit.mp3): the file name 'Great Tit' is not a record id: ' ' is not an id character" + Self.storagePathRule
                    + ", e.g. to 'great-tit'",
                "3:35: animal 2 (storagePath sounds/.mp3): the file name has nothing before its extension '.mp3'",
                "4:33: animal 3 (storagePath sounds/Élan.wav): the file name 'Élan' is not a record id: 'é' is not an id character" + Self.storagePathRule
                    + ", e.g. to 'elan'",
                "5:34: animal 4 (storagePath sounds/Fuchs.backup.mp3): the file name 'Fuchs.backup' is not a record id: '.' is not an id character"
                    + Self.storagePathRule + ", e.g. to 'fuchs-backup'",
                "6:35: animal 5 (storagePath sounds/): it names a folder, not a file",
                "7:33: animal 6 (storagePath sounds/Dachs.mp3): it begins or ends with white space; the path is the key the app synced by and is used as written",
            ]),
        Case(
            name: "Dog CEO keys that are not the API's", format: .dogceo,
            text: "{\"message\": {\"Great Dane\": [], \"wolfhound\": [\"Irish Wolf\"], \"mountain\": [\"bernese\", \"swiss\"], \" pug\": [], \"frise\": [\"bichon\", \"Bichon\"]}, \"status\": \"success\"}",
            errors: [
                "1:14: breed 'Great Dane' is not a breed key" + Self.notADogKey + " (e.g. 'greatdane'); nothing else is guessed",
                "1:46: breed 'wolfhound': sub-breed 'Irish Wolf' is not a breed key" + Self.notADogKey + " (e.g. 'irishwolf'); nothing else is guessed",
                "1:95: breed ' pug' is not a breed key" + Self.notADogKey + " (e.g. 'pug'); nothing else is guessed",
                "1:127: breed 'frise': sub-breed 'Bichon' is not a breed key" + Self.notADogKey + " (e.g. 'bichon'); nothing else is guessed",
            ]),
        Case(
            name: "Dog CEO key with an accented letter", format: .dogceo,
            text: "{\"message\": {\"bouvier\": [\"français\"]}, \"status\": \"success\"}",
            errors: ["1:26: breed 'bouvier': sub-breed 'français' is not a breed key" + Self.notADogKey + " (e.g. 'francais'); nothing else is guessed"]),
        Case(
            name: "WildSound crop the page cannot use", format: .wildsound,
            text: "[{\"name\": \"Dachs\", \"storagePath\": \"sounds/Dachs.mp3\", \"wikiTitleEn\": \"Badger\", \"imageCrop\": \"diagonal\"}]",
            errors: ["1:93: animal 1 (storagePath sounds/Dachs.mp3): imageCrop 'diagonal' is neither one of the app's crops (center, top, bottom, leading, trailing, topLeading, topTrailing, bottomLeading, bottomTrailing) nor a CSS position like \"50% 20%\"; give one of those (it becomes the picture's image.focus)"]),
        Case(
            name: "WildSound crop that is a position the page cannot use", format: .wildsound,
            text: "[{\"name\": \"Dachs\", \"storagePath\": \"sounds/Dachs.mp3\", \"wikiTitleEn\": \"Badger\", \"imageCrop\": \"50% up\"}]",
            errors: ["1:93: animal 1 (storagePath sounds/Dachs.mp3): image.focus '50% up' must be a CSS position like \"50% 20%\", \"center top\" or \"10px 40%\""]),
        Case(
            name: "CSV with an unterminated quote", format: .csv,
            text: "id,name.en\nfox,Fox\nowl,\"Owl\n",
            errors: ["3:5: malformed CSV: the quoted field that starts here is never closed with '\"'"]),
        Case(
            name: "CSV without an id column", format: .csv, text: "name.en,group\nFox,mammal\n",
            errors: ["1:1: the header has no 'id' column; every row needs the record's id (1–64 of a-z, 0-9, '_', '-'), e.g. id,name.en"]),
        // A volunteer's export with two byte-order marks: the second is named, not "'id' (did you mean 'id'?)".
        Case(
            name: "CSV with a second byte-order mark", format: .csv, text: "\u{FEFF}\u{FEFF}id,name.en\nfox,Fox\n",
            errors: [
                "1:1: header: '\u{FEFF}id' is not a record field (it holds U+FEFF, a byte-order mark, which cannot be seen) (did you mean 'id'?)",
                "1:1: the header has no 'id' column; every row needs the record's id (1–64 of a-z, 0-9, '_', '-'), e.g. id,name.en",
            ]),
        Case(
            name: "CSV with unknown and misspelt columns", format: .csv, text: "id,nmae.en,colour\nfox,Fox,red\n",
            errors: [
                "1:4: header: 'nmae.en' is not a record field (did you mean 'name.en'?)",
                "1:12: header: 'colour' is not a record field; every column must be a record field: delete others (notes, say) from the copy you import",
            ]),
        Case(
            name: "CSV header with a spreadsheet's names for fields", format: .csv, text: "id,name.en,Scientific Name,sound\nfox,Fox,Vulpes,fox.ogg\n",
            errors: [
                "1:12: header: 'Scientific Name' is not a record field (did you mean 'scientific'?)",
                "1:28: header: 'sound' is not a record field (did you mean 'sound.file'?)",
            ]),
        Case(
            name: "CSV header with two columns for one field (the default language's without a language)", format: .csv,
            text: "id,name,name.en,wikipedia.de,wikipedia.de\nbadger,Badger,Badger2,Dachs,Dachs\n",
            errors: [
                "1:9: header: 'name.en' sets name.en, as column 2 'name' does (a column without a language is in 'en', the site's default language); one row's value would take the other's place: keep one of the two columns",
                "1:30: column 'wikipedia.de' appears twice (also column 4)",
            ]),
        Case(
            name: "CSV header naming the site's languages in other capitals or with a region", format: .csv,
            text: "id,name.en,name.DE,description.de-DE\nfox,Fox,Fuchs,Ein Fuchs\n",
            errors: [
                "1:12: header: 'name.DE': 'DE' is not a language code like en or de (did you mean 'name.de'?)",
                "1:20: header: 'description.de-DE': language 'de-DE' is not in content/site.yml's languages (en, de), which write it 'de': name the column description.de",
            ]),
        Case(
            name: "CSV with its header again among the rows (two exports pasted together)", format: .csv,
            text: "id,name.en,difficulty\nhedgehog,Hedgehog,1\nid,name.en,\nfrog,Frog,2\n",
            errors: ["3:1: row 3 repeats the header (two files pasted one under the other?); delete it"]),
        Case(
            name: "CSV row with an invalid id and other mistakes: all said in one run", format: .csv,
            text: "id,name.en,difficulty,sound.url,sound.source\nDachs,Badger,9,http://example.org/a,https://example.org/a\n\u{FEFF}bear,Bear,1,,\n",
            errors: [
                "2:1: row 2: id 'Dachs' must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'dachs'; it is the key apps sync by and never changes",
                "2:14: row 2: difficulty must be 1, 2 or 3, not '9'",
                // Not also "sound.source needs a sound: give sound.file or sound.url too".
                "2:16: row 2: sound.url 'http://example.org/a' must end in .mp3, .ogg, .oga, .opus, .m4a, .aac, .wav, so that the type is known",
                "3:1: row 3: id '\u{FEFF}bear' (it holds U+FEFF, a byte-order mark, which cannot be seen) must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'bear'; it is the key apps sync by and never changes",
            ]),
        Case(
            name: "CSV tags separated by commas, and an article of another language's Wikipedia", format: .csv,
            text: "id,name.en,tags,wikipedia.en\nfox,Fox,\"garden, forest\",https://de.wikipedia.org/wiki/Rotfuchs\n",
            errors: [
                "2:9: row 2 (id fox): tags are separated by ';', not ',': 'garden, forest' would be one tag; write garden; forest",
                "2:26: row 2 (id fox): wikipedia.en: 'https://de.wikipedia.org/wiki/Rotfuchs' is an article of the 'de' Wikipedia, not of the 'en' one; write the title of the 'en' article",
            ]),
        Case(
            name: "CSV with a title above its header (a spreadsheet's habit)", format: .csv,
            text: "\u{FEFF}Bird list autumn 2024;;;\nid;name.en;tags;image.file\nkingfisher;Kingfisher;bird;\n",
            errors: ["1:1: line 1 is not the header: line 2 is (id;name.en;tags;image.file); delete the line above it (a title, say) from the copy you import"]),
        Case(
            name: "CSV with two title lines, without separators", format: .csv,
            text: "Birds\nAutumn\nid,name.en\nfox,Fox\n",
            errors: ["1:1: line 1 is not the header: line 3 is (id,name.en); delete the 2 lines above it (a title, say) from the copy you import"]),
        Case(
            name: "CSV separated by ';' with tags separated by commas, and a picture's place on Windows", format: .csv,
            text: "id;name.en;tags;image.file\nfox;Fox;garden, forest;C:\\Users\\anna\\Pictures\\toad.jpg\n",
            errors: [
                "2:9: row 2 (id fox): tags are separated by ';', not ',': 'garden, forest' would be one tag; in this file, whose columns ';' separates, write the cell in double quotes: \"garden; forest\"",
                "2:24: row 2 (id fox): image.file 'C:\\Users\\anna\\Pictures\\toad.jpg': no such file; that is where the file is on a Windows computer: copy it next to the CSV (or under --media) and write its name, toad.jpg",
            ]),
        Case(
            name: "CSV cell holding more than a record's values may (pasted text)", format: .csv,
            text: "id,name.en,description.en\nbittern,Bittern," + String(repeating: "x", count: 300_000) + "\n",
            errors: ["2:17: row 2 (id bittern): description.en holds 293 KiB; a record's values may hold 256 KiB in all: shorten it"]),
        Case(
            name: "CSV row whose cells together hold more than a record's values may", format: .csv,
            text: "id,name.en,description.en,hint.en\nbittern,Bittern," + String(repeating: "x", count: 140_000) + "," + String(repeating: "y", count: 130_000) + "\n",
            errors: ["2:17: row 2 (id bittern): description.en holds 137 KiB, the row's values 264 KiB in all; a record's values may hold 256 KiB in all: shorten it"]),
        Case(
            name: "CSV that is a spreadsheet's workbook", format: .csv, text: "PK\u{03}\u{04}\u{14}\u{00}",
            errors: [
                "1:1: malformed CSV: this is a spreadsheet workbook (.xlsx, .ods or .numbers: a ZIP file), not a CSV file; open it in the spreadsheet and save it as CSV UTF-8 (Excel: Save As, CSV UTF-8; LibreOffice: Save As, Text CSV, character set Unicode (UTF-8))"
            ]),
        // An app's export given as CSV: its quotes were "malformed CSV" in line 3 (found by a tester).
        Case(
            name: "CSV that is an app's JSON export", format: .csv, text: "[\n  {\n    \"id\": 1, \"name\": \"Robin\"\n  }\n]\n",
            errors: ["1:1: malformed CSV: this is JSON, not CSV: an app's export is imported with its own --format (nuthatch, dogceo or wildsound: docs/import.md)"]),
        Case(
            name: "CSV rows with invalid ids, wrong field counts and bad values", format: .csv,
            text: "id,name.en,difficulty,wikipedia.en\nRed Fox,Red fox,1,Red fox\nowl,Owl\nbee,Bee,5,Bee <insect>\nbat,Bat,,Bat [animal]\n,Nobody,,\n",
            errors: [
                "2:1: row 2: id 'Red Fox' must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'red-fox'; it is the key apps sync by and never changes",
                "3:1: row 3 has 2 fields, the header has 4; a value with ',' or a line break must be in double quotes",
                "4:9: row 4 (id bee): difficulty must be 1, 2 or 3, not '5'",
                "4:11: row 4 (id bee): wikipedia.en: 'Bee <insect>' cannot be a Wikipedia title (no # [ ] { } | < or line breaks)",
                "5:10: row 5 (id bat): wikipedia.en: 'Bat [animal]' cannot be a Wikipedia title (no # [ ] { } | < or line breaks)",
                "6:1: row 6 has no id",
            ]),
        Case(
            name: "CSV rows giving one id twice", format: .csv, text: "id,name.en\nfox,Fox\nowl,Owl\nfox,Red fox\n",
            errors: ["4:1: row 4 (id fox) gives the id 'fox', like row 2 (id fox) at line 2: two entries cannot become one record; change one of them in the source"]),
        Case(
            name: "CSV ids with spaces around them", format: .csv, text: "id,name.en\n badger,Badger\nstoat ,Stoat\n",
            errors: [
                "2:1: row 2: id ' badger' must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'badger'; it is the key apps sync by and never changes",
                "3:1: row 3: id 'stoat ' must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'stoat'; it is the key apps sync by and never changes",
            ]),
        Case(
            name: "CSV media that are missing or not what they claim", format: .csv,
            text: "id,name.en,sound.file\nfox,Fox,fox.ogg\nowl,Owl,notes.txt\n",
            errors: [
                "2:9: row 2 (id fox): sound.file 'fox.ogg': no such file; looked for content/fox.ogg and INCOMING/fox.ogg (files next to the CSV, or under --media)",
                "3:9: row 3 (id owl): INCOMING/notes.txt is not a supported sound: its bytes are not mp3, ogg, opus, m4a, aac or wav",
            ]),
        Case(
            name: "CSV media missing, with their credit: one error, not a second about the credit", format: .csv,
            text: "id,name.en,sound.file,sound.credit,image.file,image.license\nfox,Fox,fox.ogg,Me,fox.png,CC0-1.0\n",
            errors: [
                "2:9: row 2 (id fox): sound.file 'fox.ogg': no such file; looked for content/fox.ogg and INCOMING/fox.ogg (files next to the CSV, or under --media)",
                "2:20: row 2 (id fox): image.file 'fox.png': no such file; looked for content/fox.png and INCOMING/fox.png (files next to the CSV, or under --media)",
            ]),
        Case(
            name: "CSV header with a misspelt column: its error, and the rows' in the same run", format: .csv,
            text: "id,name.en,scientfic,sound.file\nfox,Fox,Vulpes vulpes,fox.ogg\nOwl,Owl,Strix,\n",
            errors: [
                "1:12: header: 'scientfic' is not a record field (did you mean 'scientific'?)",
                "2:23: row 2 (id fox): sound.file 'fox.ogg': no such file; looked for content/fox.ogg and INCOMING/fox.ogg (files next to the CSV, or under --media)",
                "3:1: row 3: id 'Owl' must be 1–64 characters of a-z, 0-9, '_' and '-', e.g. 'owl'; it is the key apps sync by and never changes",
            ]),
        Case(
            name: "CSV media given by a web address", format: .csv,
            text: "id,name.en,sound.file\nwren,Wren,https://example.org/sounds/wren.mp3\n",
            errors: [
                "2:11: row 2 (id wren): sound.file 'https://example.org/sounds/wren.mp3': no such file; a web address goes in the sound.url column (the record then names it), or download the file and name it here"
            ]),
        Case(
            name: "CSV media named in the wrong case, with the file meant and what to write", format: .csv,
            text: "id,name.en,sound.file\nfox,Fox,sounds/Common-Frog.mp3\nowl,Owl,NOTES.txt\n",
            errors: [
                "2:9: row 2 (id fox): sound.file 'sounds/Common-Frog.mp3': no such file; looked for content/sounds/Common-Frog.mp3 and INCOMING/sounds/Common-Frog.mp3 (files next to the CSV, or under --media); did you mean 'sounds/common-frog.mp3' (content/sounds/common-frog.mp3)? (letters' case counts: the build machine and web servers tell the two names apart)",
                // notes.txt is there, but is not a sound or picture by its name: not offered.
                "3:9: row 3 (id owl): sound.file 'NOTES.txt': no such file; looked for content/NOTES.txt and INCOMING/NOTES.txt (files next to the CSV, or under --media)",
            ]),
        Case(
            name: "CSV header capitalised as a spreadsheet does", format: .csv, text: "ID,Name\nlynx,Lynx\n",
            errors: [
                "1:1: header: 'ID' is not a record field (did you mean 'id'?)",
                "1:1: the header has no 'id' column; every row needs the record's id (1–64 of a-z, 0-9, '_', '-'), e.g. id,name.en",
                "1:4: header: 'Name' is not a record field (did you mean 'name'?)",
            ]),
        Case(
            name: "CSV media by an absolute path that is missing", format: .csv,
            text: "id,name.en,sound.file\nfox,Fox,/nonexistent/fox.ogg\n",
            errors: ["2:9: row 2 (id fox): sound.file '/nonexistent/fox.ogg': no such file"]),
        Case(
            name: "CSV value with a direction override", format: .csv, text: "id,name.en,group\nfox,Fox,\u{202E}lammam\n",
            errors: [
                "2:9: row 2 (id fox): group contains U+202E (right-to-left override), a control character that makes text show in another order than it is stored, so it reads otherwise on the site than in review; remove it (the site sets each text's direction itself; U+200E or U+200F marks are allowed)"
            ]),
        Case(
            name: "CSV name with a direction override, not also missing", format: .csv, text: "id,name.en\nlynx,Ly\u{202E}nx\n",
            errors: [
                "2:6: row 2 (id lynx): name.en contains U+202E (right-to-left override), a control character that makes text show in another order than it is stored, so it reads otherwise on the site than in review; remove it (the site sets each text's direction itself; U+200E or U+200F marks are allowed)"
            ]),
        Case(
            name: "CSV value with a control character", format: .csv, text: "id,name.en\nlynx,Ly\u{1B}[1mnx\n",
            errors: ["2:6: row 2 (id lynx): name.en contains U+001B (a control character), which a page cannot show; remove it"]),
        Case(
            name: "CSV new record with another error and no name: both said", format: .csv, text: "id,difficulty\nbadger,9\n",
            errors: [
                "2:1: 1 new record would have no name.en value: badger. Every record needs a name in the site's default language 'en', the first of content/site.yml's languages: add a name.en column or fill it in those rows",
                "2:8: row 2 (id badger): difficulty must be 1, 2 or 3, not '9'",
            ]),
        Case(
            name: "CSV language the site does not have", format: .csv, text: "id,name.en,name.fr\nfox,Fox,Renard\n",
            errors: ["1:12: header: 'name.fr': language 'fr' is not in content/site.yml's languages (en, de); add it there first"]),
        Case(
            name: "CSV new records without a name in the default language", format: .csv, text: "id,name.de\nfuchs,Fuchs\ndachs,Dachs\n",
            errors: [
                "2:1: 2 new records would have no name.en value: fuchs, dachs. Every record needs a name in the site's default language 'en', the first of content/site.yml's languages: add a name.en column or fill it in those rows"
            ]),
    ]

    static let notASpeciesID =
        " is not a species id: the API's ids are whole numbers from 1, written 7 or \"7\" (no sign, fraction, exponent or leading zero); the record id is made from it as nuthatch-ID, so nothing else is guessed"
    static let storagePathRule =
        ". The id is the file name without folders and extension, lowercased and with ä, ö, ü, ß spelt ae, oe, ue, ss, and must then be 1–64 characters of a-z, 0-9, '_' and '-'; it is the key the app synced by, so nothing else is guessed: rename the file in the source"
    static let notADogKey = ": a Dog CEO key is lowercase letters a–z run together, as the API writes them ('germanshepherd'), and is the record id as it is"

    @Test(arguments: cases)
    func badInputIsReportedWithItsPositionAndNothingIsWritten(_ c: Case) throws {
        let site = try TestSite(languages: ["en", "de"])
        try site.importing("csv/animals.csv", .csv)  // a site with content to protect
        try site.write("These are notes, not a sound.\n", to: "incoming/notes.txt")
        let file = try site.source(c.text, name: "input.\(c.format == .csv ? "csv" : "json")")
        let before = try site.snapshot()
        let diagnostics = site.failure(file, c.format)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.allSatisfy { $0.location?.path == file })
        let incoming = site.directory.appending("incoming")
        #expect(errors.map { "\($0.location!.line):\($0.location!.column): \($0.message.replacingOccurrences(of: incoming, with: "INCOMING"))" } == c.errors)
        #expect(try site.snapshot() == before)
    }

    @Test func aFileThatIsNotThereIsNamed() throws {
        let site = try TestSite()
        let diagnostics = site.failure("/nonexistent/birds.json", .nuthatch)
        #expect(diagnostics.map(\.description) == ["/nonexistent/birds.json:1:1: error: cannot read the file to import: no such file [import]"])
    }

    /// A device or a folder is refused before a byte is read: `/dev/zero` was read without end,
    /// a gigabyte a second (found by a new user). (A CSV's media must be regular files already;
    /// `add --sound` is tested in AddCommandTests.)
    @Test func aFileThatIsNotARegularFileIsRefused() throws {
        let site = try TestSite()
        #expect(site.failure("/dev/zero", .csv).map(\.description) == [
            "/dev/zero:1:1: error: cannot read the file to import: is a device or a socket, not a file or a pipe [import]",
        ])
        let folder = site.directory.appending("incoming")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(site.failure(folder, .csv).map(\.description) == ["\(folder):1:1: error: cannot read the file to import: is a directory [import]"])
    }

    /// A named pipe (the shell's `<(curl …)` is one) is read to its end, as the file it carries
    /// would be, but no further than the limit: a stream has no size to check first.
    @Test func aPipeIsReadToItsEndButNotPastTheLimit() throws {
        let site = try TestSite()
        let breeds = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("import/dogceo/breeds.json")))
        func pipe(carrying data: Data) throws -> String {
            let path = site.directory.appending("pipe-\(UUID().uuidString)")
            #expect(mkfifo(path, 0o600) == 0)
            writeOnAThreadOfItsOwn(data) { FileHandle(forWritingAtPath: path) }
            return path
        }
        let fromPipe = try site.plan(try pipe(carrying: breeds), .dogceo)
        let fromFile = try site.plan("dogceo/breeds.json", .dogceo)
        #expect(fromPipe.records.count == 15)
        #expect(fromPipe.records.map(\.path) == fromFile.records.map(\.path))
        #expect(fromPipe.records.map(\.data) == fromFile.records.map(\.data))

        // The limit itself is read; a byte more is not.
        let limit = 1 << 20
        let exactly = Importer.readSource(try pipe(carrying: Data(repeating: 97, count: limit)), limit: limit, fileSystem: LocalFileSystem())
        #expect((try? exactly.get())?.bytes.count == limit)
        let over = Importer.readSource(try pipe(carrying: Data(repeating: 97, count: limit + 1)), limit: limit, fileSystem: LocalFileSystem())
        #expect(problem(over) == "more than 1 MiB came; at most 1 MiB is read")
    }

    /// Standard input (`-`) is refused before a byte is read when it is a terminal (nobody piped
    /// anything in), a device, or a file larger than the limit; a file within it is read.
    @Test func standardInputIsCheckedBeforeItIsRead() throws {
        let site = try TestSite()
        func readStandardInput(_ fd: Int32, limit: Int = 1 << 20) -> Result<(bytes: [UInt8], streamed: Bool), FieldProblem> {
            Importer.readSource("-", limit: limit, fileSystem: LocalFileSystem(), inputDescriptor: fd)
        }
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)  // a pseudo-terminal, as posix_openpt makes
        try #require(terminal >= 0)
        defer { close(terminal) }
        #expect(problem(readStandardInput(terminal))?.hasPrefix("standard input is a terminal; pipe the file in") == true)

        let zero = open("/dev/zero", O_RDONLY)
        try #require(zero >= 0)
        defer { close(zero) }
        #expect(problem(readStandardInput(zero)) == "standard input is a device, not a file or a pipe")

        try site.directory.write(String(repeating: "a", count: 2 << 20), to: "big.csv")
        let big = open(site.directory.appending("big.csv"), O_RDONLY)
        try #require(big >= 0)
        defer { close(big) }
        #expect(problem(readStandardInput(big)) == "it is 2 MiB; at most 1 MiB is read")
        #expect((try? readStandardInput(big, limit: 3 << 20).get())?.bytes.count == 2 << 20)

        // A redirected file named through its descriptor (`import /dev/stdin < big.csv`) is read
        // as a file but counts as streamed: its folder (/dev/fd) is no place for media.
        let throughItsName = try Importer.readSource("/dev/fd/\(big)", limit: 3 << 20, fileSystem: LocalFileSystem()).get()
        #expect(throughItsName.bytes == Array(repeating: UInt8(ascii: "a"), count: 2 << 20))
        #expect(throughItsName.streamed)
        #expect(try !Importer.readSource(site.directory.appending("big.csv"), limit: 3 << 20, fileSystem: LocalFileSystem()).get().streamed)
    }

    private func problem(_ result: Result<(bytes: [UInt8], streamed: Bool), FieldProblem>) -> String? {
        if case .failure(let problem) = result { return problem.message }
        return nil
    }

    @Test func aSiteWithoutSiteYmlIsNoPlaceToImportInto() throws {
        let empty = TemporaryDirectory("no-site")
        let plan = Result { try Importer(format: .csv, file: Fixtures.path("import/csv/animals.csv"), root: empty.path).plan() }
        #expect(throws: DiagnosticError.self) { try plan.get() }
        #expect(!FileManager.default.fileExists(atPath: empty.appending("content")))
    }

    @Test func englishNamesIntoAGermanFirstSiteAreRefusedWithAdvice() throws {
        let site = try TestSite(languages: ["de", "en"])
        let diagnostics = site.failure("nuthatch/species.json", .nuthatch)
        #expect(diagnostics.filter { $0.severity == .error }.map(\.message) == [
            "5 new records would have no name in 'de' (nuthatch names are 'en'): nuthatch-1, nuthatch-2, nuthatch-3, nuthatch-4, nuthatch-5. Every record needs a name in the site's default language 'de', the first of content/site.yml's languages: put 'en' first in languages, or import a CSV with columns id,name.de first"
        ])
        // After a CSV with the German names, the dump updates them.
        let names = try site.source("id,name.de\n" + (1...5).map { "nuthatch-\($0),Vogel \($0)" }.joined(separator: "\n"), name: "names.csv")
        try site.importing(names, .csv)
        let plan = try site.importing("nuthatch/species.json", .nuthatch)
        #expect(plan.summary == "created 0, updated 5, unchanged 0")
        #expect(site.animal("nuthatch-3")?.name.values == ["de": "Vogel 3", "en": "Northern Cardinal"])
    }

    @Test func aRecordWithErrorsIsNotChanged() throws {
        let site = try TestSite(languages: ["en"])
        try site.write("---\nname: {en: Fox}\ndifficulty: 9\n---\n", to: "content/animals/fox.md")
        let csv = try site.source("id,name.en\nfox,Red fox\n", name: "fix.csv")
        let diagnostics = site.failure(csv, .csv)
        #expect(diagnostics.map(\.description) == [
            "content/animals/fox.md:1:1: error: record 'fox' has errors; fix them before changing it (`bestiary check` lists them) [import]",
            "content/animals/fox.md:3:13: error: difficulty must be from 1 to 3, not 9 [load]",
        ])
    }

    /// A row's values fit a record, but not with what the record already holds: said at the row's
    /// longest cell, with both sizes (the parser's "front matter is larger than 256 KiB; keep
    /// long text in the Markdown body" at the row's start told a spreadsheet's user neither).
    @Test func aRowThatWouldMakeItsRecordTooLargeIsSaidInTheRowsWords() throws {
        let site = try TestSite(languages: ["en", "de"])
        try site.write("---\nname: {en: Bittern}\ndescription: {en: \(String(repeating: "x", count: 150_000))}\n---\n", to: "content/animals/bittern.md")
        let csv = try site.source("id,hint.en,description.de\nbittern,Listen at dusk," + String(repeating: "y", count: 120_000) + "\n", name: "more.csv")
        let before = try site.snapshot()
        #expect(site.failure(csv, .csv).map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)" } == [
            "2:24: row 2 (id bittern): content/animals/bittern.md would hold 264 KiB of values with the 118 KiB this row gives (description.de holds 118 KiB of them); a record's values may hold 256 KiB in all: shorten them, or keep long text in the record's Markdown body"
        ])
        #expect(try site.snapshot() == before)
    }

    @Test func aFileInTheWayOfANewRecordIsReported() throws {
        let site = try TestSite(languages: ["en"])
        try site.write("---\nid: reynard\nname: {en: Fox}\n---\n", to: "content/animals/fox.md")
        let csv = try site.source("id,name.en\nfox,Red fox\n", name: "new.csv")
        #expect(site.failure(csv, .csv).map(\.message) == [
            "row 2 (id fox): content/animals/fox.md already holds the record 'reynard' (its 'id:' says so), so 'fox' cannot be written there"
        ])
    }
}
