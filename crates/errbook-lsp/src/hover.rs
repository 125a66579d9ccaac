//! Hover: on a reference, the page it names (an entry's message, domain, category and the
//! evidence its code blocks have); on a code block, its claim and its verdict in each
//! environment the records hold.

use super::refs;
use super::state::State;
use errbook_core::model::{ClaimSource, Page, PageRef, Snippet};
use errbook_records::{RecordSet, Status};
use errbook_site::Analysis;
use lsp_types::*;

pub(crate) fn hover(state: &State, p: HoverParams) -> Option<Hover> {
    let pos = p.text_document_position_params;
    let rel = state.rel(&pos.text_document.uri)?;
    let doc = state.docs.get(&rel)?;
    let offset = doc.offset(pos.position);
    let text = match refs::at(&doc.text, offset) {
        Some(found) => reference(state, &found)?,
        None => block(state, &rel, pos.position.line as usize + 1)?,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

/// What a reference names.
fn reference(state: &State, found: &refs::Found) -> Option<String> {
    let Some(page) = state.page(&found.file) else {
        return Some(format!(
            "no page of the catalog is `{}`",
            found.file.display()
        ));
    };
    let mut out = match page {
        Page::Entry(e) => format!(
            "**{}**\n\nentry `{}` · domain `{}` · category `{}`",
            e.message, e.id, e.domain, e.category
        ),
        Page::Article(a) => format!("**{}**\n\narticle `{}` · {}", a.title, a.id, a.date),
    };
    if let Some(records) = &state.records {
        out.push_str(&format!("\n\n{}", evidence(page, records)));
    }
    Some(out)
}

/// How many of a page's runnable blocks have evidence: `2 of 3 code blocks verified`.
fn evidence(page: Page<'_>, records: &RecordSet) -> String {
    let (page_ref, snippets) = (page.reference(), page.snippets());
    let runnable: Vec<&Snippet> = snippets.iter().filter(|s| s.run.is_some()).collect();
    if runnable.is_empty() {
        return "no runnable code blocks".into();
    }
    let verified = (runnable.iter())
        .filter(|s| match records.status(&page_ref, snippets, s) {
            Status::Fresh(runs) => runs.iter().any(|r| r.verdict.is_evidence()),
            _ => false,
        })
        .count();
    format!(
        "evidence: {verified} of {} runnable code blocks verified",
        runnable.len()
    )
}

/// The code block of `rel` around the 1-based `line`: its claim and verdicts.
fn block(state: &State, rel: &std::path::Path, line: usize) -> Option<String> {
    let page = state.page(rel)?;
    let s = (page.snippets().iter())
        .rfind(|s| s.line <= line && line <= s.line + s.code.lines().count() + 1)?;
    let mut out = format!("code block `{}`", s.id);
    if let Some(claim) = claim_of(s, &state.analysis) {
        out.push_str(&format!("\n\n{claim}"));
    }
    if let Some(records) = &state.records {
        out.push_str(&verdicts(page.reference(), page.snippets(), s, records));
    }
    Some(out)
}

/// The claim part of a code block's hover: what the block claims, whether the author declared
/// it or errbook read it from the text (with the words it rests on), and why a block does not
/// run. The reading is parse's (`Snippet::reading`, from `errbook-claims`), the one `check`,
/// `claims` and the pages show.
pub(crate) fn claim_of(s: &Snippet, _analysis: &Analysis) -> Option<String> {
    let Some(reading) = s.reading.as_deref() else {
        let run = s.run.as_ref()?;
        return Some(format!(
            "claim: {} (declared in the attributes)",
            run.claim.describe()
        ));
    };
    let claim = reading
        .claim
        .as_ref()
        .map_or_else(|| "no claim".to_string(), |c| c.describe());
    let mut out = match reading.source {
        ClaimSource::Declared => format!("claim: {claim} (declared in the attributes)"),
        ClaimSource::Inferred => format!(
            "claim: {claim} (read from the text, confidence {:.2})",
            reading.confidence
        ),
    };
    if reading.source == ClaimSource::Inferred {
        for e in reading.evidence.iter().take(4) {
            out.push_str(&format!("\n- line {}: \u{201c}{}\u{201d}", e.line, e.text));
        }
    }
    if let Some(why) = &reading.why_not {
        out.push_str(&format!("\n\nnot run: {why}"));
    }
    Some(out)
}

/// The block's verdict in each environment the records hold for it as it is now.
fn verdicts(page: PageRef, snippets: &[Snippet], s: &Snippet, records: &RecordSet) -> String {
    if s.run.is_none() {
        return String::new();
    }
    match records.status(&page, snippets, s) {
        Status::Fresh(runs) => {
            let mut out = String::from("\n\nverdicts:");
            for r in runs {
                out.push_str(&format!(
                    "\n- {}: {} ({})",
                    r.env.machine(),
                    r.verdict.word(),
                    r.date.get(..10).unwrap_or(&r.date)
                ));
            }
            out
        }
        Status::Stale(r) => format!(
            "\n\nchanged since it was verified ({} on {})",
            r.verdict.as_str(),
            r.date.get(..10).unwrap_or(&r.date)
        ),
        Status::Missing => "\n\nnot verified yet (`errbook verify`)".into(),
    }
}
