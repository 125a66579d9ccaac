//! Diagnostics: what is wrong with the user's content, located to file:line:col, printed like a
//! compiler's messages through miette (the offending line, a label, a hint).
//!
//! Stages push `Diagnostic`s into a `Diagnostics` list instead of failing at the first problem, so
//! one `errbook check` shows everything. Library failures that are not about content (I/O on the
//! output directory, a broken template) are `crate::error::Error` instead.

mod excerpt;
mod lines;

pub use lines::{line_bounds_in, line_col, line_col_in};

use miette::{GraphicalReportHandler, GraphicalTheme, SourceSpan};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// What kind of problem a diagnostic reports. Each code has a fixed severity (`E-` codes are
/// errors, `W-` codes warnings) and a stable name that tests and documentation refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// `E-config`: book.toml does not parse, names an unknown key or gives a key a value it
    /// does not take.
    Config,
    /// `E-date`: a date that is not YYYY-MM-DD.
    Date,
    /// `E-dead-end`: a dead end without its bold summary or failure rate.
    DeadEnd,
    /// `E-duplicate-id`: two files claim one ID.
    DuplicateId,
    /// `E-empty`: an empty content file.
    Empty,
    /// `E-encoding`: a content file that is not UTF-8.
    Encoding,
    /// `E-front-matter`: front matter that is not valid YAML.
    FrontMatter,
    /// `E-id-chars`: an ID with characters a URL segment and a file name cannot have.
    IdChars,
    /// `E-id-path`: an ID that does not match the file path.
    IdPath,
    /// `E-key-type`: a front matter value of the wrong type.
    KeyType,
    /// `E-link`: a reference to content that does not exist.
    Link,
    /// `E-meta`: a metadata bullet that cannot be read.
    Meta,
    /// `E-missing-key`: a required key is missing.
    MissingKey,
    /// `E-percent`: a rate that is not a percentage from 0 to 100.
    Percent,
    /// `E-section`: a `##` section the layout does not know.
    Section,
    /// `E-snippet-after`: `after=` names no earlier block of the page.
    SnippetAfter,
    /// `E-snippet-attr`: a run attribute that cannot be read.
    SnippetAttr,
    /// `E-stray`: content outside any section of an entry.
    Stray,
    /// `E-table`: a version table that cannot be read.
    Table,
    /// `E-title`: an entry without its `# message` title line.
    Title,
    /// `E-unknown-key`: a front matter key errbook does not know.
    UnknownKey,
    /// `E-workaround`: a workaround without its bold summary or success rate.
    Workaround,
    /// `E-external-link`: a link out of the catalog that answers "not found" or does not resolve
    /// (`check --external`).
    ExternalBroken,
    /// `W-link`: a reference that is allowed but pointless.
    SelfRelated,
    /// `W-external-link`: a link out of the catalog that could not be confirmed this time (a
    /// time-out, a rate limit, a server error).
    ExternalUnsure,
    /// `E-placeholder`: text left from the template `errbook new` wrote (never published).
    Placeholder,
    /// `W-alias`: an alias worded as the entry's message, or as an alias before it.
    Alias,
    /// `W-verify-missing`: a runnable block with no verification record.
    VerifyMissing,
    /// `W-verify-orphan`: a record that matches no runnable block.
    VerifyOrphan,
    /// `W-verify-record`: a file in the records folder that is not a record.
    VerifyRecord,
    /// `W-verify-stale`: a runnable block that changed since its record.
    VerifyStale,
}

