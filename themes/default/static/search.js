// errbook search: the search box on every page and the /search/ page.
// The same normalisation, tokenising and ranking as src/index/{normalise,tokenise,rank}.rs
// (tests/search_parity.rs runs both on the same cases). Hosted sites fetch search/index.json on
// first use; offline bundles (file://) load search/index.js, a classic script that sets
// window.errbookIndex, so nothing needs fetch, modules or a server.
(function () {
  "use strict";

  // ---- normalise --------------------------------------------------------------------------
  var ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
  var PREFIX = new RegExp("^(?:" + [
    "\\[?rank\\s*[0-9]+\\]?\\s*:\\s*",
    "\\[default[0-9]+\\]:\\s*",
    "\\[\\s*[Rr]ank\\s*[0-9]+\\s*\\]\\s*",
    "\\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T _][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\\]?\\s*(?:[-|:]\\s*)?",
    "\\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\\]?\\s*(?:[-|:]\\s*)?",
    "[A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\s+",
    "[EWIF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\.[0-9]+\\s+[0-9]+\\s+[A-Za-z0-9_./-]+:[0-9]+\\]\\s*",
    "\\[[EWIF][0-9]*\\s[^\\]]*\\]\\s*",
    "\\[?(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\\b\\]?\\s*(?::[A-Za-z0-9_.]*:|[:|-])?\\s*",
    "\\(pid=[0-9]+(?:,\\s*ip=[0-9.]+)?\\)\\s*",
    "what\\(\\):\\s*",
    "[0-9]+:\\s+"
  ].join("|") + ")");
  var EXC_LINE = /^((?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z][A-Za-z0-9_]*(?:Error|Exception|Interrupt|Exit|Warning|Failure)))\s*(?::\s*(.*))?$/;
  var WRAPPER_MSG = /^caught [A-Za-z0-9_]+ in (?:dataloader worker process|replica)|terminated with the following error/i;
  var STOP_LINE = /^(?:Traceback \(most recent call last\)|Original Traceback|During handling of the above|The above exception was|File |Exception raised from|frame #|-- Process [0-9]+)/;
  var BOILERPLATE = /^(?:CUDA kernel errors might be asynchronously|For debugging consider passing|Compile with .TORCH_USE_CUDA_DSA|To enable traceback see|Set TORCH_SHOW_CPP_STACKTRACES|\^+$|~*\^+~*$)/i;
  var FRAME = /^\s*File "[^"]*", line [0-9]+/;
  var URL_RE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+/g;
  var PATH = /(?:[A-Za-z]:)?(?:\.{1,2}|~)?(?:[\\/][A-Za-z0-9_.@~+-]+){2,}[\\/]?|\b[A-Za-z0-9_-]+\.(?:py|pyx|cpp|cc|cu|cuh|hpp|h|c|so|pt|pth|ckpt|json|yaml|yml|txt|csv|log)\b/g;
  var QUOTED = /'([^'\n]*)'|"([^"\n]*)"|`([^`\n]*)`|\u2018([^\u2019\n]*)\u2019|\u201c([^\u201d\n]*)\u201d/g;
  var HEX = /\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{8,}\b/g;
  var SIZE = /\b[0-9]+(?:\.[0-9]+)?\s*(?:[KMGTP]i?B|[kK]B|bytes|B)\b/g;
  var NUMBER = /[-+]?\b[0-9]+(?:\.[0-9]+)*(?:[eE][-+]?[0-9]+)?(?:x[0-9]+)*\b/g;
  var CUDA_DEV = /\b(cuda|cpu|xpu|mps):[0-9]+/g;
  var REPEAT = /(<(?:n|path|hex|size|str|url)>)(?:[\s,x*]*<(?:n|path|hex|size|str|url)>)+/g;

  function trimStart(s) { return s.replace(/^\s+/, ""); }

  function cleanLine(line) {
    var s = line.replace(ANSI, "").trim();
    for (;;) {
      var m = PREFIX.exec(s);
      if (!m || m[0].length === 0) break;
      var next = trimStart(s.slice(m[0].length));
      if (next === s) break;
      s = next;
    }
    return s;
  }

  function charCount(s) { return Array.from(s).length; }

  function template(message) {
    var s = message.replace(URL_RE, "<url>");
    s = s.replace(PATH, "<path>");
    s = s.replace(QUOTED, function (m, a, b, c, d, e) {
      var inner = [a, b, c, d, e].find(function (x) { return x !== undefined; }) || "";
      return charCount(inner) > 40 ? "<str>" : inner;
    });
    s = s.replace(CUDA_DEV, "$1");
    s = s.replace(HEX, function (m) {
      var hexy = m.indexOf("0x") === 0 || (/[0-9]/.test(m) && /[A-Za-z]/.test(m));
      return hexy ? "<hex>" : m;
    });
    s = s.replace(SIZE, "<size>");
    s = s.replace(NUMBER, "<n>");
    s = s.replace(REPEAT, "$1");
    return s.trim().replace(/\s+/g, " ");
  }

  function lines(text) {
    // Rust's str::lines: split on \n, drop one trailing empty line, strip \r.
    var ls = text.split("\n");
    if (ls.length && ls[ls.length - 1] === "") ls.pop();
    return ls.map(function (l) { return l.replace(/\r$/, ""); });
  }

  function normalise(text) {
    var ls = lines(text).map(cleanLine);
    var cands = [];
    var i = 0;
    while (i < ls.length) {
      var c = EXC_LINE.exec(ls[i]);
      if (c) {
        var full = c[1] || "", short = c[2] || "";
        var message = (c[3] || "").trim();
        var j = i + 1, taken = 0;
        while (j < ls.length && taken < 4) {
          var l = ls[j];
          if (l === "" || STOP_LINE.test(l) || EXC_LINE.test(l)) break;
          if (!BOILERPLATE.test(l)) { message += " " + l; taken++; }
          j++;
        }
        var wrapper = WRAPPER_MSG.test(message) ||
          short === "ProcessRaisedException" || short === "ChildFailedError" ||
          short === "ProcessExitedException" ||
          (/DistBackendError$/.test(full) && message === "");
        cands.push({ exception: short, message: message.trim(), wrapper: wrapper });
        i = j;
      } else {
        i++;
      }
    }
    var chosen = null;
    for (var k = cands.length - 1; k >= 0; k--) if (!cands[k].wrapper) { chosen = cands[k]; break; }
    if (!chosen && cands.length) chosen = cands[cands.length - 1];
    if (chosen) {
      var t = template(chosen.message);
      return { exception: chosen.exception, template: t === "" ? chosen.exception : chosen.exception + ": " + t };
    }
    var kept = [], skipCode = false;
    ls.forEach(function (l) {
      if (l === "" || l.indexOf("Traceback (most recent call last)") === 0) { skipCode = false; return; }
      if (FRAME.test(l)) { skipCode = true; return; }
      if (skipCode) { skipCode = false; return; }
      if (BOILERPLATE.test(l)) return;
      kept.push(l);
    });
    return { exception: null, template: template(kept.join(" ")) };
  }

  // ---- tokenise ---------------------------------------------------------------------------
  var PLACEHOLDER = /<(?:n|path|hex|size|str|url)>/g;
  var WORD = /[a-z0-9]+(?:[-_][a-z0-9]+)*/g;
  var STOP = {};
  ("a an and are as at be by for from has have if in into is it its of on or so that the this to " +
   "was were with you your").split(" ").forEach(function (w) { STOP[w] = true; });
  var SUFFIXES = ["ations", "ation", "ings", "ing", "ed", "es", "s", "e"];

  function asciiLower(s) { return s.replace(/[A-Z]+/g, function (m) { return m.toLowerCase(); }); }

  function stem(w) {
    if (w.length < 4 || /[0-9]/.test(w)) return w;
    for (var i = 0; i < SUFFIXES.length; i++) {
      var suf = SUFFIXES[i];
      if (w.endsWith(suf) && w.length - suf.length >= 3 && !(suf === "s" && w.endsWith("ss")))
        return w.slice(0, w.length - suf.length);
    }
    return w;
  }

  function keep(w) { return w.length >= 2 && !/^[0-9]+$/.test(w) && !STOP[w]; }

  function tokens(text) {
    var lower = asciiLower(text.replace(PLACEHOLDER, " "));
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(lower))) {
      var w = m[0];
      if (/[-_]/.test(w)) {
        var joined = w.replace(/-/g, "");
        if (keep(joined)) out.push(stem(joined));
        w.split(/[-_]/).forEach(function (p) { if (keep(p)) out.push(stem(p)); });
      } else if (keep(w)) {
        out.push(stem(w));
      }
    }
    return out;
  }

  // ---- rank -------------------------------------------------------------------------------
  var PREFIX_FACTOR = 0.8, MAX_PREFIX = 30, TYPO1 = 0.7, TYPO2 = 0.5, MAX_QUERY_TERMS = 48;

  function idf(n, df) {
    df = Math.max(df, 1);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  function osa(a, b, max) {
    var n = a.length, m = b.length;
    if (Math.abs(n - m) > max) return max + 1;
    var d = [];
    for (var i = 0; i <= n; i++) { d.push(new Array(m + 1).fill(0)); d[i][0] = i; }
    for (var j = 0; j <= m; j++) d[0][j] = j;
    for (i = 1; i <= n; i++) {
      var rowMin = Infinity;
      for (j = 1; j <= m; j++) {
        var cost = a[i - 1] !== b[j - 1] ? 1 : 0;
        var v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
        d[i][j] = v;
        rowMin = Math.min(rowMin, v);
      }
      if (rowMin > max) return max + 1;
    }
    return d[n][m];
  }

  // Byte-wise comparison, as Rust's str ordering (terms are ASCII).
  function lowerBound(terms, q) {
    var lo = 0, hi = terms.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (terms[mid] < q) lo = mid + 1; else hi = mid; }
    return lo;
  }

  function expand(idx, q, last) {
    var terms = idx.terms, out = [];
    var start = lowerBound(terms, q);
    var exact = start < terms.length && terms[start] === q;
    if (exact) out.push([start, 1.0]);
    if (!exact || last) {
      var j = start + (exact ? 1 : 0);
      while (j < terms.length && terms[j].indexOf(q) === 0 && out.length < MAX_PREFIX) { out.push([j, PREFIX_FACTOR]); j++; }
    }
    if (out.length === 0 && q.length >= 4) {
      var max = q.length >= 8 ? 2 : 1;
      for (var i = 0; i < terms.length; i++) {
        var t = terms[i];
        if (Math.abs(t.length - q.length) > max) continue;
        var dist = osa(q, t, max);
        if (dist === 1) out.push([i, TYPO1]);
        else if (dist === 2 && dist <= max) out.push([i, TYPO2]);
      }
    }
    return out;
  }

  function queryTerms(detected) {
    var seen = {}, out = [];
    tokens(detected.template).forEach(function (t) {
      if (!Object.prototype.hasOwnProperty.call(seen, t) && out.length < MAX_QUERY_TERMS) { seen[t] = true; out.push(t); }
    });
    return out;
  }

  function before(a, b) { return a.score > b.score || (a.score === b.score && a.doc < b.doc); }

  function search(idx, text, limit) {
    var detected = normalise(text);
    var terms = queryTerms(detected);
    var n = idx.docs.length;
    var score = new Float64Array(n), best = new Float64Array(n), seen = new Uint8Array(n);
    var any = [], denom = 0, matched = {};
    for (var k = 0; k < terms.length; k++) {
      var ex = expand(idx, terms[k], k + 1 === terms.length);
      var qIdf = ex.length && ex[0][1] === 1.0 ? idf(n, idx.post[ex[0][0]].length / 2) : idf(n, 1);
      denom += qIdf;
      var touched = [];
      for (var e = 0; e < ex.length; e++) {
        var list = idx.post[ex[e][0]];
        matched[idx.terms[ex[e][0]]] = true;
        var w = ex[e][1] * Math.min(idf(n, list.length / 2), qIdf);
        var d = 0;
        for (var p = 0; p < list.length; p += 2) {
          d += list[p];
          var c = w * list[p + 1] / 100;
          if (best[d] === 0) touched.push(d);
          if (c > best[d]) best[d] = c;
        }
      }
      for (var t = 0; t < touched.length; t++) {
        var dd = touched[t];
        score[dd] += best[dd];
        best[dd] = 0;
        if (!seen[dd]) { seen[dd] = 1; any.push(dd); }
      }
    }
    // Keep only the best `limit` hits (a pasted traceback matches most of a large catalog, and
    // sorting every match was most of a query's time): the same order as a full sort.
    var max = limit > 0 ? limit : any.length, hits = [];
    for (var i = 0; i < any.length; i++) {
      var h = { doc: any[i], score: denom > 0 ? score[any[i]] / denom : 0 };
      var j = hits.length;
      if (j === max && !before(h, hits[j - 1])) continue;
      while (j > 0 && before(h, hits[j - 1])) j--;
      hits.splice(j, 0, h);
      if (hits.length > max) hits.pop();
    }
    return { detected: detected, terms: terms, matched: matched, hits: hits };
  }

  var api = { normalise: normalise, template: template, tokens: tokens, stem: stem, search: search, osa: osa };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  if (typeof document === "undefined") return;

  // ---- the page ---------------------------------------------------------------------------
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  var offline = html.getAttribute("data-offline") === "true";
  var state = { idx: null, weak: 0.35, loading: null };
  window.errbookSearch = api;
  api.state = state;

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
