//! `errbook new error DOMAIN/SLUG` and `errbook new article ID`: write a new content file from a
//! template (src/cmd/new/*.md) that `check` accepts as it is, ready to edit. Never overwrites.
//! Exit 0 when written, 1 when the file exists, 2 for an invalid ID.

use errbook_core::PageKind;
use errbook_core::Result;
use errbook_scaffold::NewPage;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path, kind: &str, id: &str) -> Result<ExitCode> {
    if !root.join("book.toml").is_file() {
        return Err(errbook_core::Error::no_site(root));
    }
    let kind = if kind == "error" {
        PageKind::Entry
    } else {
        PageKind::Article
    };
    let today = chrono::Local::now().date_naive();
    let shown = |rel: &Path| {
        if root == Path::new(".") {
            rel.to_path_buf()
        } else {
            root.join(rel)
        }
    };
    let shown = match errbook_scaffold::new_page(root, kind, id, today)? {
        NewPage::Written(rel) => shown(&rel),
        NewPage::Exists(rel) => {
            eprintln!(
                "error: {} already exists; errbook new does not overwrite files\n  help: edit that file, or choose another ID",
                shown(&rel).display()
            );
            return Ok(ExitCode::from(1));
        }
        NewPage::BadId(b) => {
            // A usage error, like clap's: exit 2.
            eprintln!("error: {}\n  help: {}", b.message, b.hint);
            return Ok(ExitCode::from(2));
        }
    };
    println!("{}", shown.display());
    eprintln!("`errbook serve` shows it as you edit; `errbook check` lists what is wrong");
    Ok(ExitCode::SUCCESS)
}
