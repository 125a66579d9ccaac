//! The one syntax set code is highlighted with, loaded once per process: the highlighter looks
//! languages up in it and the parser's states (`parsed`) name its contexts.

use std::sync::LazyLock;
use syntect::parsing::SyntaxSet;

pub(super) static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(SyntaxSet::load_defaults_newlines);
