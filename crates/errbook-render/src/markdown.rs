//! Markdown to HTML with pulldown-cmark: heading anchors and a table of contents, content links
//! (`@/errors/...md`) rewritten to relative page links, and each code block handed to a callback
//! (the page renders it with its claim, verdict and links).
//!
//! Content is untrusted: the HTML made from it goes through `super::sanitize` before it is
//! returned. Code blocks are rendered by the page (escaped, trusted) and put back in after the
//! cleaning, at placeholders content cannot forge (a random nonce per call). Ids are the
//! writer's alone: generated from heading text or an explicit `{#id}` reduced to a safe anchor,
//! never one the theme uses (`RESERVED`), and the only ids the sanitiser lets through.

use super::ids::{anchor, Ids};
use errbook_core::model::Catalog;
use pulldown_cmark::{
    Alignment, BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Parser, Tag,
    TagEnd,
};
use serde::Serialize;

/// One heading of the table of contents.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TocItem {
    pub level: u8,
    pub id: String,
    pub title: String,
}

#[derive(Debug, Default)]
pub(crate) struct Rendered {
    pub html: String,
    pub toc: Vec<TocItem>,
}

/// Where the Markdown is rendered: for links relative to the page.
pub(crate) struct Place<'a> {
    pub catalog: &'a Catalog,
    /// Site path of the page (`articles/x/`).
    pub page: &'a str,
    pub offline: bool,
}

/// Render `md`; `code(k, info, text)` gives the HTML of the k-th code block (0-based, in order).
pub(crate) fn render(
    md: &str,
    place: &Place<'_>,
    code: impl FnMut(usize, &str, &str) -> String,
) -> Rendered {
    let mut w = Writer {
        place,
        code,
        events: Vec::new(),
        toc: Vec::new(),
        ids: Ids::default(),
        block: None,
        blocks: Vec::new(),
        nonce: format!("{:016x}", fastrand::u64(..)),
        heading: None,
        para: None,
        table: None,
    };
    for ev in Parser::new_ext(md, errbook_parse::snippet::markdown_options()) {
        w.event(ev);
    }
    w.finish(md.len() * 3 / 2)
}

/// A heading being read.
struct Heading<'a> {
    level: HeadingLevel,
    /// Its inline events, rendered inside the `<hN>` at its end.
    inner: Vec<Event<'a>>,
    /// Its plain text, for the anchor and the table of contents.
    text: String,
    /// The id written after it (`## Title {#id}`), if any.
    id: Option<String>,
}

/// The state of one `render`: the events written so far, and the code block, heading or
/// paragraph being read. One method per kind of event.
struct Writer<'a, 'p, F> {
    place: &'p Place<'p>,
    /// The page's renderer of code blocks.
    code: F,
    /// The events for pulldown-cmark's HTML writer; code blocks and headings are HTML already.
    events: Vec<Event<'a>>,
    toc: Vec<TocItem>,
    ids: Ids,
    /// The code block being read: (info string, text).
    block: Option<(String, String)>,
    /// The HTML of each code block handed to `code` so far, put back in after cleaning.
    blocks: Vec<String>,
    /// Marks the code blocks' placeholders for this call alone (content cannot guess it).
    nonce: String,
    heading: Option<Heading<'a>>,
    /// The paragraph being read, held back until its end shows whether it is a bold label.
    para: Option<Vec<Event<'a>>>,
    /// The table being read: its columns' alignments, whether in its head, the cell's column.
    table: Option<Table>,
}

/// A table whose columns are aligned: its cells are written with a class (`align-center`), not
/// the `style` attribute pulldown-cmark writes, which the page's CSP would refuse.
struct Table {
    align: Vec<Alignment>,
    head: bool,
    col: usize,
}

