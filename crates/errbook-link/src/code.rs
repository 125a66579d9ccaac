//! Code-like tokens: the calls, settings, guards, imports and identifiers a workaround's prose
//! names (`set_start_method('spawn')`, `num_workers=0`, `worker_init_fn`,
//! `if __name__ == '__main__'`), and the same things found in a snippet's code.

use super::TokenKind;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// `a.b.name(args)`: last name and normalised arguments.
    Call { name: String, args: Vec<String> },
    /// `key=value`, `key>0`: a setting or a condition on one.
    Setting {
        key: String,
        op: String,
        value: String,
    },
    /// `if __name__ == '__main__':`
    MainGuard,
    /// `import x.y as z`: the module's last segment.
    Import { module: String },
    /// A snake_case identifier (`worker_init_fn`).
    Ident { name: String },
    /// A CamelCase class name (`DataLoader`): context only.
    Class { name: String },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CodeTok {
    pub kind: Kind,
    /// As written.
    pub text: String,
    /// Byte offset in the text it was found in.
    pub at: usize,
    /// Named as the setting things happen *with* ("use the DataLoader with `pin_memory=True`"),
    /// not as the action itself: it counts less.
    pub context: bool,
}

impl CodeTok {
    /// How much a match of this token says: calls with arguments most, class names least.
    pub(crate) fn weight(&self) -> f64 {
        let w = self.base_weight();
        if self.context {
            w * 0.3
        } else {
            w
        }
    }

    fn base_weight(&self) -> f64 {
        match &self.kind {
            Kind::Call { name, args } => {
                if !args.is_empty() {
                    1.0
                } else if name.contains('_') {
                    0.6
                } else {
                    0.2
                }
            }
            Kind::Setting { op, .. } => {
                if op == "=" || op == "==" {
                    0.6
                } else {
                    0.3
                }
            }
            Kind::MainGuard => 0.5,
            Kind::Import { .. } => 0.2,
            Kind::Ident { .. } => 0.7,
            Kind::Class { .. } => 0.15,
        }
    }

    /// A token strong enough to carry a match on its own.
    pub(crate) fn is_strong(&self) -> bool {
        self.base_weight() >= 0.5
    }

    /// What evidence calls a token of this kind.
    pub(crate) fn token_kind(&self) -> TokenKind {
        match &self.kind {
            Kind::Call { .. } => TokenKind::Call,
            Kind::Setting { .. } => TokenKind::Setting,
            Kind::MainGuard => TokenKind::Guard,
            Kind::Import { .. } => TokenKind::Import,
            Kind::Ident { .. } => TokenKind::Name,
            Kind::Class { .. } => TokenKind::Class,
        }
    }
}

static CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(([^()]*)\)")
        .expect("static regex")
});
static SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"\b([A-Za-z_][A-Za-z0-9_]*)\s*(==|>=|<=|!=|=|>|<)\s*('[^']*'|"[^"]*"|[A-Za-z0-9_.\-]+)"#,
    )
    .expect("static regex")
});
static GUARD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"__name__\s*==\s*['"]__main__['"]"#).expect("static regex"));
static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:import|from)\s+([A-Za-z_][A-Za-z0-9_.]*)").expect("static regex")
});
static IDENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b").expect("static regex"));
static CLASS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)\b").expect("static regex"));

/// Phrases before a token that say *not* to do it ("instead of `num_workers=0`").
const NEGATIONS: &[&str] = &[
    "instead of",
    "rather than",
    "avoid",
    "without",
    "don't",
    "do not",
    "never",
    "not ",
    "no longer",
];

/// Is the token at `at` inside a "with ..." phrase of its clause?
fn after_with(text: &str, at: usize) -> bool {
    let clause_start = text[..at]
        .rfind(['.', ',', ';', ':', '('])
        .map(|i| i + 1)
        .unwrap_or(0);
    let clause = text[clause_start..at].to_lowercase();
    clause.starts_with("with ") || clause.contains(" with ")
}

fn norm_arg(a: &str) -> String {
    a.trim().trim_matches(|c| c == '\'' || c == '"').to_string()
}

fn split_args(s: &str) -> Vec<String> {
    s.split(',')
        .map(norm_arg)
        .filter(|a| !a.is_empty())
        .map(|a| a.replace(' ', ""))
        .collect()
}

