//! Highlight: code to compact class-based HTML with syntect. Each token gets one short class
//! for its kind (keyword, string, comment...; the table `KINDS`), as rustdoc does, on a `<b>`
//! (`Spans` says why), instead of a span per scope: neighbouring tokens of one kind share one
//! and untyped text has none. Rules added at the end of theme/style.css colour them in light
//! and dark (the colours taken from syntect's themes) on every page.

use errbook_core::model::Catalog;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, OnceLock};
use syntect::highlighting::{FontStyle, Highlighter, Theme, ThemeSet};
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference};
use syntect::util::LinesWithEndings;

use super::escape_into;
use super::syntaxes::SYNTAXES;

/// The kinds of token, most specific first: (scope prefix, class, the scope whose colour the
/// stylesheets give the class). A token takes the kind of its innermost scope that has one.
const KINDS: &[(&str, &str, &str)] = &[
    ("comment", "c", "comment.line"),
    ("punctuation.definition.comment", "c", "comment.line"),
    (
        "constant.character.escape",
        "e",
        "constant.character.escape",
    ),
    ("string", "s", "string.quoted.double"),
    ("constant.numeric", "n", "constant.numeric"),
    ("constant.language", "l", "constant.language"),
    ("constant", "l", "constant.language"),
    ("variable.language", "l", "constant.language"),
    ("keyword.operator", "o", "keyword.operator"),
    ("keyword", "k", "keyword.control"),
    ("storage", "k", "storage.type"),
    ("entity.name.function", "f", "entity.name.function"),
    ("variable.function", "f", "entity.name.function"),
    ("support.function", "b", "support.function"),
    ("entity.name", "t", "entity.name.class"),
    ("support.type", "t", "support.type"),
    ("support.class", "t", "support.class"),
    (
        "entity.other.inherited-class",
        "t",
        "entity.other.inherited-class",
    ),
    ("variable.parameter", "p", "variable.parameter"),
    (
        "entity.other.attribute-name",
        "a",
        "entity.other.attribute-name",
    ),
    ("markup.heading", "t", "markup.heading"),
    ("invalid", "i", "invalid"),
];

/// `KINDS` with their scopes parsed once.
static KIND_SCOPES: LazyLock<Vec<(Scope, &'static str)>> = LazyLock::new(|| {
    KINDS
        .iter()
        .filter_map(|(prefix, class, _)| Scope::new(prefix).ok().map(|s| (s, *class)))
        .collect()
});

fn syntax_for(lang: &str) -> &'static SyntaxReference {
    let ss = &*SYNTAXES;
    let lang = match lang {
        "py" | "python3" | "pycon" => "python",
        "sh" | "shell" | "console" => "bash",
        other => other,
    };
    (!lang.is_empty())
        .then(|| ss.find_syntax_by_token(lang))
        .flatten()
        .unwrap_or_else(|| ss.find_syntax_plain_text())
}

/// The class of a token under `stack`: the kind of its innermost scope that has one.
fn class_of(stack: &[Scope]) -> Option<&'static str> {
    stack.iter().rev().find_map(|scope| {
        KIND_SCOPES
            .iter()
            .find(|(prefix, _)| prefix.is_prefix_of(*scope))
            .map(|(_, class)| *class)
    })
}

/// The element a token of kind `class` is written as (open tag, close tag) and the selector that
/// colours it under `pre.code`: the two kinds most tokens are of (operators and function names,
/// 44% of the tokens of 100,000 entry pages) as `<b>` and `<i>` without a class, the others as
/// `<b class=k>` (a one-letter class needs no quotes).
fn element(class: &str) -> (String, &'static str, String) {
    match class {
        "o" => ("<b>".into(), "</b>", "b:not([class])".into()),
        "f" => ("<i>".into(), "</i>", "i".into()),
        c => (format!("<b class={c}>"), "</b>", format!(".{c}")),
    }
}

/// Tokens being written, each kind as its `element`: text of one class is collected until the
/// class changes. `b` (text set apart for a purpose; the HTML standard's example is key words)
/// is drawn like `span` once the stylesheet undoes its bold, and is shorter on every token.
struct Spans {
    out: String,
    class: Option<&'static str>,
    text: String,
}

impl Spans {
    fn push(&mut self, class: Option<&'static str>, text: &str) {
        // Blank text takes whatever class is open: it looks the same and saves a span.
        if class != self.class && !text.trim().is_empty() {
            self.flush();
            self.class = class;
        }
        self.text.push_str(text);
    }