impl<'a, F: FnMut(usize, &str, &str) -> String> Writer<'a, '_, F> {
    fn event(&mut self, ev: Event<'a>) {
        if self.block.is_some() {
            self.code_block_event(ev);
            return;
        }
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => self.start_code_block(kind),
            Event::Start(Tag::Heading { level, id, .. }) => self.start_heading(level, id),
            Event::End(TagEnd::Heading(_)) => self.end_heading(),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = rewrite_link(&dest_url, link_type, self.place)
                    .map(CowStr::from)
                    .unwrap_or(dest_url);
                self.content(Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            Event::Start(Tag::Table(align)) => self.start_table(align),
            Event::End(TagEnd::Table) => {
                self.table = None;
                self.content(Event::End(TagEnd::Table));
            }
            Event::Start(Tag::TableHead) | Event::End(TagEnd::TableHead) => {
                if let Some(t) = self.table.as_mut() {
                    t.head = matches!(ev, Event::Start(_));
                }
                self.content(ev);
            }
            Event::Start(Tag::TableRow) => {
                if let Some(t) = self.table.as_mut() {
                    t.col = 0;
                }
                self.content(ev);
            }
            Event::Start(Tag::TableCell) | Event::End(TagEnd::TableCell) => self.table_cell(ev),
            Event::FootnoteReference(name) => {
                let id = self.ids.footnote(&name);
                self.content(Event::FootnoteReference(id.into()));
            }
            Event::TaskListMarker(done) => self.task_box(done),
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                self.content(Event::Html(alert_open(kind).into()));
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => self.content(Event::Html("</div>\n".into())),
            Event::Start(Tag::FootnoteDefinition(name)) => {
                let id = self.ids.footnote(&name);
                self.content(Event::Start(Tag::FootnoteDefinition(id.into())));
            }
            other => self.content(other),
        }
    }

    /// An aligned table is written without pulldown-cmark's alignment (`style` attributes);
    /// its cells carry classes instead.
    fn start_table(&mut self, align: Vec<Alignment>) {
        if align.iter().all(|a| *a == Alignment::None) {
            self.table = None;
            self.content(Event::Start(Tag::Table(align)));
            return;
        }
        let plain = vec![Alignment::None; align.len()];
        self.table = Some(Table {
            align,
            head: false,
            col: 0,
        });
        self.content(Event::Start(Tag::Table(plain)));
    }

    fn table_cell(&mut self, ev: Event<'a>) {
        let Some(t) = self.table.as_mut() else {
            self.content(ev);
            return;
        };
        let tag = if t.head { "th" } else { "td" };
        let html = if matches!(ev, Event::Start(_)) {
            let class = match t.align.get(t.col) {
                Some(Alignment::Left) => " class=\"align-left\"",
                Some(Alignment::Center) => " class=\"align-center\"",
                Some(Alignment::Right) => " class=\"align-right\"",
                _ => "",
            };
            format!("<{tag}{class}>")
        } else {
            t.col += 1;
            format!("</{tag}>")
        };
        self.content(Event::Html(html.into()));
    }

    /// A task list item's box, as GitHub draws it: a checkbox the reader cannot change. It is
    /// put back after cleaning like a code block (the sanitiser lets no `<input>` through).
    fn task_box(&mut self, done: bool) {
        let k = self.blocks.len();
        self.blocks.push(task_box(done).to_string());
        let mark = placeholder(&self.nonce, k);
        self.content(Event::Html(CowStr::from(mark)));
    }

    fn start_code_block(&mut self, kind: CodeBlockKind<'a>) {
        let info = match kind {
            CodeBlockKind::Fenced(i) => i.to_string(),
            CodeBlockKind::Indented => String::new(),
        };
        self.block = Some((info, String::new()));
    }

    /// Inside a code block: its text is collected; at its end the page renders it.
    fn code_block_event(&mut self, ev: Event<'a>) {
        match ev {
            Event::Text(t) => {
                if let Some((_, text)) = self.block.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let (info, text) = self.block.take().unwrap_or_default();
                let k = self.blocks.len();
                self.blocks.push((self.code)(k, &info, &text));
                let mark = format!("\n{}\n", placeholder(&self.nonce, k));
                self.events.push(Event::Html(CowStr::from(mark)));
            }
            _ => {}
        }
    }

    fn start_heading(&mut self, level: HeadingLevel, id: Option<CowStr<'a>>) {
        self.heading = Some(Heading {
            level,
            inner: Vec::new(),
            text: String::new(),
            id: id.map(|i| i.to_string()),
        });
    }

    /// A heading gets its anchor link, and `##` and `###` a place in the table of contents.
    fn end_heading(&mut self) {
        let Some(h) = self.heading.take() else {
            return;
        };
        let id = self.ids.heading(h.id.as_deref(), &h.text);
        let lvl = h.level as u8;
        if (2..=3).contains(&lvl) {
            self.toc.push(TocItem {
                level: lvl,
                id: id.clone(),
                title: h.text.trim().to_string(),
            });
        }
        let mut inner_html = String::new();
        pulldown_cmark::html::push_html(&mut inner_html, h.inner.into_iter());
        self.events.push(Event::Html(CowStr::from(format!(
            "<h{lvl} id=\"{id}\">{inner_html} <a class=\"anchor\" href=\"#{id}\" aria-label=\"Link to this section\">#</a></h{lvl}>\n"
        ))));
    }

    /// Any other event: part of the heading or paragraph being read, or written as it is.
    fn content(&mut self, ev: Event<'a>) {
        if let Some(h) = self.heading.as_mut() {
            if let Event::Text(t) | Event::Code(t) = &ev {
                h.text.push_str(t);
            }
            h.inner.push(ev);
            return;
        }
        match ev {
            Event::Start(Tag::Paragraph) => self.para = Some(Vec::new()),
            Event::End(TagEnd::Paragraph) => self.end_paragraph(),
            ev => match self.para.as_mut() {
                Some(p) => p.push(ev),
                None => self.events.push(ev),
            },
        }
    }

    /// A paragraph that is only bold text ("**2. Code Examples:**") is how articles write
    /// their headings: it gets an anchor and a place in the table of contents.
    fn end_paragraph(&mut self) {
        let inner = self.para.take().unwrap_or_default();
        match bold_label(&inner) {
            Some(label) => {
                let id = self.ids.claim(anchor(&label), true);
                let numbered = label.chars().next().is_some_and(|c| c.is_ascii_digit());
                self.toc.push(TocItem {
                    level: if numbered { 2 } else { 3 },
                    id: id.clone(),
                    title: label.trim_end_matches(':').trim().to_string(),
                });
                self.events.push(Event::Html(CowStr::from(format!(
                    "<p class=\"label\" id=\"{id}\">"
                ))));
            }
            None => self.events.push(Event::Start(Tag::Paragraph)),
        }
        self.events.extend(inner);
        self.events.push(Event::End(TagEnd::Paragraph));
    }

    /// The HTML, cleaned, with the code blocks put back (`capacity`: a guess of its length),
    /// and the table of contents.
    fn finish(mut self, capacity: usize) -> Rendered {
        if let Some(inner) = self.para.take() {
            self.events.extend(inner);
        }
        let mut html = String::with_capacity(capacity);
        pulldown_cmark::html::push_html(&mut html, self.events.into_iter());
        let clean = super::sanitize::clean(&html, &self.ids.used);
        Rendered {
            html: put_back(&clean, &self.nonce, &self.blocks),
            toc: self.toc,
        }
    }
}

