//! `errbook new error|article ID`: write a new content file from a template that already
//! passes `errbook check`, so a contributor starts from something valid. Never overwrites.

use crate::error::IoContext;
use crate::{Error, Result};
use std::path::Path;
use std::process::ExitCode;

/// `domain/slug` or an article id: lowercase letters, digits, `-` and `_`, starting alphanumeric.
fn valid_segment(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn entry_template(domain: &str, slug: &str) -> String {
    format!(
        r#"# RuntimeError: the error message, exactly as the program prints it

- **ID:** `{domain}/{slug}`
- **Domain:** {domain}
- **Category:** runtime_error
- **Error Code:** `ERROR_CODE`
- **Verification:** unverified
- **Fix Rate:** 0%

## Root Cause

Why the error happens, in a few sentences.

## Version Compatibility

| Version | Status | Introduced | Deprecated |
|---------|--------|------------|------------|
| Library 1.0 | active | — | — |

## Workarounds

1. **What to do, in one sentence.** (0% success)
   ```python
   # the fix; add `run` to the fence to have `errbook verify` check that it runs
   ```

## Dead Ends

- **What people try that does not work** — why it does not help. (0% fail)
"#
    )
}

fn article_template(id: &str, date: &str) -> String {
    format!(
        r#"---
title: "The reader's question, as they would ask it?"
date: "{date}"
id: "{id}"
errors: []
tags: []
---
The short answer first.

**1. Explanation:**

Why it happens.

**2. Code Examples:**

**Example 1: The problematic approach**

```python
# `python run expect=RuntimeError match="..."` claims it fails with that error
```

**Example 2: The fix**

```python
# `python run` claims it runs cleanly
```
"#
    )
}

pub fn run(root: &Path, kind: &str, id: &str) -> Result<ExitCode> {
    let (rel, text) = match kind {
        "error" => {
            let Some((domain, slug)) = id
                .split_once('/')
                .filter(|(d, s)| valid_segment(d) && valid_segment(s))
            else {
                eprintln!(
                    "error: `{id}` is not an entry ID\n  = hint: an entry ID is `domain/slug` in lowercase letters, digits, `-` and `_`, e.g. `pytorch/cuda-oom-during-backward`"
                );
                return Ok(ExitCode::from(2));
            };
            (
                format!("{}/{domain}/{slug}.md", crate::load::ERRORS_DIR),
                entry_template(domain, slug),
            )
        }
        "article" => {
            if !valid_segment(id) {
                eprintln!(
                    "error: `{id}` is not an article ID\n  = hint: use lowercase letters, digits, `-` and `_`, e.g. `why-does-dataloader-hang-with-cuda`"
                );
                return Ok(ExitCode::from(2));
            }
            let date = chrono::Local::now().format("%Y-%m-%d").to_string();
            (
                format!("{}/{id}.md", crate::load::ARTICLES_DIR),
                article_template(id, &date),
            )
        }
        other => {
            return Err(Error::Other(format!(
                "unknown kind `{other}`: use error or article"
            )))
        }
    };
    let path = root.join(&rel);
    if path.exists() {
        eprintln!("error: {rel} already exists; nothing was written\n  = hint: edit it, or choose another ID");
        return Ok(ExitCode::from(1));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).at(dir)?;
    }
    // create_new: never replace a file that appeared since the check above.
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .at(&path)?;
    f.write_all(text.as_bytes()).at(&path)?;
    println!("{rel}");
    eprintln!(
        "created {rel}; `errbook serve` shows it as you edit, `errbook check` lists what is wrong"
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(valid_segment("pytorch"));
        assert!(valid_segment("cuda-oom_2"));
        assert!(!valid_segment("Bad"));
        assert!(!valid_segment("-x"));
        assert!(!valid_segment(""));
        assert!(!valid_segment("a/b"));
    }
}