    fn flush(&mut self) {
        if self.text.is_empty() {
            return;
        }
        match self.class {
            Some(c) => {
                let (open, close, _) = element(c);
                self.out.push_str(&open);
                escape_into(&mut self.out, &self.text, false);
                self.out.push_str(close);
            }
            None => escape_into(&mut self.out, &self.text, false),
        }
        self.text.clear();
    }
}

/// `code` as HTML spans (no `<pre>` around it). Plain text for unknown languages, and for code
/// the grammar cannot parse.
pub fn highlight(code: &str, lang: &str) -> String {
    let syntax = syntax_for(lang);
    if syntax.name == "Plain Text" {
        return escape_text(code);
    }
    spans(code, syntax).unwrap_or_else(|| escape_text(code))
}

/// `s` as the text of an element: `&`, `<` and `>` escaped. Quotes need no escape outside an
/// attribute, and code holds many (`"cuda"` would be `&quot;cuda&quot;`).
fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    escape_into(&mut out, s, false);
    out
}

fn spans(code: &str, syntax: &SyntaxReference) -> Option<String> {
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut spans = Spans {
        out: String::with_capacity(code.len() * 2),
        class: None,
        text: String::new(),
    };
    for line in LinesWithEndings::from(code) {
        super::parsed::parse_line(line, &mut state, &mut stack, class_of, |c, t| {
            spans.push(c, t)
        })?;
    }
    spans.flush();
    Some(spans.out)
}

/// Highlighted code shared between the pages of one build. Catalogs repeat code (the same
/// `set_start_method('spawn')` under several entries); a block that occurs more than once is
/// highlighted once. Blocks seen once are not kept, so memory stays flat on large catalogs.
#[derive(Default)]
pub struct Memo {
    /// `lang \0 code` of every repeated block -> its HTML, filled on first use by any thread.
    repeated: HashMap<String, OnceLock<Arc<str>>>,
}

impl Memo {
    /// The repeated blocks of `catalog`; `default_lang` stands for a fence without a language.
    pub fn for_catalog(catalog: &Catalog, default_lang: &str) -> Memo {
        let mut seen: HashMap<String, bool> = HashMap::new();
        let snippets = catalog
            .entries
            .iter()
            .flat_map(|e| &e.snippets)
            .chain(catalog.articles.iter().flat_map(|a| &a.snippets));
        for s in snippets {
            let lang = if s.lang.is_empty() {
                default_lang
            } else {
                &s.lang
            };
            seen.entry(key(lang, s.shown()))
                .and_modify(|again| *again = true)
                .or_insert(false);
        }
        Memo {
            repeated: seen
                .into_iter()
                .filter(|(_, again)| *again)
                .map(|(k, _)| (k, OnceLock::new()))
                .collect(),
        }
    }

    /// `highlight(code, lang)`, computed once per repeated block.
    pub fn highlight(&self, code: &str, lang: &str) -> Arc<str> {
        if self.repeated.is_empty() {
            return highlight(code, lang).into();
        }
        match self.repeated.get(&key(lang, code)) {
            Some(cell) => cell.get_or_init(|| highlight(code, lang).into()).clone(),
            None => highlight(code, lang).into(),
        }
    }
}

fn key(lang: &str, code: &str) -> String {
    let mut k = String::with_capacity(lang.len() + 1 + code.len());
    k.push_str(lang);
    k.push('\0');
    k.push_str(code);
    k
}

/// The rules of `theme`'s colours for each class, every selector prefixed by `scope` (`""`, or
/// `:root[data-theme=dark] `). With `reset`, a rule without bold or italic says so, so that it
/// overrides the rules before it.
fn rules(theme: &Theme, scope: &str, reset: bool) -> String {
    let highlighter = Highlighter::new(theme);
    let mut css = String::new();
    let mut done: Vec<&str> = Vec::new();
    for (_, class, scope_name) in KINDS {
        if done.contains(class) {
            continue;
        }
        done.push(class);
        let Ok(sc) = Scope::new(scope_name) else {
            continue;
        };
        let style = highlighter.style_for_stack(&[sc]);
        let c = style.foreground;
        let _ = write!(
            css,
            "{scope}pre.code {}{{color:#{:02x}{:02x}{:02x}",
            element(class).2,
            c.r,
            c.g,
            c.b
        );
        if style.font_style.contains(FontStyle::BOLD) {
            css.push_str(";font-weight:bold");
        } else if reset {
            css.push_str(";font-weight:normal");
        }
        if style.font_style.contains(FontStyle::ITALIC) {
            css.push_str(";font-style:italic");
        } else if reset {
            css.push_str(";font-style:normal");
        }
        css.push_str("}\n");
    }
    css
}

