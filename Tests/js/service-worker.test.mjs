// The service worker template (templates/service-worker/sw.js), run in a
// sandbox with an in-memory Cache API and a scripted network: precaching,
// cleaning up old builds, offline fallbacks, and byte ranges for audio
// answered from the cache. The build fills in its configuration; the
// browser tests check the real thing in Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const SOURCE = readFileSync(new URL("../../templates/service-worker/sw.js", import.meta.url), "utf8");
const SCOPE = "https://example.org/site/";

class FakeCache {
  constructor() {
    this.entries = new Map();
  }
  key(request, ignoreSearch) {
    const url = new URL(typeof request === "string" ? request : request.url);
    if (ignoreSearch) url.search = "";
    return url.href;
  }
  async match(request, options = {}) {
    const hit = this.entries.get(this.key(request, options.ignoreSearch));
    return hit ? hit.clone() : undefined;
  }
  async put(request, response) {
    this.entries.set(this.key(request), response.clone());
  }
  async addAll(requests) {
    for (const request of requests) {
      const response = await globalThis.__network(request);
      if (!response.ok) throw new TypeError(`addAll: ${request.url} ${response.status}`);
      await this.put(request, response);
    }
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  async delete(request) {
    return this.entries.delete(this.key(request));
  }
}

class FakeCaches {
  constructor() {
    this.byName = new Map();
  }
  async open(name) {
    if (!this.byName.has(name)) this.byName.set(name, new FakeCache());
    return this.byName.get(name);
  }
  async keys() {
    return [...this.byName.keys()];
  }
  async delete(name) {
    return this.byName.delete(name);
  }
  async match(request, options = {}) {
    const names = options.cacheName ? [options.cacheName] : [...this.byName.keys()];
    for (const name of names) {
      const hit = await this.byName.get(name)?.match(request, options);
      if (hit) return hit;
    }
    return undefined;
  }
}

/** Loads the worker with a configuration, like the build does; returns its handlers and state. */
function worker(config, files = {}, { pageTimeout, pageGiveUp, scope = SCOPE } = {}) {
  let source = SOURCE.replace(/\/\* bestiary:config \*\/[\s\S]*?\/\* bestiary:end \*\//, `/* bestiary:config */ ${JSON.stringify(config)} /* bestiary:end */`);
  if (pageTimeout) source = source.replace("const PAGE_TIMEOUT_MS = 4000;", `const PAGE_TIMEOUT_MS = ${pageTimeout};`);
  if (pageGiveUp) source = source.replace("const PAGE_GIVE_UP_MS = 20000;", `const PAGE_GIVE_UP_MS = ${pageGiveUp};`);
  const handlers = {};
  const caches = new FakeCaches();
  const net = { online: true, requests: [], files };
  const network = async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    net.requests.push({ url: request.url, range: request.headers.get("range"), cache: request.cache, accept: request.headers.get("accept") });
    if (!net.online) throw new TypeError("Failed to fetch");
    if (net.hang) return new Promise(() => {});
    const path = request.url.slice(scope.length).replace(/\?.*$/, "");
    const body = net.files[path];
    if (body === undefined) return new Response("not found", { status: 404 });
    const type = path.endsWith(".ogg") ? "audio/ogg" : path.endsWith(".json") ? "application/json" : "text/html";
    const response = new Response(body, { status: 200, headers: { "Content-Type": type } });
    Object.defineProperty(response, "type", { value: "basic" });
    return response;
  };
  globalThis.__network = network;
  const self = {
    location: new URL(scope + "sw.js"),
    registration: { scope },
    addEventListener: (type, fn) => (handlers[type] = fn),
    skipWaiting: async () => {},
    clients: { claim: async () => {} },
  };
  const context = vm.createContext({ self, caches, fetch: network, Request, Response, Headers, Blob, URL, setTimeout, clearTimeout, console });
  vm.runInContext(source, context);
  const run = async (type, event = {}) => {
    let waited = null;
    let responded = null;
    handlers[type]({ ...event, waitUntil: (p) => (waited = p), respondWith: (p) => (responded = p) });
    await waited;
    return responded ? await responded : null;
  };
  const fetchEvent = (url, { mode, ...init } = {}) => {
    const request = new Request(url, init);
    // Scripts cannot make navigation requests; the browser's have mode "navigate".
    if (mode) Object.defineProperty(request, "mode", { value: mode });
    return run("fetch", { request });
  };
  return { context, caches, net, run, fetchEvent };
}

const CONFIG = {
  version: "v1",
  site: "example",
  precache: ["./", "quiz/", "offline/", "en/offline/", "assets/js/site.1234567890.js", "assets/catalog.abc.json", "manifest.webmanifest"],
  catalog: "assets/catalog.abc.json",
  media: "media/",
  offline: { "": "offline/", "en/": "en/offline/" },
};
const AUDIO = Uint8Array.from({ length: 1000 }, (_, i) => i % 256);
const FILES = {
  "": "<h1>home</h1>",
  "quiz/": "<h1>quiz</h1>",
  "offline/": "<h1>offline</h1>",
  "en/offline/": "<h1>offline (en)</h1>",
  "assets/js/site.1234567890.js": "export {}",
  "assets/catalog.abc.json": JSON.stringify({ animals: [{ id: "owl", sound: { src: "media/owl.ogg" }, image: { src: "media/owl.webp", srcset: "media/owl-320.webp 320w, media/owl.webp 640w" } }] }),
  "manifest.webmanifest": "{}",
  "media/owl.ogg": AUDIO,
  "animals/owl/": "<h1>owl</h1>",
};

test("the build's configuration block is there exactly once", () => {
  assert.equal(SOURCE.match(/\/\* bestiary:config \*\//g).length, 1);
  assert.equal(SOURCE.match(/\/\* bestiary:end \*\//g).length, 1);
});

test("parseRange follows RFC 9110 for one range", () => {
  const { context } = worker(CONFIG);
  const parse = (h, size = 1000) => context.parseRange(h, size);
  assert.deepEqual({ ...parse("bytes=0-") }, { start: 0, end: 999 });
  assert.deepEqual({ ...parse("bytes=0-99") }, { start: 0, end: 99 });
  assert.deepEqual({ ...parse("bytes=500-2000") }, { start: 500, end: 999 });
  assert.deepEqual({ ...parse("bytes=-100") }, { start: 900, end: 999 });
  assert.deepEqual({ ...parse("bytes=-5000") }, { start: 0, end: 999 });
  assert.equal(parse("bytes=1000-"), "unsatisfiable");
  assert.equal(parse("bytes=-0"), "unsatisfiable");
  assert.equal(parse("bytes=5-1"), null);
  assert.equal(parse("bytes=0-1,5-6"), null);
  assert.equal(parse("items=0-1"), null);
  assert.equal(parse("bytes=-"), null);
  assert.equal(parse(""), null);
});

test("install precaches the shell; activate deletes old builds' caches but not other sites'", async () => {
  const old = worker({ ...CONFIG, version: "v0" }, FILES);
  await old.run("install");
  const w = worker(CONFIG, FILES);
  w.caches.byName = old.caches.byName;
  await w.caches.open("bestiary:/site/:example:pages:v0");
  await w.caches.open("bestiary:other-site:shell:v9");
  await w.run("install");
  const shell = await w.caches.open("bestiary:/site/:example:shell:v1");
  assert.equal(shell.entries.size, CONFIG.precache.length);
  assert.ok(shell.entries.has(SCOPE + "quiz/"));
  await w.run("activate");
  assert.deepEqual((await w.caches.keys()).sort(), ["bestiary:/site/:example:media", "bestiary:/site/:example:shell:v1", "bestiary:other-site:shell:v9"]);
});

test("a page left out of the precache that the learner had saved is fetched again by a new build, and only that one", async () => {
  const config = { ...CONFIG, later: ["collection/", "sightings/"] };
  const old = worker({ ...config, version: "v0" }, { ...FILES, "collection/": "collection v0", "sightings/": "sightings v0" });
  await old.run("install");
  await old.run("activate");
  assert.equal(old.net.requests.filter((r) => /collection|sightings/.test(r.url)).length, 0, "not precached");
  // The learner opens the sightings page online: it is kept (the worker stores it without waiting).
  await old.fetchEvent(SCOPE + "sightings/", { mode: "navigate" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(await (await old.caches.open("bestiary:/site/:example:pages:v0")).match(SCOPE + "sightings/"));

  const w = worker(config, { ...FILES, "collection/": "collection v1", "sightings/": "sightings v1" });
  w.caches.byName = old.caches.byName;
  await w.run("install");
  await w.run("activate");
  assert.deepEqual(w.net.requests.filter((r) => /collection|sightings/.test(r.url)).map((r) => [r.url, r.cache]), [[SCOPE + "sightings/", "reload"]]);
  // Offline, the new build's copy is there; the page never saved is not.
  w.net.online = false;
  assert.equal(await (await w.fetchEvent(SCOPE + "sightings/", { mode: "navigate" })).text(), "sightings v1");
  assert.equal(await (await w.caches.open("bestiary:/site/:example:pages:v1")).match(SCOPE + "collection/"), undefined);
});

test("a big texts' file is kept when first read, and a new build fetches that language's new file only", async () => {
  // Each language's texts, named by their bytes; over 1 MiB each, the build lists them under `onUse`.
  const v0 = { ...CONFIG, onUse: ["assets/descriptions.de.aaaaaa0000.json", "assets/descriptions.en.bbbbbb0000.json"] };
  const files0 = { ...FILES, "assets/descriptions.de.aaaaaa0000.json": '{"owl":"Eule v0"}', "assets/descriptions.en.bbbbbb0000.json": '{"owl":"Owl v0"}' };
  const old = worker({ ...v0, version: "v0" }, files0);
  await old.run("install");
  await old.run("activate");
  assert.equal(old.net.requests.filter((r) => r.url.includes("descriptions")).length, 0, "not precached");
  // The quiz reads the German texts online: kept.
  assert.equal(await (await old.fetchEvent(SCOPE + "assets/descriptions.de.aaaaaa0000.json")).text(), '{"owl":"Eule v0"}');
  old.net.online = false;
  assert.equal(await (await old.fetchEvent(SCOPE + "assets/descriptions.de.aaaaaa0000.json")).text(), '{"owl":"Eule v0"}', "offline, from the cache");
  await assert.rejects(old.fetchEvent(SCOPE + "assets/descriptions.en.bbbbbb0000.json"), "the English texts were never read: not kept");

  // A new build: the German texts changed (a new name), the English ones did not.
  const v1 = { ...CONFIG, version: "v1", onUse: ["assets/descriptions.de.cccccc1111.json", "assets/descriptions.en.bbbbbb0000.json"] };
  const w = worker(v1, { ...FILES, "assets/descriptions.de.cccccc1111.json": '{"owl":"Eule v1"}', "assets/descriptions.en.bbbbbb0000.json": '{"owl":"Owl v0"}' });
  w.caches.byName = old.caches.byName;
  await w.run("install");
  await w.run("activate");
  assert.deepEqual(w.net.requests.filter((r) => r.url.includes("descriptions")).map((r) => [r.url, r.cache]), [[SCOPE + "assets/descriptions.de.cccccc1111.json", "reload"]]);
  w.net.online = false;
  assert.equal(await (await w.fetchEvent(SCOPE + "assets/descriptions.de.cccccc1111.json")).text(), '{"owl":"Eule v1"}');
  await assert.rejects(w.fetchEvent(SCOPE + "assets/descriptions.en.bbbbbb0000.json"));
  assert.deepEqual((await w.caches.keys()).filter((n) => n.includes(":pages:")), ["bestiary:/site/:example:pages:v1"], "the old build's copy went with its cache");

  // A build whose texts did not change keeps the learner's copy without downloading it again.
  const v2 = { ...v1, version: "v2" };
  const again = worker(v2, FILES);
  again.caches.byName = w.caches.byName;
  await again.run("install");
  assert.equal(again.net.requests.filter((r) => r.url.includes("descriptions")).length, 0);
  assert.ok(await (await again.caches.open("bestiary:/site/:example:pages:v2")).match(SCOPE + "assets/descriptions.de.cccccc1111.json"));
});

test("a build that precached every language's texts hands the unchanged ones on, downloading none", async () => {
  const de = "assets/descriptions.de.aaaaaa0000.json", en = "assets/descriptions.en.bbbbbb0000.json";
  const files = { ...FILES, [de]: '{"owl":"Eule"}', [en]: '{"owl":"Owl"}' };
  const old = worker({ ...CONFIG, version: "v0", precache: [...CONFIG.precache, de, en] }, files);
  await old.run("install");
  await old.run("activate");
  // The new build leaves them out; the German texts changed (a new name), the English did not.
  const de1 = "assets/descriptions.de.cccccc1111.json";
  const w = worker({ ...CONFIG, onUse: [de1, en] }, { ...FILES, [de1]: '{"owl":"Eule 1"}', [en]: '{"owl":"Owl"}' });
  w.caches.byName = old.caches.byName;
  await w.run("install");
  assert.deepEqual(w.net.requests.filter((r) => r.url.includes("descriptions")), [], "nothing downloaded");
  await w.run("activate");
  w.net.online = false;
  assert.equal(await (await w.fetchEvent(SCOPE + en)).text(), '{"owl":"Owl"}', "the unchanged file, offline");
  await assert.rejects(w.fetchEvent(SCOPE + de1), "a changed one waits until it is read online");
});

test("sameFile: one file in two versions is NAME.HASH.EXT with another hash", () => {
  const { context } = worker(CONFIG);
  assert.equal(context.sameFile(SCOPE + "assets/descriptions.de.aaaaaa0000.json", SCOPE + "assets/descriptions.de.cccccc1111.json"), true);
  assert.equal(context.sameFile(SCOPE + "assets/descriptions.de.aaaaaa0000.json", SCOPE + "assets/descriptions.en.aaaaaa0000.json"), false);
  assert.equal(context.sameFile(SCOPE + "collection/", SCOPE + "collection/"), false, "no hash: not a versioned file");
});

test("a failed download of any shell file fails the install, so a half-built cache never goes live", async () => {
  const { net, run } = worker(CONFIG, { ...FILES, "quiz/": undefined });
  await assert.rejects(run("install"));
  assert.ok(net.requests.length > 0);
});

test("audio: fetched whole once, then byte ranges are answered from the cache, also offline", async () => {
  const w = worker(CONFIG, FILES);
  await w.run("install");
  await w.run("activate");
  const first = await w.fetchEvent(SCOPE + "media/owl.ogg", { headers: { Range: "bytes=0-" } });
  assert.equal(first.status, 206);
  assert.equal(first.headers.get("Content-Range"), "bytes 0-999/1000");
  assert.equal(w.net.requests.at(-1).range, null, "the network was asked for the whole file");
  w.net.online = false;
  const part = await w.fetchEvent(SCOPE + "media/owl.ogg", { headers: { Range: "bytes=100-199" } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get("Content-Length"), "100");
  assert.equal(part.headers.get("Content-Type"), "audio/ogg");
  assert.deepEqual([...new Uint8Array(await part.arrayBuffer())], [...AUDIO.slice(100, 200)]);
  const tail = await w.fetchEvent(SCOPE + "media/owl.ogg", { headers: { Range: "bytes=-10" } });
  assert.equal(tail.headers.get("Content-Range"), "bytes 990-999/1000");
  const outside = await w.fetchEvent(SCOPE + "media/owl.ogg", { headers: { Range: "bytes=5000-" } });
  assert.equal(outside.status, 416);
  assert.equal(outside.headers.get("Content-Range"), "bytes */1000");
  const whole = await w.fetchEvent(SCOPE + "media/owl.ogg");
  assert.equal(whole.status, 200);
  assert.equal((await whole.arrayBuffer()).byteLength, 1000);
});

test("pages: network first and cached; offline from the cache, else the offline page of their language", async () => {
  const w = worker(CONFIG, FILES);
  await w.run("install");
  await w.run("activate");
  const online = await w.fetchEvent(SCOPE + "animals/owl/", { mode: "navigate", headers: { Accept: "text/html" } });
  assert.equal(await online.text(), "<h1>owl</h1>");
  // Revalidated with the server, not taken from the HTTP cache as fresh (a deploy showed days
  // late), with the request's own headers.
  const asked = w.net.requests.filter((r) => r.url === SCOPE + "animals/owl/");
  assert.deepEqual(asked.map((r) => [r.cache, r.accept]), [["no-cache", "text/html"]]);
  await new Promise((r) => setTimeout(r, 10));
  w.net.online = false;
  assert.equal(await (await w.fetchEvent(SCOPE + "animals/owl/?from=x", { mode: "navigate" })).text(), "<h1>owl</h1>");
  assert.equal(await (await w.fetchEvent(SCOPE + "quiz/?mode=sound", { mode: "navigate" })).text(), "<h1>quiz</h1>");
  const missing = await w.fetchEvent(SCOPE + "en/animals/cat/", { mode: "navigate" });
  assert.equal(missing.status, 302);
  assert.equal(missing.headers.get("Location"), SCOPE + "en/offline/?from=en%2Fanimals%2Fcat%2F");
  const missingDefault = await w.fetchEvent(SCOPE + "animals/cat/", { mode: "navigate" });
  assert.equal(missingDefault.headers.get("Location"), SCOPE + "offline/?from=animals%2Fcat%2F");
});

test("a page not saved, on a link that never answers, gives way to the offline page; a slow one is waited for", async () => {
  const w = worker(CONFIG, FILES, { pageTimeout: 20, pageGiveUp: 200 });
  await w.run("install");
  await w.run("activate");
  w.net.hang = true;
  const started = Date.now();
  const gone = await w.fetchEvent(SCOPE + "en/animals/cat/", { mode: "navigate" });
  assert.equal(gone.headers.get("Location"), SCOPE + "en/offline/?from=en%2Fanimals%2Fcat%2F");
  assert.ok(Date.now() - started >= 180, "not before the limit");
  // Slow, past the first limit but within the second: the page, not the offline one.
  w.net.hang = false;
  const network = w.context.fetch;
  w.context.fetch = (input) => new Promise((resolve) => setTimeout(() => resolve(network(input)), 60));
  const late = await w.fetchEvent(SCOPE + "animals/owl/", { mode: "navigate" });
  assert.equal(await late.text(), "<h1>owl</h1>");
});

test("activate prunes cached media the new catalogue does not use", async () => {
  const w = worker(CONFIG, FILES);
  await w.run("install");
  const media = await w.caches.open("bestiary:/site/:example:media");
  await media.put(SCOPE + "media/owl.ogg", new Response("x"));
  await media.put(SCOPE + "media/owl-320.webp", new Response("x"));
  await media.put(SCOPE + "media/removed.ogg", new Response("x"));
  await w.run("activate");
  assert.deepEqual([...media.entries.keys()].sort(), [SCOPE + "media/owl-320.webp", SCOPE + "media/owl.ogg"]);
});

test("two copies of one build on one origin keep their caches apart (a staging copy beside the live one)", async () => {
  const live = worker(CONFIG, FILES);
  await live.run("install");
  await live.run("activate");
  await live.fetchEvent(SCOPE + "media/owl.ogg");
  const STAGING = "https://example.org/site-staging/";
  const staging = worker({ ...CONFIG, version: "v2" }, FILES, { scope: STAGING });
  staging.caches.byName = live.caches.byName;
  await staging.run("install");
  await staging.run("activate");
  await staging.fetchEvent(STAGING + "media/owl.ogg");
  // The staging copy's worker deleted the live one's saved media (not in its catalogue's URLs)
  // and, as a newer build, its shell (a user trial).
  assert.deepEqual((await live.caches.keys()).sort(), [
    "bestiary:/site-staging/:example:media", "bestiary:/site-staging/:example:shell:v2", "bestiary:/site/:example:media", "bestiary:/site/:example:shell:v1",
  ]);
  live.net.online = false;
  assert.equal((await (await live.fetchEvent(SCOPE + "media/owl.ogg")).arrayBuffer()).byteLength, 1000, "the live copy's recording, offline");
  assert.equal(await (await live.fetchEvent(SCOPE + "quiz/", { mode: "navigate" })).text(), "<h1>quiz</h1>", "and its shell");
});

test("a copy's entries leave the caches named without its path, its media kept; another copy's stay", async () => {
  const w = worker(CONFIG, FILES);
  const OTHER = "https://example.org/other/";
  const legacyMedia = await w.caches.open("bestiary:example:media");
  await legacyMedia.put(SCOPE + "media/owl.ogg", new Response(AUDIO));
  await legacyMedia.put(SCOPE + "media/removed.ogg", new Response("x"));
  await legacyMedia.put(OTHER + "media/owl.ogg", new Response("other"));
  await (await w.caches.open("bestiary:example:shell:v0")).put(SCOPE + "quiz/", new Response("old quiz"));
  const pages = await w.caches.open("bestiary:example:pages:v0");
  await pages.put(SCOPE + "animals/owl/", new Response("old owl"));
  await pages.put(OTHER + "animals/owl/", new Response("other owl"));
  await w.run("install");
  await w.run("activate");
  assert.deepEqual((await w.caches.keys()).sort(), [
    "bestiary:/site/:example:media", "bestiary:/site/:example:shell:v1", "bestiary:example:media", "bestiary:example:pages:v0",
  ]);
  assert.deepEqual([...legacyMedia.entries.keys()], [OTHER + "media/owl.ogg"]);
  assert.deepEqual([...pages.entries.keys()], [OTHER + "animals/owl/"]);
  const media = await w.caches.open("bestiary:/site/:example:media");
  assert.deepEqual([...media.entries.keys()], [SCOPE + "media/owl.ogg"], "the learner's saved recording, not one the catalogue no longer uses");
  w.net.online = false;
  assert.equal((await (await w.fetchEvent(SCOPE + "media/owl.ogg")).arrayBuffer()).byteLength, 1000, "offline, never downloaded again");
  assert.equal(w.net.requests.filter((r) => r.url.includes("media/")).length, 0);
});

test("a worker of an earlier build (a rollback) deletes none of this one's caches", async () => {
  const w = worker(CONFIG, FILES);
  await w.run("install");
  await w.run("activate");
  await w.fetchEvent(SCOPE + "media/owl.ogg");
  // What the worker of builds before 2026-12-07 did when it activated: every `bestiary:SITE:`
  // cache but its own went (names that went on from there, `bestiary:SITE:PATH:`, went too).
  const legacy = "bestiary:example:";
  const keep = new Set([`${legacy}shell:v0`, `${legacy}pages:v0`, `${legacy}media`]);
  for (const name of await w.caches.keys()) if (name.startsWith(legacy) && !keep.has(name)) await w.caches.delete(name);
  assert.deepEqual((await w.caches.keys()).sort(), ["bestiary:/site/:example:media", "bestiary:/site/:example:shell:v1"]);
});

test("requests outside the site or not GET are left alone", async () => {
  const w = worker(CONFIG, FILES);
  assert.equal(await w.fetchEvent("https://other.example/media/x.ogg"), null);
  assert.equal(await w.fetchEvent("https://example.org/elsewhere/page/"), null);
  assert.equal(await w.fetchEvent(SCOPE + "quiz/", { method: "POST", body: "x" }), null);
  assert.equal(await w.fetchEvent(SCOPE + "packs/latest.json"), null);
  assert.equal(await w.fetchEvent(SCOPE + "__reload/", { headers: { Accept: "text/event-stream" } }), null);
});
