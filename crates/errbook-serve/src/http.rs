//! The HTTP side of `serve`: the site's files, each made when first asked from the workspace's
//! current snapshot (folders answer with their index.html, unknown paths with 404.html, or with
//! the diagnostics while the site does not build), the site's `static/` files as they are on
//! disk, the live-reload script added to every HTML page, and the long-poll endpoint it calls.
//! Connections, their limits and timeouts are `conn`'s.
//!
//! What a hostile client or a hostile file in `static/` cannot do here: read outside it
//! (`..`, encoded or not, and symbolic links that lead out are refused after resolving them),
//! redirect to another host (a folder's redirect is relative, `./name/`), run a script on a page
//! (every answer carries the site's Content-Security-Policy as a header), or hold the server with
//! long polls (at most `MAX_POLLS` wait at once; the rest are told to come back, and close).

use super::conn::{self, Handler, Reply};
use super::reload::Reload;
use bytes::Bytes;
use errbook_site::Snapshot;
use http_body_util::Full;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

pub(super) const RELOAD_PATH: &str = "/__errbook/reload";
const SCRIPT_PATH: &str = "/__errbook/livereload.js";
/// Long-polls the server; reloads the page after a good rebuild, shows the errors of a bad one.
const LIVERELOAD_JS: &str = include_str!("livereload.js");
/// Pages waiting for a rebuild at once; more are told to come back later.
const MAX_POLLS: usize = 64;
/// How long a long poll waits for a rebuild before it answers "nothing new".
const POLL_WAIT: Duration = Duration::from_secs(25);

/// The snapshot the site is served from, replaced after each good build (none before the
/// first).
pub(super) type Current = Arc<std::sync::RwLock<Option<Arc<Snapshot>>>>;

/// What every request needs: the snapshot, the rebuild state, the long polls' permits.
struct Site {
    current: Current,
    reload: Arc<Reload>,
    polls: Arc<Semaphore>,
}

/// Serve the current snapshot on `listener` from a background thread. Returns once the server
/// runs.
pub(super) fn spawn(
    listener: std::net::TcpListener,
    current: Current,
    reload: Arc<Reload>,
    sink: super::event::Sink,
) -> errbook_core::error::Result<()> {
    use errbook_core::error::Error;
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
    let site = Arc::new(Site {
        current,
        reload,
        polls: Arc::new(Semaphore::new(MAX_POLLS)),
    });
    let handler: Handler = Arc::new(move |req| {
        let site = site.clone();
        Box::pin(async move { answer(&site, &req).await })
    });
    std::thread::spawn(move || {
        rt.block_on(conn::accept_loop(listener, handler));
        sink(super::event::Event::HttpStopped(
            "the accept loop ended".into(),
        ));
    });
    Ok(())
}

