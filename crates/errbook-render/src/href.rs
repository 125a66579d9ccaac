//! The shortest relative link from a page to a site path: from `errors/numpy/x/` to
//! `errors/jax/y/` it is `../../jax/y/`, where `core::urls::href` goes back to the root first
//! (`../../../errors/jax/y/`). Pages link to their neighbours most (related errors, the entries
//! of a list), so each such link is shorter; links to the root's files stay as they were.

/// A relative link from the page at site path `from` to site path `to`, as
/// `core::urls::href` gives it (`index.html` added for folders in offline bundles, `./` for
/// the page itself), without going up past the folders both paths share.
pub(crate) fn href(from: &str, to: &str, offline: bool) -> String {
    let odd = |p: &str| {
        p.starts_with('/') || p.contains("//") || p.split('/').any(|s| s == "." || s == "..")
    };
    if odd(from) || odd(to) {
        return errbook_core::urls::href(from, to, offline);
    }
    let (here, there) = (folders(from), folders(to));
    let shared = here.iter().zip(&there).take_while(|(a, b)| a == b).count();
    let skip: usize = there[..shared].iter().map(|s| s.len() + 1).sum();
    let mut s = "../".repeat(here.len() - shared);
    s.push_str(&to[skip..]);
    if offline && (to.is_empty() || to.ends_with('/')) {
        s.push_str("index.html");
    } else if s.is_empty() {
        s.push_str("./");
    }
    s
}

/// The folders of a site path: all of `errors/x/` (a page), all but the file of `api/a.json`.
fn folders(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop(); // after the last `/`: the file's name, or "" for a folder
    parts
}

#[cfg(test)]
mod tests {
    use super::href;

    #[test]
    fn links_go_up_only_as_far_as_needed() {
        let e = "errors/numpy/x/";
        assert_eq!(href(e, "errors/jax/y/", false), "../../jax/y/");
        assert_eq!(href(e, "errors/numpy/z/", false), "../z/");
        assert_eq!(href(e, "domains/numpy/", false), "../../../domains/numpy/");
        assert_eq!(href(e, "", false), "../../../");
        assert_eq!(href(e, "", true), "../../../index.html");
        assert_eq!(href(e, e, false), "./");
        assert_eq!(href(e, "errors/numpy/x/#fix", false), "#fix");
        assert_eq!(
            href(e, "theme/style.css", false),
            "../../../theme/style.css"
        );
        assert_eq!(href("errors/", "errors/a/b/", true), "a/b/index.html");
        assert_eq!(href("", "errors/a/b/", false), "errors/a/b/");
        assert_eq!(href("404.html", "search/", false), "search/");
        assert_eq!(href("errors/", "errors/", false), "./");
        assert_eq!(href("search/", "search/?q=a/b", false), "?q=a/b");
        // Whatever `core::urls::href` gives, this resolves to the same place.
        for (from, to) in [
            ("articles/a/", "errors/p/s/"),
            ("errors/a/b/", "articles/c/"),
        ] {
            assert_eq!(
                href(from, to, true),
                errbook_core::urls::href(from, to, true)
            );
        }
    }
}