/// Every code-like token of `text` (prose or code), in order. With `prose`, tokens right after a
/// negation ("instead of", "avoid", "not") are left out: the text names them to reject them.
pub(crate) fn extract(text: &str, prose: bool) -> Vec<CodeTok> {
    let mut x = Extract {
        text,
        prose,
        out: Vec::new(),
        taken: Vec::new(),
    };
    x.guards();
    x.calls();
    x.settings();
    x.imports();
    x.names();
    let mut out = x.out;
    out.sort_by_key(|t| t.at);
    if prose {
        for t in &mut out {
            t.context = after_with(text, t.at);
        }
    }
    // One token per distinct meaning (prose often repeats a call).
    let mut uniq: Vec<CodeTok> = Vec::new();
    for t in out {
        if !uniq.iter().any(|u| u.kind == t.kind) {
            uniq.push(t);
        }
    }
    uniq
}

/// `extract` at work: the tokens found so far, and the spans they (or tokens left out as
/// negated) take, which later, weaker kinds of token may not overlap.
struct Extract<'a> {
    text: &'a str,
    prose: bool,
    out: Vec<CodeTok>,
    taken: Vec<(usize, usize)>,
}

impl Extract<'_> {
    fn overlaps(&self, s: usize, e: usize) -> bool {
        self.taken.iter().any(|&(a, b)| s < b && a < e)
    }

    /// Is the token at `at` right after a negation (prose only)?
    fn negated(&self, at: usize) -> bool {
        if !self.prose {
            return false;
        }
        let mut from = at.saturating_sub(24);
        while !self.text.is_char_boundary(from) {
            from -= 1;
        }
        let before = self.text[from..at].to_lowercase();
        NEGATIONS.iter().any(|n| before.contains(n))
    }

    /// Take the span `start..end` for a token of `kind`, and keep the token unless it can be
    /// negated and is.
    fn add(&mut self, (start, end): (usize, usize), kind: Kind, text: String, negatable: bool) {
        self.taken.push((start, end));
        if negatable && self.negated(start) {
            return;
        }
        self.out.push(CodeTok {
            kind,
            text,
            at: start,
            context: false,
        });
    }

    fn guards(&mut self) {
        for m in GUARD.find_iter(self.text) {
            let text = "if __name__ == '__main__'".into();
            self.add((m.start(), m.end()), Kind::MainGuard, text, false);
        }
    }

    fn calls(&mut self) {
        for c in CALL.captures_iter(self.text) {
            let (Some(m), Some(full)) = (c.get(1), c.get(0)) else {
                continue;
            };
            let path = m.as_str();
            let name = path.rsplit('.').next().unwrap_or(path).to_string();
            if matches!(
                name.as_str(),
                "if" | "for" | "while" | "print" | "return" | "e" | "g"
            ) {
                continue;
            }
            let kind = Kind::Call {
                name,
                args: split_args(&c[2]),
            };
            let text = full.as_str().to_string();
            self.add((full.start(), full.end()), kind, text, true);
        }
    }

    fn settings(&mut self) {
        for c in SETTING.captures_iter(self.text) {
            let Some(full) = c.get(0) else { continue };
            let key = c[1].to_string();
            if key == "__name__" || GUARD.is_match(full.as_str()) {
                continue;
            }
            // In prose, keyword arguments inside a named call are part of the call.
            if self.prose && self.overlaps(full.start(), full.end()) {
                continue;
            }
            let kind = Kind::Setting {
                key,
                op: c[2].to_string(),
                value: norm_arg(&c[3]).trim_end_matches('.').to_string(),
            };
            let text = full.as_str().trim_end_matches('.').to_string();
            self.add((full.start(), full.end()), kind, text, true);
        }
    }

    fn imports(&mut self) {
        for c in IMPORT.captures_iter(self.text) {
            let Some(m) = c.get(1) else { continue };
            let module = m.as_str().rsplit('.').next().unwrap_or("").to_string();
            let text = c[0].to_string();
            self.add((m.start(), m.end()), Kind::Import { module }, text, false);
        }
    }

    /// snake_case identifiers and CamelCase class names not part of a token found before.
    fn names(&mut self) {
        for (re, class) in [(&*IDENT, false), (&*CLASS, true)] {
            for m in re.find_iter(self.text) {
                if self.overlaps(m.start(), m.end()) {
                    continue;
                }
                let name = m.as_str().to_string();
                if self.out.iter().any(|t| match &t.kind {
                    Kind::Ident { name: n } | Kind::Class { name: n } => *n == name,
                    _ => false,
                }) {
                    continue;
                }
                let kind = if class {
                    Kind::Class { name: name.clone() }
                } else {
                    Kind::Ident { name: name.clone() }
                };
                self.add((m.start(), m.end()), kind, name, true);
            }
        }
    }
}

