//! Every link and image written in the Markdown of each content file, as written and where:
//! what `external` picks the links out of the catalog from, and what `site`'s check of links
//! within the site resolves against the rendered pages. Only found here; nothing is resolved.

use errbook_parse::load::SourceFile;
use pulldown_cmark::{Event, LinkType, Parser, Tag};
use std::path::PathBuf;
use std::sync::Arc;

/// One link or image, as written.
#[derive(Debug, Clone)]
pub struct Written {
    pub url: String,
    pub path: PathBuf,
    pub src: Arc<str>,
    /// Byte range of the URL in `src` (or of the whole link when the URL is not written out).
    pub at: (usize, usize),
    /// An image (`![alt](src)`), not a link.
    pub image: bool,
}

/// Every link and image of `files`' Markdown bodies (front matter left out), in file order.
pub fn all(files: &[SourceFile]) -> Vec<Written> {
    let mut out = Vec::new();
    for f in files {
        let start = super::explicit::front_matter_end(&f.text);
        let Some(body) = f.text.get(start..) else {
            continue;
        };
        let opts = errbook_parse::snippet::markdown_options();
        for (ev, range) in Parser::new_ext(body, opts).into_offset_iter() {
            let (url, image) = match ev {
                // An e-mail autolink (`<a@b.org>`) is an address, not a link to follow.
                Event::Start(Tag::Link {
                    link_type: LinkType::Email,
                    ..
                }) => continue,
                Event::Start(Tag::Link { dest_url, .. }) => (dest_url.to_string(), false),
                Event::Start(Tag::Image { dest_url, .. }) => (dest_url.to_string(), true),
                _ => continue,
            };
            let seg = body.get(range.clone()).unwrap_or("");
            let (o, len) = match seg.find(&url) {
                Some(i) if !url.is_empty() => (i, url.len()),
                _ => (0, seg.len()),
            };
            out.push(Written {
                url,
                path: f.path.clone(),
                src: f.text.clone(),
                at: (start + range.start + o, len),
                image,
            });
        }
    }
    out
}
