// errbook search: the search box on every page and the /search/ page, around the ranking of
// search-rank.js (window.errbookRank, loaded before this script). The index is in shards
// (src/search/shards.rs): the manifest search/m on first use, then what each query needs.
// Hosted sites fetch search/NAME.json; offline bundles (file://) add a <script> for
// search/NAME.js, which hands its data to window.errbookShard, so nothing needs fetch, modules
// or a server.
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
      return load().then(function (ix) { return R.query(ix, text, limit, state.weak); });
    },
    // What the page does when idle (below), or joins it: the benchmark waits on it.
    preload: function () { return preload(); }
  });
  var tokens = R.tokens;
  window.errbookSearch = api;

  // One shard's data: fetched, or offline from its script.
  var waiting = {};
  window.errbookShard = function (name, data) {
    var w = waiting[name];
    if (w) { delete waiting[name]; w(data); }
  };
  function fetchShard(name) {
    if (!offline) {
      return fetch(root + "search/" + name + ".json").then(function (r) {
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

  // Ahead of a first query, as Pagefind does on init: the manifest, and one query over a tiny
  // index of its own, which compiles the ranking's code and patterns (tens of milliseconds a
  // first query otherwise spends). Once the page is idle, or as soon as the reader reaches for
  // a search box; a query joins what is under way and never fetches anything twice.
  var WARM = {
    terms: ["cuda", "devic", "memory", "out"],
    post: [[0, 90, 1, 40], [0, 60], [0, 80, 1, 70], [0, 50, 1, 30]],
    docs: [["W1", "CUDA error: out of memory on device 0", [], ["CUDA out of memory"]],
           ["W2", "out of memory", [], []]],
    arts: []
  };
  var warmed = null;
  function preload() {
    if (!warmed) {
      warmed = load().then(function (ix) {
        try {
          R.search(WARM, "Traceback (most recent call last):\n  File \"x.py\", line 1\n" +
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", 8, state.weak);
        } catch (e) { /* only a warm-up */ }
        return ix;
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

  function resultItems(ans, ix, withArticles) {
    return ans.hits.map(function (h, i) {
      var doc = ix.doc(h.doc);
      var weak = h.score < state.weak;
      var arts = "";
      if (withArticles && doc[2].length) {
        arts = '<ul class="sr-articles">' + doc[2].map(function (a) {
          var art = ix.art(a);
          if (!art) return "";
          return '<li><a href="' + esc(href(art[1])) + '">' + esc(art[0]) + "</a></li>";
        }).join("") + "</ul>";
      }
      return '<li class="sr-item' + (weak ? " sr-weak" : "") + '" role="option" id="sr-' + i + '">' +
        '<a class="sr-link" href="' + esc(href("errors/" + doc[0] + "/")) + '">' +
        '<span class="sr-msg">' + highlight(doc[1], ans.matched) + "</span>" +
        '<span class="sr-meta"><span class="sr-id">' + esc(doc[0]) + "</span>" +
        '<span class="sr-score">' + (weak ? "weak · " : "") + h.score.toFixed(2) + "</span></span></a>" +
        arts + "</li>";
    }).join("");
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
        if (!ans.hits.length) {
          box.innerHTML = '<p class="sr-none">No entry matches <code>' + esc(ans.detected.template) + "</code></p>";
        } else {
          var head = ans.detected.exception ? '<p class="sr-detected">Detected: <code>' + esc(ans.detected.template) + "</code></p>" : "";
          box.innerHTML = head + '<ol class="sr-list">' + resultItems(ans, idx, false) + "</ol>";
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
        var top = ans.hits[0];
        var verdict = !top ? "No entry matches." : top.score < state.weak ? "Only weak matches: none of these is likely your error." : "";
        detected.innerHTML = '<p>Detected error: <code class="sr-template">' + esc(ans.detected.template) + "</code></p>" +
          (verdict ? '<p class="sr-verdict">' + verdict + "</p>" : "");
        list.innerHTML = resultItems(ans, idx, true);
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
    whenIdle(function () { preload().catch(function () {}); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
