import BestiaryTheme
import Foundation
import Testing

@testable import BestiaryRender

/// A site's own copy of a module from an earlier Bestiary lacks a name this version's modules
/// import (or asks for one they no longer export): browsers refuse the importing module and the
/// quiz stops. `check` and the build say which import, and which file is the site's own.
struct ModuleExportsTests {
    @Test func anOldCopyOfAModuleIsNamedAtTheImportThatNeedsWhatItLacks() throws {
        var theme = Theme.builtIn
        #expect(ModuleExports.missingNames(in: theme) == [], "the default theme's modules agree")
        // questions.js as it was before `unlocksAnimals`: everything but that function.
        let current = String(decoding: DefaultTheme.files["assets/js/questions.js"]!, as: UTF8.self)
        let old = current.replacingOccurrences(of: "export function unlocksAnimals(", with: "function unlocksAnimals(")
        theme.files["assets/js/questions.js"] = Theme.File(data: Data(old.utf8), origin: "templates/assets/js/questions.js", isOverride: true)
        let line = String(decoding: DefaultTheme.files["assets/js/quiz-page.js"]!, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("from \"./questions.js\"") }! + 1
        let problems = ModuleExports.missingNames(in: theme)
        #expect(problems.map(\.description) == [
            "(default theme)/assets/js/quiz-page.js:\(line):1: warning: imports 'unlocksAnimals' from ./questions.js, which does not export it: browsers refuse this module, and the pages that load it stop working. templates/assets/js/questions.js is the site's own copy, maybe from an earlier Bestiary: compare with this version's (`bestiary init /tmp/theme`) and bring in what changed, or delete it to use the default theme's [render]",
        ])
        // The site's copy as it is now: nothing to say.
        theme.files["assets/js/questions.js"] = Theme.File(data: Data(current.utf8), origin: "templates/assets/js/questions.js", isOverride: true)
        #expect(ModuleExports.missingNames(in: theme) == [])
    }

    @Test func exportsAreReadFromCodeNotComments() {
        let code = ModuleExports.code("""
            export function a() {}
            export async function b() {}
            export function* c() {}
            export class D {}
            export const e = 1;
            // export function commented() {}
            /* export const hidden = 2; */
            const f = 1, g = 2;
            export { f, g as h };
            export { i } from "./other.js";
            export default function j() {}
            """)
        #expect(ModuleExports.exportedNames(code) == ["a", "b", "c", "D", "e", "f", "h", "i"])
        // What this reading cannot list in full: not checked.
        #expect(ModuleExports.exportedNames("export * from \"./x.js\";\n") == nil)
        #expect(ModuleExports.exportedNames("export const { a, b } = thing;\n") == nil)
        #expect(ModuleExports.exportedNames("export const a = 1, b = 2;\n") == nil)
    }

    @Test func namedImportsOnOneLineOrSeveral() {
        let code = ModuleExports.code("""
            import { a, b as c } from "./x.js";
            // import { commented } from "./y.js";
            import main, { d } from './y.js';
            import {
              e,
              f,
            } from "./z.js";
            import * as all from "./w.js";
            """)
        let found = ModuleExports.namedImports(code)
        #expect(found.map(\.names) == [["a", "b"], ["d"], ["e", "f"]])
        #expect(found.map(\.reference) == ["./x.js", "./y.js", "./z.js"])
        #expect(found.map(\.line) == [1, 3, 4])
    }
}
