//! `errbook init`: a new catalog that the binary alone builds (no repository files: the binary
//! is run from a copy in a temporary folder), checks clean, and refuses to write over itself;
//! a site's theme template overrides that one template of the embedded theme.

use crate::common::files;
use std::path::Path;
use std::process::Command;

/// The binary, copied away from the repository, run in `dir`. Running a file just written can
/// fail with "Text file busy" for a moment: a child another test forks in between inherits the
/// copy's open descriptor until it executes, so that error is waited out.
fn bare(bin_dir: &Path, dir: &Path, args: &[&str]) -> std::process::Output {
    let bin = bin_dir.join("errbook");
    if !bin.exists() {
        std::fs::copy(env!("CARGO_BIN_EXE_errbook"), &bin).unwrap();
    }
    for _ in 0..100 {
        match Command::new(&bin).current_dir(dir).args(args).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
    panic!("{} stayed busy for 2 s", bin.display());
}

#[test]
fn a_new_catalog_builds_with_the_binary_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (bins, work) = (tmp.path().join("bin"), tmp.path().join("work"));
    std::fs::create_dir_all(&bins).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let o = bare(&bins, &work, &["init", "catalog"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cat = work.join("catalog");
    assert!(cat.join("book.toml").is_file());

    let o = bare(&bins, &cat, &["check"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("check: ok"), "{err}");

    let o = bare(&bins, &cat, &["build"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = files(&cat.join("book"));
    for want in [
        "index.html",
        "errors/python/recursion-depth-exceeded/index.html",
        "articles/why-does-my-recursive-function-fail/index.html",
        "theme/style.css",
        "theme/favicon.svg",
        "search/m.json",
    ] {
        assert!(out.iter().any(|f| f == want), "{want} missing: {out:?}");
    }

    // A second init does not write over the catalog.
    let o = bare(&bins, &cat, &["init"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
}

#[test]
fn a_site_template_overrides_only_that_template() {
    let tmp = tempfile::tempdir().unwrap();
    let (bins, cat) = (tmp.path().join("bin"), tmp.path().join("cat"));
    std::fs::create_dir_all(&bins).unwrap();
    assert!(bare(&bins, tmp.path(), &["init", "cat"]).status.success());
    let t = cat.join("themes/default/templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(
        t.join("404.html"),
        "{% extends \"base.html\" %}{% block content %}<p>OUR OWN 404</p>{% endblock %}",
    )
    .unwrap();
    let s = cat.join("themes/default/static");
    std::fs::create_dir_all(&s).unwrap();
    std::fs::write(s.join("extra.css"), "p{}").unwrap();
    let o = bare(&bins, &cat, &["build"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = cat.join("book");
    let nf = std::fs::read_to_string(out.join("404.html")).unwrap();
    assert!(nf.contains("OUR OWN 404"), "{nf}");
    assert!(
        nf.contains("theme/style.css"),
        "the base template is still the theme's"
    );
    let entry =
        std::fs::read_to_string(out.join("errors/python/recursion-depth-exceeded/index.html"))
            .unwrap();
    assert!(entry.contains("Workarounds"), "other templates unchanged");
    assert!(out.join("theme/extra.css").is_file());
    assert!(out.join("theme/site.js").is_file());
}
