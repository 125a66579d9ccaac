//! Highlight: code to class-based HTML with syntect, so one stylesheet per colour scheme (light
//! and dark, written as theme/syntax-*.css) styles every page.

use std::sync::LazyLock;
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
pub fn highlight(code: &str, lang: &str) -> String {
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

/// The two stylesheets: (`syntax-light.css`, `syntax-dark.css`).
pub fn stylesheets() -> crate::Result<(String, String)> {
    let themes = ThemeSet::load_defaults();
    let css = |name: &str| -> crate::Result<String> {
        let theme = themes
            .themes
            .get(name)
            .ok_or_else(|| crate::Error::Other(format!("syntect has no theme {name}")))?;
        css_for_theme_with_class_style(theme, STYLE)
            .map_err(|e| crate::Error::Other(format!("syntax CSS: {e}")))
    };
    Ok((css("InspiredGitHub")?, css("base16-ocean.dark")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_gets_classes_and_text_is_escaped() {
        let h = highlight("import torch\nx = '<a>'\n", "python");
        assert!(h.contains("class=\"hl-"), "{h}");
        assert!(h.contains("&lt;a&gt;"), "{h}");
        assert_eq!(highlight("a < b", ""), "a &lt; b");
    }
}
