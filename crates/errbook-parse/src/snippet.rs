//! Snippets: the fenced code blocks of a page and the run attributes in their info strings.
//!
//! Syntax (documented in docs/formats.md): the first word is the language, so GitHub and other
//! renderers show a plain Python block; errbook reads the words after it:
//!
//! ```text
//! ```python run expect=RuntimeError match="Cannot re-initialize CUDA" gpus=1 timeout=120 id=ex1
//! ```python run after=ex1                  # continues block `ex1` of the same page
//! ```python run env=MASTER_ADDR=127.0.0.1  # a variable for the run (repeatable)
//! ```python run network                    # the run may use the network (sandboxed runs have none)
//! ```python run needs=torch,numpy gpu_mem=2GiB   # modules it imports; GPU memory it uses
//! ```
//!
//! Lines starting with `#@ ` run but are hidden on the site (setup the article elides).

// `gpu_mem=`: an amount of memory as book.toml writes one (`2GiB`, `1.5G`, `500M`).
use errbook_core::config::parse_mib;
use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use errbook_core::model::{Claim, RunSpec, Snippet};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// Marker of a hidden setup line.
pub const HIDDEN_PREFIX: &str = "#@";

/// The attribute keys errbook reads, for "did you mean" hints and the editor's completion.
pub const KEYS: &[&str] = &[
    "run",
    "norun",
    "expect",
    "match",
    "gpus",
    "env",
    "timeout",
    "id",
    "after",
    "interpreter",
    "network",
    "needs",
    "gpu_mem",
];

/// A fenced block as found in the source, before attributes are read.
#[derive(Debug, Clone)]
pub(crate) struct RawBlock {
    /// Byte range of the whole block (fences included) in the file.
    pub range: Range<usize>,
    pub info: String,
    pub content: String,
    pub label: Option<String>,
}

pub fn markdown_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
}

