//! `errbook claims --write`: a block's inferred reading as info-string attributes (`run
//! expect=error gpus=1 needs=torch`), and a page's text with them written onto its fences. Once
//! written, the claim is declared: a maintainer reviews it as any other edit.

use errbook_core::model::{Claim, ClaimSource, Snippet};

/// The attributes that declare what was read of `s`; none for a block with no inferred claim
/// or one that cannot run (a claim is declared only with its run).
pub fn attributes(s: &Snippet) -> Option<String> {
    let r = s.reading.as_deref()?;
    if r.source != ClaimSource::Inferred || !r.runnable {
        return None;
    }
    let spec = s.run.as_ref()?;
    let mut a = vec!["run".to_string()];
    match &r.claim {
        Some(Claim::Runs) => {}
        Some(Claim::Fails { exception, message }) => {
            a.push(format!(
                "expect={}",
                exception.as_deref().unwrap_or("error")
            ));
            if let Some(m) = message {
                a.push(format!("match={}", shlex::try_quote(m).ok()?));
            }
        }
        None => return None,
    }
    if spec.gpus > 0 {
        a.push(format!("gpus={}", spec.gpus));
    }
    if !spec.needs.is_empty() {
        a.push(format!("needs={}", spec.needs.join(",")));
    }
    Some(a.join(" "))
}

/// `text` with `attrs` added to the opening fence on each given 1-based line (a fence with no
/// language gets `python`); lines that are not an opening fence are left as they are.
pub fn write_attributes(text: &str, edits: &[(usize, String)]) -> String {
    let mut out = String::with_capacity(text.len() + 64 * edits.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let Some((_, attrs)) = edits.iter().find(|(l, _)| *l == i + 1) else {
            out.push_str(line);
            continue;
        };
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        match fence_with_attributes(body, attrs) {
            Some(written) => {
                out.push_str(&written);
                out.push_str(ending);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The fence line `body` (no line ending) with `attrs` added, as `write_attributes` writes it
/// (a fence with no language gets `python`); none where `body` is not a fence. The language
/// server's code action writes one block with it.
pub fn fence_with_attributes(body: &str, attrs: &str) -> Option<String> {
    let fence = body.trim_start();
    let marks = fence.chars().take_while(|c| *c == '`' || *c == '~').count();
    if marks < 3 {
        return None;
    }
    let lang_missing = fence[marks..].trim().is_empty();
    let mut out = body.trim_end().to_string();
    out.push_str(if lang_missing { "python " } else { " " });
    out.push_str(attrs);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_go_on_the_fence_line() {
        let t = "x\n```python\ncode\n```\n```\nmore\n```\n";
        let w = write_attributes(
            t,
            &[
                (2, "run expect=error".into()),
                (5, "run".into()),
                (3, "run".into()),
            ],
        );
        assert_eq!(
            w,
            "x\n```python run expect=error\ncode\n```\n```python run\nmore\n```\n"
        );
    }

    #[test]
    fn one_fence_line_is_written_as_the_whole_text_writes_it() {
        assert_eq!(
            fence_with_attributes("```python ", "run").as_deref(),
            Some("```python run")
        );
        assert_eq!(
            fence_with_attributes("  ~~~", "run").as_deref(),
            Some("  ~~~python run")
        );
        assert_eq!(fence_with_attributes("code", "run"), None);
    }
}
