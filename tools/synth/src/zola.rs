//! The same pages as a Zola site, converted from the Hugo site: TOML front matter (title, date,
//! the four taxonomies, the cross-links under `[extra]`), the same Markdown body, templates that
//! do what the Hugo layouts do per page (base, page with the articles' table of contents, the
//! section lists, the taxonomy lists and term pages) and Zola's own highlighter (Giallo, with
//! CSS classes like Hugo's Chroma). `config.toml` builds without a search index,
//! `config-search.toml` with one (`zola --config config-search.toml build`).
//!
//! Hugo's sections are the top-level folders only, so its `errors` list holds every entry. Zola
//! makes a section of a folder with `_index.md` only, and a transparent one would render its
//! pages once for itself and once for its parent; so the entries lie flat in `errors/` as
//! `DOMAIN--SLUG.md`, each with `path` giving it Hugo's URL, `/errors/DOMAIN/SLUG/`.

use super::articles::GenArticle;
use super::entries::GenEntry;
use super::writer::Writer;
use super::Result;
use std::fmt::Write;

const CONFIG: &str = r#"base_url = "https://bench.example.org"
title = "Synthetic error catalog"
default_language = "en"
compile_sass = false
generate_feeds = false
generate_sitemap = true
generate_robots_txt = false
build_search_index = false
taxonomies = [
  { name = "domains" },
  { name = "categories" },
  { name = "codes" },
  { name = "tags" },
]

[markdown.highlighting]
theme = "github-light"
style = "class"
error_on_missing_language = true
"#;

const BASE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{{ config.title }}{% endblock %}</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header><a href="/">{{ config.title }}</a>
<nav>{% for t in config.taxonomies %}<a href="/{{ t.name }}/">{{ t.name }}</a> {% endfor %}</nav>
</header>
<main>{% block main %}{% endblock %}</main>
<footer>{{ config.title }}</footer>
</body>
</html>
"#;

/// Hugo's single.html; `.TableOfContents` (levels 2-3) is drawn from `page.toc`.
const PAGE: &str = r##"{% extends "base.html" %}
{% block title %}{{ page.title }} · {{ config.title }}{% endblock %}
{% block main %}
<article>
{% if page.date %}<p class="meta">{{ page.date | date(format="%Y-%m-%d") }}</p>{% endif %}
{% if page.components[0] == "articles" %}<h1>{{ page.title }}</h1><nav id="TableOfContents"><ul>{% for h in page.toc %}{% if h.level >= 2 and h.level <= 3 %}<li><a href="#{{ h.id }}">{{ h.title }}</a>{% if h.children %}<ul>{% for c in h.children %}{% if c.level <= 3 %}<li><a href="#{{ c.id }}">{{ c.title }}</a></li>{% endif %}{% endfor %}</ul>{% endif %}</li>{% endif %}{% endfor %}</ul></nav>{% endif %}
{{ page.content | safe }}
{% if page.extra.errors %}<h2>Errors discussed</h2><ul>{% for e in page.extra.errors %}<li><a href="/errors/{{ e }}/">{{ e }}</a></li>{% endfor %}</ul>{% endif %}
{% if page.extra.related_errors %}<h2>Related errors</h2><ul>{% for e in page.extra.related_errors %}<li><a href="/errors/{{ e }}/">{{ e }}</a></li>{% endfor %}</ul>{% endif %}
{% if page.taxonomies.tags %}<p class="tags">{% for t in page.taxonomies.tags %}<a href="/tags/{{ t | slugify }}/">{{ t }}</a> {% endfor %}</p>{% endif %}
</article>
{% endblock %}
"##;

/// Hugo's list.html on the sections.
const SECTION: &str = r#"{% extends "base.html" %}
{% block title %}{{ section.title }} · {{ config.title }}{% endblock %}
{% block main %}
<h1>{{ section.title }}</h1>
<ul>
{% for p in section.pages %}<li><a href="{{ p.path }}">{{ p.title }}</a></li>
{% endfor %}
</ul>
{% endblock %}
"#;

/// Hugo's list.html on the home page, whose pages are the top-level sections.
const INDEX: &str = r#"{% extends "base.html" %}
{% block main %}
<h1>{{ config.title }}</h1>
<ul>
{% for s in section.subsections %}{% set sub = get_section(path=s, metadata_only=true) %}<li><a href="{{ sub.path }}">{{ sub.title }}</a></li>
{% endfor %}
</ul>
{% endblock %}
"#;

