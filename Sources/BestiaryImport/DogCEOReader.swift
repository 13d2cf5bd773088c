import BestiaryContent
import BestiaryDiagnostics
import Foundation

/// The Dog CEO breed list (`https://dog.ceo/api/breeds/list/all`):
/// `{"message": {"poodle": ["medium", "miniature", "standard", "toy"], "pug": []}, "status": "success"}`.
///
/// A breed without sub-breeds becomes a record with the breed key as id (`pug`); a breed with
/// sub-breeds becomes one record per sub-breed (`poodle-toy`) and none of its own, since such a key
/// groups its sub-breeds and is often no breed by itself (`"mountain": ["bernese", "swiss"]`,
/// `"frise": ["bichon"]`). The keys are the API's own and never change: they must be lowercase
/// letters `a-z`, as the API writes them, and are used as they are. The source carries nothing else,
/// so all the importer writes are defaults for new records: an English name (`Toy poodle`,
/// `German shepherd`), `group: dog`. Names corrected by hand stay; Wikipedia titles are for the
/// user to add (breed names are ambiguous: "Boxer", "Pug").
public enum DogCEOReader {
    public static func read(_ bytes: [UInt8], context: ImportContext) -> ([ImportRow], [Diagnostic]) {
        var source = JSONSource(context: context)
        guard let root = source.parse(bytes, format: .dogceo) else { return ([], source.diagnostics) }
        guard case .object = root else {
            source.error("expected the Dog CEO reply {\"message\": {…}, \"status\": \"success\"}, found \(root.kindName)", at: root.position)
            return ([], source.diagnostics)
        }
        if case .string(let status, let position)? = root["status"], status != "success" {
            let detail = root["message"].flatMap { if case .string(let m, _) = $0 { m } else { nil } }.map { ": \($0)" } ?? ""
            source.error("the reply's status is '\(status)', not 'success'\(detail); save the list again", at: position)
            return ([], source.diagnostics)
        }
        guard case .object(let breeds, _)? = root["message"] else {
            source.error(
                "expected a 'message' object mapping breeds to sub-breeds, {\"poodle\": [\"toy\", …]}; found \(root["message"]?.kindName ?? "none")",
                at: root["message"]?.position ?? root.position)
            return ([], source.diagnostics)
        }
        let lang = context.language
        var rows: [ImportRow] = []
        func keyProblem(_ key: String) -> String {
            // Accented letters as the other readers fold them ('français' → 'francais').
            let letters = String(Animal.suggestedID(key).unicodeScalars.filter { ("a"..."z").contains($0) })
            return "a Dog CEO key is lowercase letters a–z run together, as the API writes them ('germanshepherd'), and is the record id as it is"
                + (letters.isEmpty || letters == key ? "" : " (e.g. '\(letters)')") + "; nothing else is guessed"
        }
        for member in breeds {
            let breed = member.key
            let label = "breed '\(breed)'"
            guard RecordID.isDogCEOKey(breed) else {
                source.error("\(label) is not a breed key: \(keyProblem(breed))", at: member.keyPosition)
                continue
            }
            guard case .array(let subs, _) = member.value else {
                source.error("\(label): sub-breeds must be a list like [\"toy\", \"miniature\"], not \(member.value.kindName)", at: member.value.position)
                continue
            }
            // A key without sub-breeds is a breed. A key with sub-breeds groups them ("mountain":
            // ["bernese", "swiss"], "hound": ["afghan", …]): the API lists the key's pictures as
            // those of its sub-breeds, and it is often no breed at all ("Mountain", "Frise"), so it
            // becomes no record of its own; each sub-breed does.
            if subs.isEmpty {
                rows.append(ImportRow(
                    id: breed, origin: ImportOrigin(label: label, location: context.location(member.keyPosition)),
                    defaults: [FieldValue(.localized(.name, language: lang), DogBreedNames.name(breed: breed)), FieldValue(.group, "dog")]))
            }
            for sub in subs {
                guard case .string(let subBreed, let position) = sub else {
                    source.error("\(label): each sub-breed must be text, not \(sub.kindName)", at: sub.position)
                    continue
                }
                let subID = "\(breed)-\(subBreed)"
                guard RecordID.isDogCEOKey(subBreed) else {
                    source.error("\(label): sub-breed '\(subBreed)' is not a breed key: \(keyProblem(subBreed))", at: position)
                    continue
                }
                guard Animal.isValidID(subID) else {
                    source.error("\(label): sub-breed '\(subBreed)' gives the id '\(subID)', longer than the 64 characters an id may have", at: position)
                    continue
                }
                rows.append(ImportRow(
                    id: subID, origin: ImportOrigin(label: "sub-breed '\(breed)/\(subBreed)'", location: context.location(position)),
                    defaults: [
                        FieldValue(.localized(.name, language: lang), DogBreedNames.name(breed: breed, subBreed: subBreed)),
                        FieldValue(.group, "dog"),
                    ]))
            }
        }
        return (rows, source.diagnostics)
    }
}

