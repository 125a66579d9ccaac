//! What the metadata bullets mean: the ID, domain and slug (the file path decides them; the
//! bullets must agree, and the path must make a valid ID), the category, the fix rate as a
//! percentage, and the free-text keys. Reports missing required keys at the title line.

use super::meta::{Meta, MetaKey};
use super::Ctx;
use errbook_core::diag::Code;
use errbook_core::ids;
use errbook_core::model::PageKind;
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

static PERCENT_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*$").expect("static regex"));

/// The typed values of an entry's metadata.
pub(super) struct Fields {
    pub(super) id: String,
    pub(super) domain: String,
    pub(super) slug: String,
    pub(super) category: String,
    pub(super) error_code: Option<String>,
    pub(super) verification: String,
    pub(super) fix_rate: Option<u8>,
}

/// Read the fields of `meta`; `title` (the title line's range) locates missing keys.
pub(super) fn read(cx: &mut Ctx, meta: &Meta, title: &Range<usize>) -> Fields {
    let implied = ids::entry_id_of(cx.path);
    let path_ok = check_id_chars(cx, meta, implied.as_deref(), title);
    let id = read_id(cx, meta, implied.as_deref(), path_ok, title);
    let (domain, slug) = domain_and_slug(cx, implied.as_deref(), &id, title);
    check_domain(cx, meta, &domain, path_ok, title);
    Fields {
        id,
        domain,
        slug,
        category: read_category(cx, meta, title),
        fix_rate: read_fix_rate(cx, meta),
        error_code: meta.value(MetaKey::ErrorCode),
        verification: meta.value(MetaKey::Verification).unwrap_or_default(),
    }
}

/// The ID the path implies must follow the ID rules (it becomes a URL and a file name). False
/// when it does not: the error is reported here, at the ID bullet or else the title.
fn check_id_chars(cx: &mut Ctx, meta: &Meta, implied: Option<&str>, title: &Range<usize>) -> bool {
    let Some(imp) = implied else {
        return true;
    };
    let Some((message, hint)) = crate::bad_id(PageKind::Entry, imp) else {
        return true;
    };
    let at = meta
        .get(MetaKey::Id)
        .map(|m| m.range.clone())
        .unwrap_or(title.clone());
    cx.error(
        Code::IdChars,
        at,
        format!("{message} (the file path gives it)"),
        format!("{hint}, and rename the file to match"),
    );
    false
}

/// The `ID` bullet, which must match the path (unless the path itself is at fault).
fn read_id(
    cx: &mut Ctx,
    meta: &Meta,
    implied: Option<&str>,
    path_ok: bool,
    title: &Range<usize>,
) -> String {
    let Some(item) = meta.get(MetaKey::Id) else {
        cx.error(
            Code::MissingKey,
            title.clone(),
            "the entry has no `- **ID:**` bullet",
            format!(
                "add the bullet - **ID:** `{}` under the title",
                implied.unwrap_or("domain/slug")
            ),
        );
        return implied.unwrap_or_default().to_string();
    };
    let v = &item.value;
    match implied {
        Some(imp) if path_ok && v != imp => cx.error(
            Code::IdPath,
            item.range.clone(),
            format!("the ID `{v}` does not match the file path, which implies `{imp}`"),
            format!("set the ID to `{imp}`, or move the file to content/errors/{v}.md"),
        ),
        _ => {}
    }
    v.clone()
}

/// Domain and slug from the path; a file outside `content/errors/<domain>/` is an error that says
/// where it belongs, and then the ID bullet gives them.
fn domain_and_slug(
    cx: &mut Ctx,
    implied: Option<&str>,
    id: &str,
    title: &Range<usize>,
) -> (String, String) {
    if let Some(imp) = implied {
        let (d, s) = imp.split_once('/').unwrap_or((imp, ""));
        return (d.to_string(), s.to_string());
    }
    let stem = cx
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let hint = match id.split_once('/') {
        Some((d, s)) if !d.is_empty() && !s.is_empty() && !s.contains('/') => {
            format!("move the file to content/errors/{id}.md")
        }
        _ => format!("move the file into a domain folder: content/errors/<domain>/{stem}.md"),
    };
    cx.error(
        Code::IdPath,
        title.clone(),
        "an entry file must be at content/errors/<domain>/<slug>.md",
        hint,
    );
    match id.split_once('/') {
        Some((d, s)) => (d.to_string(), s.to_string()),
        None => (String::new(), id.to_string()),
    }
}

/// The `Domain` bullet is required and must be the ID's domain.
fn check_domain(cx: &mut Ctx, meta: &Meta, domain: &str, path_ok: bool, title: &Range<usize>) {
    match meta.get(MetaKey::Domain) {
        Some(d) if path_ok && d.value != domain => cx.error(
            Code::IdPath,
            d.range.clone(),
            format!(
                "Domain `{}` does not match the ID's domain `{domain}`",
                d.value
            ),
            format!("write `- **Domain:** {domain}`"),
        ),
        Some(_) => {}
        None => cx.error(
            Code::MissingKey,
            title.clone(),
            "the entry has no `- **Domain:**` bullet",
            format!(
                "add `- **Domain:** {}`",
                if domain.is_empty() {
                    "<domain>"
                } else {
                    domain
                }
            ),
        ),
    }
}

fn read_category(cx: &mut Ctx, meta: &Meta, title: &Range<usize>) -> String {
    meta.value(MetaKey::Category).unwrap_or_else(|| {
        cx.error(
            Code::MissingKey,
            title.clone(),
            "the entry has no `- **Category:**` bullet",
            "add `- **Category:** config_error` (or another category)",
        );
        String::new()
    })
}

/// `Fix Rate: NN%`, a percentage from 0 to 100.
fn read_fix_rate(cx: &mut Ctx, meta: &Meta) -> Option<u8> {
    let item = meta.get(MetaKey::FixRate)?;
    let r = item.range.clone();
    match PERCENT_RE.captures(&item.value) {
        Some(c) => cx.percent(&c[1], r, "Fix Rate"),
        None => {
            cx.error(
                Code::Percent,
                r,
                format!("Fix Rate `{}` is not a percentage", item.value),
                "write it as `NN%`, between 0% and 100%",
            );
            None
        }
    }
}
