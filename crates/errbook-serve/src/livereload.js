// errbook serve: long-polls the server; reloads the page after a good rebuild and shows the
// errors of a bad one over the page. Served as a file of its own (/__errbook/livereload.js), so
// the page's Content-Security-Policy (scripts from the site's own files only) lets it run.
(function () {
  "use strict";
  var gen = null;
  function overlay(text) {
    var el = document.getElementById("errbook-errors");
    if (!text) { if (el) el.remove(); return; }
    if (!el) {
      el = document.createElement("pre");
      el.id = "errbook-errors";
      // Styles set through the CSSOM, which the CSP allows (a style attribute in markup it would not).
      var s = el.style;
      s.position = "fixed"; s.left = "0"; s.right = "0"; s.bottom = "0"; s.maxHeight = "60vh";
      s.overflow = "auto"; s.margin = "0"; s.padding = "1rem"; s.background = "#2b0d0d";
      s.color = "#ffd7d4"; s.font = "13px/1.4 monospace"; s.zIndex = "9999";
      s.borderTop = "3px solid #e5484d"; s.whiteSpace = "pre-wrap";
      document.body.appendChild(el);
    }
    // The page serve shows when there is no site to show (it started on content that does not
    // build) holds the errors itself; other pages are the previous build.
    var lead = el.getAttribute("data-failed-build")
      ? "errbook: the site does not build yet; this page loads it once it does.\n\n"
      : "errbook: the last rebuild failed; this page is the previous build.\n\n";
    el.textContent = lead + text;
  }
  function swap() {
    var x = new XMLHttpRequest();
    x.open("GET", location.pathname + location.search);
    x.setRequestHeader("Cache-Control", "no-store");
    x.onload = function () {
      var doc = x.status === 200 ? new DOMParser().parseFromString(x.responseText, "text/html") : null;
      var now = document.querySelector("main");
      var next = doc && doc.querySelector("main");
      if (!now || !next) { location.reload(); return; }
      now.replaceWith(document.adoptNode(next));
      document.title = doc.title;
      // The search index may have changed with it: the page's search loads it again.
      if (window.errbookSearch && window.errbookSearch.reset) window.errbookSearch.reset();
      setTimeout(poll, 0);
    };
    x.onerror = function () { location.reload(); };
    x.send();
  }
  function poll() {
    var x = new XMLHttpRequest();
    x.open("GET", "/__errbook/reload?since=" + (gen === null ? "" : gen));
    x.timeout = 40000;
    x.onload = function () {
      // 503: too many pages wait already; come back later.
      if (x.status !== 200) { setTimeout(poll, 2000 + Math.random() * 2000); return; }
      try {
        var s = JSON.parse(x.responseText);
        var failedPage = document.querySelector("[data-failed-build]");
        if (!s.errors && failedPage) { location.reload(); return; }
        if (!s.errors && gen !== null && s.generation !== gen) {
          gen = s.generation;
          overlay("");
          // Content pages only: swap in the page's new <main> (no reload of styles and scripts,
          // the reader's scroll position kept); anything else, or a failure, reloads.
          if (s.soft) swap(); else location.reload();
          return;
        }
        gen = s.generation;
        overlay(s.errors);
      } catch (e) { /* keep polling */ }
      setTimeout(poll, 50);
    };
    x.onerror = x.ontimeout = function () { setTimeout(poll, 1000); };
    x.send();
  }
  poll();
})();
