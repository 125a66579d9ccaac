//! `book.toml`: the site's configuration, read once at the start of every command.

mod located;
mod values;

pub use values::{parse_mib, GpuFlag, MemCap, Mib, SandboxKind};

use crate::error::{Error, IoContext, Result};
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
    /// `api/errors/<domain>/<slug>.json`, one file per entry: twice the files of the pages,
    /// over Cloudflare Pages' 20,000 files at 10,000 entries.
    Files,
    /// `api/errors/<domain>.json`, one file per domain holding its entries by ID (the default:
    /// about 1.07 files a page, so that a site fits the hosts that count files).
    #[default]
    Domains,
    /// No entry JSON; `api/catalog.json` and `api/links.json` stay.
    None,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Below this score a best match is reported as weak.
    pub weak_score: f64,
    /// The site's answers are the whole index's, to the bit (the default). `false`: a page
    /// reads a common word's first file of tiers only and ranks by what it read, which on a
    /// catalog of a million entries is about a third of the first query's files and time, and
    /// may order the best entries otherwise (`errbook search` is always exact).
    pub exact: bool,
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
    #[serde(deserialize_with = "values::from_text")]
    pub gpu_mem_cap: MemCap,
    /// GPU memory a run is taken to use when it declares none and no record measured it.
    pub gpu_mem_default: Mib,
    /// How runs are contained: `bwrap` (bubblewrap) or `none`.
    pub sandbox: SandboxKind,
    /// The bubblewrap binary: a path, or a name on `PATH` (default `bwrap`).
    pub bwrap: Option<PathBuf>,
    /// Memory a run may use (`16G`, `512M`); default: half of the host's memory.
    pub memory_limit: Option<Mib>,
    /// Tasks (processes and threads) a run may have at once.
    pub tasks_limit: Option<u64>,
    /// Variables of errbook's environment passed to every run, by name (values redacted from
    /// records).
    pub keep_env: Vec<String>,
    /// Folders runs may read although they are hidden in the sandbox (a model cache under a
    /// home folder); `~/` is the home folder.
    pub sandbox_bind: Vec<String>,
    pub ssh: SshConfig,
    pub slurm: SlurmConfig,
}

/// `[verify.ssh]`: how `--runner ssh://host` reaches hosts.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SshConfig {
    /// The ssh command (split like a shell would: `ssh -F ci/ssh_config`).
    pub command: String,
    /// The errbook binary copied to hosts (default: the one running); a portable build for
    /// hosts whose system is older than this one.
    pub errbook: Option<PathBuf>,
    /// Where errbook is copied on a host, relative to the home folder there.
    pub remote_dir: String,
}

/// `[verify.slurm]`: how `--runner slurm` submits.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlurmConfig {
    pub partition: Option<String>,
    pub account: Option<String>,
    pub qos: Option<String>,
    /// More `sbatch` flags, each a word (`--constraint=h100`, `--mem=64G`).
    pub flags: Vec<String>,
    /// How tasks ask for GPUs: `gres` (`--gres=gpu:N`) or `gpus` (`--gpus=N`).
    pub gpu_flag: GpuFlag,
    /// A folder every node sees (programs, results, errbook itself); relative to the root.
    /// Default: `.errbook/slurm` in the catalog.
    pub shared_dir: Option<PathBuf>,
    /// Seconds between looks at the queue (default 5).
    pub poll_s: Option<f64>,
    /// The errbook binary the nodes run (default: the one running), copied to the shared folder.
    pub errbook: Option<PathBuf>,
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
        SearchConfig {
            weak_score: 0.35,
            exact: true,
        }
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
            gpu_mem_cap: MemCap::default(),
            gpu_mem_default: Mib(4096),
            sandbox: SandboxKind::default(),
            bwrap: None,
            memory_limit: None,
            tasks_limit: None,
            keep_env: Vec::new(),
            sandbox_bind: Vec::new(),
            ssh: SshConfig::default(),
            slurm: SlurmConfig::default(),
        }
    }
}

impl Default for SshConfig {
    fn default() -> Self {
        SshConfig {
            command: "ssh".into(),
            errbook: None,
            remote_dir: ".cache/errbook".into(),
        }
    }
}

