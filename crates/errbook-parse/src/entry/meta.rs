//! The metadata bullets between the title and the first `##` section (`- **Key:** value`), read
//! into typed items: which key (`MetaKey`), its value, and where the value is written. What the
//! values mean (the ID against the path, the fix rate as a percentage) is `fields`' job.

use super::blocks::{item_text, Block, BlockKind};
use super::Ctx;
use errbook_core::diag::{did_you_mean, Code};
use regex::Regex;
use std::iter::Peekable;
use std::ops::Range;
use std::sync::LazyLock;

static META_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\*\*([^*]+?):\*\*\s*(.*)$|^\*\*([^*]+?)\*\*:\s*(.*)$").expect("static regex")
});
static LOOSE_META_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[*_]*\s*([A-Za-z][A-Za-z ]*?)\s*[*_]*\s*:\s*[*_]*\s*(.*)$").expect("static regex")
});

/// A metadata key an entry may give, in the order the layout writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MetaKey {
    Id,
    Domain,
    Category,
    ErrorCode,
    Verification,
    FixRate,
}

impl MetaKey {
    pub(super) const ALL: [MetaKey; 6] = [
        MetaKey::Id,
        MetaKey::Domain,
        MetaKey::Category,
        MetaKey::ErrorCode,
        MetaKey::Verification,
        MetaKey::FixRate,
    ];

    /// The key as the entry writes it: `- **Error Code:** ...`.
    pub(super) fn name(self) -> &'static str {
        match self {
            MetaKey::Id => "ID",
            MetaKey::Domain => "Domain",
            MetaKey::Category => "Category",
            MetaKey::ErrorCode => "Error Code",
            MetaKey::Verification => "Verification",
            MetaKey::FixRate => "Fix Rate",
        }
    }

    /// The key written exactly so.
    pub(super) fn named(name: &str) -> Option<MetaKey> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The key written in any case (`fix rate`), for a bullet that lost its bold.
    fn named_loosely(name: &str) -> Option<MetaKey> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// `ID, Domain, Category, ...` for hints.
    pub(super) fn known() -> String {
        Self::ALL.map(MetaKey::name).join(", ")
    }
}

/// One metadata bullet that was read: its key, its value (backticks removed) and the byte range
/// of the value in the file.
#[derive(Debug, Clone)]
pub(super) struct MetaItem {
    pub key: MetaKey,
    pub value: String,
    pub range: Range<usize>,
}

/// The metadata bullets of an entry, each key at most once.
#[derive(Debug, Default)]
pub(super) struct Meta {
    items: Vec<MetaItem>,
    /// Blocks other than bullets before the first section: prose whose `## Root Cause` heading
    /// is missing, or stray text; `sections::read` reports them, knowing which.
    pub stray: Vec<Range<usize>>,
}

impl Meta {
    pub(super) fn get(&self, key: MetaKey) -> Option<&MetaItem> {
        self.items.iter().find(|m| m.key == key)
    }

    /// The value of `key`, if given.
    pub(super) fn value(&self, key: MetaKey) -> Option<String> {
        self.get(key).map(|m| m.value.clone())
    }

    fn has(&self, key: MetaKey) -> bool {
        self.get(key).is_some()
    }
}

/// Read the blocks before the first heading as metadata bullets; anything else there is kept in
/// `stray`, for `sections::read` to report.
pub(super) fn read<'b>(
    cx: &mut Ctx,
    blocks: &mut Peekable<impl Iterator<Item = &'b Block>>,
) -> Meta {
    let mut meta = Meta::default();
    while let Some(b) = blocks.next_if(|b| !matches!(b.kind, BlockKind::Heading(_))) {
        if let BlockKind::List { .. } = b.kind {
            for item in &b.items {
                read_item(cx, item.clone(), &mut meta);
            }
        } else {
            meta.stray.push(b.range.clone());
        }
    }
    meta
}

/// One bullet: `- **Key:** value` (or `- **Key**: value`).
fn read_item(cx: &mut Ctx, r: Range<usize>, meta: &mut Meta) {
    let (text, at) = item_text(cx.src, &r);
    let line = text.lines().next().unwrap_or("").trim();
    let Some(c) = META_RE.captures(line) else {
        read_loose(cx, r, line, meta);
        return;
    };
    let group = |a: usize, b: usize| {
        c.get(a)
            .or(c.get(b))
            .map(|m| m.as_str().trim())
            .unwrap_or("")
    };
    let (name, val) = (group(1, 3), group(2, 4));
    let val = val.trim_matches('`').trim().to_string();
    let span = at..r.end;
    let Some(key) = MetaKey::named(name) else {
        let near = did_you_mean(name, MetaKey::ALL.iter().map(|k| k.name()));
        let hint = match near.first() {
            Some(n) => format!("did you mean `{n}`? known keys: {}", MetaKey::known()),
            None => format!(
                "known keys: {}; put other data in front matter (aliases, tags, related)",
                MetaKey::known()
            ),
        };
        cx.error(
            Code::Meta,
            span,
            format!("unknown metadata key `{name}`"),
            hint,
        );
        return;
    };
    if meta.has(key) {
        let msg = format!("`{name}` is given twice");
        cx.error(Code::Meta, span, msg, "keep one bullet per key");
        return;
    }
    if val.is_empty() {
        let hint = format!("write `- **{name}:** value`");
        cx.error(Code::Meta, span, format!("`{name}` has no value"), hint);
        return;
    }
    let vstart = cx.text(at..r.end).find(&val).map(|i| at + i).unwrap_or(at);
    meta.items.push(MetaItem {
        key,
        range: vstart..vstart + val.len(),
        value: val,
    });
}

/// `- Category: x` or `- *Category*: x`: a known key written without the bold. Say how to write
/// it, and count the key as given so it is not also reported missing.
fn read_loose(cx: &mut Ctx, r: Range<usize>, line: &str, meta: &mut Meta) {
    let loose = LOOSE_META_RE.captures(line).and_then(|c| {
        let key = MetaKey::named_loosely(c[1].trim())?;
        Some((key, c[2].trim().trim_matches('`').trim().to_string()))
    });
    let Some((key, value)) = loose else {
        let hint = format!("known keys: {}", MetaKey::known());
        let msg = "a metadata bullet must read `- **Key:** value`";
        cx.error(Code::Meta, r, msg, hint);
        return;
    };
    let name = key.name();
    cx.error(
        Code::Meta,
        r.clone(),
        format!("the `{name}` bullet must have its key in bold"),
        format!("write `- **{name}:** {value}`"),
    );
    if !meta.has(key) {
        meta.items.push(MetaItem {
            key,
            value,
            range: r,
        });
    }
}
