//! Links out of the catalog: every `http(s)://` link and image of every page's Markdown, with
//! where it is written, for `check --external` to fetch. Only found here; nothing is fetched.

use crate::load::SourceFile;
use pulldown_cmark::{Event, Parser, Tag};
use std::path::PathBuf;
use std::sync::Arc;

/// One link to the outside world, as written.
#[derive(Debug, Clone)]
pub(crate) struct External {
    pub(crate) url: String,
    pub(crate) path: PathBuf,
    pub(crate) src: Arc<str>,
    /// Byte range of the URL in `src` (or of the whole link when the URL is not written out).
    pub(crate) at: (usize, usize),
}

/// Every external link of `files`, in file order.
pub(crate) fn links(files: &[SourceFile]) -> Vec<External> {
    let mut out = Vec::new();
    for f in files {
        let start = super::explicit::front_matter_end(&f.text);
        let Some(body) = f.text.get(start..) else {
            continue;
        };
        let opts = crate::parse::snippet::markdown_options();
        for (ev, range) in Parser::new_ext(body, opts).into_offset_iter() {
            let url = match ev {
                Event::Start(Tag::Link { dest_url, .. })
                | Event::Start(Tag::Image { dest_url, .. }) => dest_url.to_string(),
                _ => continue,
            };
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                continue;
            }
            let seg = body.get(range.clone()).unwrap_or("");
            let (o, len) = seg.find(&url).map_or((0, seg.len()), |i| (i, url.len()));
            out.push(External {
                url,
                path: f.path.clone(),
                src: f.text.clone(),
                at: (start + range.start + o, len),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::PageKind;

    #[test]
    fn finds_links_images_and_autolinks_but_not_content_links() {
        let text = "---\ntitle: x\n---\nSee [docs](https://example.org/a) and ![i](http://x.test/i.png),\n<https://auto.test/>, [in](@/errors/a/b.md), [rel](../x.md).\n";
        let f = SourceFile {
            kind: PageKind::Article,
            path: "content/articles/a.md".into(),
            text: Arc::from(text),
            mtime: None,
        };
        let found = links(std::slice::from_ref(&f));
        let urls: Vec<&str> = found.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://example.org/a",
                "http://x.test/i.png",
                "https://auto.test/"
            ]
        );
        let (o, l) = found[0].at;
        assert_eq!(&text[o..o + l], "https://example.org/a");
    }
}
