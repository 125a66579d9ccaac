//! The pastes file: real pastes, each under a header line
//! `=== <entry ID or -> | <kind> | <source URL>`, the text below it verbatim. Lines before the
//! first header are comments. Which pastes are held out is decided by a hash of the source URL,
//! so that pastes from one thread stay together and nobody picks them by hand.

use errbook_eval_split::Split;
use std::path::Path;

/// What a paste is, as labelled in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Message,
    Traceback,
    Log,
    Prose,
    Negative,
}

impl Kind {
    pub(crate) const ALL: [Kind; 5] = [
        Kind::Message,
        Kind::Traceback,
        Kind::Log,
        Kind::Prose,
        Kind::Negative,
    ];

    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "message" => Kind::Message,
            "traceback" => Kind::Traceback,
            "log" => Kind::Log,
            "prose" => Kind::Prose,
            "negative" => Kind::Negative,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Message => "message",
            Kind::Traceback => "traceback",
            Kind::Log => "log line",
            Kind::Prose => "prose",
            Kind::Negative => "negative",
        }
    }
}

/// One labelled paste.
#[derive(Debug, Clone)]
pub(crate) struct Paste {
    /// The entry that answers it; `None` for an error the catalog lacks.
    pub(crate) want: Option<String>,
    pub(crate) kind: Kind,
    pub(crate) source: String,
    pub(crate) text: String,
    pub(crate) split: Split,
    /// Line of its header in the file.
    pub(crate) line: usize,
}

/// Read and check the pastes file.
pub(crate) fn read(path: &Path) -> Result<Vec<Paste>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}:{e}", path.display()))
}

fn parse(text: &str) -> Result<Vec<Paste>, String> {
    let mut out: Vec<Paste> = Vec::new();
    for (no, line) in text.lines().enumerate() {
        if let Some(head) = line.strip_prefix("=== ") {
            out.push(header(head, no + 1)?);
        } else if let Some(p) = out.last_mut() {
            p.text.push_str(line);
            p.text.push('\n');
        }
    }
    if let Some(p) = out.iter().find(|p| p.text.trim().is_empty()) {
        return Err(format!("{}: a header with no paste under it", p.line));
    }
    Ok(out)
}

fn header(head: &str, line: usize) -> Result<Paste, String> {
    let parts: Vec<&str> = head.split(" | ").map(str::trim).collect();
    let [id, kind, source] = parts[..] else {
        return Err(format!("{line}: expected `=== ID | kind | source`"));
    };
    let kind = Kind::parse(kind).ok_or_else(|| format!("{line}: unknown kind {kind:?}"))?;
    let want = (id != "-").then(|| id.to_string());
    if want.is_none() != (kind == Kind::Negative) {
        return Err(format!(
            "{line}: a negative paste has the ID `-`, and only a negative one"
        ));
    }
    if !source.starts_with("https://") {
        return Err(format!("{line}: the source must be an https:// address"));
    }
    Ok(Paste {
        want,
        kind,
        source: source.to_string(),
        text: String::new(),
        split: errbook_eval_split::split(source),
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_text_and_split() {
        let f = "# comment\n=== a/b | message | https://x/1\nRuntimeError: x\n\n=== - | negative | https://x/2\n# not a comment\n";
        let p = parse(f).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].want.as_deref(), Some("a/b"));
        assert_eq!(p[0].text, "RuntimeError: x\n\n");
        assert_eq!(p[1].want, None);
        assert_eq!(p[1].text, "# not a comment\n");
        assert_eq!(p[0].split, errbook_eval_split::split("https://x/1"));
        assert!(parse("=== a | negative | https://x\ny\n").is_err());
        assert!(parse("=== a | message | http://x\ny\n").is_err());
        assert!(parse("=== a | message | https://x\n").is_err());
    }
}
