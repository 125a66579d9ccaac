//! The same pages as a Hugo site: YAML front matter Hugo understands (title, date, taxonomies
//! for domain, category, code and tags, so Hugo builds the index pages errbook builds), the
//! same Markdown body, a minimal layout of its own (baseof, single, list) and Hugo's own
//! highlighter (Chroma, class-based like errbook's).

use super::articles::GenArticle;
use super::entries::GenEntry;
use super::text::yaml_str;
use super::writer::Writer;
use super::Result;
use std::fmt::Write;

const CONFIG: &str = r#"baseURL = "https://bench.example.org/"
languageCode = "en"
title = "Synthetic error catalog"
enableRobotsTXT = false

[taxonomies]
domain = "domains"
category = "categories"
code = "codes"
tag = "tags"

[markup]
  [markup.highlight]
    codeFences = true
    noClasses = false
    guessSyntax = false
  [markup.tableOfContents]
    startLevel = 2
    endLevel = 3
"#;

const BASEOF: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if not .IsHome }}{{ .Title }} · {{ end }}{{ .Site.Title }}</title>
<link rel="stylesheet" href="{{ "style.css" | relURL }}">
</head>
<body>
<header><a href="{{ "/" | relURL }}">{{ .Site.Title }}</a>
<nav>{{ range $name, $_ := .Site.Taxonomies }}<a href="{{ printf "/%s/" $name | relURL }}">{{ $name }}</a> {{ end }}</nav>
</header>
<main>{{ block "main" . }}{{ end }}</main>
<footer>{{ .Site.Title }}</footer>
</body>
</html>
"#;

const SINGLE: &str = r#"{{ define "main" }}
<article>
{{ with .Date }}<p class="meta">{{ $.Date.Format "2006-01-02" }}</p>{{ end }}
{{ if eq .Section "articles" }}<h1>{{ .Title }}</h1>{{ .TableOfContents }}{{ end }}
{{ .Content }}
{{ with .Params.errors }}<h2>Errors discussed</h2><ul>{{ range . }}<li><a href="{{ printf "/errors/%s/" . | relURL }}">{{ . }}</a></li>{{ end }}</ul>{{ end }}
{{ with .Params.related_errors }}<h2>Related errors</h2><ul>{{ range . }}<li><a href="{{ printf "/errors/%s/" . | relURL }}">{{ . }}</a></li>{{ end }}</ul>{{ end }}
{{ with .Params.tags }}<p class="tags">{{ range . }}<a href="{{ printf "/tags/%s/" (urlize .) | relURL }}">{{ . }}</a> {{ end }}</p>{{ end }}
</article>
{{ end }}
"#;

const LIST: &str = r#"{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}
</ul>
{{ end }}
"#;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}pre{overflow-x:auto;padding:.5rem}\n";

pub(crate) fn write(w: &Writer, entries: &[GenEntry], articles: &[GenArticle]) -> Result<()> {
    w.put("config.toml", CONFIG)?;
    w.put("layouts/_default/baseof.html", BASEOF)?;
    w.put("layouts/_default/single.html", SINGLE)?;
    w.put("layouts/_default/list.html", LIST)?;
    w.put("static/style.css", STYLE)?;
    for e in entries {
        let mut s = String::with_capacity(e.body.len() + 400);
        s.push_str("---\n");
        let _ = writeln!(s, "title: {}", yaml_str(&e.message));
        let _ = writeln!(s, "domains: [{}]", e.domain);
        let _ = writeln!(s, "categories: [{}]", e.category);
        if let Some(c) = &e.code {
            let _ = writeln!(s, "codes: [{}]", yaml_str(c));
        }
        if !e.tags.is_empty() {
            let _ = writeln!(s, "tags: [{}]", e.tags.join(", "));
        }
        if !e.related.is_empty() {
            s.push_str("related_errors:\n");
            for r in &e.related {
                let _ = writeln!(s, "  - {}", yaml_str(r));
            }
        }
        s.push_str("---\n");
        s.push_str(&e.body);
        w.put(&format!("content/errors/{}/{}.md", e.domain, e.slug), &s)?;
    }
    for a in articles {
        // The errbook file's front matter (title, date, id, errors, tags) is valid Hugo front
        // matter as it is.
        w.put(&format!("content/articles/{}.md", a.id), &a.errbook_file())?;
    }
    Ok(())
}