/// Answer one request.
async fn answer<B>(site: &Site, req: &Request<B>) -> Reply {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = bytes(
            405,
            "text/plain; charset=utf-8",
            b"only GET and HEAD".to_vec(),
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let uri = req.uri();
    let path = uri.path();
    if path == RELOAD_PATH {
        return long_poll(site, uri.query().unwrap_or("")).await;
    }
    if path == SCRIPT_PATH {
        let js = LIVERELOAD_JS.as_bytes().to_vec();
        return bytes(200, "text/javascript; charset=utf-8", js);
    }
    let snapshot = (site.current.read())
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let (path, query) = (path.to_string(), uri.query().map(str::to_string));
    let errors = site.reload.current().errors;
    tokio::task::spawn_blocking(move || {
        let snapshot = snapshot.as_deref();
        match snapshot.map(|s| lookup(s, &path)) {
            Some(Resolved::Made(rel, bytes)) => made(200, &rel, &bytes),
            Some(Resolved::File(f)) => file(200, &f),
            Some(Resolved::Redirect(to)) => redirect(&to, query.as_deref()),
            Some(Resolved::Failed(e)) => bytes(500, "text/plain; charset=utf-8", e.into_bytes()),
            // Nothing to show while the site does not build (a broken start): the errors are.
            _ if !errors.is_empty() => failed_build(&errors),
            _ => not_found(snapshot),
        }
    })
    .await
    .unwrap_or_else(|_| bytes(500, "text/plain", b"internal error".to_vec()))
}

/// What `url_path` is in the site of `s`: a file made from the catalog, a folder of pages asked
/// without its `/`, or a file of `static/`.
fn lookup(s: &Snapshot, url_path: &str) -> Resolved {
    let Some(rel) = site_path(url_path) else {
        return Resolved::NotFound;
    };
    let file = match url_path.ends_with('/') || rel.is_empty() {
        true if rel.is_empty() => "index.html".to_string(),
        true => format!("{rel}/index.html"),
        false => rel.clone(),
    };
    match s.file(&file) {
        Ok(Some(bytes)) => return Resolved::Made(file, bytes),
        Ok(None) => {}
        Err(e) => return Resolved::Failed(e.to_string()),
    }
    if !url_path.ends_with('/') && s.is_folder(&rel) {
        return Resolved::Redirect(folder_redirect(Path::new(&rel)));
    }
    resolve(&s.root().join("static"), url_path)
}

/// The path in the site that `url_path` names, decoded, without a leading `/`; `None` for one
/// that would leave the site (`..`).
fn site_path(url_path: &str) -> Option<String> {
    let decoded = percent_decode(url_path);
    let mut parts = Vec::new();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?.to_string()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// `?since=N`: wait for a generation other than N; no `since`: the state now.
async fn long_poll(site: &Site, query: &str) -> Reply {
    let since = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("since="))
        .and_then(|v| v.parse::<u64>().ok());
    let state = match since {
        Some(seen) => {
            let Ok(_permit) = site.polls.clone().try_acquire_owned() else {
                // Too many waiting: come back later, on a new connection.
                let mut r = bytes(503, "application/json", b"{\"retry\":true}".to_vec());
                let h = r.headers_mut();
                h.insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
                h.insert(header::CONNECTION, HeaderValue::from_static("close"));
                return r;
            };
            site.reload.wait_change(seen, POLL_WAIT).await
        }
        None => site.reload.current(),
    };
    let body = serde_json::json!({
        "generation": state.generation,
        "errors": state.errors,
        "soft": state.soft,
    });
    bytes(200, "application/json", body.to_string().into_bytes())
}

#[derive(Debug)]
enum Resolved {
    /// A file made from the catalog: its path in the site and its bytes.
    Made(String, Arc<Vec<u8>>),
    /// A file of `static/`.
    File(PathBuf),
    /// A folder asked without its `/`: where to send the browser (relative).
    Redirect(String),
    /// The file could not be made (a bug, or a template that fails on this content).
    Failed(String),
    NotFound,
}

/// Map a URL path to a file under `root`, refusing anything that would leave it: `..` and
/// absolute parts, and symbolic links whose target lies outside.
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
    let Some(full) = inside(root, &root.join(&rel)) else {
        return Resolved::NotFound;
    };
    if full.is_dir() {
        if !url_path.ends_with('/') {
            return Resolved::Redirect(folder_redirect(&rel));
        }
        return match inside(root, &full.join("index.html")) {
            Some(idx) if idx.is_file() => Resolved::File(idx),
            _ => Resolved::NotFound,
        };
    }
    if full.is_file() {
        Resolved::File(full)
    } else {
        Resolved::NotFound
    }
}

/// `path` with every link resolved, if it exists and lies under `root` (resolved too).
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let real = path.canonicalize().ok()?;
    real.starts_with(&root).then_some(real)
}

/// The redirect of folder `rel` asked without its `/`: `./<last part>/`, encoded. Relative to
/// the address asked, it names the same folder and cannot name another host (`//host/` could).
fn folder_redirect(rel: &Path) -> String {
    use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
    const KEEP: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_');
    let last = rel
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("./{}/", utf8_percent_encode(&last, KEEP))
}

