//! `check --external` against a real HTTP server on loopback: a page that is there passes, one
//! that answers 404 is an error at the line of its link, a host that refuses connections is an
//! error, a 503 is only a warning; a second run asks nothing for the links that answered.

use crate::common::errbook;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A tiny HTTP/1.1 server: `/ok` 200, `/busy` 503, anything else 404; counts requests to `/ok`.
fn serve() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    std::thread::spawn(move || {
        for conn in l.incoming() {
            let Ok(mut s) = conn else { continue };
            let mut line = String::new();
            let mut r = BufReader::new(s.try_clone().unwrap());
            if r.read_line(&mut line).is_err() {
                continue;
            }
            loop {
                let mut hdr = String::new();
                if r.read_line(&mut hdr).unwrap_or(0) == 0 || hdr == "\r\n" {
                    break;
                }
            }
            let path = line.split_whitespace().nth(1).unwrap_or("");
            let status = match path {
                "/ok" => {
                    h.fetch_add(1, Ordering::SeqCst);
                    "200 OK"
                }
                "/busy" => "503 Service Unavailable",
                _ => "404 Not Found",
            };
            let _ = write!(
                s,
                "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    (port, hits)
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn broken_links_out_are_errors_at_their_line_and_answers_are_cached() {
    let (port, hits) = serve();
    let dead = closed_port();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    crate::common::init(&dir);
    let art = dir.join(crate::common::INIT_ARTICLE);
    let mut text = std::fs::read_to_string(&art).unwrap();
    text.push_str(&format!(
        "\nSee [the docs](http://127.0.0.1:{port}/ok),\n[a moved page](http://127.0.0.1:{port}/gone),\n[a busy one](http://127.0.0.1:{port}/busy) and [nowhere](http://127.0.0.1:{dead}/x).\n"
    ));
    std::fs::write(&art, text).unwrap();

    let run = || {
        errbook()
            .arg("--root")
            .arg(&dir)
            .args(["check", "--external"])
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let o = run();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    let rel = "content/articles/why-does-my-recursive-function-fail.md";
    assert!(
        err.contains(&format!("error[E-external-link]: {rel}:40:16: the link `http://127.0.0.1:{port}/gone` answered 404")),
        "{err}"
    );
    assert!(
        err.contains(&format!("`http://127.0.0.1:{dead}/x` could not be reached")),
        "{err}"
    );
    assert!(
        err.contains(&format!("warning[W-external-link]: {rel}:41:")),
        "{err}"
    );
    assert!(
        !err.contains("/ok`"),
        "the page that is there passes: {err}"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);

    // The second run trusts the cached answer for /ok and asks again for the others.
    let o = run();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "a link that answered is not asked again"
    );
    assert!(dir.join(".errbook-cache/links.json").is_file());

    // Without --external, nothing is fetched.
    let o = errbook()
        .arg("--root")
        .arg(&dir)
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
