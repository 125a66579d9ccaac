//! The numbers the browser's ranking (the theme's search-rank.js) shares with this crate, written
//! once, here: the script names them in markers, `/* errbook: MAX_PASTE, MAX_WORD */`, and
//! `fill` puts `var MAX_PASTE = 20000, MAX_WORD = 256;` in their place when errbook loads the
//! theme, so that both rank with one declaration of each.

use crate::clean::{MAX_PASTE, MAX_WORD, PASTE_HEAD};
use crate::normalise::MAX_READINGS;
use crate::rank::{MAX_QUERY_TERMS, TYPED_TERMS};
use crate::rerank::{
    CODE_MISMATCH, COVER_CAP, DISTINCT_CAP, ENOUGH, FIRST_PASS, GENERIC_WEIGHT, LOOKALIKE,
    LOOKALIKE_TOP, RERANK, SHARED_ONLY, SUBSTITUTION,
};
use regex::Regex;
use std::sync::LazyLock;

/// A marker: `/* errbook: NAME, NAME */`.
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"/\* errbook: ([A-Z_]+(?:, [A-Z_]+)*) \*/").expect("the marker's pattern")
});

/// The value of the shared number `name`, as JavaScript writes it.
fn value(name: &str) -> Option<String> {
    let weak = errbook_core::SearchConfig::default().weak_score;
    Some(match name {
        "MAX_PASTE" => MAX_PASTE.to_string(),
        "PASTE_HEAD" => PASTE_HEAD.to_string(),
        "MAX_WORD" => MAX_WORD.to_string(),
        "MAX_READINGS" => MAX_READINGS.to_string(),
        "MAX_QUERY_TERMS" => MAX_QUERY_TERMS.to_string(),
        "TYPED_TERMS" => TYPED_TERMS.to_string(),
        "RERANK" => RERANK.to_string(),
        "LOOKALIKE_TOP" => LOOKALIKE_TOP.to_string(),
        // `{:?}` keeps a whole number's `.0` (`4.0`), as the script is written.
        "COVER_CAP" => format!("{COVER_CAP:?}"),
        "ENOUGH" => format!("{ENOUGH:?}"),
        "DISTINCT_CAP" => format!("{DISTINCT_CAP:?}"),
        "LOOKALIKE" => format!("{LOOKALIKE:?}"),
        "SHARED_ONLY" => format!("{SHARED_ONLY:?}"),
        "FIRST_PASS" => format!("{FIRST_PASS:?}"),
        "GENERIC_WEIGHT" => format!("{GENERIC_WEIGHT:?}"),
        "SUBSTITUTION" => format!("{SUBSTITUTION:?}"),
        "CODE_MISMATCH" => format!("{CODE_MISMATCH:?}"),
        "DEFAULT_WEAK" => format!("{weak:?}"),
        _ => return None,
    })
}

/// `js` with every marker replaced by the declaration of the numbers it names. Err: a name
/// that is not one of the shared numbers (a theme's typo must not become `undefined`).
pub fn fill(js: &str) -> Result<String, String> {
    let mut unknown = None;
    let out = MARKER.replace_all(js, |c: &regex::Captures<'_>| {
        let vars: Vec<String> = (c[1].split(", "))
            .map(|name| match value(name) {
                Some(v) => format!("{name} = {v}"),
                None => {
                    unknown.get_or_insert_with(|| name.to_string());
                    format!("{name} = undefined")
                }
            })
            .collect();
        format!("var {};", vars.join(", "))
    });
    match unknown {
        Some(name) => Err(format!(
            "search-rank.js names `{name}`, which errbook does not share"
        )),
        None => Ok(out.into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_declarations_and_unknown_names_fail() {
        let js = "  /* errbook: MAX_PASTE, COVER_CAP */\n  x();\n";
        assert_eq!(
            fill(js).unwrap(),
            "  var MAX_PASTE = 20000, COVER_CAP = 4.0;\n  x();\n"
        );
        assert!(fill("/* errbook: NOT_SHARED */").is_err());
        assert_eq!(fill("var a = 1;").unwrap(), "var a = 1;");
    }
}
