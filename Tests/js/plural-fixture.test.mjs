// Tests/Fixtures/plural-categories.json is what this Node's ICU says (the Swift side's
// PluralRulesTests compare the page's server-rendered counts with it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { table } from "../../scripts/plural_fixture.mjs";

test("the plural fixture matches Intl.PluralRules", () => {
  const stored = JSON.parse(readFileSync(new URL("../Fixtures/plural-categories.json", import.meta.url)));
  const now = table();
  assert.deepEqual(stored.counts, now.counts);
  for (const [lang, categories] of Object.entries(now.categories)) {
    assert.deepEqual(stored.categories[lang], categories, `${lang}: run node scripts/plural_fixture.mjs`);
  }
});