/// Hugo's list.html on a taxonomy (its terms) ...
const TAXONOMY_LIST: &str = r#"{% extends "base.html" %}
{% block title %}{{ taxonomy.name }} · {{ config.title }}{% endblock %}
{% block main %}
<h1>{{ taxonomy.name }}</h1>
<ul>
{% for t in terms %}<li><a href="{{ t.path }}">{{ t.name }}</a></li>
{% endfor %}
</ul>
{% endblock %}
"#;

/// ... and on a term (its pages).
const TAXONOMY_SINGLE: &str = r#"{% extends "base.html" %}
{% block title %}{{ term.name }} · {{ config.title }}{% endblock %}
{% block main %}
<h1>{{ term.name }}</h1>
<ul>
{% for p in term.pages %}<li><a href="{{ p.path }}">{{ p.title }}</a></li>
{% endfor %}
</ul>
{% endblock %}
"#;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}pre{overflow-x:auto;padding:.5rem}\n";

pub(crate) fn write(w: &Writer, entries: &[GenEntry], articles: &[GenArticle]) -> Result<()> {
    w.put("config.toml", CONFIG)?;
    w.put(
        "config-search.toml",
        &CONFIG.replace("build_search_index = false", "build_search_index = true"),
    )?;
    w.put("templates/base.html", BASE)?;
    w.put("templates/page.html", PAGE)?;
    w.put("templates/section.html", SECTION)?;
    w.put("templates/index.html", INDEX)?;
    w.put("templates/taxonomy_list.html", TAXONOMY_LIST)?;
    w.put("templates/taxonomy_single.html", TAXONOMY_SINGLE)?;
    w.put("static/style.css", STYLE)?;
    w.put("content/_index.md", "+++\n+++\n")?;
    w.put("content/errors/_index.md", "+++\ntitle = \"Errors\"\n+++\n")?;
    for e in entries {
        w.put(&format!("content/errors/{}", file_of(e)), &entry_file(e))?;
    }
    if !articles.is_empty() {
        w.put(
            "content/articles/_index.md",
            "+++\ntitle = \"Articles\"\n+++\n",
        )?;
    }
    for a in articles {
        w.put(&format!("content/articles/{}.md", a.id), &article_file(a))?;
    }
    Ok(())
}

/// An entry's file under `content/errors/`: Hugo's `DOMAIN/SLUG.md` made flat.
fn file_of(e: &GenEntry) -> String {
    format!("{}--{}.md", e.domain, e.slug)
}

fn entry_file(e: &GenEntry) -> String {
    let mut s = String::with_capacity(e.body.len() + 400);
    s.push_str("+++\n");
    let _ = writeln!(s, "title = {}", toml_str(&e.message));
    let _ = writeln!(s, "path = \"errors/{}/{}\"", e.domain, e.slug);
    s.push_str("\n[taxonomies]\n");
    let _ = writeln!(s, "domains = [{}]", toml_str(e.domain));
    let _ = writeln!(s, "categories = [{}]", toml_str(e.category));
    if let Some(c) = &e.code {
        let _ = writeln!(s, "codes = [{}]", toml_str(c));
    }
    if !e.tags.is_empty() {
        let _ = writeln!(s, "tags = [{}]", toml_list(&e.tags));
    }
    if !e.related.is_empty() {
        let _ = writeln!(s, "\n[extra]\nrelated_errors = [{}]", toml_list(&e.related));
    }
    s.push_str("+++\n");
    s.push_str(&e.body);
    s
}

fn article_file(a: &GenArticle) -> String {
    let mut s = String::with_capacity(a.body.len() + 300);
    s.push_str("+++\n");
    let _ = writeln!(s, "title = {}", toml_str(&a.title));
    let _ = writeln!(s, "date = {}", a.date);
    if !a.tags.is_empty() {
        let _ = writeln!(s, "\n[taxonomies]\ntags = [{}]", toml_list(&a.tags));
    }
    let _ = writeln!(s, "\n[extra]\nid = {}", toml_str(&a.id));
    if !a.errors.is_empty() {
        let _ = writeln!(s, "errors = [{}]", toml_list(&a.errors));
    }
    s.push_str("+++\n");
    s.push_str(&a.body);
    s
}

fn toml_list(items: &[String]) -> String {
    items
        .iter()
        .map(|i| toml_str(i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `s` as a TOML string, escaped by the toml crate's writer.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::toml_str;

    #[test]
    fn toml_strings_are_escaped() {
        for s in [r#"a "b" \c"#, "x\ny\u{1}", "it's '''quoted'''"] {
            let doc: toml::Table = toml::from_str(&format!("v = {}", toml_str(s))).unwrap();
            assert_eq!(doc["v"].as_str(), Some(s), "{}", toml_str(s));
        }
    }
}
