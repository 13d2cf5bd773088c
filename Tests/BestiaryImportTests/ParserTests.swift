import BestiaryContent
import BestiaryImport
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func failure(_ text: String) -> JSONParser.Failure? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsValuesWithTheirPositions() throws {
        let value = try parse("\u{FEFF}[\n  {\"id\": 12, \"name\": \"Fuchs \\u00e4\\ud83e\\udd8a\", \"ok\": true, \"x\": null},\n  -1.5e3\n]")
        guard case .array(let items, let position) = value else {
            Issue.record("not an array: \(value)")
            return
        }
        #expect(position == JSONPosition(line: 1, column: 1))
        #expect(items.count == 2)
        #expect(items[0]["id"] == .number("12", JSONPosition(line: 2, column: 10)))
        #expect(items[0]["name"] == .string("Fuchs ä🦊", JSONPosition(line: 2, column: 22)))
        #expect(items[0]["ok"] == .bool(true, JSONPosition(line: 2, column: 56)))
        #expect(items[0]["x"]?.isNull == true)
        #expect(items[1] == .number("-1.5e3", JSONPosition(line: 3, column: 3)))
    }

    @Test(arguments: [
        ("[1, 2,]", "trailing comma before ']' (JSON allows none)", 1, 7),
        ("{\"a\": 1,\n}", "trailing comma before '}' (JSON allows none)", 2, 1),
        ("[\n  {\"id\": 1}\n  {\"id\": 2}\n]", "unexpected '{'; expected ',' or ']' after a list element", 3, 3),
        ("{\"a\" 1}", "unexpected '1'; expected ':' after the member name \"a\"", 1, 6),
        ("{'a': 1}", "unexpected '''; expected a member name in double quotes", 1, 2),
        ("[\"open", "text that starts at 1:2 is not closed with '\"'", 1, 7),
        ("[\"a\nb\"]", "line break inside text (write it as \\n)", 1, 4),
        ("[01]", "numbers may not have leading zeros", 1, 2),
        ("[tru]", "unexpected ']'; expected 'true'", 1, 2),
        ("[1] [2]", "unexpected '[' after the end of the JSON value", 1, 5),
        ("", "the file is empty; expected JSON", 1, 1),
        ("[\"\\x\"]", "invalid escape '\\x'", 1, 3),
        ("[{\"id\": 1,\n \"id\": 2}]", "the member \"id\" is given twice in this object (first at 1:3)", 2, 2),
    ])
    func reportsWhatIsWrongAndWhere(_ text: String, _ message: String, _ line: Int, _ column: Int) {
        #expect(failure(text) == JSONParser.Failure(message: message, position: JSONPosition(line: line, column: column)))
    }

    /// The same name in two objects, or inside a member's value, is no repetition; nor are two
    /// spellings of one accented letter (two names to JSON, equal as Swift strings).
    @Test func aNameMayRepeatInOtherObjects() throws {
        let value = try JSONParser.parse(Array(#"[{"id": 1, "x": {"id": 2}}, {"id": 3}, {"caf\u00e9": 1, "cafe\u0301": 2}]"#.utf8))
        guard case .array(let items, _) = value else { throw JSONParser.Failure(message: "not a list", position: JSONPosition(line: 1, column: 1)) }
        #expect(items.count == 3)
    }

    @Test func refusesHostileNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.message == "nested more than 256 levels deep")
    }
}

@Suite struct CSVParserTests {
    func parse(_ text: String) throws(CSVParser.Failure) -> CSVTable { try CSVParser.parse(Array(text.utf8)) }

