// errbook search: the search box on every page and the /search/ page, around the ranking of
// search-rank.js (window.errbookRank, loaded before this script). Hosted sites fetch
// search/index.json on first use; offline bundles (file://) load search/index.js, a classic
// script that sets window.errbookIndex, so nothing needs fetch, modules or a server.
(function () {
  "use strict";

  var R = window.errbookRank;
  if (!R) return;
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  var offline = html.getAttribute("data-offline") === "true";
  var state = { idx: null, weak: 0.35, loading: null };
  // The ranking with the page's state: what bench.mjs and the browser tests drive.
  var api = Object.assign({}, R, {
    state: state,
    search: function (idx, text, limit, weak) { return R.search(idx, text, limit, typeof weak === "number" ? weak : state.weak); }
  });
  var search = api.search, tokens = R.tokens;
  window.errbookSearch = api;

  function href(sitePath) {
    // As urls::href: offline bundles name index.html.
    var s = root + sitePath;
    if (offline && (sitePath === "" || sitePath.endsWith("/"))) s += "index.html";
    return s || "./";
  }

  function load() {
    if (state.idx) return Promise.resolve(state.idx);
    if (state.loading) return state.loading;
    state.loading = new Promise(function (resolve, reject) {
      if (offline) {
        var s = document.createElement("script");
        s.src = root + "search/index.js";
        s.onload = function () {
          state.idx = window.errbookIndex;
          if (window.errbookIndexMeta) state.weak = window.errbookIndexMeta.weak;
          resolve(state.idx);
        };
        s.onerror = function () { reject(new Error("search index did not load")); };
        document.head.appendChild(s);
      } else {
        Promise.all([
          fetch(root + "search/index.json").then(function (r) { return r.json(); }),
          fetch(root + "search/meta.json").then(function (r) { return r.json(); }).catch(function () { return null; })
        ]).then(function (v) {
          state.idx = v[0];
          if (v[1]) state.weak = v[1].weak;
          resolve(state.idx);
        }, reject);
      }
    });
    return state.loading;
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

  function resultItems(ans, idx, withArticles) {
    return ans.hits.map(function (h, i) {
      var doc = idx.docs[h.doc];
      var weak = h.score < state.weak;
      var arts = "";
      if (withArticles && doc[2].length) {
        arts = '<ul class="sr-articles">' + doc[2].map(function (a) {
          var art = idx.arts[a];
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
      load().then(function (idx) {
        if (query() !== q) return;
        var ans = search(idx, q, 8);
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
    input.addEventListener("focus", function () { load().catch(function () {}); });
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
      load().then(function (idx) {
        var ans = search(idx, q, 10);
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

  function init() { initBox(); initPage(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
