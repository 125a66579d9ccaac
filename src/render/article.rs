//! The article page: title, date, tags, table of contents, the body with each code block's claim,
//! verdict and dead-end flags, and the errors the article discusses.

use super::entry::{find_snippet, Related};
use super::markdown::{self, Place};
use super::snippet;
use super::{Page, Renderer};
use crate::core::model::PageRef;
use crate::core::model::{Article, PageKind};
use crate::link::{Node, Origin};
use crate::Result;
use serde::Serialize;

#[derive(Serialize)]
struct Discussed {
    href: String,
    message: String,
    id: String,
    excerpt: String,
    origin: String,
}

pub fn page(r: &Renderer<'_>, a: &Article) -> Result<Page> {
    let path = crate::core::urls::article(&a.id);
    let page_ref = PageRef {
        kind: PageKind::Article,
        id: a.id.clone(),
    };
    let ctx = r.page_ctx(path.clone(), Some(page_ref), &a.snippets);
    let place = Place {
        catalog: &r.analysis.catalog,
        page: &path,
        offline: r.offline,
    };
    let body = markdown::render(&a.body, &place, |k, info, text| {
        let s = a
            .snippets
            .get(k)
            .filter(|s| s.info == info)
            .or_else(|| find_snippet(&a.snippets, info, text));
        snippet::render(&ctx, s, info, text)
    });
    let cat = &r.analysis.catalog;
    let discussed: Vec<Discussed> = r
        .analysis
        .graph
        .entries_for_article(&a.id)
        .filter_map(|l| {
            let Node::Entry { id } = &l.to else {
                return None;
            };
            let e = cat.entry(id)?;
            Some(Discussed {
                href: ctx.href(&crate::core::urls::entry(&e.id)),
                message: e.message.clone(),
                id: e.id.clone(),
                excerpt: l
                    .evidence
                    .first()
                    .map(|ev| snippet::truncate(&ev.excerpt, 200))
                    .unwrap_or_default(),
                origin: match l.origin {
                    Origin::Explicit => "named by the author".into(),
                    Origin::Confirmed => "confirmed by the author".into(),
                    Origin::Inferred => format!("inferred, score {:.2}", l.score),
                },
            })
        })
        .collect();
    // Entries related to the ones discussed, for further reading.
    let mut related: Vec<Related> = Vec::new();
    for d in &discussed {
        for rel in super::entry::related(&ctx, &d.id) {
            if !discussed.iter().any(|x| x.id == rel.id) && !related.iter().any(|x| x.id == rel.id)
            {
                related.push(rel);
            }
        }
    }
    let mut c = tera::Context::new();
    c.insert("title", &a.title);
    c.insert("title_html", &markdown::plain(&a.title));
    c.insert("date", &a.date);
    c.insert("tags", &a.tags);
    c.insert("toc", &body.toc);
    c.insert("body", &body.html);
    c.insert("discussed", &discussed);
    c.insert("related", &related);
    let runnable = a.snippets.iter().filter(|s| s.run.is_some()).count();
    c.insert("runnable", &runnable);
    Ok(Page {
        title: a.title.replace('`', ""),
        description: snippet::truncate(first_paragraph(&a.body), 200),
        path,
        template: "article.html",
        source: Some(a.source.clone()),
        ctx: c,
    })
}

/// The first prose line of a Markdown body, for the page description.
fn first_paragraph(md: &str) -> &str {
    md.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("```"))
        .unwrap_or("")
}
