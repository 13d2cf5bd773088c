import BestiaryTemplate
import Testing

/// A keyed list renders as the list of its items, records where each item's output went, and
/// copies an item it is given from an earlier rendering instead of making and rendering it.
struct KeyedListTests {
    static let library = try! TemplateLibrary([
        "page": "<h1>{{title}}</h1>\n<ul>\n{{#animals}}\n  <li>{{name}} ({{title}})</li>\n{{/animals}}\n</ul>{{^animals}}none{{/animals}}\n",
        "nested": "{{#groups}}[{{label}}:{{#animals}}{{name}},{{/animals}}]{{/groups}}",
        "peek": "{{#animals}}<{{name}}{{#others}}+{{/others}}>{{/animals}}",
    ])

    static let names = ["Bear", "Crow", "Ant & Co"]

    /// The items made on demand, counting how many were made.
    final class Maker: @unchecked Sendable {
        var made: [Int] = []
        func list(_ keys: [String] = ["k-bear", "k-crow", "k-ant"]) -> TemplateValue {
            .keyed(KeyedList(keys: keys) { i in
                self.made.append(i)
                return ["name": .string(KeyedListTests.names[i])]
            })
        }
    }

    struct Kept: KeptFragments {
        let bytes: [String: [UInt8]]
        func bytes(section: String, item: String) -> ArraySlice<UInt8>? { bytes[item].map { $0[...] } }
    }

    @Test func rendersAsAPlainListAndSaysWhereEachItemWent() throws {
        let plain = Self.library.render("page", ["title": "Animals", "animals": .list(Self.names.map { ["name": .string($0)] })])
        let page = try #require(Self.library.render("page", ["title": "Animals", "animals": Maker().list()], keeping: nil))
        #expect(page.text == plain)
        #expect(page.fragments.map(\.item) == ["k-bear", "k-crow", "k-ant"])
        let utf8 = Array(page.text.utf8)
        let items = page.fragments.map { String(decoding: utf8[$0.offset..<($0.offset + $0.length)], as: UTF8.self) }
        #expect(items == ["  <li>Bear (Animals)</li>\n", "  <li>Crow (Animals)</li>\n", "  <li>Ant &amp; Co (Animals)</li>\n"])
        #expect(Set(page.fragments.map(\.section)).count == 1)
        let empty = try #require(Self.library.render("page", ["title": "", "animals": Maker().list([])], keeping: nil))
        #expect(empty.text.contains("</ul>none"))
    }

    @Test func copiesKeptItemsWithoutMakingThem() throws {
        let maker = Maker()
        let kept = Kept(bytes: ["k-crow": Array("  <li>kept crow</li>\n".utf8)])
        let page = try #require(Self.library.render("page", ["title": "T", "animals": maker.list()], keeping: kept))
        #expect(page.text.contains("<li>kept crow</li>") && !page.text.contains("Crow"))
        #expect(maker.made == [0, 2], "the kept item is never made")
        #expect(page.reused == 1)
        // Recorded where the copy went, so the next rendering can copy it again.
        let crow = try #require(page.fragments.first { $0.item == "k-crow" })
        #expect(String(decoding: Array(page.text.utf8)[crow.offset..<(crow.offset + crow.length)], as: UTF8.self) == "  <li>kept crow</li>\n")
    }

    /// Inside a plain list's item, the item's place on the page is part of its section: the same
    /// key in two groups is two fragments.
    @Test func nestedKeyedListsAreToldByWhereTheyAre() throws {
        let maker = Maker()
        let kept = Kept(bytes: ["k-bear": Array("X".utf8)])
        let groups: TemplateValue = [["label": "mammals", "animals": maker.list()], ["label": "birds", "animals": maker.list()]]
        let page = try #require(Self.library.render("nested", ["groups": groups], keeping: kept))
        #expect(page.text == "[mammals:XCrow,Ant &amp; Co,][birds:XCrow,Ant &amp; Co,]")
        #expect(page.fragments.count == 6 && page.reused == 2)
        #expect(Set(page.fragments.map(\.section)).count == 2)
    }

    /// Inside a keyed item, the output depends on that item's value, which no key stands for: not recorded.
    @Test func keyedListsInsideKeyedItemsAreNotRecorded() throws {
        let library = try TemplateLibrary(["t": "{{#outer}}<{{#inner}}{{name}}{{/inner}}>{{/outer}}"])
        let inner = Maker().list()
        let outer = TemplateValue.keyed(KeyedList(keys: ["o1"]) { _ in ["inner": inner] })
        let page = try #require(library.render("t", ["outer": outer], keeping: Kept(bytes: ["k-bear": Array("X".utf8)])))
        #expect(page.text == "<BearCrowAnt &amp; Co>")
        #expect(page.fragments.map(\.item) == ["o1"])
    }

