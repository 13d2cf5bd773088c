import Testing

@testable import BestiaryRender

/// The language switcher's labels and the pages' text direction.
struct LanguagesTests {
    /// Two languages of one site never share a label: variants the list does not name get the
    /// base's name and the variant's own.
    @Test func variantsHaveLabelsOfTheirOwn() {
        #expect(Languages.endonym("de") == "Deutsch")
        #expect(Languages.endonym("zh-Hans") != Languages.endonym("zh-Hant"))
        #expect(Languages.endonym("sr-Latn") == "Srpski (latinica)")
        #expect(Languages.endonym("de-CH") == "Deutsch (Schweiz)")
        #expect(Languages.endonym("de-CH") != Languages.endonym("de"))
        #expect(Languages.endonym("pt-BR") == "Português (Brasil)")
        #expect(Languages.endonym("yi") == "ייִדיש")
        #expect(Languages.endonym("qq") == "qq")
        // Not in the list: ICU's own name, as a label (the switcher showed `rm`).
        #expect(Languages.endonym("rm") == "Rumantsch")
        #expect(Languages.endonym("gsw") == "Schwiizertüütsch")
        #expect(Languages.endonym("lb") == "Lëtzebuergesch")
        #expect(Languages.endonym("rm-CH") == "Rumantsch (Svizra)")
    }

    @Test func rightToLeftByLanguageOrScript() {
        for code in ["he", "ar", "fa", "ur", "yi", "ps", "ckb", "ug", "sd", "pa-Arab", "az-Arab", "he-IL", "nqo", "mzn", "azb"] {
            #expect(Languages.direction(code) == "rtl", "\(code)")
        }
        for code in ["en", "de-CH", "ku-Latn", "pa", "sr-Cyrl", "zh-Hant", "ja"] {
            #expect(Languages.direction(code) == "ltr", "\(code)")
        }
    }

    /// The app icon's label is cut after a whole word, not inside one.
    @Test func theManifestsShortNameEndsWithAWord() {
        #expect(WebManifest.shortName("Minimal") == "Minimal")
        #expect(WebManifest.shortName("Tierstimmen-Quiz 7b") == "Tierstimmen")
        #expect(WebManifest.shortName("Vogelquiz: Die Stimmen") == "Vogelquiz")
        #expect(WebManifest.shortName("Bestiary Quiz of Birds") == "Bestiary")
        #expect(WebManifest.shortName("חידון בעלי חיים") == "חידון בעלי")
        #expect(WebManifest.shortName("Vogelstimmenquiz") == "Vogelstimmen")
        // Nor after a little word that leads into the next (a volunteer's "Birds and").
        #expect(WebManifest.shortName("Birds and frogs of Riverside") == "Birds")
        #expect(WebManifest.shortName("Vögel und Frösche am Fluss") == "Vögel")
        #expect(WebManifest.shortName("Zoo of Kew Gardens") == "Zoo of Kew")
        #expect(WebManifest.shortName("Oiseaux et grenouilles") == "Oiseaux")
        #expect(WebManifest.shortName("The Birdwatchers' Quiz") == "The Birdwatc")
    }
}
