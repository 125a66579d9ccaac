//! What a page says about its code blocks' claims, in the reader's words: an author's
//! declaration ("The text claims: fails") told apart from errbook's reading of the text ("Read
//! as the failing case ('The Problematic Approach'; 'likely fail')", and where the error is the
//! entry's: ", expected to raise the error of the entry it is about (RuntimeError: ...)"), and
//! each page's count of the blocks that ran, with why the others did not.

use super::escape as esc;
use crate::view::expect::Expected;
use crate::view::SnippetView;
use errbook_core::model::{Claim, ClaimSource};
use errbook_records::Status;

/// Pieces of evidence quoted after a reading.
const QUOTED: usize = 2;

/// The claim of a block that runs, as HTML: declared, or read (with the words it rests on, and
/// the entry's error where its runs are judged against that).
pub(crate) fn claim_html(v: &SnippetView<'_>) -> String {
    let s = v.snippet;
    let Some(run) = &s.run else {
        return String::new();
    };
    let read = s
        .reading
        .as_deref()
        .filter(|r| r.source == ClaimSource::Inferred);
    let Some(r) = read else {
        return format!(
            "<span class=\"claim\">The text claims: <strong>{}</strong></span>",
            esc(&run.claim.describe()),
        );
    };
    let case = match &run.claim {
        Claim::Runs => "the working case".to_string(),
        Claim::Fails {
            exception: None,
            message: None,
        } => "the failing case".to_string(),
        c => format!("the failing case, {}", c.describe()),
    };
    let quotes: Vec<String> = r
        .evidence
        .iter()
        .take(QUOTED)
        .map(|e| format!("\u{2018}{}\u{2019}", esc(&e.text)))
        .collect();
    let why = if quotes.is_empty() {
        String::new()
    } else {
        format!(" ({})", quotes.join("; "))
    };
    let (expected, whose) = match &v.expected {
        Some(x) => (
            format!(
                ", expected to raise the error of the entry it is about ({})",
                esc(&x.error())
            ),
            format!("; the error is that of the {}", esc(&about(x))),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "<span class=\"claim claim-read\" title=\"errbook's reading of the text, not the author's declaration{whose}\">Read as <strong>{}</strong>{why}{expected}</span>",
        esc(&case)
    )
}

/// Which entry an article is about, and how errbook knows: `entry pytorch/x (inferred from the
/// article's text, score 0.87)`.
fn about(x: &Expected<'_>) -> String {
    format!("entry {} ({})", x.entry.id, x.how())
}

/// "2 of 3 code blocks ran; not run: block 3 (line 70): a shell command, not a program." for a
/// page's blocks; empty for a page without code blocks.
pub(crate) fn blocks_ran(views: &[SnippetView<'_>]) -> String {
    if views.is_empty() {
        return String::new();
    }
    let ran = views
        .iter()
        .filter(|v| !v.status.fresh().is_empty())
        .count();
    let total = views.len();
    let mut why: Vec<String> = Vec::new();
    for v in views.iter().filter(|v| v.status.fresh().is_empty()) {
        let s = v.snippet;
        let reason = match (&s.run, s.reading.as_deref()) {
            (Some(_), _) if matches!(v.status, Status::Stale(_)) => {
                "changed since its last run".to_string()
            }
            (Some(run), _) if run.gpus > 1 => {
                format!("needs {} GPUs; no record from such a host yet", run.gpus)
            }
            (Some(_), _) => "not run yet".to_string(),
            (None, Some(r)) => match (&r.why_not, &r.claim) {
                (Some(w), _) => w.clone(),
                (None, Some(_)) => "not runnable".to_string(),
                (None, None) => "the text makes no claim about it".to_string(),
            },
            (None, None) => "the text makes no claim about it".to_string(),
        };
        why.push(format!("block {} (line {}): {reason}", s.index + 1, s.line));
    }
    let blocks = if total == 1 {
        "code block"
    } else {
        "code blocks"
    };
    let mut out = format!("{ran} of {total} {blocks} ran");
    if !why.is_empty() {
        out.push_str("; not run: ");
        out.push_str(&why.join("; "));
    }
    out.push('.');
    out
}
