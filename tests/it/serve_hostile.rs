//! `errbook serve` against hostile clients and a hostile `static/` folder: hundreds of waiting
//! live-reload polls, thousands of idle and half-open connections, a symbolic link out of
//! `static/`, a `//host` path. Page loads must keep being answered (each request here has a 5 s
//! limit, against the 22 s that 600 polls used to cost), idle connections must be closed, and
//! nothing outside the site and `static/` may be read or redirected to.

use crate::serve::{get, start};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

const PAGES: &[&str] = &[
    "/",
    "/errors/",
    "/errors/pytorch/cuda-oom/",
    "/search/",
    "/theme/style.css",
];

/// A page must come within this; the server's own limits are what is tested, not its speed.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

fn site() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let site = crate::search_cli::site_copy(tmp.path());
    (tmp, site)
}

fn get_soon(url: &str) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(ANSWER_WITHIN))
        .build()
        .into();
    let r = agent.get(url).call();
    let r = r.unwrap_or_else(|e| panic!("{url} was not answered within {ANSWER_WITHIN:?}: {e}"));
    r.status().as_u16()
}

/// Send `request` as it is on a new connection; the raw answer (up to `limit` bytes).
fn raw(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(ANSWER_WITHIN)).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut buf = vec![0; 4096];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

fn generation(base: &str) -> u64 {
    let (_, body) = get(&format!("{base}/__errbook/reload"));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["generation"].as_u64().unwrap()
}

/// Open file descriptors of process `pid`.
fn fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

#[test]
fn six_hundred_waiting_pages_do_not_starve_page_loads() {
    let (_tmp, site) = site();
    let (_server, base) = start(&site);
    let addr = base.trim_start_matches("http://").to_string();
    let gen = generation(&base);
    let polls: Vec<TcpStream> = (0..600)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            let req = format!("GET /__errbook/reload?since={gen} HTTP/1.1\r\nHost: x\r\n\r\n");
            s.write_all(req.as_bytes()).unwrap();
            s
        })
        .collect();
    for page in PAGES {
        assert_eq!(get_soon(&format!("{base}{page}")), 200, "{page}");
    }
    // At most 64 wait; the others were told at once to come back later, and closed.
    let (mut waiting, mut refused) = (0, 0);
    for mut s in polls {
        s.set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        let mut buf = [0u8; 256];
        match s.read(&mut buf) {
            Ok(n) if String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 503") => refused += 1,
            Ok(n) => panic!("unexpected answer: {}", String::from_utf8_lossy(&buf[..n])),
            Err(_) => waiting += 1,
        }
    }
    assert!(waiting <= 64, "{waiting} polls wait");
    assert_eq!(waiting + refused, 600);
}

#[test]
fn idle_and_half_open_connections_are_closed_and_never_crowd_out_pages() {
    let (_tmp, site) = site();
    let (server, base) = start(&site);
    let addr = base.trim_start_matches("http://").to_string();
    let mut idle: Vec<TcpStream> = (0..1500)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    // Half-open: a request head begun and never finished.
    for _ in 0..100 {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
        idle.push(s);
    }
    for page in PAGES {
        assert_eq!(get_soon(&format!("{base}{page}")), 200, "{page}");
    }
    let open = fds(server.0.id());
    assert!(open < 700, "the server holds {open} file descriptors");
    // Past the 5 s allowed for a request head, every one of them is closed.
    std::thread::sleep(Duration::from_secs(7));
    for (i, s) in idle.iter_mut().enumerate() {
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut buf = [0u8; 64];
        match s.read(&mut buf) {
            Ok(0) | Err(_) => {}
            Ok(n) => assert!(
                String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 408"),
                "connection {i} got {}",
                String::from_utf8_lossy(&buf[..n])
            ),
        }
        // Closed: a read at its end says so at once, it does not wait.
        let mut more = [0u8; 64];
        assert!(
            matches!(s.read(&mut more), Ok(0) | Err(_)),
            "connection {i} is still open"
        );
    }
    assert_eq!(get_soon(&format!("{base}/")), 200);
}

#[test]
fn links_out_of_static_and_other_hosts_are_refused() {
    let (tmp, site) = site();
    let (_server, base) = start(&site);
    let addr = base.trim_start_matches("http://").to_string();
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "the password").unwrap();
    // `static/` is the one folder served from disk, as it is.
    let out = site.join("static");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&secret, out.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink("/etc", out.join("etc")).unwrap();
    for path in ["/leak.txt", "/etc/passwd", "/etc/hostname"] {
        let (status, body) = get(&format!("{base}{path}"));
        assert_eq!(status, 404, "{path}");
        assert!(
            !body.contains("the password") && !body.contains("root:"),
            "{path}"
        );
    }
    // A folder asked without its slash is redirected relatively, whatever the path's slashes.
    for (path, to) in [
        ("//errors", "./errors/"),
        ("///errors?q=1", "./errors/?q=1"),
        ("/errors", "./errors/"),
    ] {
        let answer = raw(
            &addr,
            &format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        );
        assert!(answer.starts_with("HTTP/1.1 301"), "{path}: {answer}");
        let location = answer
            .lines()
            .find_map(|l| {
                l.strip_prefix("location: ")
                    .or_else(|| l.strip_prefix("Location: "))
            })
            .unwrap_or_else(|| panic!("{path}: no Location in {answer}"));
        assert_eq!(location.trim(), to, "{path}");
    }
    // Every answer carries the CSP.
    let answer = raw(
        &addr,
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("content-security-policy: default-src 'none'"),
        "{answer}"
    );
}