fn redirect(to: &str, query: Option<&str>) -> Reply {
    let mut r = bytes(301, "text/plain; charset=utf-8", Vec::new());
    let with_query = query.map(|q| format!("{to}?{q}"));
    let value = with_query
        .as_deref()
        .and_then(|v| HeaderValue::from_str(v).ok())
        .or_else(|| HeaderValue::from_str(to).ok());
    if let Some(v) = value {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

fn not_found(snapshot: Option<&Snapshot>) -> Reply {
    match snapshot.map(|s| s.file("404.html")) {
        Some(Ok(Some(page))) => made(404, "404.html", &page),
        _ => bytes(404, "text/plain; charset=utf-8", b"not found".to_vec()),
    }
}

/// The page shown for a path the output does not have while the last build failed (`serve`
/// started on content that does not build, so there is no site yet): the diagnostics, with the
/// live-reload script that loads the asked page once a rebuild succeeds.
fn failed_build(errors: &str) -> Reply {
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>errbook: the site does not build</title>\n</head>\n<body>\n\
         <h1>The site does not build</h1>\n\
         <p>Fix what is listed below; this page loads the site once it builds.</p>\n\
         <pre id=\"errbook-errors\" data-failed-build=\"true\">{}{}</pre>\n</body>\n</html>\n",
        // What livereload.js writes above the errors when it polls, there from the start.
        "errbook: the site does not build yet; this page loads it once it does.\n\n",
        errbook_render::escape(errors)
    );
    bytes(500, "text/html; charset=utf-8", inject(html.into_bytes()))
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

/// A file made from the catalog, the live-reload script added to a page.
fn made(status: u16, rel: &str, body: &[u8]) -> Reply {
    let ct = content_type(Path::new(rel));
    let body = match ct.starts_with("text/html") {
        true => inject(body.to_vec()),
        false => body.to_vec(),
    };
    bytes(status, ct, body)
}

fn file(status: u16, p: &Path) -> Reply {
    match std::fs::read(p) {
        Ok(mut body) => {
            let ct = content_type(p);
            if ct.starts_with("text/html") {
                body = inject(body);
            }
            bytes(status, ct, body)
        }
        Err(_) => bytes(404, "text/plain; charset=utf-8", b"not found".to_vec()),
    }
}

/// Add the live-reload script before `</body>`.
fn inject(body: Vec<u8>) -> Vec<u8> {
    let tag = format!("<script src=\"{SCRIPT_PATH}\" defer></script>");
    let text = String::from_utf8_lossy(&body);
    match text.rfind("</body>") {
        Some(i) => format!("{}{tag}{}", &text[..i], &text[i..]).into_bytes(),
        None => format!("{text}{tag}").into_bytes(),
    }
}

/// The site's CSP as a header, plus what only a header can say: no page may frame this one.
fn csp_header() -> String {
    format!("{}; frame-ancestors 'none'", errbook_render::CSP)
}

fn bytes(status: u16, ct: &'static str, body: Vec<u8>) -> Reply {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(v) = HeaderValue::from_str(&csp_header()) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    r
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
        assert!(matches!(resolve(t.path(), "/a"), Resolved::Redirect(ref s) if s == "./a/"));
        assert!(matches!(
            resolve(t.path(), "/../etc/passwd"),
            Resolved::NotFound
        ));
        assert!(matches!(resolve(t.path(), "/%2e%2e/x"), Resolved::NotFound));
        assert_eq!(percent_decode("a%20b"), "a b");
    }

    #[test]
    fn a_folder_redirect_never_names_another_host() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("evil.example")).unwrap();
        std::fs::create_dir_all(t.path().join("a b:c")).unwrap();
        for (asked, to) in [
            ("//evil.example", "./evil.example/"),
            ("///evil.example", "./evil.example/"),
            ("/a%20b:c", "./a%20b%3Ac/"),
        ] {
            match resolve(t.path(), asked) {
                Resolved::Redirect(r) => assert_eq!(r, to, "{asked}"),
                other => panic!("{asked}: {other:?}"),
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_root_are_refused_and_links_inside_followed() {
        let t = tempfile::tempdir().unwrap();
        let (out, secret) = (t.path().join("out"), t.path().join("secret"));
        std::fs::create_dir_all(out.join("a")).unwrap();
        std::fs::write(&secret, "password").unwrap();
        std::fs::write(out.join("a/page.html"), "page").unwrap();
        std::os::unix::fs::symlink(&secret, out.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(t.path(), out.join("up")).unwrap();
        std::os::unix::fs::symlink(out.join("a/page.html"), out.join("alias.html")).unwrap();
        assert!(matches!(resolve(&out, "/leak.txt"), Resolved::NotFound));
        assert!(matches!(resolve(&out, "/up/secret"), Resolved::NotFound));
        assert!(matches!(resolve(&out, "/alias.html"), Resolved::File(_)));
    }

    #[test]
    fn reload_script_goes_before_body_end() {
        let out = String::from_utf8(inject(b"<html><body>x</body></html>".to_vec())).unwrap();
        assert!(
            out.contains("livereload.js\" defer></script></body>"),
            "{out}"
        );
    }
}