    @Test func readsRFC4180QuotingLineBreaksCRLFAndAByteOrderMark() throws {
        let table = try parse("\u{FEFF}id,name.en,description.en\r\nfox,\"Fox, red\",\"Says \"\"ring-ding\"\"\r\nat night\"\r\nowl,Owl,\r\n")
        #expect(table.header.map(\.text) == ["id", "name.en", "description.en"])
        #expect(table.records.map { $0.fields.map(\.text) } == [
            ["fox", "Fox, red", "Says \"ring-ding\"\nat night"],
            ["owl", "Owl", ""],
        ])
        #expect(table.records.map(\.number) == [2, 3])
        #expect(table.records.map(\.line) == [2, 4])
        #expect(table.records[0].fields[2].column == 16)
    }

    @Test func detectsSemicolonsFromSpreadsheetsInOtherLocales() throws {
        let table = try parse("id;name.de;tags\nfuchs;Fuchs;\"wald;europa\"\n")
        #expect(table.separator == ";")
        #expect(table.records[0].fields.map(\.text) == ["fuchs", "Fuchs", "wald;europa"])
    }

    /// As many commas as semicolons in the header: the separator that gives it an `id` column.
    @Test(arguments: [
        ("id;Notiz, intern\nfuchs;gesehen, zweimal\n", ";", ["id", "Notiz, intern"]),
        ("\"id\";Notiz, intern\nfuchs;x\n", ";", ["id", "Notiz, intern"]),
        ("id,note; internal\nfox,seen; twice\n", ",", ["id", "note; internal"]),
        // Neither gives one (a misnamed column): a comma on a tie, as before.
        ("key;Notiz, intern\nfuchs;x\n", ",", ["key;Notiz", " intern"]),
    ])
    func aTieGoesToTheSeparatorThatGivesAnIDColumn(_ text: String, _ separator: Character, _ header: [String]) throws {
        let table = try parse(text)
        #expect(table.separator == separator)
        #expect(table.header.map(\.text) == header)
    }

    @Test func skipsBlankLinesAndToleratesAMissingFinalLineBreak() throws {
        let table = try parse("id,name.en\n\nfox,Fox\n\nowl,Owl")
        #expect(table.records.map { $0.fields.map(\.text) } == [["fox", "Fox"], ["owl", "Owl"]])
        // Numbered as a spreadsheet numbers its rows, the header 1: a blank line is a row, as a row
        // of empty cells is, and so is one above the header.
        #expect(table.records.map(\.number) == [3, 5])
        #expect(try parse("\n\nid,name.en\n,\nfox,Fox\n").records.map(\.number) == [4, 5])
        #expect(try parse("\n\nid,name.en\n\nfox,Fox\n").records.map(\.number) == [5])
    }

    @Test(arguments: [
        ("id,name.en\nfox,\"Red fox\n", "the quoted field that starts here is never closed with '\"'", 2, 5),
        ("id,name.en\nfox,Red \"fox\"\n", "a '\"' inside a field that does not start with one; put the whole field in quotes and double the quote (\"\")", 2, 9),
        ("id,name.en\nfox,\"Red\" fox\n", "unexpected ' ' after a closing quote; a quote inside a quoted field is written twice (\"\")", 2, 10),
        ("", "the file is empty; it needs a header line naming the columns", 1, 1),
    ])
    func reportsMalformedCSVWithLineAndColumn(_ text: String, _ message: String, _ line: Int, _ column: Int) {
        #expect(throws: CSVParser.Failure(message: message, line: line, column: column)) { try parse(text) }
    }

    @Test func reportsBytesThatAreNotUTF8() {
        let latin1: [UInt8] = Array("id,name.de\nfuchs,".utf8) + [0x46, 0xFC, 0x63, 0x68, 0x73] + [0x0A]
        #expect(throws: CSVParser.Failure(message: "the file is not valid UTF-8; save it as CSV UTF-8", line: 2, column: 8)) {
            try CSVParser.parse(latin1)
        }
    }
}

