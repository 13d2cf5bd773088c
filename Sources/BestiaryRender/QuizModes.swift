import BestiaryContent

/// The quiz modes the site's catalogue can play, decided as the web app decides it
/// (`questions.js`: `roundPool`, `promptKind`), so the home page offers no mode whose quiz would
/// only say why it cannot start. A mode needs an animal it can ask by the catalogue's media (sound:
/// a recording; image: a picture; daily and learn: either), and every mode needs as many animals
/// with different names as a question offers choices (`quiz.choices`, 2 at least).
struct QuizModes: Sendable {
    static let all = ["sound", "image", "daily", "learn"]

    let hasSound: Bool
    let hasImage: Bool
    /// Enough different names for one question's choices.
    let enoughNames: Bool

    init(hasSound: Bool, hasImage: Bool, enoughNames: Bool) {
        self.hasSound = hasSound
        self.hasImage = hasImage
        self.enoughNames = enoughNames
    }

    /// What the catalogue of `input` holds: each animal's media as `CatalogJSON` writes them (the
    /// default language's picture), its names as the quiz compares them.
    init(input: RenderInput) {
        let config = input.catalog.config
        let animals = input.catalog.animals
        let choices = max(2, config.quiz.choices)
        self.init(
            hasSound: animals.contains { input.hasSound($0) },
            hasImage: animals.contains { input.hasImage($0, language: config.defaultLanguage) },
            enoughNames: Catalog.distinctNames(animals, languages: config.languages, atLeast: choices) >= choices)
    }

    func playable(_ mode: String) -> Bool {
        guard enoughNames else { return false }
        switch mode {
        case "sound": return hasSound
        case "image": return hasImage
        default: return hasSound || hasImage
        }
    }
}
