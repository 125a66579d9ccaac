//! The HTTP side of `serve`: files of the output folder (folders answer with their index.html,
//! unknown paths with 404.html), a live-reload script injected into every HTML page, and the
//! long-poll endpoint it calls.

use super::reload::Reload;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub(super) const RELOAD_PATH: &str = "/__errbook/reload";
const SCRIPT_PATH: &str = "/__errbook/livereload.js";

/// Long-polls the server; reloads the page after a good rebuild, shows the errors of a bad one.
const LIVERELOAD_JS: &str = r#"(function () {
  var gen = null;
  function overlay(text) {
    var el = document.getElementById("errbook-errors");
    if (!text) { if (el) el.remove(); return; }
    if (!el) {
      el = document.createElement("pre");
      el.id = "errbook-errors";
      el.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;margin:0;padding:1rem;background:#2b0d0d;color:#ffd7d4;font:13px/1.4 monospace;z-index:9999;border-top:3px solid #e5484d;white-space:pre-wrap";
      document.body.appendChild(el);
    }
    el.textContent = "errbook: the last rebuild failed; this page is the previous build.\n\n" + text;
  }
  function poll() {
    var x = new XMLHttpRequest();
    x.open("GET", "/__errbook/reload?since=" + (gen === null ? "" : gen));
    x.timeout = 40000;
    x.onload = function () {
      try {
        var s = JSON.parse(x.responseText);
        if (gen !== null && s.generation !== gen && !s.errors) { location.reload(); return; }
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
"#;

/// Serve `root` on `listener` from a background thread: every connection is handled
/// concurrently (a page opens several at once, and long polls wait for minutes), so no request
/// waits behind another. Returns once the server runs.
pub(super) fn spawn(
    listener: std::net::TcpListener,
    root: PathBuf,
    reload: Arc<Reload>,
    sink: super::event::Sink,
) -> crate::core::error::Result<()> {
    use crate::core::error::Error;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::Other(format!("cannot serve: {e}")))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Other(format!("cannot start the HTTP runtime: {e}")))?;
    let listener = {
        let _guard = rt.enter();
        tokio::net::TcpListener::from_std(listener)
            .map_err(|e| Error::Other(format!("cannot serve: {e}")))?
    };
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let (root, reload) = (root.clone(), reload.clone());
        async move { handle(uri, root, reload).await }
    });
    std::thread::spawn(move || {
        rt.block_on(async move {
            if let Err(e) = axum::serve(listener, app).await {
                sink(super::event::Event::HttpStopped(e.to_string()));
            }
        })
    });
    Ok(())
}

/// Answer one request from the files under `root`.
async fn handle(uri: Uri, root: PathBuf, reload: Arc<Reload>) -> Response {
    let path = uri.path();
    let query = uri.query().unwrap_or("");
    if path == RELOAD_PATH {
        let since = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .and_then(|v| v.parse::<u64>().ok());
        let state = match since {
            // The wait blocks on a condition variable: on the blocking pool, not a worker.
            Some(seen) => tokio::task::spawn_blocking(move || {
                reload.wait_change(seen, Duration::from_secs(25))
            })
            .await
            .unwrap_or_default(),
            None => reload.current(),
        };
        let body = serde_json::json!({"generation": state.generation, "errors": state.errors});
        return bytes(200, "application/json", body.to_string().into_bytes());
    }
    if path == SCRIPT_PATH {
        return bytes(
            200,
            "text/javascript; charset=utf-8",
            LIVERELOAD_JS.as_bytes().to_vec(),
        );
    }
    let path = path.to_string();
    tokio::task::spawn_blocking(move || match resolve(&root, &path) {
        Resolved::File(f) => file(200, &f),
        Resolved::Redirect(to) => {
            let mut r = bytes(301, "text/plain", Vec::new());
            if let Ok(v) = HeaderValue::from_str(&to) {
                r.headers_mut().insert(header::LOCATION, v);
            }
            r
        }
        Resolved::NotFound => {
            let nf = root.join("404.html");
            if nf.is_file() {
                file(404, &nf)
            } else {
                bytes(404, "text/plain", b"not found".to_vec())
            }
        }
    })
    .await
    .unwrap_or_else(|_| bytes(500, "text/plain", b"internal error".to_vec()))
}

enum Resolved {
    File(PathBuf),
    Redirect(String),
    NotFound,
}

/// Map a URL path to a file under `root`, refusing anything that would leave it.
fn resolve(root: &Path, url_path: &str) -> Resolved {
    let decoded = percent_decode(url_path);
    let mut rel = PathBuf::new();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => rel.push(s),
            Component::CurDir => {}
            _ => return Resolved::NotFound,
        }
    }
    let full = root.join(&rel);
    if full.is_dir() {
        if !url_path.ends_with('/') {
            return Resolved::Redirect(format!("{url_path}/"));
        }
        let idx = full.join("index.html");
        return if idx.is_file() {
            Resolved::File(idx)
        } else {
            Resolved::NotFound
        };
    }
    if full.is_file() {
        Resolved::File(full)
    } else {
        Resolved::NotFound
    }
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

fn content_type(p: &Path) -> &'static str {
    match p.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "gz" => "application/gzip",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn file(status: u16, p: &Path) -> Response {
    match std::fs::read(p) {
        Ok(mut body) => {
            let ct = content_type(p);
            if ct.starts_with("text/html") {
                body = inject(body);
            }
            bytes(status, ct, body)
        }
        Err(_) => bytes(404, "text/plain", b"not found".to_vec()),
    }
}

/// Add the live-reload script before `</body>`.
fn inject(body: Vec<u8>) -> Vec<u8> {
    let tag = format!("<script src=\"{SCRIPT_PATH}\"></script>");
    let text = String::from_utf8_lossy(&body);
    match text.rfind("</body>") {
        Some(i) => format!("{}{tag}{}", &text[..i], &text[i..]).into_bytes(),
        None => format!("{text}{tag}").into_bytes(),
    }
}

fn bytes(status: u16, ct: &'static str, body: Vec<u8>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [
            (header::CONTENT_TYPE, ct),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_root() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("a")).unwrap();
        std::fs::write(t.path().join("a/index.html"), "x").unwrap();
        assert!(matches!(resolve(t.path(), "/a/"), Resolved::File(_)));
        assert!(matches!(resolve(t.path(), "/a"), Resolved::Redirect(ref s) if s == "/a/"));
        assert!(matches!(
            resolve(t.path(), "/../etc/passwd"),
            Resolved::NotFound
        ));
        assert!(matches!(resolve(t.path(), "/%2e%2e/x"), Resolved::NotFound));
        assert_eq!(percent_decode("a%20b"), "a b");
    }

    #[test]
    fn reload_script_goes_before_body_end() {
        let out = String::from_utf8(inject(b"<html><body>x</body></html>".to_vec())).unwrap();
        assert!(out.contains("livereload.js\"></script></body>"), "{out}");
    }
}