impl Code {
    /// The stable name: `E-front-matter`, `W-verify-stale`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Config => "E-config",
            Code::Date => "E-date",
            Code::DeadEnd => "E-dead-end",
            Code::DuplicateId => "E-duplicate-id",
            Code::Empty => "E-empty",
            Code::Encoding => "E-encoding",
            Code::FrontMatter => "E-front-matter",
            Code::IdChars => "E-id-chars",
            Code::IdPath => "E-id-path",
            Code::KeyType => "E-key-type",
            Code::Link => "E-link",
            Code::Meta => "E-meta",
            Code::MissingKey => "E-missing-key",
            Code::Percent => "E-percent",
            Code::Section => "E-section",
            Code::SnippetAfter => "E-snippet-after",
            Code::SnippetAttr => "E-snippet-attr",
            Code::Stray => "E-stray",
            Code::Table => "E-table",
            Code::Title => "E-title",
            Code::UnknownKey => "E-unknown-key",
            Code::Workaround => "E-workaround",
            Code::ExternalBroken => "E-external-link",
            Code::SelfRelated => "W-link",
            Code::ExternalUnsure => "W-external-link",
            Code::Placeholder => "E-placeholder",
            Code::Alias => "W-alias",
            Code::VerifyMissing => "W-verify-missing",
            Code::VerifyOrphan => "W-verify-orphan",
            Code::VerifyRecord => "W-verify-record",
            Code::VerifyStale => "W-verify-stale",
        }
    }

    pub(crate) fn severity(self) -> Severity {
        if self.as_str().starts_with("W-") {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in one file.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// Path relative to the site root, as users see it.
    pub path: PathBuf,
    /// 1-based line and column (column counted in characters).
    pub line: usize,
    pub col: usize,
    /// Byte range in the file for the label (may be empty).
    pub span: (usize, usize),
    pub message: String,
    /// Label shown under the offending text.
    pub label: String,
    pub hint: Option<String>,
    /// The file's text (shared), to print the offending line. None for non-text files.
    pub source: Option<Arc<str>>,
}

impl Diagnostic {
    /// A diagnostic at a byte offset of `source`.
    pub fn at(
        code: Code,
        path: &Path,
        source: &Arc<str>,
        offset: usize,
        len: usize,
        message: impl Into<String>,
    ) -> Self {
        let offset = offset.min(source.len());
        let len = len.min(source.len() - offset);
        let (line, col) = line_col_in(source, offset);
        Diagnostic {
            severity: code.severity(),
            code,
            path: path.to_path_buf(),
            line,
            col,
            span: (offset, len),
            message: message.into(),
            label: String::new(),
            hint: None,
            source: Some(source.clone()),
        }
    }

    /// A diagnostic about a whole file that has no usable text (binary, not UTF-8).
    pub fn file(code: Code, path: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            path: path.to_path_buf(),
            line: 1,
            col: 1,
            span: (0, 0),
            message: message.into(),
            label: String::new(),
            hint: None,
            source: None,
        }
    }

    /// A diagnostic at a 1-based line (whole line highlighted).
    pub fn at_line(
        code: Code,
        path: &Path,
        source: &Arc<str>,
        line: usize,
        message: impl Into<String>,
    ) -> Self {
        let (start, end) = line_bounds_in(source, line);
        Self::at(code, path, source, start, end - start, message)
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `path:line:col`, the location as users click it in a terminal or editor.
    pub(crate) fn location(&self) -> String {
        format!("{}:{}:{}", self.path.display(), self.line, self.col)
    }

    /// Render as text: a one-line header `error[code]: path:line:col: message`, then miette's
    /// graphical snippet with the offending line and the hint. `color` for terminals.
    pub fn render(&self, color: bool) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!(
            "{sev}[{}]: {}: {}\n",
            self.code,
            self.location(),
            self.message
        );
        let report = MietteReport::from(self);
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        // The header above already says the code and `path:line:col` (columns in characters;
        // miette would count bytes), so miette's box names the file only.
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_context_lines(1)
            .with_width(100)
            .without_primary_span_start();
        let mut body = String::new();
        if handler.render_report(&mut body, &report).is_ok() {
            // The report's message is empty (the header above says it): leave out miette's line
            // for it, a lone `×` or `⚠`, so that each message is printed once.
            let rest = body.split_once('\n').map_or("", |(_, rest)| rest);
            out.push_str(rest);
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

/// The miette view of a `Diagnostic`.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct MietteReport {
    message: String,
    severity: miette::Severity,
    /// The lines shown (the span is within them), not the whole file.
    src: Option<excerpt::Excerpt>,
    span: SourceSpan,
    label: Option<String>,
    help: Option<String>,
}

impl From<&Diagnostic> for MietteReport {
    fn from(d: &Diagnostic) -> Self {
        let excerpt = d.source.as_ref().map(|s| {
            let name = d.path.display().to_string();
            excerpt::Excerpt::new(name, s, d.span.0, d.span.1, d.line)
        });
        let span = excerpt
            .as_ref()
            .map_or(SourceSpan::new(0.into(), 0), |e| e.span);
        MietteReport {
            // Said once, by `Diagnostic::render`'s header line.
            message: String::new(),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            src: excerpt,
            span,
            label: Some(if d.label.is_empty() {
                "here".to_string()
            } else {
                d.label.clone()
            }),
            help: d.hint.clone(),
        }
    }
}

impl miette::Diagnostic for MietteReport {
    // No `code()`: the header line written by `Diagnostic::render` carries it.
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.src.as_ref()?;
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(self.label.clone(), self.span),
        )))
    }
}

/// All diagnostics of a run, in a deterministic order.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.is_error())
    }
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }
    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }
    /// Sort by file, then position, so output does not depend on thread scheduling.
    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| {
            (&a.path, a.line, a.col, &a.message).cmp(&(&b.path, b.line, b.col, &b.message))
        });
    }
}

/// The closest candidates to `wanted`, for "did you mean" hints.
pub fn did_you_mean<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = candidates
        .map(|c| (strsim::jaro_winkler(wanted, c), c))
        .filter(|(s, _)| *s > 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_shows_location_line_and_hint() {
        let src: Arc<str> = Arc::from("# T\n\n- **Fix Rate:** 140%\n");
        let d =
            Diagnostic::at(Code::Percent, Path::new("a.md"), &src, 21, 4, "bad").hint("use 0-100");
        let out = d.render(false);
        assert!(
            out.starts_with("error[E-percent]: a.md:3:17: bad\n"),
            "{out}"
        );
        assert_eq!(out.matches("bad").count(), 1, "the message once: {out}");
        assert!(!out.contains('×'), "{out}");
        assert!(out.contains("- **Fix Rate:** 140%"), "{out}");
        assert!(out.contains("use 0-100"), "{out}");
    }
}
