// Just enough of a DOM for the view modules' unit tests (dom.js's h(), fill(), button()):
// elements with attributes, dataset, classList, text, children and click listeners. No
// rendering, no selectors beyond what `find` offers.

class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.dataset = {};
    this.children = [];
    this.listeners = {};
    this.classes = new Set();
    this.classList = {
      add: (...names) => names.forEach((n) => this.classes.add(n)),
      remove: (...names) => names.forEach((n) => this.classes.delete(n)),
      toggle: (name, on = !this.classes.has(name)) => (on ? this.classes.add(name) : this.classes.delete(name), on),
      contains: (name) => this.classes.has(name),
    };
  }

  set className(value) {
    this.classes = new Set(String(value).split(/\s+/).filter(Boolean));
  }

  get className() {
    return [...this.classes].join(" ");
  }

  set textContent(value) {
    this.children = value === "" ? [] : [String(value)];
  }

  get textContent() {
    return this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join("");
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  removeAttribute(name) {
    this.attributes.delete(name);
  }

  /** Records that it was focused (`focused` is true from then on). */
  focus() {
    this.focused = true;
  }

  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }

  /** Runs the listeners of `type`; resolves when the async ones are done. */
  async fire(type) {
    await Promise.all((this.listeners[type] || []).map((fn) => fn({ type, target: this })));
  }

  append(...nodes) {
    for (const node of nodes) this.children.push(typeof node === "string" ? node : node);
  }

  replaceChildren(...nodes) {
    this.children = [];
    this.append(...nodes);
  }

  /** Every element below this one (depth first) for which `test` is true. */
  findAll(test) {
    const out = [];
    for (const child of this.children) {
      if (typeof child === "string") continue;
      if (test(child)) out.push(child);
      out.push(...child.findAll(test));
    }
    return out;
  }

  /** The first element below with `data-KEY` (dataset key in camel case). */
  find(datasetKey) {
    return this.findAll((el) => datasetKey in el.dataset)[0] || null;
  }
}

/** Installs `document` (createElement only) for as long as the test file runs. */
export function installFakeDocument() {
  globalThis.document = { createElement: (tag) => new FakeElement(tag) };
}
