import { test } from "node:test";
import assert from "node:assert/strict";
import { descriptionReader } from "../../templates/assets/js/descriptions.js";

const PATHS = { de: "assets/descriptions.de.1.json", en: "assets/descriptions.en.2.json" };
const FILES = {
  "/site/assets/descriptions.de.1.json": { fox: "Der Fuchs jagt nachts.", owl: "  " },
  "/site/assets/descriptions.en.2.json": { fox: "The fox hunts at night.", owl: "The owl hoots." },
};

/** A reader over FILES that counts what it fetched. */
function reader(paths = PATHS, files = FILES) {
  const fetched = [];
  const load = async (url) => {
    fetched.push(url);
    if (!(url in files)) throw new Error("HTTP 404");
    return files[url];
  };
  return { texts: descriptionReader(paths, (path) => "/site/" + path, load), fetched };
}

test("a language's file is fetched the first time one of its texts is wanted, and once", async () => {
  const { texts, fetched } = reader();
  assert.deepEqual(fetched, []);
  assert.deepEqual(await texts.text("fox", ["de", "en"]), { text: "Der Fuchs jagt nachts.", lang: "de" });
  assert.deepEqual(fetched, ["/site/assets/descriptions.de.1.json"]);
  await Promise.all([texts.text("fox", ["de", "en"]), texts.text("fox", ["de"])]);
  assert.deepEqual(fetched, ["/site/assets/descriptions.de.1.json"]);
});

test("texts fall back along the chain, then to any other language; blank ones count as none", async () => {
  const { texts, fetched } = reader();
  assert.deepEqual(await texts.text("owl", ["de", "en"]), { text: "The owl hoots.", lang: "en" });
  assert.deepEqual(await texts.text("owl", ["fr"]), { text: "The owl hoots.", lang: "en" });
  assert.equal(await texts.text("bat", ["de"]), null);
  assert.equal(await texts.text("toString", ["de", "en"]), null);
  assert.equal(fetched.length, 2);
});

test("a file that could not be fetched is asked for again next time; one that is not an object is no texts", async () => {
  const files = { ...FILES };
  delete files["/site/assets/descriptions.en.2.json"];
  const { texts, fetched } = reader(PATHS, files);
  // English failed; German has no text for the owl.
  assert.equal(await texts.text("owl", ["en"]), null);
  files["/site/assets/descriptions.en.2.json"] = FILES["/site/assets/descriptions.en.2.json"];
  assert.deepEqual(await texts.text("owl", ["en"]), { text: "The owl hoots.", lang: "en" });
  assert.deepEqual(fetched, ["/site/assets/descriptions.en.2.json", "/site/assets/descriptions.de.1.json", "/site/assets/descriptions.en.2.json"]);

  const odd = reader({ en: "x.json" }, { "/site/x.json": ["not", "an", "object"] });
  assert.equal(await odd.texts.text("owl", ["en"]), null);
  assert.equal(await odd.texts.text("owl", ["en"]), null);
  assert.equal(odd.fetched.length, 1);
});

test("a site without descriptions fetches nothing", async () => {
  const { texts, fetched } = reader({});
  assert.equal(await texts.text("fox", ["de", "en"]), null);
  assert.deepEqual(fetched, []);
});
