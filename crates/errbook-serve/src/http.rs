//! The HTTP side of `serve`, an axum `Router`: the long-poll endpoint and the live-reload script
//! it is called from, then the site's files (`files` says where a path leads): each made when
//! first asked from the workspace's current snapshot (folders answer with their index.html,
//! unknown paths with 404.html, or with the diagnostics while the site does not build), the
//! site's `static/` files from disk (tower-http's `ServeFile`), and the live-reload script added
//! to every HTML page. Connections, their limits and timeouts are `conn`'s.
//!
//! tower-http's layers put on every answer the site's Content-Security-Policy (so no script runs
//! on a page but the site's own files), `nosniff` and `no-store`, and bound how long any request
//! may take (a busy connection is never closed to make room, so none may stay busy for ever);
//! its `TraceLayer` tells each request and its answer to the debug output.
//! Long polls are bounded by hand: at most `MAX_POLLS` wait at once, the rest are told at once to
//! come back, and closed (tower's `ConcurrencyLimit` would make them wait, holding their
//! connections; with `LoadShed` it refuses them, but counts the polls answered at once too).

use super::conn;
use super::files::{self, Resolved};
use super::reload::Reload;
use axum::extract::{Query, Request, State};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use errbook_core::error::Error;
use errbook_site::Snapshot;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tower::ServiceExt;
use tower_http::services::ServeFile;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

const RELOAD_PATH: &str = "/__errbook/reload";
const SCRIPT_PATH: &str = "/__errbook/livereload.js";
/// Long-polls the server; reloads the page after a good rebuild, shows the errors of a bad one.
const LIVERELOAD_JS: &str = include_str!("livereload.js");
/// Pages waiting for a rebuild at once; more are told to come back later.
const MAX_POLLS: usize = 64;
/// How long a long poll waits for a rebuild before it answers "nothing new".
const POLL_WAIT: Duration = Duration::from_secs(25);
/// The longest any request may take to be answered (a long poll's wait, a page made from a large
/// catalog); past it the answer is a 503.
const ANSWER_WITHIN: Duration = Duration::from_secs(60);
const TEXT: &str = "text/plain; charset=utf-8";

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
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::system("cannot serve", e))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::system("cannot start the HTTP runtime", e))?;
    let listener = {
        let _guard = rt.enter();
        tokio::net::TcpListener::from_std(listener).map_err(|e| Error::system("cannot serve", e))?
    };
    let app = router(Arc::new(Site {
        current,
        reload,
        polls: Arc::new(Semaphore::new(MAX_POLLS)),
    }))?;
    std::thread::spawn(move || {
        rt.block_on(conn::accept_loop(listener, app));
        sink(super::event::Event::HttpStopped(
            "the accept loop ended".into(),
        ));
    });
    Ok(())
}

