//! The body's Markdown links that may name other content (`@/...`, relative `.md` paths), with
//! where they are written: taken out at parse time, so that the link stage checks them without
//! the file's text. Which of them name nothing is the link stage's to decide.

use errbook_core::model::ContentLink;
use pulldown_cmark::{Event, Parser, Tag};

/// End of the leading `---` block of `src` (0 when there is none).
pub fn front_matter_end(src: &str) -> usize {
    let first_end = src.find('\n').unwrap_or(src.len());
    if src[..first_end].trim_end() != "---" {
        return 0;
    }
    let mut pos = first_end + 1;
    while pos < src.len() {
        let end = src[pos..].find('\n').map(|i| pos + i).unwrap_or(src.len());
        let line = src[pos..end].trim_end();
        if line == "---" || line == "..." {
            return (end + 1).min(src.len());
        }
        pos = end + 1;
    }
    0
}

/// Every link and image of `src`'s body (front matter left out) whose destination starts with
/// `@/` or holds `.md`, in document order, each at the byte span of its destination in `src`
/// (the whole link's when the destination is not written out as such).
pub(crate) fn content_links(src: &str) -> Vec<ContentLink> {
    let start = front_matter_end(src);
    let body = &src[start..];
    if !body.contains("@/") && !body.contains(".md") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (ev, range) in Parser::new_ext(body, super::snippet::markdown_options()).into_offset_iter()
    {
        let dest = match ev {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => dest_url,
            _ => continue,
        };
        if !dest.starts_with("@/") && !dest.contains(".md") {
            continue;
        }
        let seg = body.get(range.clone()).unwrap_or("");
        let (o, len) = match seg.find(&*dest) {
            Some(i) => (i, dest.len()),
            None => (0, seg.len()),
        };
        out.push(ContentLink {
            dest: dest.as_ref().into(),
            at: start + range.start + o,
            len,
        });
    }
    out.shrink_to_fit();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_to_content_are_found_where_written() {
        let src =
            "---\ntitle: t\n---\nSee [x](@/errors/a/b.md), [y](https://e.org) and ![i](../c.md).\n";
        let found = content_links(src);
        let spans: Vec<&str> = found.iter().map(|l| &src[l.at..l.at + l.len]).collect();
        assert_eq!(spans, ["@/errors/a/b.md", "../c.md"]);
        assert_eq!(&*found[1].dest, "../c.md");
    }

    #[test]
    fn front_matter_is_not_body() {
        assert!(content_links("---\nx: \"[a](@/b.md)\"\n---\nno links\n").is_empty());
        assert_eq!(front_matter_end("no front matter\n"), 0);
    }
}
