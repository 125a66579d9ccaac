//! Highlight: code to class-based HTML with syntect, so one stylesheet per colour scheme (light
//! and dark, written as theme/syntax-*.css) styles every page.

use crate::core::model::Catalog;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, OnceLock};
use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

const STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(SyntaxSet::load_defaults_newlines);

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

/// `code` as HTML spans (no `<pre>` around it). Plain text for unknown languages.
pub(crate) fn highlight(code: &str, lang: &str) -> String {
    let syntax = syntax_for(lang);
    if syntax.name == "Plain Text" {
        return super::escape(code);
    }
    let mut gen = ClassedHTMLGenerator::new_with_class_style(syntax, &SYNTAXES, STYLE);
    for line in LinesWithEndings::from(code) {
        if gen
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return super::escape(code);
        }
    }
    gen.finalize()
}

/// Highlighted code shared between the pages of one build. Catalogs repeat code (the same
/// `set_start_method('spawn')` under several entries); a block that occurs more than once is
/// highlighted once. Blocks seen once are not kept, so memory stays flat on large catalogs.
#[derive(Default)]
pub(crate) struct Memo {
    /// `lang \0 code` of every repeated block -> its HTML, filled on first use by any thread.
    repeated: HashMap<String, OnceLock<Arc<str>>>,
}

impl Memo {
    /// The repeated blocks of `catalog`; `default_lang` stands for a fence without a language.
    pub(crate) fn for_catalog(catalog: &Catalog, default_lang: &str) -> Memo {
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
            seen.entry(key(lang, &s.display))
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
    pub(crate) fn highlight(&self, code: &str, lang: &str) -> Arc<str> {
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

/// The two stylesheets: (`syntax-light.css`, `syntax-dark.css`).
pub(crate) fn stylesheets() -> crate::core::error::Result<(String, String)> {
    let themes = ThemeSet::load_defaults();
    let css = |name: &str| -> crate::core::error::Result<String> {
        let theme = themes.themes.get(name).ok_or_else(|| {
            crate::core::error::Error::Other(format!("syntect has no theme {name}"))
        })?;
        css_for_theme_with_class_style(theme, STYLE)
            .map_err(|e| crate::core::error::Error::Other(format!("syntax CSS: {e}")))
    };
    // The themes' colours as they are fail WCAG AA on the page's code background (comments at
    // 2.7:1): each is given enough contrast, hue kept.
    use super::contrast::{readable, CODE_BG_DARK, CODE_BG_LIGHT};
    Ok((
        readable(&css("InspiredGitHub")?, CODE_BG_LIGHT),
        readable(&css("base16-ocean.dark")?, CODE_BG_DARK),
    ))
}

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
    fn python_gets_classes_and_text_is_escaped() {
        let h = highlight("import torch\nx = '<a>'\n", "python");
        assert!(h.contains("class=\"hl-"), "{h}");
        assert!(h.contains("&lt;a&gt;"), "{h}");
        assert_eq!(highlight("a < b", ""), "a &lt; b");
    }
}