    /// An item that looks up a member of the page holding a keyed list depends on every item
    /// there, which no key covers: it is rendered, never recorded.
    @Test func anItemThatLooksUpAKeyedListIsNotRecorded() throws {
        let page = try #require(Self.library.render("peek", ["animals": Maker().list(), "others": Maker().list()], keeping: nil))
        #expect(page.text == "<Bear+++><Crow+++><Ant &amp; Co+++>")
        #expect(page.fragments.isEmpty)
        let plain = try #require(Self.library.render("peek", ["animals": Maker().list(), "others": ["a"]], keeping: nil))
        #expect(plain.fragments.count == 3)
        // The same below a group: its `others` hold a keyed list.
        let library = try TemplateLibrary(["g": "{{#groups}}{{#animals}}<{{name}}{{#others}}+{{/others}}>{{/animals}}{{/groups}}"])
        let grouped = try #require(
            library.render("g", ["groups": [["animals": Maker().list(), "others": Maker().list(["x"])]]], keeping: nil))
        #expect(grouped.text == "<Bear+><Crow+><Ant &amp; Co+>")
        #expect(grouped.fragments.isEmpty)
    }

    /// Under an override a lambda's result brings, the items' output depends on that result,
    /// which no section key can name (its blocks have no serial): never recorded, so the items
    /// under another result's override are never copied from them. Over a `true` the result
    /// pushes no value, so only the override tells (a case a review found).
    @Test(arguments: ["{{#wrap}}-{{/wrap}}", "{{#flags}}{{#wrap}}-{{/wrap}}{{/flags}}"])
    func keyedListsUnderALambdaResultsOverrideAreNotRecorded(_ template: String) throws {
        let library = try TemplateLibrary([
            "listing": "{{#animals}}<{{$tag}}plain{{/tag}} {{name}}>{{/animals}}",
            "page": template,
        ])
        func page(_ tag: String, keeping kept: (any KeptFragments)?) throws -> RenderedPage {
            let wrap = TemplateLambda { _ in "{{<listing}}{{$tag}}\(tag){{/tag}}{{/listing}}" }
            let value: TemplateValue = ["animals": Maker().list(), "wrap": .lambda(wrap), "flags": [true]]
            return try #require(library.render("page", value, keeping: kept))
        }
        let first = try page("first", keeping: nil)
        #expect(first.text == "<first Bear><first Crow><first Ant &amp; Co>")
        #expect(first.fragments.isEmpty)
        // Whatever a build kept of the page, another result's items are made anew.
        struct BySection: KeptFragments {
            let bytes: [String: [UInt8]]
            func bytes(section: String, item: String) -> ArraySlice<UInt8>? { bytes[section + "|" + item].map { $0[...] } }
        }
        let utf8 = Array(first.text.utf8)
        var kept: [String: [UInt8]] = [:]
        for f in first.fragments { kept[f.section + "|" + f.item] = Array(utf8[f.offset..<(f.offset + f.length)]) }
        let second = try page("second", keeping: BySection(bytes: kept))
        #expect(second.text == "<second Bear><second Crow><second Ant &amp; Co>")
        // Overrides from the library's own templates are recorded as before.
        let plain = try TemplateLibrary([
            "listing": "{{#animals}}<{{$tag}}plain{{/tag}} {{name}}>{{/animals}}",
            "page": "{{<listing}}{{$tag}}mine{{/tag}}{{/listing}}",
        ])
        let recorded = try #require(plain.render("page", ["animals": Maker().list()], keeping: nil))
        #expect(recorded.text == "<mine Bear><mine Crow><mine Ant &amp; Co>")
        #expect(recorded.fragments.count == 3)
    }

    /// The same items in another section of the same page are other fragments.
    @Test func sectionsAreTold() throws {
        let library = try TemplateLibrary(["two": "{{#animals}}a{{name}}{{/animals}}|{{#animals}}b{{name}}{{/animals}}"])
        let page = try #require(library.render("two", ["animals": Maker().list()], keeping: nil))
        #expect(page.text == "aBearaCrowaAnt &amp; Co|bBearbCrowbAnt &amp; Co")
        #expect(Set(page.fragments.map(\.section)).count == 2)
        #expect(page.fragments.count == 6)
    }

    /// Kept items left where they are in the earlier rendering (``RenderedPage/splices``): the
    /// page's own bytes with them put back are the page a rendering from nothing makes, byte for
    /// byte, and each item is recorded at its place in that whole page. The list is inside an
    /// indented partial, whose next line is indented only if the last kept item ended a line
    /// (read from the earlier rendering), and whose op that writes nothing takes its indentation back.
    @Test func splicedItemsMakeTheSamePageAsRenderingThem() throws {
        let library = try TemplateLibrary([
            "page": "<ul>\n  {{>items}}\n</ul>\n{{#animals}}{{name}}|{{/animals}}end\n",
            "items": "{{#animals}}\n<li>{{name}}</li>\n{{/animals}}\n{{missing}}\nafter\n",
        ])
        /// An earlier rendering, its items found by section and key.
        struct Spliced: KeptFragments {
            let earlier: [UInt8]
            let places: [String: Range<Int>]
            init(_ page: RenderedPage) {
                earlier = page.bytes
                var places: [String: Range<Int>] = [:]
                for f in page.fragments { places[f.section + "|" + f.item] = f.offset..<(f.offset + f.length) }
                self.places = places
            }
            func bytes(section: String, item: String) -> ArraySlice<UInt8>? { nil }
            func keptRange(section: String, item: String, at position: Int) -> Range<Int>? { places[section + "|" + item] }
            func keptByte(at offset: Int) -> UInt8 { earlier[offset] }
        }
        func whole(_ page: RenderedPage, _ kept: Spliced) -> [UInt8] {
            var out: [UInt8] = [], own = 0
            for splice in page.splices {
                out += page.bytes[own..<splice.at] + kept.earlier[splice.range]
                own = splice.at
            }
            return out + page.bytes[own...]
        }
        // Each key stands for its item (as a build's keys do), and the items made are counted.
        let names = ["k-bear": "Bear", "k-crow": "Crow", "k-ant": "Ant & Co", "k-new": "Newt"]
        final class Made: @unchecked Sendable { var keys: [String] = [] }
        func list(_ keys: [String], _ made: Made = Made()) -> TemplateValue {
            .keyed(KeyedList(keys: keys) { i in
                made.keys.append(keys[i])
                return ["name": .string(names[keys[i]]!)]
            })
        }
        let before = ["k-bear", "k-crow", "k-ant"]
        let first = try #require(library.render("page", ["animals": list(before)], keeping: nil))
        #expect(first.splices.isEmpty)
        #expect(first.text.contains("after") && first.fragments.count == 6)
        let kept = Spliced(first)
        for keys in [before, ["k-bear", "k-new", "k-ant"], ["k-crow", "k-bear"], ["k-new"], []] {
            let made = Made()
            let page = try #require(library.render("page", ["animals": list(keys, made)], keeping: kept))
            let fresh = try #require(library.render("page", ["animals": list(keys)], keeping: nil))
            let bytes = whole(page, kept)
            #expect(bytes == fresh.bytes, "\(keys): \(String(decoding: bytes, as: UTF8.self))")
            #expect(page.fragments == fresh.fragments, "\(keys)")
            #expect(made.keys.allSatisfy { $0 == "k-new" }, "\(keys): only the new item is made, not \(made.keys)")
            #expect(page.reused == keys.filter { $0 != "k-new" }.count * 2, "\(keys)")
        }
        // Items that follow one another in both renderings are one splice.
        let same = try #require(library.render("page", ["animals": list(before)], keeping: kept))
        #expect(same.splices.count == 2, "\(same.splices)")

        // Items that render to nothing, at the start of a line of an indented partial (its
        // indentation taken back), then kept items after it: nothing is noted for the empty ones.
        let empty = try TemplateLibrary([
            "page": "a\n  {{>items}}\n{{#animals}}<{{name}}>{{/animals}}\n",
            "items": "x\n{{#animals}}{{#nothing}}-{{/nothing}}{{/animals}}",
        ])
        let earlier = try #require(empty.render("page", ["animals": list(before)], keeping: nil))
        let again = try #require(empty.render("page", ["animals": list(before)], keeping: Spliced(earlier)))
        #expect(whole(again, Spliced(earlier)) == earlier.bytes, "\(String(decoding: whole(again, Spliced(earlier)), as: UTF8.self))")
        #expect(again.fragments == earlier.fragments && again.reused == 6)
        #expect(again.splices.count == 1 && again.splices.allSatisfy { !$0.range.isEmpty }, "\(again.splices)")
    }
}
