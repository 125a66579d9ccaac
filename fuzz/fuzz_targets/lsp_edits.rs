//! The language server under random edits of the seed catalog: one server (`errbook_lsp::run`
//! on an in-memory connection) on a copy of the repository's catalog, kept for the whole run;
//! each input is a list of edits (a file, a place, bytes taken out, text put in), each sent as
//! the editor sends it and followed by a request at a random place (completion, hover,
//! definition, references, rename, symbols, code actions). The server's checks of the whole
//! catalog run behind, as they do in an editor.
//!
//! Beyond "no panic" (libFuzzer's hook aborts on one, caught or not): every request is
//! answered, without an internal error, within the input's time.
#![no_main]

use arbitrary::Arbitrary;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

#[derive(Arbitrary, Debug)]
struct Edit {
    file: u8,
    at: u16,
    take: u8,
    put: String,
    ask: u8,
    line: u8,
    col: u8,
}

const FILES: &[&str] = &[
    "content/errors/pytorch/dataset-worker-fork-cuda.md",
    "content/articles/why-am-i-getting-a-cuda-initialization-error.md",
];

const ASKS: &[&str] = &[
    "textDocument/completion",
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/rename",
    "textDocument/documentSymbol",
    "textDocument/codeAction",
];

struct Server {
    conn: Connection,
    root: PathBuf,
    seed: Vec<String>,
    version: i32,
    id: i32,
}

fn server() -> &'static Mutex<Server> {
    static S: OnceLock<Mutex<Server>> = OnceLock::new();
    S.get_or_init(|| {
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = tempfile::tempdir().expect("temp dir").keep();
        for d in ["content", "themes", "verify"] {
            copy(&repo.join(d), &dir.join(d));
        }
        std::fs::copy(repo.join("book.toml"), dir.join("book.toml")).expect("book.toml");
        let (client, server) = Connection::memory();
        let root = dir.clone();
        std::thread::spawn(move || errbook_lsp::run(server, &root));
        let uri = format!("file://{}", dir.display());
        let init = json!({"capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "seed"}]});
        let req = Request::new(RequestId::from(0), "initialize".into(), init);
        client.sender.send(req.into()).expect("send");
        loop {
            if let Ok(Message::Response(_)) = client.receiver.recv() {
                break;
            }
        }
        let note = Notification::new("initialized".into(), json!({}));
        client.sender.send(note.into()).expect("send");
        let seed: Vec<String> = (FILES.iter())
            .map(|f| std::fs::read_to_string(dir.join(f)).expect("seed file"))
            .collect();
        let s = Server { conn: client, root: dir, seed, version: 0, id: 0 };
        for i in 0..FILES.len() {
            let doc = json!({"uri": s.uri(i), "languageId": "markdown", "version": 0, "text": s.seed[i]});
            s.notify("textDocument/didOpen", json!({"textDocument": doc}));
        }
        Mutex::new(s)
    })
}

fn copy(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("dir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

impl Server {
    fn uri(&self, i: usize) -> String {
        format!("file://{}", self.root.join(FILES[i]).display())
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.into(), params);
        self.conn.sender.send(n.into()).expect("the server is gone");
    }

    fn ask(&mut self, method: &str, params: Value) {
        self.id += 1;
        let id = RequestId::from(self.id);
        self.conn.sender.send(Request::new(id.clone(), method.into(), params).into()).expect("send");
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(10)) {
                Ok(Message::Response(r)) if r.id == id => {
                    if let Err(e) = r.response_result {
                        assert_ne!(e.code, lsp_server::ErrorCode::InternalError as i32, "{method}: {}", e.message);
                    }
                    return;
                }
                Ok(Message::Notification(n)) if n.method == "window/showMessage" => {
                    assert!(!n.params.to_string().contains("bug"), "{}", n.params);
                }
                Ok(_) => {}
                Err(_) => panic!("{method}: no answer in 10 s"),
            }
        }
    }
}

libfuzzer_sys::fuzz_target!(|edits: Vec<Edit>| {
    let mut s = server().lock().unwrap_or_else(|p| p.into_inner());
    let mut texts = s.seed.clone();
    for e in edits.iter().take(32) {
        let i = e.file as usize % FILES.len();
        let t = &mut texts[i];
        let mut at = (e.at as usize) % (t.len() + 1);
        while !t.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + e.take as usize).min(t.len());
        while !t.is_char_boundary(end) {
            end += 1;
        }
        t.replace_range(at..end, &e.put);
        s.version += 1;
        let doc = json!({"uri": s.uri(i), "version": s.version});
        s.notify("textDocument/didChange", json!({"textDocument": doc, "contentChanges": [{"text": t}]}));
        let ask = ASKS[e.ask as usize % ASKS.len()];
        let pos = json!({"line": e.line, "character": e.col});
        let range = json!({"start": pos, "end": pos});
        let params = json!({
            "textDocument": {"uri": s.uri(i)},
            "position": pos,
            "newName": "pytorch/renamed",
            "context": {"includeDeclaration": true, "diagnostics": []},
            "range": range,
        });
        s.ask(ask, params);
    }
});
