//! `book.toml`: the site's configuration, read once at the start of every command.

use crate::core::error::{Error, IoContext, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The whole `book.toml`. Every key has a default, so an empty file is a valid configuration.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub site: SiteConfig,
    pub build: BuildConfig,
    pub search: SearchConfig,
    pub link: LinkConfig,
    pub verify: VerifyConfig,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SiteConfig {
    /// Shown in the header and the `<title>` of every page.
    pub title: String,
    pub description: String,
    /// Absolute URL the hosted site lives at (for sitemap.xml and feed.xml), e.g.
    /// `https://errors.example.org/`. Pages themselves use relative links.
    pub base_url: String,
    /// Folder under `themes/` holding templates/ and static/.
    pub theme: String,
    /// Template for "Edit this page" links; `{path}` is the source path relative to the root.
    pub edit_url: Option<String>,
    pub author: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BuildConfig {
    /// Output directory, relative to the root (`-d` overrides it).
    pub output_dir: PathBuf,
    /// Python code blocks without a language get this one for highlighting.
    pub default_code_lang: String,
    /// Where each entry's JSON goes: a file per entry, a file per domain, or nowhere.
    pub entry_json: EntryJson,
}

/// `build.entry_json`: where the API puts each entry's JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryJson {
    /// `api/errors/<domain>/<slug>.json`, one file per entry (the URLs DESIGN.md names).
    #[default]
    Files,
    /// `api/errors/<domain>.json`, one file per domain holding its entries by ID.
    Domains,
    /// No entry JSON; `api/catalog.json` and `api/links.json` stay.
    None,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Below this score a best match is reported as weak.
    pub weak_score: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinkConfig {
    /// Inferred links scoring below this are left out.
    pub threshold: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerifyConfig {
    /// Folder for verification records, relative to the root.
    pub records_dir: PathBuf,
    /// Default time limit of a run, in seconds.
    pub timeout_s: u64,
    /// Interpreter for Python snippets.
    pub python: String,
    /// How much of each GPU's memory the runs packed onto it may plan to use together: a share
    /// (`90%`), an amount (`60GiB`), or `0` for one run per GPU.
    pub gpu_mem_cap: String,
    /// GPU memory a run is taken to use when it declares none and no record measured it.
    pub gpu_mem_default: String,
}

impl Default for SiteConfig {
    fn default() -> Self {
        SiteConfig {
            title: "Error catalog".into(),
            description: String::new(),
            base_url: "http://127.0.0.1:3000/".into(),
            theme: "default".into(),
            edit_url: None,
            author: String::new(),
        }
    }
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            output_dir: PathBuf::from("book"),
            default_code_lang: "text".into(),
            entry_json: EntryJson::default(),
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig { weak_score: 0.35 }
    }
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig { threshold: 0.6 }
    }
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            records_dir: PathBuf::from("verify"),
            timeout_s: 300,
            python: "python3".into(),
            gpu_mem_cap: "90%".into(),
            gpu_mem_default: "4GiB".into(),
        }
    }
}

impl Config {
    /// Read `<root>/book.toml`; a missing file is an error (it marks the site root).
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join("book.toml");
        let text = std::fs::read_to_string(&path).at(&path)?;
        Self::parse(&text, &path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let mut cfg: Config = toml::from_str(text).map_err(|e| Error::Config {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        if !cfg.site.base_url.ends_with('/') {
            cfg.site.base_url.push('/');
        }
        Ok(cfg)
    }

    pub fn theme_dir(&self, root: &Path) -> PathBuf {
        root.join("themes").join(&self.site.theme)
    }

    /// Refuse an output folder that a build would destroy something in: one that is or holds
    /// the site's root, or is, holds or lies inside what a build reads (content, theme, static
    /// files, verification records) or the repository's `.git`. A build replaces its output
    /// folder whole, so `output_dir = "content"` would otherwise delete the sources. Paths are
    /// compared with links resolved, so no spelling (`./content/../content`, a symlink) slips by.
    pub fn check_output(&self, root: &Path, dest: &Path) -> Result<()> {
        let out = resolved(dest);
        let refuse = |why: String| {
            Err(Error::OutputDir {
                path: dest.to_path_buf(),
                why,
            })
        };
        let site = resolved(root);
        if site.starts_with(&out) {
            return refuse(format!(
                "it is or holds the site's root ({}); choose a folder of its own, like `book`",
                site.display()
            ));
        }
        let read = [
            ("the content", root.join("content")),
            ("the theme", self.theme_dir(root)),
            ("the static files", root.join("static")),
            (
                "the verification records",
                root.join(&self.verify.records_dir),
            ),
            ("the repository", root.join(".git")),
        ];
        for (what, p) in read {
            let p = resolved(&p);
            if p.starts_with(&out) || out.starts_with(&p) {
                return refuse(format!(
                    "it is, holds or lies inside {what} ({}), which a build reads",
                    p.display()
                ));
            }
        }
        Ok(())
    }
}

/// `p` made absolute with every link resolved, as far as it exists; the rest of it appended
/// with `.` and `..` taken away.
fn resolved(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut existing = abs.as_path();
    let mut rest = Vec::new();
    let base = loop {
        if let Ok(real) = existing.canonicalize() {
            break real;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break existing.to_path_buf(),
        }
    };
    let mut out = base;
    for part in rest.iter().rev() {
        if part == ".." {
            out.pop();
        } else if part != "." {
            out.push(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_config_is_valid() {
        let c = Config::parse("", Path::new("book.toml")).unwrap();
        assert_eq!(c.build.output_dir, PathBuf::from("book"));
    }

    #[test]
    fn output_folders_that_would_destroy_sources_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("site");
        for d in [
            "content/errors",
            "themes/default",
            "verify",
            "static",
            ".git",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("content"), root.join("alias")).unwrap();
        let cfg = Config::default();
        for bad in [
            "content",
            "content/errors",
            "content/new",
            "./content/../content/x",
            "themes",
            "themes/default/static",
            "verify",
            "static",
            ".git/book",
            ".",
            "..",
        ] {
            let e = cfg.check_output(&root, &root.join(bad));
            assert!(matches!(e, Err(Error::OutputDir { .. })), "{bad}: {e:?}");
        }
        #[cfg(unix)]
        assert!(cfg.check_output(&root, &root.join("alias/x")).is_err());
        for good in ["book", "public/site", "../elsewhere"] {
            cfg.check_output(&root, &root.join(good))
                .unwrap_or_else(|e| panic!("{good}: {e}"));
        }
    }

    #[test]
    fn unknown_key_is_rejected() {
        let e = Config::parse("[site]\ntitel = 'x'\n", Path::new("book.toml")).unwrap_err();
        assert!(e.to_string().contains("titel"), "{e}");
    }
}