/// The code's colours, added at the end of theme/style.css: the light colours, then the dark
/// ones where the page is dark (the system's scheme when the reader chose none, or the reader's
/// choice: `html[data-theme]`, as style.css reads it). Made once a process.
pub(crate) fn stylesheet() -> errbook_core::error::Result<&'static str> {
    use errbook_core::error::Error;
    static CSS: LazyLock<Result<String, Arc<Error>>> =
        LazyLock::new(|| make_stylesheet().map_err(Arc::new));
    CSS.as_deref().map_err(|e| Error::Shared(e.clone()))
}

fn make_stylesheet() -> errbook_core::error::Result<String> {
    let themes = ThemeSet::load_defaults();
    let theme = |name: &str| {
        themes
            .themes
            .get(name)
            .ok_or_else(|| errbook_core::error::Error::Bug(format!("syntect has no theme {name}")))
    };
    let (light, dark) = (theme(LIGHT)?, theme(DARK)?);
    // The themes' colours as they are fail WCAG AA on the page's code background (comments at
    // 2.7:1): each is given enough contrast, hue kept.
    use super::contrast::{readable, CODE_BG_DARK, CODE_BG_LIGHT};
    let dark_rules = |scope: &str| readable(&rules(dark, scope, true), CODE_BG_DARK);
    Ok(format!(
        "\n/* code colours from syntect's themes {LIGHT} and {DARK} */\n\
         pre.code b{{font-weight:normal}}pre.code i{{font-style:normal}}\n{}\
         @media (prefers-color-scheme: dark) {{\n{}}}\n{}",
        readable(&rules(light, "", false), CODE_BG_LIGHT),
        dark_rules(":root:not([data-theme=light]) "),
        dark_rules(":root[data-theme=dark] "),
    ))
}

/// The syntect themes whose colours the code takes, light and dark.
const LIGHT: &str = "InspiredGitHub";
const DARK: &str = "base16-ocean.dark";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_gives_what_highlight_gives() {
        let code = "import torch\nx = torch.zeros(3)\n";
        let mut memo = Memo::default();
        memo.repeated.insert(key("python", code), OnceLock::new());
        let first = memo.highlight(code, "python");
        assert_eq!(&*first, highlight(code, "python"));
        assert!(Arc::ptr_eq(&first, &memo.highlight(code, "python")));
        assert_eq!(
            &*memo.highlight("y = 1\n", "python"),
            highlight("y = 1\n", "python")
        );
    }

    #[test]
    fn python_gets_one_short_class_per_token_kind_and_text_is_escaped() {
        let h = highlight("import torch  # the library\nx = '<a>' + f(2)\n", "python");
        assert_eq!(
            h,
            "<b class=k>import </b>torch  <b class=c># the library\n</b>\
             x <b>= </b><b class=s>'&lt;a&gt;' </b>\
             <b>+ </b><i>f</i>(<b class=n>2</b>)\n"
        );
        assert_eq!(highlight("a < b", ""), "a &lt; b");
    }

    #[test]
    fn the_text_comes_back_whole_whatever_the_language() {
        let code = "def f(x):\n    return \"\\n\".join(x)  # ok\n\n\tclass C: pass\n";
        for lang in ["python", "bash", "rust", "json", "c++", "nonsense", ""] {
            let html = highlight(code, lang);
            let text = html
                .split('<')
                .map(|part| part.split_once('>').map_or(part, |(_, t)| t))
                .collect::<String>()
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            assert_eq!(text, code, "{lang}: {html}");
        }
    }

    #[test]
    fn every_class_has_a_colour_in_both_schemes() {
        let css = stylesheet().unwrap();
        let (light, dark) = css
            .split_once("@media (prefers-color-scheme: dark)")
            .unwrap();
        let (auto, chosen) = dark.split_once("}\n:root[data-theme=dark]").unwrap();
        for (_, class, _) in KINDS {
            let selector = element(class).2;
            let rule = format!("\npre.code {selector}{{color:#");
            assert!(light.contains(&rule), "{class}: {light}");
            for (scope, part) in [(":root:not([data-theme=light]) ", auto), ("", chosen)] {
                let rule = format!("{scope}pre.code {selector}{{color:#");
                assert!(part.contains(&rule), "{class}: {part}");
            }
        }
        // A dark rule undoes the light one's bold and italic.
        assert!(light.contains("font-weight:bold"), "{light}");
        assert!(chosen.contains("font-weight:normal"), "{chosen}");
        // The braces balance: the dark rules of the system's scheme are inside the @media.
        assert_eq!(css.matches('{').count(), css.matches('}').count());
    }
}
