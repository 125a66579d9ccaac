// errbook search: the search box on every page and the /search/ page, around the ranking of
// search-rank.js (window.errbookRank, loaded before this script). The index is in shards
// (crates/errbook-search/src/shards.rs): the manifest search/m on first use, then what each query needs.
// Hosted sites fetch search/NAME.json; offline bundles (file://) add a <script> for
// search/NAME.js, which hands its JSON (in a string) to window.errbookShard, so nothing needs
// fetch, modules or a server.
(function () {
  "use strict";

  var R = window.errbookRank;
  if (!R) return;
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  var offline = html.getAttribute("data-offline") === "true";
  var state = { idx: null, weak: 0.35, loading: null };
  // The ranking with the page's state: what bench.mjs and the browser tests drive. search() ranks
  // what is loaded; query() fetches what a paste needs first.
  var api = Object.assign({}, R, {
    state: state,
    search: function (idx, text, limit, weak) { return R.search(idx, text, limit, typeof weak === "number" ? weak : state.weak); },
    query: function (text, limit) {
      asked = true;
      return load().then(function (ix) { return R.query(ix, text, limit, state.weak); });
    },
    // What the page does when idle (below), or joins it: the benchmark waits on it.
    preload: function () { return preload(); },
    // The site changed under the page (serve swapped a rebuilt page's content in without
    // reloading it): the next query loads the index again, not the shards it holds.
    reset: function () { state.idx = null; state.loading = null; }
  });
  var tokens = R.tokens;
  window.errbookSearch = api;

  // One shard's data: fetched, or offline from its script, which hands it its JSON in a string
  // (JSON.parse reads it faster than the engine compiles a literal of the same data).
  var waiting = {};
  window.errbookShard = function (name, json) {
    var w = waiting[name];
    if (!w) return;
    var data;
    // (Not JSON: the script's onload below says it is not a shard.)
    try { data = typeof json === "string" ? JSON.parse(json) : json; } catch (e) { return; }
    delete waiting[name];
    w(data);
  };
  // Hosted, a shard comes past the browser's HTTP cache ("no-store"), the manifest through it.
  // Writing each response into that cache was about a quarter of what a fetched file costs
  // Chromium on two cores: without it a paste answered 5.9 ms sooner at 100,000 entries (24
  // files) and 19 ms at 1,000,000 (75), typed words 6 ms. What it kept was little used: a
  // reader's next query, on the next page, needs about 5% of the files of the one before
  // (bench/scale/2026-11-27-s37-first-query-what-ifs.txt at 3618223); the manifest, which every page
  // reads, stays cached.
  var SHARD_FETCH = { cache: "no-store" };
  function fetchShard(name) {
    if (!offline) {
      return fetch(root + "search/" + name + ".json", name === "m" ? undefined : SHARD_FETCH).then(function (r) {
        if (!r.ok) throw new Error("search index: " + name + " did not load");
        return r.json();
      });
    }
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      waiting[name] = resolve;
      s.src = root + "search/" + name + ".js";
      s.onload = function () {
        s.remove();
        if (waiting[name]) { delete waiting[name]; reject(new Error("search index: " + name + " is not a shard")); }
      };
      s.onerror = function () { s.remove(); delete waiting[name]; reject(new Error("search index: " + name + " did not load")); };
      document.head.appendChild(s);
    });
  }

  function href(sitePath) {
    // As urls::href: offline bundles name index.html.
    var s = root + sitePath;
    if (offline && (sitePath === "" || sitePath.endsWith("/"))) s += "index.html";
    return s || "./";
  }

  function load() {
    if (state.idx) return Promise.resolve(state.idx);
    if (state.loading) return state.loading;
    state.loading = fetchShard("m").then(function (m) {
      state.idx = R.sharded(m, fetchShard);
      if (typeof m.weak === "number") state.weak = m.weak;
      return state.idx;
    });
    // A failed load is tried again at the next query.
    state.loading.catch(function () { state.loading = null; });
    return state.loading;
  }

  // Ahead of a first query, as Pagefind does on init: the manifest, and a few queries over a
  // small made-up index in shards (warmIndex below), which run the ranking's code on the paths a
  // real paste takes (runs of terms, common terms' tiers, the rerank) until the engine has
  // compiled them: a first query otherwise runs them cold, several times slower. Once the page
  // is idle, or as soon as the reader reaches for a search box; one warm-up query per turn of
  // the event loop, and none once a real query has begun (it would only delay it). A query
  // joins what is under way and never fetches anything twice.
  var WARM_QUERIES = [
    "Traceback (most recent call last):\n  File \"x.py\", line 1\n" +
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "RuntimeError: CUDA error: device-side assert triggered on device 0",
    "cuda out of mem",
    "NCCL error: unhandled cuda error, memory allocation failed"
  ];
  // The made-up index: the site's shape (crates/errbook-search/src/shards.rs: two runs of terms, common
  // terms in impact tiers and in the manifest's `long`, its entries a shard) over as many
  // entries as the site has (so the ranking's buffers are the ones the first query uses), up
  // to 32,768 of them with terms, a common one in 24,000: the first pass's loops run long
  // enough for the engine's optimising compiler, as a paste's do (at 100,000 entries a paste
  // folds 100,000 postings or more; with 3,000 a common term, the warmed ranking still took
  // twice its time).
  var WARM_TERMS = ["alloc", "assert", "cuda", "devic", "error", "memory", "nccl", "out", "trigger", "unhandl"];
  var WARM_LONG = { cuda: 1, error: 1, memory: 1, out: 1 };
  var WARM_FIRST = 3;
  var WARM_DFS = [900, 3000, 3000, 2500, 400, 300, 2000, 900, 3000, 3000, 2500, 400];
  function warmIndex(n, per) {
    n = Math.max(n || 0, 4096);
    var seed = 7, files = {}, runs = [[], []], long = [], T = WARM_TERMS.length;
    var rand = function () { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
    var enc = function (list) {
      var out = [], last = 0;
      list.sort(function (a, b) { return a[0] - b[0]; }).forEach(function (x) { out.push(x[0] - last, x[1]); last = x[0]; });
      return out;
    };
    WARM_TERMS.forEach(function (t, i) {
      var list = [], seen = {}, count = WARM_LONG[t] ? 24000 : 2400, D = Math.min(n, 32768);
      for (var k = 0; k < count; k++) {
        var d = Math.floor(rand() * D) * Math.floor(n / D);
        if (!seen[d]) { seen[d] = 1; list.push([d, 1 + Math.floor(rand() * 99)]); }
      }
      var slot;
      if (WARM_LONG[t]) {
        list.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
        var max = [], at = 0;
        for (var h = 0; at < list.length; h++) {
          var tier = list.slice(at, at + (64 << h));
          max.push(tier[0][1]);
          // In the files the slot's f says, as search-index.js finds them (crates/errbook-search/src/tiers.rs).
          var f = R.tierFile({ p: "w" + i, f: WARM_FIRST }, h);
          (files[f] || (files[f] = [])).push(enc(tier));
          at += tier.length;
        }
        slot = { p: "w" + i, df: list.length, max: max, f: WARM_FIRST };
        long.push([t, i, slot]);
      } else slot = enc(list);
      runs[i < T / 2 ? 0 : 1].push(slot);
    });
    files["t/w0"] = [WARM_TERMS.slice(0, T / 2), runs[0]];
    files["t/w1"] = [WARM_TERMS.slice(T / 2), runs[1]];
    var lens = {};
    WARM_TERMS.forEach(function (t) { (lens[t.length] || (lens[t.length] = [])).push(t); });
    Object.keys(lens).forEach(function (l) { files["l/" + l] = lens[l]; });
    var msgs = ["CUDA error: out of memory", "CUDA error: device-side assert triggered",
      "NCCL error: unhandled cuda error", "CUDA out of memory. Tried to allocate <size>"];
    var manifest = { v: 7, n: n, weak: state.weak, count: T, docs: per, arts: 64, nArts: 0,
      t: [["w0", WARM_TERMS[0], 0], ["w1", WARM_TERMS[T / 2], T / 2]], long: long,
      lens: Object.keys(lens).map(Number) };
    return {
      manifest: manifest,
      fetch: function (name) {
        if (!files[name] && name.indexOf("d/") === 0) {
          var k = +name.slice(2), docs = [];
          for (var d = k * per; d < Math.min(n, k * per + per); d++) {
            var aliases = d % 3 ? [] : [msgs[(d + 1) % msgs.length]];
            docs.push(["W" + d, msgs[d % msgs.length], [], aliases, WARM_DFS]);
          }
          files[name] = docs;
        }
        return files[name] ? Promise.resolve(files[name]) : Promise.reject(new Error("warm-up: " + name));
      }
    };
  }
  var warmed = null, asked = false;
  function preload() {
    if (!warmed) {
      warmed = load().then(function (ix) {
        // One made-up index for every step (each a fresh view of it): less for the collector
        // to sweep, maybe in the middle of the first query.
        var w = warmIndex(ix.n, ix.manifest.docs || 128);
        return new Promise(function (resolve) {
          (function step(k) {
            if (asked || k >= WARM_QUERIES.length * 2) return resolve(ix);
            R.query(R.sharded(w.manifest, w.fetch), WARM_QUERIES[k % WARM_QUERIES.length], 8, state.weak)
              .then(function () { setTimeout(function () { step(k + 1); }, 0); },
                function () { resolve(ix); });
          })(0);
        });
      });
      warmed.catch(function () { warmed = null; });
    }
    return warmed;
  }
  function whenIdle(f) {
    if (window.requestIdleCallback) window.requestIdleCallback(f, { timeout: 2000 });
    else setTimeout(f, 200);
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  // Wrap the words whose terms matched in <mark>.
  function highlight(text, matched) {
    return text.split(/([A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*)/).map(function (part, i) {
      if (i % 2 === 0) return esc(part);
      var hit = tokens(part).some(function (t) { return matched[t]; });
      return hit ? "<mark>" + esc(part) + "</mark>" : esc(part);
    }).join("");
  }

  // Text as the catalog writes it (titles, summaries): escaped, `code` spans as <code>, and no
  // stray backtick left for the reader.
  function inline(text) {
    return esc(text).replace(/`([^`]+)`/g, "<code>$1</code>").replace(/`/g, "");
  }

  // The hits worth showing: never one that shares nothing with the paste (score 0).
  function shown(ans) {
    return ans.hits.filter(function (h) { return h.score > 0; });
  }

  // Each result: the message, what to do about it (the entry's best verified workaround, or the
  // catalog's suggestion marked as its claim), the ID; a weak one says it is no close match.
  // No raw score: the order says which fits best.
  function resultItems(ans, hits, ix, withArticles) {
    return hits.map(function (h, i) {
      var doc = ix.doc(h.doc);
      var weak = h.score < state.weak;
      var arts = "";
      if (withArticles && doc[2].length) {
        arts = '<ul class="sr-articles">' + doc[2].map(function (a) {
          var art = ix.art(a);
          if (!art) return "";
          return '<li><a href="' + esc(href(art[1])) + '">' + inline(art[0]) + "</a></li>";
        }).join("") + "</ul>";
      }
      var hint = typeof doc[5] === "string" && doc[5] ? '<span class="sr-fix">' + inline(doc[5]) + "</span>" : "";
      return '<li class="sr-item' + (weak ? " sr-weak" : "") + '" role="option" id="sr-' + i + '">' +
        '<a class="sr-link" href="' + esc(href("errors/" + doc[0] + "/")) + '">' +
        '<span class="sr-msg">' + highlight(doc[1], ans.matched) + "</span>" + hint +
        '<span class="sr-meta"><span class="sr-id">' + esc(doc[0]) + "</span>" +
        (weak ? '<span class="sr-score">not a close match</span>' : "") + "</span></a>" +
        arts + "</li>";
    }).join("");
  }

  // What heads the results: nothing when the best fits, else that nothing fits closely.
  function noneClose(ans, hits) {
    if (!hits.length) return '<p class="sr-none">No close match for <code>' + esc(ans.detected.template) + "</code>.</p>";
    if (hits[0].score < state.weak) return '<p class="sr-none">No close match. The nearest entries, unlikely to be your error:</p>';
    return "";
  }

  // The box in the header: results as you type, arrows and Enter.
  function initBox() {
    var input = document.getElementById("search-input");
    var box = document.getElementById("search-results");
    if (!input || !box) return;
    var active = -1;
    // An <input> turns the line breaks of pasted text into spaces, and a traceback flattened to
    // one line no longer shows its exception lines: keep what was pasted and search that while
    // the box still holds it.
    var pasted = null;
    function flat(s) { return s.replace(/\s+/g, ""); }
    function query() {
      var v = input.value;
      return pasted !== null && flat(pasted) === flat(v) ? pasted : v;
    }
    input.addEventListener("paste", function (ev) {
      var t = ev.clipboardData ? ev.clipboardData.getData("text/plain") : "";
      pasted = /[\r\n]/.test(t) ? t : null;
    });
    function items() { return box.querySelectorAll(".sr-item"); }
    function setActive(k) {
      var list = items();
      if (!list.length) return;
      active = (k + list.length) % list.length;
      list.forEach(function (el, i) { el.classList.toggle("sr-active", i === active); el.setAttribute("aria-selected", i === active ? "true" : "false"); });
      input.setAttribute("aria-activedescendant", "sr-" + active);
      list[active].scrollIntoView({ block: "nearest" });
    }
    function run() {
      var q = query();
      if (!q.trim()) { box.hidden = true; box.innerHTML = ""; return; }
      api.query(q, 8).then(function (ans) {
        if (query() !== q) return;
        var idx = state.idx;
        active = -1;
        var hits = shown(ans);
        var none = noneClose(ans, hits);
        if (!hits.length) {
          box.innerHTML = none;
        } else {
          var head = ans.detected.exception ? '<p class="sr-detected">Detected: <code>' + esc(ans.detected.template) + "</code></p>" : "";
          box.innerHTML = head + none + '<ol class="sr-list">' + resultItems(ans, hits, idx, false) + "</ol>";
        }
        box.hidden = false;
      }, function (e) {
        box.innerHTML = '<p class="sr-none">' + esc(e.message) + "</p>";
        box.hidden = false;
      });
    }
    ["focus", "pointerenter", "pointerdown"].forEach(function (ev) {
      input.addEventListener(ev, function () { preload().catch(function () {}); });
    });
    input.addEventListener("input", run);
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown") { ev.preventDefault(); setActive(active + 1); }
      else if (ev.key === "ArrowUp") { ev.preventDefault(); setActive(active - 1); }
      else if (ev.key === "Escape") { box.hidden = true; }
      else if (ev.key === "Enter" && active >= 0) {
        ev.preventDefault();
        var a = items()[active].querySelector("a");
        if (a) window.location.href = a.href;
      }
    });
    document.addEventListener("click", function (ev) {
      if (!box.contains(ev.target) && ev.target !== input) box.hidden = true;
    });
    // Enter with no result chosen opens the /search/ page: with the pasted lines, not the flat value.
    var form = input.form;
    if (form) form.addEventListener("submit", function (ev) {
      var q = query();
      if (q === input.value) return;
      ev.preventDefault();
      window.location.href = form.getAttribute("action") + "?q=" + encodeURIComponent(q);
    });
  }

  // The /search/ page: ?q= (or the textarea), the detected error, results with their articles.
  function initPage() {
    var form = document.getElementById("search-page-form");
    var input = document.getElementById("search-page-input");
    var detected = document.getElementById("search-page-detected");
    var list = document.getElementById("search-page-results");
    if (!form || !input || !list) return;
    function run(q) {
      if (!q.trim()) { list.innerHTML = ""; detected.innerHTML = ""; return; }
      var idx;
      api.query(q, 10).then(function (ans) {
        idx = state.idx;
        return R.articles(idx, ans.hits).then(function () { return ans; });
      }).then(function (ans) {
        var hits = shown(ans);
        var verdict = !hits.length ? "No close match." : hits[0].score < state.weak ? "No close match. The nearest entries, unlikely to be your error:" : "";
        detected.innerHTML = '<p>Detected error: <code class="sr-template">' + esc(ans.detected.template) + "</code></p>" +
          (verdict ? '<p class="sr-verdict">' + verdict + "</p>" : "");
        list.innerHTML = resultItems(ans, hits, idx, true);
      }, function (e) { detected.textContent = e.message; });
    }
    var q = new URLSearchParams(window.location.search).get("q") || "";
    input.value = q;
    run(q);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      run(input.value);
      if (!offline && window.history && history.replaceState) {
        history.replaceState(null, "", "?q=" + encodeURIComponent(input.value));
      }
    });
    input.addEventListener("input", function () { run(input.value); });
  }

  function init() {
    initBox();
    initPage();
    // The manifest at once, so that a reader who pastes as soon as the page is up does not
    // wait for it (every page fetches it when idle anyway): hosted now, offline at the load
    // event (a script added before it would hold it back).
    if (!offline) load().catch(function () {});
    else if (document.readyState === "complete") load().catch(function () {});
    else window.addEventListener("load", function () { load().catch(function () {}); });
    whenIdle(function () { preload().catch(function () {}); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
