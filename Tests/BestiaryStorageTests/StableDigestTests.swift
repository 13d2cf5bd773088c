import BestiaryStorage
import Foundation
import Testing

/// The digest a build keeps on disk must be the same in every process and change with any field.
@Suite struct StableDigestTests {
    struct Record: Encodable {
        var id: String
        var count: Int
        var names: [String: String]
        var tags: [String]
        var note: String?
        var nested: [Record] = []
    }

    let sample = Record(id: "bear", count: 2, names: ["en": "Bear", "de": "Bär", "fr": "Ours"], tags: ["big", "brown"], note: nil)

    /// A fixed value's digest, written down: a dictionary's per-process order, `Hasher`'s per-process
    /// seed or any other run-to-run difference would change it. The expected value was computed
    /// apart from this code, by a few lines of Python writing the format StableDigest.swift
    /// describes (tagged, length-prefixed scalars; keyed containers sorted by key; an absent
    /// optional not encoded at all).
    @Test func isTheSameInEveryProcess() {
        #expect(StableDigest.hex(sample) == "41f92e7ebfe069be6efcc40dd14bbeddfe0c69835d4beb2052622663c9f9d9dd")
    }

    @Test func ignoresTheOrderDictionaryEntriesWereMadeIn() {
        var names: [String: String] = [:]
        for (k, v) in [("fr", "Ours"), ("en", "Bear"), ("de", "Bär")] { names[k] = v }
        var other = sample
        other.names = names
        #expect(StableDigest.bytes(other) == StableDigest.bytes(sample))
    }

    @Test func changesWithEveryField() {
        var seen: Set<String> = [StableDigest.hex(sample)]
        var variants: [Record] = []
        var r = sample
        r.id = "bear2"; variants.append(r)
        r = sample; r.count = 3; variants.append(r)
        r = sample; r.names["en"] = "Brown bear"; variants.append(r)
        r = sample; r.names["es"] = "Oso"; variants.append(r)
        r = sample; r.tags = ["brown", "big"]; variants.append(r)  // order of a list matters
        r = sample; r.tags = ["bigbrown"]; variants.append(r)  // no running together
        r = sample; r.tags = ["bi", "gbrown"]; variants.append(r)
        r = sample; r.note = ""; variants.append(r)  // empty is not absent
        r = sample; r.nested = [sample]; variants.append(r)
        for v in variants { seen.insert(StableDigest.hex(v)) }
        #expect(seen.count == variants.count + 1)
    }

    @Test func tellsTypesApart() {
        struct S: Encodable { var v: String }
        struct I: Encodable { var v: Int }
        struct B: Encodable { var v: Bool }
        let digests = [StableDigest.hex(S(v: "1")), StableDigest.hex(I(v: 1)), StableDigest.hex(B(v: true))]
        #expect(Set(digests).count == 3)
    }

    @Test func combineKeepsPartsApart() {
        #expect(StableDigest.combine(["ab", "c"]) != StableDigest.combine(["a", "bc"]))
        #expect(StableDigest.combine(["a", ""]) != StableDigest.combine(["a"]))
        #expect(StableDigest.combine(["x", "y"]) == StableDigest.combine(["x", "y"]))
    }
}