/// English names for Dog CEO's breed keys. Keys are lower-case words run together
/// (`germanshepherd`); most read well capitalised, the rest are listed here.
public enum DogBreedNames {
    static let breeds: [String: String] = [
        "bullterrier": "Bull terrier", "cattledog": "Cattle dog", "cotondetulear": "Coton de Tulear",
        "germanshepherd": "German shepherd", "mexicanhairless": "Mexican hairless dog", "sharpei": "Shar pei",
        "shihtzu": "Shih tzu", "stbernard": "St. Bernard", "pyrenees": "Great Pyrenees",
        "lhasa": "Lhasa apso", "chow": "Chow chow", "leonberg": "Leonberger", "mix": "Mixed breed",
        "africanwild": "African wild dog", "waterdog": "Water dog",
    ]

    /// Sub-breeds whose name is not "<Sub-breed> <breed>".
    static let subBreeds: [String: String] = [
        "australian/kelpie": "Australian kelpie", "australian/shepherd": "Australian shepherd",
        "bullterrier/staffordshire": "Staffordshire bull terrier", "cattledog/australian": "Australian cattle dog",
        "dane/great": "Great Dane", "danish/swedish": "Danish-Swedish farmdog", "finnish/lapphund": "Finnish lapphund",
        "frise/bichon": "Bichon frise", "mountain/bernese": "Bernese mountain dog", "mountain/swiss": "Greater Swiss mountain dog",
        "pointer/germanlonghair": "German longhaired pointer", "retriever/flatcoated": "Flat-coated retriever",
        "terrier/westhighland": "West Highland white terrier", "terrier/kerryblue": "Kerry blue terrier",
        "terrier/dandie": "Dandie Dinmont terrier", "waterdog/spanish": "Spanish water dog", "hound/blood": "Bloodhound",
        "spaniel/blenheim": "Blenheim spaniel", "ovcharka/caucasian": "Caucasian shepherd dog",
        "buhund/norwegian": "Norwegian buhund", "elkhound/norwegian": "Norwegian elkhound",
        "deerhound/scottish": "Scottish deerhound", "wolfhound/irish": "Irish wolfhound", "ridgeback/rhodesian": "Rhodesian ridgeback",
        "springer/english": "English springer spaniel", "corgi/cardigan": "Cardigan Welsh corgi",
    ]

    /// `poodle` → `Poodle`, `germanshepherd` → `German shepherd`.
    public static func name(breed: String) -> String {
        breeds[breed.lowercased()] ?? capitalized(breed)
    }

    /// `poodle`/`toy` → `Toy poodle`, `mountain`/`bernese` → `Bernese mountain dog`.
    public static func name(breed: String, subBreed: String) -> String {
        if let known = subBreeds["\(breed.lowercased())/\(subBreed.lowercased())"] { return known }
        return capitalized(subBreed) + " " + name(breed: breed).lowercased()
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }
}
