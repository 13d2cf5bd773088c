import BestiaryStorage

/// The script and stylesheet the preview serves at `/__bestiary/live.js` and `/__bestiary/live.css`.
///
/// The script listens to `/__bestiary/events` (server-sent events; the browser reconnects by
/// itself) and: reloads the page after a successful build that changed it (a not-found page after
/// any successful build: its page may just have been created); shows the diagnostics
/// of a failed build over the page and clears them when the build succeeds again; reloads a page
/// served by an earlier run of the server. It builds the overlay with `textContent` only, so no
/// message can inject markup. It also unregisters service workers: a worker's cache would serve
/// stale pages in a preview (the server refuses to serve worker scripts for the same reason).
enum LiveAssets {
    /// Part of the script's and stylesheet's URLs, so browsers may cache them for good.
    static let version = String(Hashing.sha256Hex(script + stylesheet).prefix(10))

    static let script = #"""
        // Bestiary preview: live reload and build errors. Added by `bestiary serve` only.
        (() => {
          'use strict';
          const me = document.currentScript;
          const served = { session: me.dataset.session, generation: Number(me.dataset.generation), file: me.dataset.file, built: me.dataset.built !== 'no' };
          const ID = '__bestiary-overlay';
          const root = document.documentElement;

          function el(tag, className, text) {
            const node = document.createElement(tag);
            node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }

          function wireClose(box) {
            const button = box.querySelector('.__bestiary-close');
            if (button) button.addEventListener('click', () => { box.hidden = true; });
          }

          function showErrors(diagnostics) {
            document.getElementById(ID)?.remove();
            const box = el('div', '');
            box.id = ID;
            box.lang = 'en';
            box.dir = 'ltr';
            box.setAttribute('role', 'alertdialog');
            box.setAttribute('aria-labelledby', ID + '-title');
            const panel = el('div', '__bestiary-panel');
            const title = el('h2', '__bestiary-title', served.built ? '\#(HTMLInjection.overlayTitle(built: true))' : '\#(HTMLInjection.overlayTitle(built: false))');
            title.id = ID + '-title';
            const list = el('ol', '__bestiary-list');
            for (const d of diagnostics) {
              const where = d.file ? `${d.file}:${Math.max(d.line || 1, 1)}:${Math.max(d.column || 1, 1)}` : 'bestiary';
              const item = el('li', '__bestiary-item __bestiary-' + d.severity);
              item.append(el('code', '__bestiary-where', where), ' ',
                el('span', '__bestiary-severity', d.severity + ':'), ' ',
                el('span', '__bestiary-message', d.message));
              if (d.stage) item.append(' ', el('span', '__bestiary-stage', '[' + d.stage + ']'));
              list.append(item);
            }
            const close = el('button', '__bestiary-close', 'Hide');
            close.type = 'button';
            panel.append(title, list, el('p', '__bestiary-hint', 'Fix the file and save: this page updates by itself.'), close);
            box.append(panel);
            document.body.append(box);
            wireClose(box);
            root.dataset.bestiaryBuild = 'failed';
          }

          function clearErrors() {
            document.getElementById(ID)?.remove();
            root.dataset.bestiaryBuild = 'ok';
          }

          function reload() {
            root.dataset.bestiaryBuild = 'reloading';
            location.reload();
          }

          const existing = document.getElementById(ID);
          if (existing) { wireClose(existing); root.dataset.bestiaryBuild = 'failed'; }

          if (navigator.serviceWorker && navigator.serviceWorker.getRegistrations) {
            navigator.serviceWorker.getRegistrations().then((all) => all.forEach((r) => r.unregister())).catch(() => {});
          }

          const source = new EventSource('/__bestiary/events');
          source.addEventListener('open', () => { root.dataset.bestiaryLive = 'connected'; });
          source.addEventListener('error', () => { root.dataset.bestiaryLive = 'reconnecting'; });
          source.addEventListener('hello', (event) => {
            const status = JSON.parse(event.data);
            if (status.phase === 'failed') return showErrors(status.diagnostics);
            if (status.phase !== 'ok') return;
            if (status.session !== served.session || status.generation > served.generation) return reload();
            clearErrors();
          });
          source.addEventListener('reload', (event) => {
            const status = JSON.parse(event.data);
            if (!served.file || !status.changed || status.changed.includes(served.file) || status.session !== served.session) return reload();
            served.generation = status.generation;
            clearErrors();
          });
          source.addEventListener('failed', (event) => showErrors(JSON.parse(event.data).diagnostics));
          window.addEventListener('pagehide', () => source.close());
          // Back from the back-forward cache: the stream was closed and the page may be stale.
          window.addEventListener('pageshow', (event) => { if (event.persisted) location.reload(); });
        })();
        """#

    static let stylesheet = #"""
        /* Bestiary preview: the build error overlay. Added by `bestiary serve` only. */
        #__bestiary-overlay {
          position: fixed; inset: 0; z-index: 2147483647; display: flex; align-items: flex-start; justify-content: center;
          padding: 5vh 1rem; background: rgba(20, 0, 0, .55); overflow: auto;
          font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; direction: ltr; text-align: left;
        }
        #__bestiary-overlay[hidden] { display: none; }
        #__bestiary-overlay .__bestiary-panel {
          max-width: 60rem; width: 100%; background: #fff; color: #1a1a1a; border-top: 6px solid #c62828;
          border-radius: 6px; padding: 1.25rem 1.5rem; box-shadow: 0 10px 40px rgba(0, 0, 0, .4);
        }
        #__bestiary-overlay .__bestiary-title { margin: 0 0 .75rem; font-size: 1.2rem; color: #b71c1c; }
        #__bestiary-overlay .__bestiary-list { margin: 0; padding-left: 1.25rem; }
        #__bestiary-overlay .__bestiary-item { margin: .4rem 0; overflow-wrap: anywhere; }
        #__bestiary-overlay .__bestiary-where {
          font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; color: #1a1a1a;
          padding: .1rem .3rem; border-radius: 3px;
        }
        #__bestiary-overlay .__bestiary-error .__bestiary-severity { color: #b71c1c; font-weight: 600; }
        #__bestiary-overlay .__bestiary-warning .__bestiary-severity { color: #8a5300; font-weight: 600; }
        #__bestiary-overlay .__bestiary-stage { color: #555; }
        #__bestiary-overlay .__bestiary-hint { margin: 1rem 0 .5rem; color: #444; }
        #__bestiary-overlay .__bestiary-close {
          font: inherit; padding: .3rem .9rem; border: 1px solid #888; border-radius: 4px; background: #f7f7f7; color: #1a1a1a;
          cursor: pointer;
        }
        """#

    /// Shown for unknown paths when the site has no 404.html (e.g. before the first good build).
    static let fallbackPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Not found (bestiary serve)</title></head>
        <body><h1>Not found</h1><p>Nothing is built at this address (yet).</p></body></html>
        """

    /// What the preview answers for a service-worker script: a worker with no fetch handler that
    /// unregisters itself once active, so pages always come from the server.
    static let selfRemovingWorker = """
        // bestiary serve: service workers are off in the preview (bestiary serve --no-live-reload keeps the site's own).
        self.addEventListener("install", () => self.skipWaiting());
        self.addEventListener("activate", (event) => event.waitUntil(self.registration.unregister()));

        """
}