/// How well one named token is matched by a snippet's tokens: 0..=1, and the snippet token that
/// matched. A contradiction (`num_workers=0` named, `num_workers=4` in the code) is 0.
pub(crate) fn match_in<'a>(
    want: &CodeTok,
    have: &'a [CodeTok],
    code: &str,
) -> (f64, Option<&'a CodeTok>) {
    let mut best: (f64, Option<&CodeTok>) = (0.0, None);
    for h in have {
        let s = match (&want.kind, &h.kind) {
            (Kind::Call { name: a, args: wa }, Kind::Call { name: b, args: ha }) if a == b => {
                if wa.is_empty() {
                    1.0
                } else if !ha.is_empty() && !wa.is_empty() && wa[0] != ha[0] && !wa[0].contains('=')
                {
                    // First positional argument differs: `set_start_method('fork')`.
                    0.0
                } else {
                    let hit = wa.iter().filter(|x| ha.contains(x)).count();
                    0.5 + 0.5 * hit as f64 / wa.len() as f64
                }
            }
            (
                Kind::Setting { key: a, op, value },
                Kind::Setting {
                    key: b,
                    op: hop,
                    value: hv,
                },
            ) if a == b && (hop == "=" || hop == "==") => satisfies(op, value, hv),
            (Kind::MainGuard, Kind::MainGuard) => 1.0,
            (Kind::Import { module: a }, Kind::Import { module: b }) if a == b => 1.0,
            _ => 0.0,
        };
        if s > best.0 {
            best = (s, Some(h));
        }
    }
    if best.0 == 0.0 {
        if let Kind::Ident { name } | Kind::Class { name } = &want.kind {
            if let Some(h) = have.iter().find(|h| match &h.kind {
                Kind::Ident { name: n } | Kind::Class { name: n } => n == name,
                Kind::Call { name: n, .. } => n == name,
                Kind::Setting { key, .. } => key == name,
                _ => false,
            }) {
                return (1.0, Some(h));
            }
            if word_in(code, name) {
                return (1.0, None);
            }
        }
    }
    best
}

fn word_in(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Does a code value `have` satisfy `op value` as named in prose?
fn satisfies(op: &str, value: &str, have: &str) -> f64 {
    let num = |s: &str| s.parse::<f64>().ok();
    let ok = match (num(value), num(have)) {
        (Some(v), Some(h)) => match op {
            "=" | "==" => h == v,
            ">" => h > v,
            ">=" => h >= v,
            "<" => h < v,
            "<=" => h <= v,
            "!=" => h != v,
            _ => false,
        },
        _ => match op {
            "=" | "==" => value.eq_ignore_ascii_case(have),
            "!=" => !value.eq_ignore_ascii_case(have),
            _ => false,
        },
    };
    if ok {
        1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(t: &str) -> Vec<String> {
        extract(t, true).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn prose_tokens() {
        let k = kinds("Wrap the training code in a if __name__ == '__main__': block and call mp.set_start_method('spawn') before any CUDA calls.");
        assert_eq!(
            k,
            vec!["if __name__ == '__main__'", "mp.set_start_method('spawn')"]
        );
        let k = kinds("Set num_workers=0 in DataLoader to disable multiprocessing");
        assert_eq!(k, vec!["num_workers=0", "DataLoader"]);
        let k = kinds("Use torch.cuda.set_device(0) inside worker_init_fn");
        assert_eq!(k, vec!["torch.cuda.set_device(0)", "worker_init_fn"]);
    }

    #[test]
    fn negated_tokens_are_left_out() {
        let k = kinds("Use the spawn start method instead of num_workers=0.");
        assert!(k.is_empty(), "{k:?}");
    }

    #[test]
    fn settings_are_compared() {
        let want = &extract("num_workers>0", true)[0];
        let code = "DataLoader(ds, num_workers=4)";
        assert_eq!(match_in(want, &extract(code, false), code).0, 1.0);
        let code = "DataLoader(ds, num_workers=0)";
        assert_eq!(match_in(want, &extract(code, false), code).0, 0.0);
        let want = &extract("mp.set_start_method('spawn', force=True)", true)[0];
        let code = "mp.set_start_method('spawn')";
        assert_eq!(match_in(want, &extract(code, false), code).0, 0.75);
        let code = "mp.set_start_method('fork')";
        assert_eq!(match_in(want, &extract(code, false), code).0, 0.0);
    }
}
