//! Claims: what a page claims happens when each of its code blocks runs (fails, with which
//! error where the text names it; runs cleanly; or no claim), read from the text around the
//! block (`read`, over `context` and `cues`), and whether the block can run as a reader would
//! run it (`kind`, `python`, `whole`: the definitions it needs from earlier blocks, its GPUs and
//! modules). A claim the author declared in the info string always wins. `read_page` is called
//! by parse for every page, so every later stage (check, verify, the site) sees the readings.

pub(crate) mod context;
pub(crate) mod cues;
pub(crate) mod kind;
pub(crate) mod python;
pub(crate) mod read;
pub(crate) mod whole;
pub(crate) mod words;
pub mod write;

use errbook_core::model::{ClaimEvidence, ClaimReading, ClaimSource, RunSpec, Snippet};
use python::scan::{scan, Scan};
use python::units::program;
use regex::Regex;
use std::sync::LazyLock;

pub use read::THRESHOLD;
pub use write::{attributes, fence_with_attributes, write_attributes};

/// Longest block read as Python (a larger one is read, never run).
const MAX_CODE: usize = 256 * 1024;

static EXAMPLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bexample\s+(\d{1,3})\b").expect("a fixed pattern"));
static REFERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:as|like|from|see|same as|defined in|shown in) (?:in |the )?example\s+(\d{1,3})\b")
        .expect("a fixed pattern")
});

/// Read every block of a page: `text` is the whole file, `title` the page's title; each
/// snippet gets its `reading`, and a block the text presents as failing or working that can run
/// gets a `run` (and, where it continues earlier blocks, their definitions before its code).
pub fn read_page(text: &str, title: &str, snippets: &mut [Snippet], default_timeout: u64) {
    if snippets.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    read_blocks(text, title, snippets, default_timeout);
    let spent = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    SPENT_NS.fetch_add(spent, std::sync::atomic::Ordering::Relaxed);
}

/// Time spent in `read_page` by every thread since the process started, in nanoseconds.
static SPENT_NS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Time every thread has spent reading pages so far (for the build's debug output: the reading
/// runs inside parse, a page at a time on each thread).
pub fn time_spent() -> std::time::Duration {
    std::time::Duration::from_nanos(SPENT_NS.load(std::sync::atomic::Ordering::Relaxed))
}

fn read_blocks(text: &str, title: &str, snippets: &mut [Snippet], default_timeout: u64) {
    let codes: Vec<String> = snippets.iter().map(|s| s.shown().to_string()).collect();
    let scans: Vec<Scan> = codes
        .iter()
        .map(|c| scan(if c.len() <= MAX_CODE { c } else { "" }))
        .collect();
    let kinds = kinds_of(snippets, &codes, &scans);
    let blocks = blocks_of(snippets, &codes, &scans, &kinds);
    let page = PageRead {
        text,
        title: (title, title_line(text, title)),
        snippets,
        codes: &codes,
        scans: &scans,
        kinds: &kinds,
        blocks: &blocks,
        arounds: std::cell::OnceCell::new(),
        timeout: default_timeout,
    };
    let readings: Vec<Read> = (0..snippets.len()).map(|i| page.block(i)).collect();
    drop(page);
    for (s, (reading, run)) in snippets.iter_mut().zip(readings) {
        s.reading = Some(Box::new(reading));
        if let Some((spec, prelude)) = run {
            if !prelude.is_empty() {
                let shown = s.shown().to_string();
                s.code = format!("{prelude}{}", s.code);
                s.display = Some(shown);
            }
            s.run = Some(spec);
        }
    }
}

/// A block's reading, and the run it gets (with the definitions it runs after) if any.
type Read = (ClaimReading, Option<(RunSpec, String)>);

/// Why each block is not Python errbook can read, if it is not.
fn kinds_of(snippets: &[Snippet], codes: &[String], scans: &[Scan]) -> Vec<Option<String>> {
    snippets
        .iter()
        .zip(codes)
        .zip(scans)
        .map(|((s, c), sc)| {
            if c.len() > MAX_CODE {
                return Some("too large to read".into());
            }
            kind::not_python(&s.lang, c, sc).or_else(|| {
                sc.broken
                    .as_ref()
                    .map(|(l, why)| format!("not valid Python: {why} (line {l})"))
            })
        })
        .collect()
}

/// Lines of `code` that hold code: not blank, not only a comment.
fn code_lines(code: &str) -> usize {
    code.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count()
}

/// Each block as the page's Python: its program, the example number its label gives, the
/// example its comments point at.
fn blocks_of<'a>(
    snippets: &[Snippet],
    codes: &'a [String],
    scans: &[Scan],
    kinds: &[Option<String>],
) -> Vec<whole::Block<'a>> {
    snippets
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let label = s.label.as_deref().unwrap_or("");
            let example = EXAMPLE.captures(label).and_then(|c| c[1].parse().ok());
            let refers_to = scans[i]
                .comments
                .iter()
                .find_map(|(_, c)| REFERS.captures(c).and_then(|m| m[1].parse().ok()));
            whole::Block {
                code: &codes[i],
                program: kinds[i].is_none().then(|| program(&scans[i])),
                example,
                refers_to,
            }
        })
        .collect()
}

/// One page being read.
struct PageRead<'a> {
    text: &'a str,
    /// The title and its line.
    title: (&'a str, usize),
    snippets: &'a [Snippet],
    codes: &'a [String],
    scans: &'a [Scan<'a>],
    kinds: &'a [Option<String>],
    blocks: &'a [whole::Block<'a>],
    /// The prose around the blocks, read only for a page with a block that may get a claim.
    arounds: std::cell::OnceCell<Vec<context::Around>>,
    timeout: u64,
}

