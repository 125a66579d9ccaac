//! Links out of the catalog: every `http(s)://` link and image of every page's Markdown, with
//! where it is written, for `check --external` to fetch. Only found here; nothing is fetched.

use super::written::{all, Written};
use errbook_parse::load::SourceFile;

/// One link to the outside world, as written.
pub type External = Written;

/// Every external (`http://`, `https://`) link and image of `files`, in file order.
pub fn links(files: &[SourceFile]) -> Vec<External> {
    let out = all(files).into_iter();
    out.filter(|w| w.url.starts_with("http://") || w.url.starts_with("https://"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use errbook_core::model::PageKind;
    use std::sync::Arc;

    #[test]
    fn finds_links_images_and_autolinks_but_not_content_links() {
        let text = "---\ntitle: x\n---\nSee [docs](https://example.org/a) and ![i](http://x.test/i.png),\n<https://auto.test/>, [in](@/errors/a/b.md), [rel](../x.md).\n";
        let f = SourceFile {
            kind: PageKind::Article,
            path: "content/articles/a.md".into(),
            text: Arc::from(text),
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