/// Every code block of `text[from..to]`, with byte ranges in `text`, and the nearest preceding
/// label: a heading, or a paragraph that is only bold text ("**Example 1: ...**").
pub(crate) fn collect_blocks(text: &str, from: usize, to: usize) -> Vec<RawBlock> {
    let body = &text[from..to];
    let mut out = Vec::new();
    let mut label: Option<String> = None;
    let mut cur: Option<RawBlock> = None;
    // Label candidate being read: text of a heading, or of a paragraph.
    let mut reading: Option<(String, bool)> = None; // (text, only_bold_so_far)
    let mut in_strong = 0;
    for (ev, r) in Parser::new_ext(body, markdown_options()).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(i) => i.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                cur = Some(RawBlock {
                    range: from + r.start..from + r.end,
                    info,
                    content: String::new(),
                    label: label.clone(),
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(b) = cur.take() {
                    out.push(b);
                }
            }
            Event::Text(t) if cur.is_some() => {
                if let Some(b) = cur.as_mut() {
                    b.content.push_str(&t)
                }
            }
            Event::Start(Tag::Heading { level, .. }) if level != HeadingLevel::H1 => {
                reading = Some((String::new(), true))
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((t, _)) = reading.take() {
                    label = Some(t.trim().to_string());
                }
            }
            Event::Start(Tag::Paragraph) => reading = Some((String::new(), true)),
            Event::End(TagEnd::Paragraph) => {
                if let Some((t, only_bold)) = reading.take() {
                    if only_bold && !t.trim().is_empty() {
                        label = Some(t.trim().trim_end_matches(':').trim().to_string());
                    }
                }
            }
            Event::Start(Tag::Strong) => in_strong += 1,
            Event::End(TagEnd::Strong) => in_strong -= 1,
            Event::Text(t) | Event::Code(t) => {
                if let Some((s, only_bold)) = reading.as_mut() {
                    s.push_str(&t);
                    if in_strong == 0 && !t.trim().is_empty() {
                        *only_bold = false;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Turn a raw block into a `Snippet`, reading its attributes; problems go to `diags`.
pub(crate) fn to_snippet(
    index: usize,
    raw: &RawBlock,
    path: &Path,
    src: &Arc<str>,
    default_timeout: u64,
    diags: &mut Diagnostics,
) -> Snippet {
    let (line, _) = errbook_core::diag::line_col_in(src, raw.range.start);
    let mut words = raw.info.split_whitespace();
    let lang = words.next().unwrap_or("").to_string();
    // Offset of the info string's attributes on the fence line, for diagnostics.
    let fence_line_end = src[raw.range.start..]
        .find('\n')
        .map(|i| raw.range.start + i)
        .unwrap_or(src.len());
    let fence_line = &src[raw.range.start..fence_line_end];
    let attrs_text = raw
        .info
        .trim_start()
        .strip_prefix(lang.as_str())
        .unwrap_or("")
        .trim();
    let attr_offset = fence_line
        .find(attrs_text)
        .map(|i| raw.range.start + i)
        .unwrap_or(raw.range.start);
    let (run, id) = parse_attrs(attrs_text, attr_offset, path, src, default_timeout, diags);

    let mut code = String::with_capacity(raw.content.len());
    let mut display = String::with_capacity(raw.content.len());
    for l in raw.content.split_inclusive('\n') {
        if let Some(rest) = l.strip_prefix(HIDDEN_PREFIX) {
            code.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        } else {
            code.push_str(l);
            display.push_str(l);
        }
    }
    Snippet {
        index,
        id: id.unwrap_or_else(|| format!("snippet-{}", index + 1)),
        lang,
        info: raw.info.clone(),
        display: (display != code).then_some(display),
        code,
        line,
        label: raw.label.clone(),
        reading: None,
        run,
    }
}

/// Where an info string's attributes are and where their problems go.
struct AttrText<'a> {
    text: &'a str,
    /// Byte offset of `text` in the file.
    offset: usize,
    path: &'a Path,
    src: &'a Arc<str>,
    diags: &'a mut Diagnostics,
}

impl AttrText<'_> {
    /// An error located at `word` in the attributes.
    fn error(&mut self, msg: String, word: &str, hint: impl Into<String>) {
        let o = self
            .text
            .find(word)
            .map(|i| self.offset + i)
            .unwrap_or(self.offset);
        let d = Diagnostic::at(
            Code::SnippetAttr,
            self.path,
            self.src,
            o,
            word.len().max(1),
            msg,
        );
        self.diags.push(d.hint(hint));
    }

    /// The value of `key=value`, or an error when it is missing or empty.
    fn need(&mut self, key: &str, v: Option<&str>) -> Option<String> {
        match v {
            Some(v) if !v.is_empty() => Some(v.to_string()),
            _ => {
                self.error(
                    format!("`{key}` needs a value"),
                    key,
                    format!("write `{key}=...`"),
                );
                None
            }
        }
    }
}

/// The attributes read so far.
struct Attrs {
    runnable: bool,
    norun: bool,
    expect: Option<String>,
    fragment: Option<String>,
    gpus: u32,
    env: Vec<(String, String)>,
    timeout: u64,
    id: Option<String>,
    after: Option<String>,
    interpreter: String,
    network: bool,
    needs: Vec<String>,
    gpu_mem_mib: Option<u64>,
}

impl Attrs {
    fn new(default_timeout: u64) -> Attrs {
        Attrs {
            runnable: false,
            norun: false,
            expect: None,
            fragment: None,
            gpus: 0,
            env: Vec::new(),
            timeout: default_timeout,
            id: None,
            after: None,
            interpreter: "python3".to_string(),
            network: false,
            needs: Vec::new(),
            gpu_mem_mib: None,
        }
    }

    /// One word: `run`, `key=value`; a key that states a claim or a need makes the block runnable.
    fn read(&mut self, at: &mut AttrText, w: &str) {
        let (k, v) = match w.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (w, None),
        };
        match k {
            "run" => self.runnable = true,
            "norun" => self.norun = true,
            "id" => self.id = at.need(k, v),
            "interpreter" => {
                if let Some(v) = at.need(k, v) {
                    self.interpreter = v
                }
            }
            "network" if v.is_none() => {
                self.runnable = true;
                self.network = true;
            }
            "network" => at.error(
                "`network` takes no value".to_string(),
                w,
                "write `network` alone: the run may use the network",
            ),
            "expect" | "match" | "after" | "gpus" | "timeout" | "env" | "needs" | "gpu_mem" => {
                self.runnable = true;
                self.read_run(at, k, v, w);
            }
            other => {
                let near = errbook_core::diag::did_you_mean(other, KEYS.iter().copied());
                let hint = match near.first() {
                    Some(n) => format!("did you mean `{n}`? errbook reads: {}", KEYS.join(", ")),
                    None => format!("errbook reads: {}", KEYS.join(", ")),
                };
                at.error(
                    format!("unknown code block attribute `{other}`"),
                    other,
                    hint,
                );
            }
        }
    }

    /// The keys of a run: what it claims and what it needs.
    fn read_run(&mut self, at: &mut AttrText, k: &str, v: Option<&str>, w: &str) {
        match k {
            "expect" => self.expect = at.need(k, v),
            "match" => self.fragment = at.need(k, v),
            "after" => self.after = at.need(k, v),
            "gpus" => {
                let Some(v) = at.need(k, v) else { return };
                match v.parse() {
                    Ok(n) => self.gpus = n,
                    Err(_) => at.error(
                        format!("`gpus` must be a whole number, not `{v}`"),
                        w,
                        "write `gpus=1`",
                    ),
                }
            }
            "timeout" => {
                let Some(v) = at.need(k, v) else { return };
                match parse_duration(&v) {
                    Some(s) => self.timeout = s,
                    None => at.error(
                        format!("`timeout` must be seconds (`120`, `90s`, `5m`), not `{v}`"),
                        w,
                        "write `timeout=300`",
                    ),
                }
            }
            "needs" => {
                let Some(v) = at.need(k, v) else { return };
                for m in v.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                    if !is_module(m) {
                        at.error(
                            format!("`{m}` is not a Python module name"),
                            m,
                            "write the names `import` takes, separated by commas: `needs=torch,numpy`",
                        );
                    } else if !self.needs.iter().any(|n| n == m) {
                        self.needs.push(m.to_string());
                    }
                }
            }
            "gpu_mem" => {
                let Some(v) = at.need(k, v) else { return };
                match parse_mib(&v) {
                    Some(n) => self.gpu_mem_mib = Some(n),
                    None => at.error(
                        format!(
                            "`gpu_mem` must be an amount of memory (`2GiB`, `500MiB`), not `{v}`"
                        ),
                        w,
                        "write `gpu_mem=2GiB`",
                    ),
                }
            }
            "env" => match v.and_then(|v| v.split_once('=')) {
                Some((name, val)) if !name.is_empty() => {
                    self.env.push((name.to_string(), val.to_string()))
                }
                _ => at.error(
                    format!("`{w}` must name a variable and a value"),
                    w,
                    "write `env=NAME=value`",
                ),
            },
            _ => {}
        }
    }

    /// The run spec (if the block is runnable) and the block's `id`.
    fn finish(self) -> (Option<RunSpec>, Option<String>) {
        if self.norun || !self.runnable {
            return (None, self.id);
        }
        let claim = claim_of(self.expect, self.fragment);
        let spec = RunSpec {
            claim,
            gpus: self.gpus,
            env: self.env,
            timeout_s: self.timeout,
            after: self.after,
            interpreter: self.interpreter,
            network: self.network,
            needs: self.needs,
            gpu_mem_mib: self.gpu_mem_mib,
        };
        (Some(spec), self.id)
    }
}

/// What `expect=` and `match=` claim: `ok` (or nothing) runs cleanly, `error` fails somehow, any
/// other word names the exception; `match=` alone claims a failure with that message.
fn claim_of(expect: Option<String>, fragment: Option<String>) -> Claim {
    match expect.as_deref() {
        None if fragment.is_some() => Claim::Fails {
            exception: None,
            message: fragment,
        },
        None | Some("ok") | Some("success") => Claim::Runs,
        Some("error") | Some("fail") => Claim::Fails {
            exception: None,
            message: fragment,
        },
        Some(exc) => Claim::Fails {
            exception: Some(exc.to_string()),
            message: fragment,
        },
    }
}

/// Parse `run expect=... gpus=...`; returns the run spec (if runnable) and the `id`.
fn parse_attrs(
    text: &str,
    offset: usize,
    path: &Path,
    src: &Arc<str>,
    default_timeout: u64,
    diags: &mut Diagnostics,
) -> (Option<RunSpec>, Option<String>) {
    if text.is_empty() {
        return (None, None);
    }
    let mut at = AttrText {
        text,
        offset,
        path,
        src,
        diags,
    };
    let Some(words) = shlex::split(text) else {
        let msg = "unbalanced quotes in the code block's attributes".to_string();
        at.error(msg, text, "close the quote: match=\"...\"");
        return (None, None);
    };
    let mut attrs = Attrs::new(default_timeout);
    for w in &words {
        attrs.read(&mut at, w);
    }
    attrs.finish()
}

/// `120`, `120s`, `5m`, `1h` to seconds.
pub(crate) fn parse_duration(v: &str) -> Option<u64> {
    let (num, mul) = match v.chars().last()? {
        's' => (&v[..v.len() - 1], 1),
        'm' => (&v[..v.len() - 1], 60),
        'h' => (&v[..v.len() - 1], 3600),
        _ => (v, 1),
    };
    num.parse::<u64>().ok().filter(|n| *n > 0).map(|n| n * mul)
}

/// A dotted Python module name: `torch`, `torch.distributed`, `_private`.
fn is_module(m: &str) -> bool {
    m.split('.').all(|p| {
        let mut c = p.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
    })
}

/// Check continuations: `after=` must name an earlier block of the same page; ids unique.
pub(crate) fn check_chain(
    snippets: &[Snippet],
    path: &Path,
    src: &Arc<str>,
    diags: &mut Diagnostics,
) {
    // The ids met so far, in order and as a set: each check is constant time (a scan of the
    // earlier blocks made a page of many blocks quadratic).
    let mut earlier: Vec<&str> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for s in snippets {
        if seen.contains(s.id.as_str()) {
            let (o, l) = line_span(src, s.line);
            diags.push(
                Diagnostic::at(
                    Code::SnippetAttr,
                    path,
                    src,
                    o,
                    l,
                    format!("two code blocks on this page have the id `{}`", s.id),
                )
                .hint("give each block its own `id=`"),
            );
        }
        if let Some(after) = s.run.as_ref().and_then(|r| r.after.as_ref()) {
            if !seen.contains(after.as_str()) {
                let (o, l) = line_span(src, s.line);
                diags.push(
                    Diagnostic::at(
                        Code::SnippetAfter,
                        path,
                        src,
                        o,
                        l,
                        format!("`after={after}` names no earlier code block of this page"),
                    )
                    .hint(after_hint(after, &earlier)),
                );
            }
        }
        if seen.insert(s.id.as_str()) {
            earlier.push(s.id.as_str());
        }
    }
}

/// The hint for an `after=` that names no earlier block: the closest ids, and the earlier ids
/// (the first few of a long list: the hint must not grow with the page).
fn after_hint(after: &str, earlier: &[&str]) -> String {
    const SHOWN: usize = 12;
    if earlier.is_empty() {
        return "`after=` must name a block earlier on the same page; there is none".to_string();
    }
    let mut list = earlier[..earlier.len().min(SHOWN)].join(", ");
    if earlier.len() > SHOWN {
        list.push_str(&format!(" and {} more", earlier.len() - SHOWN));
    }
    // Closest names among the nearest earlier blocks (the likeliest to be meant).
    let recent = &earlier[earlier.len().saturating_sub(64)..];
    match errbook_core::diag::did_you_mean(after, recent.iter().copied()).first() {
        Some(n) => format!("did you mean `{n}`? earlier blocks: {list}"),
        None => format!("earlier blocks: {list}"),
    }
}

fn line_span(src: &Arc<str>, line: usize) -> (usize, usize) {
    let (s, e) = errbook_core::diag::line_bounds_in(src, line);
    (s, e - s)
}

#[cfg(test)]
mod tests;
