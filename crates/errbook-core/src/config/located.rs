//! A book.toml that does not parse, located: the `E-config` diagnostic at the key or value toml
//! names (its line and column, the line shown once), with a did-you-mean for an unknown key
//! (`titel` -> `title`) and the keys its table takes.

use crate::diag::{did_you_mean, Code, Diagnostic};
use crate::error::Error;
use std::path::Path;
use std::sync::Arc;

/// `Error::Config` for toml's error `e` in `text` (the file at `path`, as users see it).
pub(super) fn error(text: &str, path: &Path, e: &toml::de::Error) -> Error {
    let source: Arc<str> = Arc::from(text);
    let span = e.span().unwrap_or(0..0);
    let raw = e.message().trim();
    let (message, hint) = match unknown_key(raw) {
        Some((key, known)) => {
            let table = table_at(text, span.start);
            let takes = format!(
                "{} takes {}",
                table.map_or("book.toml".to_string(), |t| format!("[{t}]")),
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let near = did_you_mean(key, known.iter().copied());
            let message = match table {
                Some(t) => format!("unknown key `{key}` in [{t}]"),
                None => format!("unknown table or key `{key}`"),
            };
            let hint = match near.first() {
                Some(n) => format!("did you mean `{n}`? {takes}"),
                None => takes,
            };
            (message, Some(hint))
        }
        None => (raw.to_string(), None),
    };
    let mut diag = Diagnostic::at(
        Code::Config,
        path,
        &source,
        span.start,
        span.len(),
        message.clone(),
    );
    if let Some(h) = hint {
        diag = diag.hint(h);
    }
    Error::Config {
        path: path.to_path_buf(),
        message,
        diag: Box::new(diag),
    }
}

/// serde's "unknown field `x`, expected one of `a`, `b`" (or "expected `a`"): the key and the
/// keys expected.
fn unknown_key(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let known = rest.split('`').skip(1).step_by(2).collect();
    Some((key, known))
}

/// The `[table]` (or `[[table]]`) header above byte `at`, if any.
fn table_at(text: &str, at: usize) -> Option<&str> {
    text.get(..at)?
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim())
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::error::Error;
    use std::path::Path;

    fn diag(text: &str) -> crate::diag::Diagnostic {
        match Config::parse(text, Path::new("book.toml")) {
            Err(Error::Config { diag, .. }) => *diag,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn an_unknown_key_is_located_with_the_key_it_was_meant_to_be() {
        let d = diag("# the site\n[site]\ntitel = 'x'\n");
        assert_eq!((d.line, d.col), (3, 1));
        assert_eq!(d.message, "unknown key `titel` in [site]");
        let hint = d.hint.as_deref().unwrap_or("");
        assert!(
            hint.starts_with("did you mean `title`? [site] takes `title`, "),
            "{hint}"
        );
        let shown = d.render(false);
        assert_eq!(shown.matches("titel = 'x'").count(), 1, "{shown}");
        assert_eq!(shown.matches("unknown key").count(), 1, "{shown}");
    }

    #[test]
    fn an_unknown_table_and_a_bad_value_are_located() {
        let d = diag("[site]\ntitle = 'x'\n\n[serach]\nexact = false\n");
        assert_eq!(d.line, 4, "{}", d.render(false));
        assert!(d.message.contains("`serach`"), "{}", d.message);
        assert!(d
            .hint
            .as_deref()
            .unwrap_or("")
            .contains("did you mean `search`?"));
        let d = diag("[verify]\n\nsandbox = 'docker'\n");
        assert_eq!(d.line, 3);
        assert!(d.message.contains("`bwrap`"), "{}", d.message);
    }
}
