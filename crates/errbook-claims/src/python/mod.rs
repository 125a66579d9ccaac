//! Python read closely enough to run an example as a reader would: a tokenizer-level scan
//! (`scan`: logical lines, comments, broken text), top-level statements and the names they bind
//! and use (`units`), Python's fixed word lists (`words`). Not a full parser: it reads names and
//! scopes, not the grammar.

pub(crate) mod scan;
pub(crate) mod units;
pub(crate) mod words;
