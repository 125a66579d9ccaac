//! Synthetic catalogs for the benchmark: N entries and M articles drawn from a seeded generator
//! (same arguments, same bytes), written as an errbook catalog, a Hugo site, a Zola site and an
//! mdBook with the same Markdown pages.

use super::writer::Writer;
use super::{articles, entries, hugo, mdbook, zola, IoContext, Result};
use std::path::Path;

/// Which sites to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    Errbook,
    Hugo,
    Zola,
    Mdbook,
}

/// The generated content, before it is written anywhere.
pub(crate) struct Synth {
    pub(crate) entries: Vec<entries::GenEntry>,
    pub(crate) articles: Vec<articles::GenArticle>,
}

/// Draw `n` entries and `m` articles from `seed` (articles as the catalog writes them, with no
/// annotation, under `as_written`).
pub(crate) fn generate(n: usize, m: usize, seed: u64, as_written: bool) -> Synth {
    let mut rng = fastrand::Rng::with_seed(seed);
    let entries = entries::generate(&mut rng, n);
    let articles = articles::generate(&mut rng, m, &entries, as_written);
    Synth { entries, articles }
}

const BOOK_TOML: &str = r#"# A synthetic catalog written by `errbook-synth` for the benchmark.
[site]
title = "Synthetic error catalog"
description = "Generated error entries and articles for benchmarking errbook against Hugo and mdBook."
base_url = "https://bench.example.org/"

[build]
output_dir = "book"
"#;

impl Synth {
    /// The errbook catalog: book.toml, content/, and a copy of `theme` as themes/default.
    pub(crate) fn write_errbook(&self, dir: &Path, theme: &Path) -> Result<()> {
        let w = Writer::new(dir.to_path_buf());
        w.put("book.toml", BOOK_TOML)?;
        for e in &self.entries {
            w.put(
                &format!("content/errors/{}/{}.md", e.domain, e.slug),
                &e.errbook_file(),
            )?;
        }
        for a in &self.articles {
            w.put(&format!("content/articles/{}.md", a.id), &a.errbook_file())?;
        }
        copy_tree(theme, &dir.join("themes/default"))
    }

    pub(crate) fn write_hugo(&self, dir: &Path) -> Result<()> {
        hugo::write(
            &Writer::new(dir.to_path_buf()),
            &self.entries,
            &self.articles,
        )
    }

    pub(crate) fn write_zola(&self, dir: &Path) -> Result<()> {
        zola::write(
            &Writer::new(dir.to_path_buf()),
            &self.entries,
            &self.articles,
        )
    }

    pub(crate) fn write_mdbook(&self, dir: &Path) -> Result<()> {
        mdbook::write(
            &Writer::new(dir.to_path_buf()),
            &self.entries,
            &self.articles,
        )
    }
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for ent in walkdir::WalkDir::new(from).sort_by_file_name() {
        let ent = ent.map_err(|e| format!("{}: {e}", from.display()))?;
        let rel = ent.path().strip_prefix(from).unwrap_or(ent.path());
        let dest = to.join(rel);
        if ent.file_type().is_dir() {
            std::fs::create_dir_all(&dest).at(&dest)?;
        } else if ent.file_type().is_file() {
            std::fs::copy(ent.path(), &dest).at(&dest)?;
        }
    }
    Ok(())
}