/// The routes (GET and HEAD only; other methods get a 405 with `Allow: GET,HEAD`) and the
/// headers every answer carries.
fn router(site: Arc<Site>) -> errbook_core::error::Result<Router> {
    let csp = HeaderValue::try_from(csp_header())
        .map_err(|e| Error::Bug(format!("the CSP is no header value: {e}")))?;
    let always =
        |name: HeaderName, value: HeaderValue| SetResponseHeaderLayer::overriding(name, value);
    Ok(Router::new()
        .route(RELOAD_PATH, get(long_poll))
        .route(SCRIPT_PATH, get(script))
        .fallback(get(site_file))
        .with_state(site)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            ANSWER_WITHIN,
        ))
        .layer(always(header::CONTENT_SECURITY_POLICY, csp))
        .layer(always(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(always(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        // Each request, its answer's status and its time, for `--debug` (`tower_http=debug`).
        .layer(TraceLayer::new_for_http().on_request(()).on_eos(())))
}

/// The site's CSP as a header, plus what only a header can say: no page may frame this one.
fn csp_header() -> String {
    format!("{}; frame-ancestors 'none'", errbook_render::CSP)
}

async fn script() -> Response {
    let ct = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    (ct, LIVERELOAD_JS).into_response()
}

/// `?since=N`: wait for a generation other than N; no `since` (or not a number): the state now.
async fn long_poll(
    State(site): State<Arc<Site>>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    let since = (query.iter().find(|(k, _)| k == "since")).and_then(|(_, v)| v.parse::<u64>().ok());
    let state = match since {
        Some(seen) => {
            let Ok(_permit) = site.polls.clone().try_acquire_owned() else {
                // Too many waiting: come back later, on a new connection.
                let headers = [(header::RETRY_AFTER, "2"), (header::CONNECTION, "close")];
                let body = Json(serde_json::json!({ "retry": true }));
                return (StatusCode::SERVICE_UNAVAILABLE, headers, body).into_response();
            };
            site.reload.wait_change(seen, POLL_WAIT).await
        }
        None => site.reload.current(),
    };
    Json(serde_json::json!({
        "generation": state.generation,
        "errors": state.errors,
        "soft": state.soft,
    }))
    .into_response()
}

/// Anything but the two endpoints: a file of the site, made or read off the blocking threads.
async fn site_file(State(site): State<Arc<Site>>, req: Request) -> Response {
    let snapshot = (site.current.read())
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let errors = site.reload.current().errors;
    let uri = req.uri();
    let (path, query) = (uri.path().to_string(), uri.query().map(str::to_string));
    let made = tokio::task::spawn_blocking(move || {
        answer(snapshot.as_deref(), &path, query.as_deref(), &errors)
    });
    match made.await {
        Ok(Answer::Ready(reply)) => reply,
        // tower-http's ServeFile: the file's type, HEAD, ranges and conditional requests.
        Ok(Answer::Static(file)) => ServeFile::new(file).oneshot(req).await.into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [ct(TEXT)],
            "internal error",
        )
            .into_response(),
    }
}

/// What a request for a file of the site is answered with.
enum Answer {
    Ready(Response),
    /// A file of `static/` that is not a page, served as it is.
    Static(PathBuf),
}

/// The answer for `path` (with `query`, kept on a redirect) in `snapshot`; `errors`: the last
/// build's, shown in place of the site when there is none.
fn answer(snapshot: Option<&Snapshot>, path: &str, query: Option<&str>, errors: &str) -> Answer {
    let reply = match snapshot.map(|s| files::lookup(s, path)) {
        Some(Resolved::Made(rel, bytes)) => made(StatusCode::OK, &rel, &bytes),
        Some(Resolved::File(f)) if !is_page(&f) => return Answer::Static(f),
        Some(Resolved::File(f)) => match std::fs::read(&f) {
            Ok(body) => page(StatusCode::OK, body),
            Err(_) => not_found(snapshot),
        },
        Some(Resolved::Redirect(to)) => redirect(&to, query),
        Some(Resolved::Failed(e)) => {
            (StatusCode::INTERNAL_SERVER_ERROR, [ct(TEXT)], e).into_response()
        }
        // Nothing to show while the site does not build (a broken start): the errors are.
        _ if !errors.is_empty() => failed_build(errors),
        _ => not_found(snapshot),
    };
    Answer::Ready(reply)
}

/// A 301 to `to` (relative), the query kept. Not axum's `Redirect`: it has no 301.
fn redirect(to: &str, query: Option<&str>) -> Response {
    let with_query = query.map(|q| format!("{to}?{q}"));
    let value = (with_query.as_deref())
        .and_then(|v| HeaderValue::from_str(v).ok())
        .or_else(|| HeaderValue::from_str(to).ok());
    let mut r = (StatusCode::MOVED_PERMANENTLY, [ct(TEXT)]).into_response();
    if let Some(v) = value {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

fn not_found(snapshot: Option<&Snapshot>) -> Response {
    match snapshot.map(|s| s.file("404.html")) {
        Some(Ok(Some(p))) => made(StatusCode::NOT_FOUND, "404.html", &p),
        _ => (StatusCode::NOT_FOUND, [ct(TEXT)], "not found").into_response(),
    }
}

/// The page shown for a path the output does not have while the last build failed (`serve`
/// started on content that does not build, so there is no site yet): the diagnostics, with the
/// live-reload script that loads the asked page once a rebuild succeeds.
fn failed_build(errors: &str) -> Response {
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
    page(StatusCode::INTERNAL_SERVER_ERROR, html.into_bytes())
}

/// A file made from the catalog, the live-reload script added to a page.
fn made(status: StatusCode, rel: &str, body: &[u8]) -> Response {
    match content_type(rel) {
        ct if is_page(Path::new(rel)) => (status, [(header::CONTENT_TYPE, ct)], inject(body)),
        ct => (status, [(header::CONTENT_TYPE, ct)], body.to_vec()),
    }
    .into_response()
}

/// An HTML page, the live-reload script added.
fn page(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [ct("text/html; charset=utf-8")], inject(&body)).into_response()
}

fn is_page(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "html")
}

fn ct(v: &'static str) -> (HeaderName, &'static str) {
    (header::CONTENT_TYPE, v)
}

/// The type of a file the site is made of (those `static/` holds are `ServeFile`'s).
fn content_type(rel: &str) -> &'static str {
    match Path::new(rel).extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("xml") => "application/xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        Some("gz") => "application/gzip",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Add the live-reload script before `</body>`.
fn inject(body: &[u8]) -> Vec<u8> {
    let tag = format!("<script src=\"{SCRIPT_PATH}\" defer></script>");
    let text = String::from_utf8_lossy(body);
    match text.rfind("</body>") {
        Some(i) => format!("{}{tag}{}", &text[..i], &text[i..]).into_bytes(),
        None => format!("{text}{tag}").into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn site() -> Arc<Site> {
        Arc::new(Site {
            current: Current::default(),
            reload: Arc::new(Reload::default()),
            polls: Arc::new(Semaphore::new(MAX_POLLS)),
        })
    }

    async fn ask(app: Router, method: &str, uri: &str) -> Response {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty());
        app.oneshot(req.unwrap()).await.unwrap()
    }

    async fn json(r: Response) -> serde_json::Value {
        let body = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    #[tokio::test]
    async fn every_answer_carries_the_headers_and_only_get_and_head_are_served() {
        let app = router(site()).unwrap();
        for (method, uri, status) in [
            ("GET", SCRIPT_PATH, 200),
            ("HEAD", SCRIPT_PATH, 200),
            ("GET", "/__errbook/reload?since=", 200),
            ("GET", "/no/site/yet/", 404),
            ("GET", "//evil.example", 404),
            ("POST", "/", 405),
            ("PUT", "/page.html", 405),
            ("DELETE", RELOAD_PATH, 405),
        ] {
            let r = ask(app.clone(), method, uri).await;
            assert_eq!(r.status(), status, "{method} {uri}");
            let h = r.headers();
            let csp = h.get(header::CONTENT_SECURITY_POLICY).unwrap();
            assert!(csp.to_str().unwrap().starts_with("default-src 'none'"));
            assert!(csp.to_str().unwrap().ends_with("frame-ancestors 'none'"));
            assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
            assert_eq!(h[header::CACHE_CONTROL], "no-store");
            if status == 405 {
                assert_eq!(h[header::ALLOW], "GET,HEAD", "{method} {uri}");
            }
        }
    }

    #[tokio::test]
    async fn at_most_64_polls_wait_and_the_rest_come_back_later() {
        let site = site();
        let app = router(site.clone()).unwrap();
        let polls: Vec<_> = (0..MAX_POLLS)
            .map(|_| tokio::spawn(ask(app.clone(), "GET", "/__errbook/reload?since=0")))
            .collect();
        for _ in 0..100_000 {
            if site.polls.available_permits() == 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(site.polls.available_permits(), 0, "64 polls wait");
        let refused = ask(app.clone(), "GET", "/__errbook/reload?since=0").await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.headers()[header::RETRY_AFTER], "2");
        assert_eq!(refused.headers()[header::CONNECTION], "close");
        assert_eq!(json(refused).await["retry"], true);
        // A poll that does not wait (no `since`, or not a number) is answered all the same.
        for uri in ["/__errbook/reload", "/__errbook/reload?since=x&since=0"] {
            let now = ask(app.clone(), "GET", uri).await;
            assert_eq!(now.status(), StatusCode::OK, "{uri}");
            assert_eq!(json(now).await["generation"], 0, "{uri}");
        }
        site.reload.publish("boom".into());
        for p in polls {
            let state = json(p.await.unwrap()).await;
            assert_eq!(
                (state["generation"].as_u64(), state["errors"].as_str()),
                (Some(1), Some("boom"))
            );
        }
        assert_eq!(site.polls.available_permits(), MAX_POLLS);
    }

    #[tokio::test]
    async fn with_no_site_the_errors_are_shown_in_a_page_that_reloads() {
        let site = site();
        site.reload.publish("content/x.md:8: <bad>".into());
        let r = ask(router(site).unwrap(), "GET", "/any/page/").await;
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            r.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        let body = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        let page = String::from_utf8(body.to_vec()).unwrap();
        assert!(page.contains("content/x.md:8: &lt;bad&gt;"), "{page}");
        assert!(
            page.contains("livereload.js\" defer></script></body>"),
            "{page}"
        );
    }

    #[test]
    fn reload_script_goes_before_body_end() {
        let out = String::from_utf8(inject(b"<html><body>x</body></html>")).unwrap();
        assert!(
            out.contains("livereload.js\" defer></script></body>"),
            "{out}"
        );
    }
}