@Suite struct RecordIDTests {
    @Test(arguments: [
        ("sounds/Fuchs.mp3", "fuchs"), ("Rötelmaus", "roetelmaus"), ("Ro\u{308}telmaus.mp3", "roetelmaus"),
        ("birds/Amsel_männlich.ogg", "amsel_maennlich"), ("sounds/Schwarzspecht-2.mp3", "schwarzspecht-2"),
        ("Großer-Brachvogel.m4a", "grosser-brachvogel"), ("ÄÖÜ.wav", "aeoeue"), ("fuchs", "fuchs"), ("v1.2/sounds/uhu.opus", "uhu"),
    ])
    func storagePathsGiveStableIDs(_ path: String, _ id: String) {
        #expect(RecordID.fromStoragePath(path) == .success(id))
    }

    /// Only lowercasing and the German spellings: a path that needs any other change is refused,
    /// never turned into some id (`Great Tit` → `great-tit` would be a guess).
    @Test(arguments: [
        "sounds/Schwarzspecht 2.mp3", "Großer Brachvogel.m4a", "sounds/Élan--vital!.wav", "sounds/", "日本.mp3", "sounds/.mp3",
        "sounds/Fuchs.backup.mp3", " sounds/fuchs.mp3", "sounds/fuchs.mp3\n", "", String(repeating: "a", count: 65) + ".mp3",
    ])
    func storagePathsThatAreNoIDsAreRefused(_ path: String) {
        #expect(throws: IDProblem.self) { try RecordID.fromStoragePath(path).get() }
    }

    @Test(arguments: [
        (JSONValue.number("7", JSONPosition(line: 1, column: 1)), "nuthatch-7"), (.string("12", JSONPosition(line: 1, column: 1)), "nuthatch-12"),
    ])
    func speciesIDsAreWholeNumbersFromOne(_ value: JSONValue, _ id: String) {
        #expect(RecordID.fromNuthatchID(value) == .success(id))
    }

    @Test(arguments: ["-3", "1.5", "1e3", "0", "10E2"])
    func speciesNumbersThatAreNoIDsAreRefused(_ number: String) {
        #expect(throws: IDProblem.self) { try RecordID.fromNuthatchID(.number(number, JSONPosition(line: 1, column: 1))).get() }
    }

    @Test(arguments: ["Great Tit!", "üß", "007", " 7", "", "0", "٣"])
    func speciesTextsThatAreNoIDsAreRefused(_ text: String) {
        #expect(throws: IDProblem.self) { try RecordID.fromNuthatchID(.string(text, JSONPosition(line: 1, column: 1))).get() }
    }

    @Test func dogCEOKeysAreLowercaseLettersOnly() {
        #expect(["poodle", "germanshepherd", "a"].allSatisfy(RecordID.isDogCEOKey))
        #expect(!["Great Dane", "great-dane", "Poodle", " pug", "", "k9", "frisé"].contains(where: RecordID.isDogCEOKey))
    }

    @Test func slugsAreCutTo64Characters() {
        let long = Animal.suggestedID(String(repeating: "ab-", count: 40))
        #expect(long.count <= 64)
        #expect(!long.hasSuffix("-"))
    }
}

@Suite struct NamingTests {
    @Test(arguments: [
        ("poodle", nil, "Poodle"), ("poodle", "toy", "Toy poodle"), ("germanshepherd", nil, "German shepherd"),
        ("australian", "shepherd", "Australian shepherd"), ("retriever", "golden", "Golden retriever"),
        ("bulldog", "french", "French bulldog"), ("mountain", "bernese", "Bernese mountain dog"), ("stbernard", nil, "St. Bernard"),
    ] as [(String, String?, String)])
    func dogBreedsGetSensibleEnglishNames(_ breed: String, _ sub: String?, _ name: String) {
        #expect((sub.map { DogBreedNames.name(breed: breed, subBreed: $0) } ?? DogBreedNames.name(breed: breed)) == name)
    }

    @Test func everyWildSoundCropIsACSSPosition() {
        #expect(WildsoundReader.crops.count == 9)
        #expect(WildsoundReader.crops["top"] == "50% 0%")
        #expect(WildsoundReader.crops["bottomtrailing"] == "100% 100%")
    }
}
