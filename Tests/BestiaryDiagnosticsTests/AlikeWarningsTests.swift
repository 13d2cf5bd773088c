@testable import BestiaryDiagnostics
import Testing

/// Warnings alike folded for a reader (``AlikeWarnings``).
@Suite struct AlikeWarningsTests {
    @Test func theShapeLeavesOutWhatDiffersFromPlaceToPlace() {
        let a = AlikeWarnings.shape(of: "name 'Fenlixeule' is also motis-toad-5222's: the quiz never offers the two side by side")
        let b = AlikeWarnings.shape(of: "name 'Katisspitzmaus' is also draste-trout-848's: the quiz never offers the two side by side")
        #expect(a == b)
        #expect(a == "the quiz never offers the two side by side")
        // Quoted text and words with digits, in a message without a colon.
        #expect(AlikeWarnings.shape(of: "sound 'a.ogg' is 12 MB, over 5 MB") == AlikeWarnings.shape(of: "sound 'bird song.ogg' is 7 MB, over 5 MB"))
        #expect(AlikeWarnings.shape(of: "“Möwe” and \"gull\" at 3x") == "… and … at #")
        // Paths (a media file's `chmod a+r content/PATH` hint).
        #expect(AlikeWarnings.shape(of: "x: make it readable: chmod a+r content/sounds/owl.ogg")
            == AlikeWarnings.shape(of: "y: make it readable: chmod a+r content/images/fox.jpg"))
        // A word's apostrophe opens no quote: the rest of the message still counts.
        #expect(AlikeWarnings.shape(of: "the fox's sound is missing") != AlikeWarnings.shape(of: "the fox's picture is missing"))
        // Different explanations stay apart.
        #expect(AlikeWarnings.shape(of: "x: no picture") != AlikeWarnings.shape(of: "x: no sound"))
    }

    /// The shape by `Character` alone (the way it was first written, which the byte path must
    /// agree with): the colon found by characters, the explanation shaped by characters.
    static func characterShape(of message: String) -> String {
        AlikeWarnings.characterShape(AlikeWarnings.characterAfterColon(message).map { message[$0...] } ?? message[...])
    }

    /// Whether the summary of a fold of `message` heads it with all up to its first `: ` as
    /// characters find it.
    static func summarisedAsByCharacter(_ message: String) -> Bool {
        let fold = AlikeWarnings.Fold(example: Diagnostic(.warning, message), count: 2)
        var previous: Character?
        var head = message
        for i in message.indices {
            if previous == ":" && message[i] == " " { head = String(message[..<message.index(after: i)]) + "…"; break }
            previous = message[i]
        }
        return AlikeWarnings.summary(fold).contains("like \"\(head)\"")
    }

    @Test(arguments: [
        "name 'Fenlixeule' is also motis-toad-5222's: the quiz never offers the two side by side",
        "sound 'a.ogg' is 12 MB, over 5 MB",
        "“Möwe” and \"gull\" at 3x; „Kröte“ (½ of ٣ tens) in 北京/东京",
        "x: make it readable: chmod a+r content/sounds/owl.ogg",
        "no colon here, 'an unclosed quote",
        "a: b: c:d e:",
        "the fox's sound is missing: Ünïcödé wörds, emoji 🦊 and 3️⃣ keycaps",
        "",
        // Found by a review of the first byte version: a Greek question mark that equals ';', and
        // combining or prepended marks that join a quote, a space, a digit or a colon into
        // another character.
        "x: size 12\u{037E} big",
        "x: a1 \u{301}b",
        "x: a '\u{301}b c' d",
        "x: \u{0600}1 abc",
        "x: \u{0600}/ abc",
        "a: \u{301}b: c d",
        "a\u{0600}: b: c d",
        "a: b \u{301}: c",
    ])
    func theShapeAgreesWithTheCharacterVersion(_ message: String) {
        #expect(AlikeWarnings.shape(of: message) == Self.characterShape(of: message))
        // The summary's head ends at the same colon.
        #expect(Self.summarisedAsByCharacter(message))
    }

    /// Random messages from pieces that trip a byte or scalar reading (marks, U+037E, quotes,
    /// digits of other scripts, `\r\n`): the shape and the summary's head agree with the
    /// `Character` version on each.
    @Test func randomMessagesAreShapedAsByCharacter() {
        let pieces = [
            "a", "Fox", " ", ": ", ":", "'", "\"", "“", "”", "„", ",", ";", "(", ")", "/", "7", "٣", "½", "\u{037E}",
            "\u{301}", "\u{0600}", "\u{200D}", "\r\n", "é", "北", "🦊", "3️⃣", "-",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let message = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(AlikeWarnings.shape(of: message) == Self.characterShape(of: message), "\(message.debugDescription)")
            #expect(Self.summarisedAsByCharacter(message), "\(message.debugDescription)")
        }
    }

    @Test func onlyKindsOfMoreThanTwentyAreCutToTheirFirstTenAndErrorsNever() {
        func alike(_ i: Int, _ severity: Severity = .warning) -> Diagnostic {
            Diagnostic(severity, "name 'N\(i)' is also id-\(i)'s: give one another name", at: SourceLocation(path: "content/animals/a\(i).md", line: 2, column: 1), stage: "validate")
        }
        let few = (1...20).map { alike($0) }
        #expect(AlikeWarnings.fold(few).printed == few)
        #expect(AlikeWarnings.fold(few).folded.isEmpty)

        let other = Diagnostic.warning("base_url 'https://example.org/' is on example.org: set it", at: SourceLocation(path: "content/site.yml", line: 2, column: 1), stage: "validate")
        let errors = (1...25).map { alike($0, .error) }
        let many = (1...25).map { alike($0) } + [other] + errors
        let (printed, folded) = AlikeWarnings.fold(many)
        #expect(printed == Array(many[0..<10]) + [other] + errors)
        #expect(folded == [AlikeWarnings.Fold(example: many[10], count: 15)])
        #expect(AlikeWarnings.summary(folded[0])
            == "note: 15 more warnings like \"name 'N11' is also id-11's: …\" are not shown (10 of them are above); --all-warnings prints every one [validate]")
    }
}