impl PageRead<'_> {
    fn around(&self, line: usize) -> context::Around {
        let all = self.arounds.get_or_init(|| context::around(self.text));
        all.iter()
            .find(|a| a.line == line)
            .cloned()
            .unwrap_or_default()
    }

    /// Read block `i`.
    fn block(&self, i: usize) -> Read {
        let s = &self.snippets[i];
        if let Some(spec) = &s.run {
            return self.declared_run(i, spec);
        }
        if s.info.split_whitespace().any(|w| w == "norun") {
            return (none(ClaimSource::Declared, "declared `norun`".into()), None);
        }
        if let Some(why) = &self.kinds[i] {
            return (none(ClaimSource::Inferred, why.clone()), None);
        }
        let Some(prog) = self.blocks[i].program.as_ref() else {
            return (none(ClaimSource::Inferred, "not read".into()), None);
        };
        if let Some((line, why)) = &prog.fragment {
            let why = format!("a fragment: {why} (line {line})");
            return (none(ClaimSource::Inferred, why), None);
        }
        let w = whole::whole(self.blocks, i);
        // Without imports and with names nothing defines, a block is a piece of a program.
        if w.why_not.is_some() && prog.imports.is_empty() && prog.ellipsis.is_none() {
            let why = format!("a fragment: {}", w.why_not.unwrap_or_default());
            return (none(ClaimSource::Inferred, why), None);
        }
        let comments: Vec<(usize, &str)> = self.scans[i]
            .comments
            .iter()
            .map(|(l, c)| (s.line + l, *c))
            .collect();
        // The how-to prior is for whole programs: a block that imports what it uses.
        let whole_program = !prog.imports.is_empty();
        let mut said = read::said(&self.around(s.line), &comments, self.title, whole_program);
        // One line that imports nothing, or two that go into an earlier block's program, show
        // a change to make, not an example to run: the prose speaks of the program they go into.
        let lines = code_lines(&self.codes[i]);
        if !whole_program && (lines <= 1 || (lines <= 2 && !w.continues.is_empty())) {
            said.claim = None;
            said.evidence.clear();
        }
        let gpus = whole::gpus(&format!("{}{}", w.prelude, self.codes[i]));
        let mut imports = program(&scan(&w.prelude)).imports;
        for m in &prog.imports {
            if !imports.contains(m) {
                imports.push(m.clone());
            }
        }
        let runnable = w.why_not.is_none();
        let reading = ClaimReading {
            claim: said.claim.clone(),
            source: ClaimSource::Inferred,
            evidence: said.evidence,
            confidence: said.confidence,
            continues: w.continues.clone(),
            gpus,
            runnable,
            why_not: w.why_not.clone(),
        };
        let run = said.claim.filter(|_| runnable).map(|claim| {
            let spec = RunSpec {
                claim,
                gpus,
                env: Vec::new(),
                timeout_s: self.timeout,
                after: None,
                interpreter: "python3".into(),
                network: false,
                needs: whole::needs(&imports),
                gpu_mem_mib: None,
            };
            (spec, w.prelude)
        });
        (reading, run)
    }

    /// A declared block: its claim as written; with no `after=` and no hidden lines, it runs
    /// after the definitions it needs, as a read one does.
    fn declared_run(&self, i: usize, spec: &RunSpec) -> Read {
        let s = &self.snippets[i];
        let mut r = declared(s, spec, self.snippets);
        let plain = spec.after.is_none() && s.display.is_none() && self.blocks[i].program.is_some();
        if !plain {
            return (r, None);
        }
        let w = whole::whole(self.blocks, i);
        let run = (w.why_not.is_none() && !w.prelude.is_empty()).then(|| {
            r.continues = w.continues.clone();
            (spec.clone(), w.prelude)
        });
        (r, run)
    }
}

/// The 1-based line the title is written on (the front matter's `title:`, an entry's `# `).
fn title_line(text: &str, title: &str) -> usize {
    let probe = title.get(..title.len().min(40)).unwrap_or(title);
    text.lines()
        .position(|l| !probe.is_empty() && l.contains(probe))
        .map_or(1, |i| i + 1)
}

/// The reading of a block whose info string declares its run.
fn declared(s: &Snippet, spec: &RunSpec, page: &[Snippet]) -> ClaimReading {
    let continues = spec.after.as_ref().and_then(|a| {
        page[..s.index.min(page.len())]
            .iter()
            .rposition(|p| p.id == *a)
    });
    ClaimReading {
        claim: Some(spec.claim.clone()),
        source: ClaimSource::Declared,
        evidence: vec![ClaimEvidence {
            line: s.line,
            text: s.info.clone(),
        }],
        confidence: 1.0,
        continues: continues.into_iter().collect(),
        gpus: spec.gpus,
        runnable: true,
        why_not: None,
    }
}

fn none(source: ClaimSource, why: String) -> ClaimReading {
    ClaimReading {
        claim: None,
        source,
        evidence: Vec::new(),
        confidence: 0.0,
        continues: Vec::new(),
        gpus: 0,
        runnable: false,
        why_not: Some(why),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_one_line_change_counts_as_one_line_of_code() {
        assert_eq!(super::code_lines("h = h.detach()\n"), 1);
        assert_eq!(
            super::code_lines("# ... (as in Example 1) ...\n\nx = f(y)\nprint(x)\n"),
            2
        );
    }
}
