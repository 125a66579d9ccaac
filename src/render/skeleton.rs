//! The list of all errors (`errors/`, 10,000 lines on a large catalog) kept between updates as
//! a skeleton: the page drawn once with `MARK` in place of each line's title and cut at the
//! marks. The page is then the pieces with the titles put back between them, so that an edit
//! of an entry's message, the title of its line, costs a join of the pieces rather than a
//! drawing of every line. A skeleton holds while everything else the page shows (each line's
//! entry, domain and meta, in order) is what it was drawn with; it is made only with the
//! default theme's list.html (which shows each title once, as it is) and checked against a
//! plain drawing when made. Not for the other lists (far shorter; drawn whole).

use super::lists::{entry_meta, entry_title_into, MARK};
use super::Renderer;
use crate::core::error::Result;

/// The list of all errors, cut where its lines' titles go.
pub(crate) struct Skeleton {
    /// One more piece than there are lines.
    pieces: Vec<String>,
    /// What the page shows of each line but its title: (domain, ID, meta), in line order.
    shown: Vec<[String; 3]>,
}

/// What the page shows of each line of `r`'s list of all errors but its title.
fn shown(r: &Renderer<'_>) -> Vec<[String; 3]> {
    (r.lists.errors_lines())
        .map(|e| [e.domain.clone(), e.id.clone(), entry_meta(e)])
        .collect()
}

/// Whether `r`'s list of all errors shows, but for the titles, what `shown` holds.
fn shows(r: &Renderer<'_>, shown: &[[String; 3]]) -> bool {
    let mut lines = r.lists.errors_lines();
    let same = (shown.iter()).all(|[domain, id, meta]| {
        lines
            .next()
            .is_some_and(|e| e.domain == *domain && e.id == *id && entry_meta(e) == *meta)
    });
    same && lines.next().is_none()
}

/// The list of all errors of `r` (its HTML), from `kept` when it holds for `r`'s catalog, else
/// drawn whole, and the skeleton to keep for the next update (`None` when the theme's list
/// cannot be kept so).
pub(crate) fn errors_page(
    r: &Renderer<'_>,
    kept: Option<Skeleton>,
) -> Result<(String, Option<Skeleton>)> {
    if let Some(s) = kept.filter(|s| shows(r, &s.shown)) {
        let _t = crate::core::timings::stage("  errors list: from the skeleton");
        return Ok((s.fill(r), Some(s)));
    }
    let i = (r.lists.pages.iter())
        .position(|p| p.path == "errors/")
        .ok_or_else(|| crate::core::error::Error::Other("no list of all errors".into()))?;
    let (_, html) = r.list(i)?;
    if !r.look.default_list {
        return Ok((html, None));
    }
    let _t = crate::core::timings::stage("  errors list: skeleton");
    let (_, marked) = r.errors_marked()?;
    let pieces: Vec<String> = marked.split(MARK).map(str::to_string).collect();
    let s = Skeleton {
        pieces,
        shown: shown(r),
    };
    // Kept only if it gives back the page: one mark per line, where the titles are.
    let holds = s.pieces.len() == s.shown.len() + 1 && s.fill(r) == html;
    Ok((html, holds.then_some(s)))
}

impl Skeleton {
    /// The page: the pieces with the titles of `r`'s lines between them.
    fn fill(&self, r: &Renderer<'_>) -> String {
        let size: usize = self.pieces.iter().map(String::len).sum();
        let mut out = String::with_capacity(size + 80 * self.shown.len());
        let mut lines = r.lists.errors_lines();
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                if let Some(e) = lines.next() {
                    entry_title_into(&mut out, e);
                }
            }
            out.push_str(piece);
        }
        out
    }
}
