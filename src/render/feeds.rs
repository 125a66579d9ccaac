//! sitemap.xml (every page, absolute URLs from `site.base_url`) and feed.xml (Atom, articles
//! newest first). Hosted builds only need absolute URLs here; pages link relatively.

use crate::core::config::Config;
use crate::core::model::Catalog;
use crate::render::escape as esc;

/// `paths`: site paths of every HTML page.
pub(crate) fn sitemap(cfg: &Config, paths: &[String]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in paths {
        if p == "404.html" {
            continue;
        }
        s.push_str(&format!(
            "  <url><loc>{}{}</loc></url>\n",
            esc(&cfg.site.base_url),
            esc(p)
        ));
    }
    s.push_str("</urlset>\n");
    s
}

pub(crate) fn atom(cfg: &Config, cat: &Catalog) -> String {
    let mut arts: Vec<_> = cat.articles.iter().collect();
    arts.sort_by(|a, b| b.date.cmp(&a.date).then(a.id.cmp(&b.id)));
    let base = &cfg.site.base_url;
    let updated = arts
        .first()
        .map(|a| a.date.clone())
        .unwrap_or_else(|| "1970-01-01".into());
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>{}</title>\n  <subtitle>{}</subtitle>\n  <link href=\"{base}\"/>\n  <link rel=\"self\" href=\"{base}feed.xml\"/>\n  <id>{base}</id>\n  <updated>{updated}T00:00:00Z</updated>\n  <author><name>{}</name></author>\n",
        esc(&cfg.site.title),
        esc(&cfg.site.description),
        esc(if cfg.site.author.is_empty() { &cfg.site.title } else { &cfg.site.author }),
    );
    for a in arts.iter().take(50) {
        let url = format!("{base}{}", crate::core::urls::article(&a.id));
        let summary = a
            .body
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        s.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <link href=\"{url}\"/>\n    <id>{url}</id>\n    <updated>{}T00:00:00Z</updated>\n    <summary>{}</summary>\n  </entry>\n",
            esc(&a.title),
            esc(&a.date),
            esc(summary)
        ));
    }
    s.push_str("</feed>\n");
    s
}
