//! One file of the site that a stage makes whole (the search index, a feed, the JSON API): its
//! path relative to the output folder and its bytes. Pages are written as they are rendered.

/// One file of the output, relative to the output folder.
#[derive(Debug, Clone)]
pub struct OutFile {
    /// With `/` separators (`search/index.json`).
    pub path: String,
    pub bytes: Vec<u8>,
}

impl OutFile {
    pub fn new(path: impl Into<String>, bytes: Vec<u8>) -> OutFile {
        OutFile {
            path: path.into(),
            bytes,
        }
    }
}