impl Config {
    /// Read `<root>/book.toml`; a missing file is an error (it marks the site root).
    /// Read `<root>/book.toml`; a missing file is `Error::NoSite` (it marks the site root).
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join("book.toml");
        if !path.is_file() {
            return Err(Error::no_site(root));
        }
        let text = std::fs::read_to_string(&path).at(&path)?;
        // As users see it: `book.toml` in the current folder, `site/book.toml` under `--root`.
        let shown = path.strip_prefix(".").unwrap_or(&path);
        Self::parse(&text, shown)
    }

    pub(crate) fn parse(text: &str, path: &Path) -> Result<Config> {
        let mut cfg: Config = toml::from_str(text).map_err(|e| located::error(text, path, &e))?;
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
    fn runners_and_the_sandbox_are_configured_under_verify() {
        let text = "[verify]\nsandbox = 'none'\nmemory_limit = '4G'\nkeep_env = ['HF_TOKEN']\n\n[verify.slurm]\npartition = 'gpu'\nflags = ['--mem=64G']\n\n[verify.ssh]\ncommand = 'ssh -F x'\n";
        let c = Config::parse(text, Path::new("book.toml")).unwrap();
        assert_eq!(c.verify.sandbox, SandboxKind::None);
        assert_eq!(c.verify.memory_limit, Some(Mib(4096)));
        assert_eq!(c.verify.slurm.partition.as_deref(), Some("gpu"));
        assert_eq!(c.verify.slurm.flags, ["--mem=64G"]);
        assert_eq!(c.verify.ssh.command, "ssh -F x");
        assert_eq!(c.verify.ssh.remote_dir, ".cache/errbook");
        let e = Config::parse("[verify.slurm]\npartion = 'x'\n", Path::new("book.toml"));
        assert!(e.unwrap_err().to_string().contains("partion"));
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
    fn typed_values_are_read_and_defaulted() {
        let c = Config::parse("", Path::new("book.toml")).unwrap();
        let v = &c.verify;
        assert_eq!(
            (v.sandbox, v.gpu_mem_cap, v.gpu_mem_default, v.memory_limit),
            (SandboxKind::Bwrap, MemCap::Share(0.9), Mib(4096), None)
        );
        assert_eq!(v.slurm.gpu_flag, GpuFlag::Gres);
        let text = "[verify]\nsandbox = 'bubblewrap'\ngpu_mem_cap = '60GiB'\ngpu_mem_default = '1.5G'\n\n[verify.slurm]\ngpu_flag = 'gpus'\n";
        let v = Config::parse(text, Path::new("book.toml")).unwrap().verify;
        assert_eq!(
            (
                v.sandbox,
                v.gpu_mem_cap,
                v.gpu_mem_default,
                v.slurm.gpu_flag
            ),
            (
                SandboxKind::Bwrap,
                MemCap::Mib(61_440),
                Mib(1536),
                GpuFlag::Gpus
            )
        );
        let zero = Config::parse("[verify]\ngpu_mem_cap = '0'\n", Path::new("book.toml"));
        assert_eq!(zero.unwrap().verify.gpu_mem_cap, MemCap::Mib(0));
    }

    #[test]
    fn a_wrong_value_names_its_key_and_what_is_accepted() {
        for (text, key, accepted) in [
            (
                "[verify]\nsandbox = 'docker'\n",
                "sandbox",
                &["`bwrap`", "`none`"][..],
            ),
            (
                "[verify.slurm]\ngpu_flag = 'gpu'\n",
                "gpu_flag",
                &["`gres`", "`gpus`"],
            ),
            (
                "[verify]\ngpu_mem_cap = '150%'\n",
                "gpu_mem_cap",
                &["`90%`", "`60GiB`", "`0`"],
            ),
            (
                "[verify]\ngpu_mem_default = 'lots'\n",
                "gpu_mem_default",
                &["`4GiB`"],
            ),
            (
                "[verify]\nmemory_limit = '16 parsecs'\n",
                "memory_limit",
                &["`16G`", "`512M`"],
            ),
            (
                "[build]\nentry_json = 'some'\n",
                "entry_json",
                &["`files`", "`domains`", "`none`"],
            ),
        ] {
            let e = Config::parse(text, Path::new("site/book.toml")).unwrap_err();
            let Error::Config {
                ref path,
                ref message,
                ref diag,
            } = e
            else {
                panic!("{text}: {e:?}")
            };
            assert_eq!(path, Path::new("site/book.toml"));
            assert_eq!(diag.line, 2, "{key}: {message}");
            let shown = diag.render(false);
            assert!(shown.contains(&format!("{key} = ")), "{key}: {shown}");
            for a in accepted {
                assert!(message.contains(a), "{key}, {a}: {message}");
            }
        }
    }

    #[test]
    fn unknown_key_is_rejected() {
        let e = Config::parse("[site]\ntitel = 'x'\n", Path::new("book.toml")).unwrap_err();
        assert!(e.to_string().contains("titel"), "{e}");
    }
}
