//! The article page: title, date, tags, table of contents, the body with each code block's claim,
//! verdict and dead-end flags, and the errors the article discusses.

use super::entry::find_snippet;
use super::markdown::{self, Place};
use super::snippet;
use super::{Page, Renderer, DESCRIPTION};
use crate::view::ArticleView;
use errbook_core::error::Result;
use serde::Serialize;

#[derive(Serialize)]
struct Discussed {
    href: String,
    message: String,
    id: String,
    excerpt: String,
    origin: String,
}

pub(crate) fn page(r: &Renderer<'_>, v: &ArticleView<'_>) -> Result<Page> {
    let a = v.article;
    let path = errbook_core::urls::article(&a.id);
    let ctx = r.page_ctx(path.clone());
    let place = Place {
        catalog: r.catalog,
        page: &path,
        offline: r.offline,
    };
    let body = markdown::render(&a.body, &place, |k, info, text| {
        let s = v
            .snippets
            .get(k)
            .filter(|s| s.snippet.info == info)
            .or_else(|| find_snippet(&v.snippets, info, text));
        snippet::render(&ctx, s, info, text)
    });
    let discussed: Vec<Discussed> = v
        .discussed
        .iter()
        .map(|(e, l)| Discussed {
            href: ctx.href(&errbook_core::urls::entry(&e.id)),
            message: e.message.clone(),
            id: e.id.clone(),
            excerpt: l
                .evidence
                .first()
                .map(|ev| snippet::truncate(&ev.excerpt, 200))
                .unwrap_or_default(),
            origin: super::entry::origin_word(l),
        })
        .collect();
    let related = super::entry::related(&ctx, &v.related);
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
    c.insert("blocks_ran", &super::reading::blocks_ran(&v.snippets));
    Ok(Page {
        title: a.title.replace('`', ""),
        description: snippet::truncate(first_paragraph(&a.body), DESCRIPTION),
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
