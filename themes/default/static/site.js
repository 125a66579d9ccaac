// errbook: copy buttons for code blocks and the error message. No network, no modules.
(function () {
  "use strict";
  function copy(text, btn) {
    var done = function () {
      btn.classList.add("done");
      btn.textContent = "Copied";
      setTimeout(function () { btn.classList.remove("done"); btn.textContent = "Copy"; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
    } else {
      fallback(text);
      done();
    }
  }
  function fallback(text) {
    var t = document.createElement("textarea");
    t.value = text;
    t.setAttribute("readonly", "");
    t.style.position = "absolute";
    t.style.left = "-9999px";
    document.body.appendChild(t);
    t.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing to do */ }
    document.body.removeChild(t);
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest ? ev.target.closest("button.copy") : null;
    if (!btn) return;
    var sel = btn.getAttribute("data-copy");
    var src = sel ? document.querySelector(sel) : btn.parentNode.querySelector("pre code");
    if (src) copy(src.textContent.replace(/\s+$/, ""), btn);
  });
})();
