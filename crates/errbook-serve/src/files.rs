//! Where a URL path leads in the served site: a file made from the workspace's snapshot, a folder
//! of it asked without its `/`, or a file of the site's `static/` folder on disk. No maintained
//! crate does this part for us: the site's files are made in memory (`errbook_site::Snapshot`),
//! not read from a folder, and tower-http's `ServeDir` follows symbolic links out of its folder
//! and redirects `//host` to `//host/` (another host, for a browser).
//!
//! What a hostile client or a hostile file in `static/` cannot do here: read outside it (`..`,
//! encoded or not, and symbolic links that lead out are refused after resolving them), or be
//! redirected to another host (a folder's redirect is relative, `./name/`).

use errbook_site::Snapshot;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// What a URL path names.
#[derive(Debug)]
pub(super) enum Resolved {
    /// A file made from the catalog: its path in the site and its bytes.
    Made(String, Arc<Vec<u8>>),
    /// A file of `static/`, its links resolved.
    File(PathBuf),
    /// A folder asked without its `/`: where to send the browser (relative).
    Redirect(String),
    /// The file could not be made (a bug, or a template that fails on this content).
    Failed(String),
    NotFound,
}

/// What `url_path` is in the site of `s`: a file made from the catalog, a folder of pages asked
/// without its `/`, or a file of `static/`.
pub(super) fn lookup(s: &Snapshot, url_path: &str) -> Resolved {
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

/// Map a URL path to a file under `root`, refusing anything that would leave it: `..` and
/// absolute parts, and symbolic links whose target lies outside.
pub(super) fn resolve(root: &Path, url_path: &str) -> Resolved {
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

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
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
        assert_eq!(site_path("/a/%2e%2e/%2e%2e/x"), None);
        assert_eq!(site_path("//a/./b/").as_deref(), Some("a/b"));
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
}