/// The HTML of a task list item's box.
fn task_box(done: bool) -> &'static str {
    if done {
        "<input type=\"checkbox\" disabled checked aria-label=\"done\"> "
    } else {
        "<input type=\"checkbox\" disabled aria-label=\"to do\"> "
    }
}

/// The start of a GitHub alert (`> [!WARNING]`): a callout with its kind's title, in GitHub's
/// markup (`markdown-alert-warning`), so that the theme styles it like a callout.
fn alert_open(kind: BlockQuoteKind) -> String {
    let (class, title) = match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    };
    format!(
        "<div class=\"markdown-alert markdown-alert-{class}\">\n<p class=\"markdown-alert-title\">{title}</p>\n"
    )
}

/// Where code block `k` goes, as text the sanitiser keeps (private-use characters around it).
fn placeholder(nonce: &str, k: usize) -> String {
    format!("\u{E000}{nonce}:{k}\u{E001}")
}

/// `html` with each placeholder replaced by its code block's HTML (in one pass).
fn put_back(html: &str, nonce: &str, blocks: &[String]) -> String {
    if blocks.is_empty() {
        return html.to_string();
    }
    let open = format!("\u{E000}{nonce}:");
    let mut out = String::with_capacity(html.len() + blocks.iter().map(String::len).sum::<usize>());
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        out.push_str(&rest[..i]);
        let after = &rest[i + open.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let block = after[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|k| blocks.get(k));
        match (block, after[digits..].strip_prefix('\u{E001}')) {
            (Some(b), Some(tail)) => {
                out.push_str(b);
                rest = tail;
            }
            _ => {
                out.push_str(&open);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of a paragraph made only of bold text, if it is one.
fn bold_label(inner: &[Event]) -> Option<String> {
    let first = inner.iter().position(|e| !is_blank(e))?;
    let last = inner.iter().rposition(|e| !is_blank(e))?;
    if !matches!(inner[first], Event::Start(Tag::Strong))
        || !matches!(inner[last], Event::End(TagEnd::Strong))
    {
        return None;
    }
    let mut depth = 0;
    let mut text = String::new();
    for (i, e) in inner[first..=last].iter().enumerate() {
        match e {
            Event::Start(Tag::Strong) => depth += 1,
            Event::End(TagEnd::Strong) => {
                depth -= 1;
                if depth == 0 && i + first != last {
                    return None; // bold, then plain text, then bold again
                }
            }
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty() && text.len() < 160).then_some(text)
}

fn is_blank(e: &Event) -> bool {
    matches!(e, Event::Text(t) if t.trim().is_empty()) || matches!(e, Event::SoftBreak)
}

/// `@/...` content links become relative links to the page; others stay as written.
fn rewrite_link(dest: &str, kind: LinkType, place: &Place<'_>) -> Option<String> {
    if matches!(kind, LinkType::Email | LinkType::Autolink) {
        return None;
    }
    let target = errbook_link::resolve_href(place.catalog, dest)?;
    let (path, frag) = match target.split_once('#') {
        Some((p, f)) => (p.to_string(), Some(f.to_string())),
        None => (target, None),
    };
    let mut h = errbook_core::urls::href(place.page, &path, place.offline);
    if let Some(f) = frag {
        h.push('#');
        h.push_str(&f);
    }
    Some(h)
}

/// Text the catalog writes as a plain sentence (a workaround's bold summary): escaped, with
/// backtick spans as code. Not Markdown, so `__name__` stays `__name__`.
pub(crate) fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&super::escape(part));
            out.push_str("</code>");
        } else {
            out.push_str(&super::escape(part));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_anchors_and_toc_and_code_goes_to_callback() {
        let cat = Catalog::default();
        let place = Place {
            catalog: &cat,
            page: "articles/a/",
            offline: false,
        };
        let r = render(
            "## Why *this*\n\ntext\n\n```python run\nx = 1\n```\n\n## Why this\n",
            &place,
            |k, info, text| format!("<CODE {k} {info} {}>", text.trim()),
        );
        assert!(
            r.html.contains("<h2 id=\"why-this\">Why <em>this</em>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("<h2 id=\"why-this-1\">"), "{}", r.html);
        assert!(r.html.contains("<CODE 0 python run x = 1>"), "{}", r.html);
        assert_eq!(r.toc.len(), 2);
        assert_eq!(r.toc[0].title, "Why this");
    }

    fn html_of(md: &str) -> String {
        let cat = Catalog::default();
        let place = Place {
            catalog: &cat,
            page: "articles/a/",
            offline: false,
        };
        render(md, &place, |k, _, _| {
            format!("<figure id=\"code-{k}\">code</figure>")
        })
        .html
    }

    #[test]
    fn a_written_heading_id_cannot_leave_its_attribute() {
        let html = html_of("## A {#x\" onmouseover=\"alert(1)}\n\n## B {#ok-id_2}\n");
        assert!(!html.contains("onmouseover="), "{html}");
        assert!(html.contains("<h2 id=\"x\">"), "{html}");
        assert!(html.contains("<h2 id=\"ok-id_2\">"), "{html}");
    }

    #[test]
    fn content_never_takes_an_id_the_theme_uses() {
        let html = html_of("## Search input {#search-input}\n\n## Workaround 1\n\n## Main\n");
        for id in ["search-input-1", "workaround-1-1", "main-1"] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{id}: {html}");
        }
        assert!(!html.contains("id=\"search-input\""), "{html}");
    }

    #[test]
    fn raw_html_and_script_urls_are_cleaned_and_code_blocks_kept() {
        let html = html_of(
            "<img src=x onerror=alert(1)> [a](javascript:alert(1)) <b id=main>b</b>\n\n```python\nx\n```\n",
        );
        assert!(
            !html.contains("onerror") && !html.contains("javascript"),
            "{html}"
        );
        assert!(html.contains("<b>b</b>"), "{html}");
        assert!(
            html.contains("<figure id=\"code-0\">code</figure>"),
            "{html}"
        );
    }

    #[test]
    fn a_forged_placeholder_stays_text() {
        let html = html_of("\u{E000}0000000000000000:0\u{E001} and more\n\n```\nx\n```\n");
        assert_eq!(html.matches("<figure").count(), 1, "{html}");
    }

    #[test]
    fn aligned_tables_use_classes_and_footnotes_get_their_own_ids() {
        let html = html_of("| a | b |\n|:-:|--:|\n| 1 | 2 |\n\nSee[^n].\n\n[^n]: note\n");
        assert!(html.contains("<th class=\"align-center\">a</th>"), "{html}");
        assert!(html.contains("<td class=\"align-right\">2</td>"), "{html}");
        assert!(!html.contains("style="), "{html}");
        assert!(
            html.contains("href=\"#fn-n\"") && html.contains("id=\"fn-n\""),
            "{html}"
        );
    }

    #[test]
    fn task_lists_and_alerts_render_as_github_does() {
        let html = html_of(
            "- [x] done\n- [ ] to do\n\n> [!WARNING]\n> Mind **this**.\n\n> [!TIP]\n> A tip.\n\n> plain\n",
        );
        let done = r#"<li><input type="checkbox" disabled checked aria-label="done"> done</li>"#;
        assert!(html.contains(done), "{html}");
        assert_eq!(html.matches("<input").count(), 2, "{html}");
        assert_eq!(html.matches("disabled aria").count(), 1, "{html}");
        assert_eq!(html.matches("disabled checked").count(), 1, "{html}");
        // Content cannot write a box of its own: the sanitiser drops every `<input>`.
        assert!(!html_of("<input type=text> [ ] x").contains("<input"));
        assert!(html.contains("<div class=\"markdown-alert markdown-alert-warning\">\n<p class=\"markdown-alert-title\">Warning</p>\n<p>Mind <strong>this</strong>.</p>\n</div>"), "{html}");
        assert!(html.contains("markdown-alert-tip"), "{html}");
        assert!(!html.contains("[!WARNING]"), "{html}");
        assert!(
            html.contains("<blockquote>\n<p>plain</p>\n</blockquote>"),
            "{html}"
        );
    }

    #[test]
    fn plain_keeps_dunder_names() {
        assert_eq!(
            plain("if __name__ == '__main__': `f(x)` <b>"),
            "if __name__ == &#39;__main__&#39;: <code>f(x)</code> &lt;b&gt;"
        );
    }
}
