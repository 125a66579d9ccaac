//! `errbook lsp` driven over stdio as an editor drives it: initialize, open a document of the
//! seed catalog, type into it, and read what the server publishes and answers (diagnostics with
//! check's codes, completion, hover, definition, references, rename, code actions, shutdown).

use super::common::{copy_tree, errbook, repo, seed_declaring_errors};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const ENTRY: &str = "content/errors/pytorch/dataset-worker-fork-cuda.md";
const ARTICLE: &str = "content/articles/why-am-i-getting-a-cuda-initialization-error.md";

/// A copy of the seed catalog.
fn seed() -> tempfile::TempDir {
    // The seed articles declare no `errors:`; this copy adds it, so that references exist to
    // complete, hover, follow and rename.
    let dir = seed_declaring_errors();
    copy_tree(&repo().join("themes"), &dir.path().join("themes"));
    dir
}

/// The server, and what it sent so far.
struct Session {
    child: Child,
    stdin: ChildStdin,
    from: Receiver<Value>,
    root: PathBuf,
    next_id: i64,
}

impl Session {
    fn start(root: &Path) -> Session {
        let bin = errbook().get_program().to_owned();
        let mut child = Command::new(bin)
            .arg("--root")
            .arg(root)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (tx, from) = channel();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || loop {
            let mut len = 0;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length:") {
                    len = n.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; len];
            out.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        let stdin = child.stdin.take().unwrap();
        let root = root.canonicalize().unwrap();
        let mut s = Session {
            child,
            stdin,
            from,
            root,
            next_id: 0,
        };
        let uri = s.uri("");
        let init = json!({"capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "seed"}]});
        let caps = s.request("initialize", init);
        assert!(caps["capabilities"]["renameProvider"].as_bool().unwrap());
        s.notify("initialized", json!({}));
        s
    }

    fn uri(&self, rel: &str) -> String {
        format!("file://{}", self.root.join(rel).display())
            .trim_end_matches('/')
            .to_string()
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let resp = self.wait(|m| m["id"] == id && m.get("method").is_none(), method);
        assert!(resp.get("error").is_none(), "{method}: {resp}");
        resp["result"].clone()
    }

    /// The first message that `pred` takes; a server that says nothing for a minute fails.
    fn wait(&mut self, pred: impl Fn(&Value) -> bool, what: &str) -> Value {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(_) => {}
                Err(_) => panic!("no answer: {what}"),
            }
        }
    }

    /// The diagnostics published for `rel` until `pred` takes them.
    fn diagnostics(&mut self, rel: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = self.uri(rel);
        let m = self.wait(
            |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri.as_str()
                    && pred(m["params"]["diagnostics"].as_array().unwrap())
            },
            &format!("diagnostics of {rel}"),
        );
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn open(&mut self, rel: &str) -> String {
        let text = std::fs::read_to_string(self.root.join(rel)).unwrap();
        let doc =
            json!({"uri": self.uri(rel), "languageId": "markdown", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
        text
    }

    fn change(&mut self, rel: &str, version: i32, text: &str) {
        let doc = json!({"uri": self.uri(rel), "version": version});
        let params = json!({"textDocument": doc, "contentChanges": [{"text": text}]});
        self.notify("textDocument/didChange", params);
    }

    /// `{textDocument, position}` at byte `offset` of `text` (ASCII before it).
    fn at(&self, rel: &str, text: &str, offset: usize) -> Value {
        let line = text[..offset].matches('\n').count();
        let col = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
        json!({"textDocument": {"uri": self.uri(rel)}, "position": {"line": line, "character": col}})
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < until, "the server did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn has_code(diags: &[Value], code: &str) -> bool {
    diags.iter().any(|d| d["code"] == code)
}

#[test]
fn a_broken_reference_is_reported_as_typed_fixed_by_its_action_and_cleared() {
    let dir = seed();
    let mut s = Session::start(dir.path());
    let text = s.open(ARTICLE);
    s.diagnostics(ARTICLE, |d| !has_code(d, "E-link"));
    let typo = "\nSee [the entry](@/errors/pytorch/dataset-worker-fork-cuad.md).\n";
    let broken = format!("{text}{typo}");
    s.change(ARTICLE, 2, &broken);
    let diags = s.diagnostics(ARTICLE, |d| has_code(d, "E-link"));
    let d = diags.iter().find(|d| d["code"] == "E-link").unwrap();
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"]["start"]["line"], broken.lines().count() - 1);
    assert!(
        d["message"].as_str().unwrap().contains("did you mean"),
        "{d}"
    );
    let params = json!({
        "textDocument": {"uri": s.uri(ARTICLE)},
        "range": d["range"],
        "context": {"diagnostics": [d]},
    });
    let actions = s.request("textDocument/codeAction", params);
    let fix = (actions.as_array().unwrap().iter())
        .find(|a| a["title"].as_str().unwrap().starts_with("replace with"))
        .expect("a did-you-mean action");
    let edit = &fix["edit"]["changes"][s.uri(ARTICLE)][0];
    assert_eq!(
        edit["newText"],
        "@/errors/pytorch/dataset-worker-fork-cuda.md"
    );
    let fixed = broken.replace("fork-cuad", "fork-cuda");
    s.change(ARTICLE, 3, &fixed);
    s.diagnostics(ARTICLE, |d| !has_code(d, "E-link"));
    s.shutdown();
}

#[test]
fn an_entry_whose_id_no_longer_matches_its_path_is_reported() {
    let dir = seed();
    let mut s = Session::start(dir.path());
    let text = s.open(ENTRY);
    s.diagnostics(ENTRY, |d| !has_code(d, "E-id-path"));
    let moved = text.replacen(
        "`pytorch/dataset-worker-fork-cuda`",
        "`pytorch/fork-cuda`",
        1,
    );
    s.change(ENTRY, 2, &moved);
    s.diagnostics(ENTRY, |d| has_code(d, "E-id-path"));
    s.change(ENTRY, 3, &text);
    s.diagnostics(ENTRY, |d| !has_code(d, "E-id-path"));
    s.shutdown();
}

#[test]
fn completion_hover_definition_references_and_rename_answer_from_the_catalog() {
    let dir = seed();
    let mut s = Session::start(dir.path());
    let text = s.open(ARTICLE);
    s.diagnostics(ARTICLE, |_| true);
    // Wait for the whole catalog's check: its diagnostics are published for the entry too.
    std::thread::sleep(Duration::from_millis(800));
    let typed = format!("{text}\nSee @/er");
    s.change(ARTICLE, 2, &typed);
    let items = s.request(
        "textDocument/completion",
        s.at(ARTICLE, &typed, typed.len()),
    );
    let labels: Vec<&str> = (items["items"].as_array().unwrap().iter())
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"errors/pytorch/dataset-worker-fork-cuda.md"),
        "{labels:?}"
    );
    let typed = format!("{text}\nSee @/errors/pytorch/dataset-worker-fork-cuda.md#");
    s.change(ARTICLE, 3, &typed);
    let items = s.request(
        "textDocument/completion",
        s.at(ARTICLE, &typed, typed.len()),
    );
    assert!(items.to_string().contains("workaround-1"), "{items}");

    let on_id = text.find("pytorch/dataset-worker-fork-cuda").unwrap() + 3;
    let hover = s.request("textDocument/hover", s.at(ARTICLE, &typed, on_id));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("Cannot re-initialize CUDA"), "{shown}");
    // A code block's hover: the claim errbook read from the text, with the words it rests on.
    let in_block = text.find("```python").unwrap() + 12;
    let hover = s.request("textDocument/hover", s.at(ARTICLE, &typed, in_block));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        shown.contains("fails") && shown.contains("read from the text"),
        "{hover}"
    );
    assert!(shown.contains("Incorrect Initialization"), "{shown}");
    let def = s.request("textDocument/definition", s.at(ARTICLE, &typed, on_id));
    assert_eq!(def["uri"], s.uri(ENTRY));
    let mut params = s.at(ARTICLE, &typed, on_id);
    params["context"] = json!({"includeDeclaration": true});
    let refs = s.request("textDocument/references", params);
    assert!(refs.to_string().contains(&s.uri(ARTICLE)), "{refs}");

    let mut params = s.at(ARTICLE, &typed, on_id);
    params["newName"] = json!("pytorch/fork-cuda");
    let edit = s.request("textDocument/rename", params);
    let ops = edit["documentChanges"].as_array().unwrap();
    let rename = ops
        .iter()
        .find(|o| o["kind"] == "rename")
        .expect("a file rename");
    assert_eq!(rename["oldUri"], s.uri(ENTRY));
    assert_eq!(
        rename["newUri"],
        s.uri("content/errors/pytorch/fork-cuda.md")
    );
    let edited = |uri: String| {
        (ops.iter())
            .filter(|o| o["textDocument"]["uri"] == uri.as_str())
            .flat_map(|o| o["edits"].as_array().unwrap().clone())
            .map(|e| e["newText"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(edited(s.uri(ARTICLE)).contains(&"pytorch/fork-cuda".to_string()));
    assert!(edited(s.uri(ENTRY)).contains(&"pytorch/fork-cuda".to_string()));
    let symbols = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": s.uri(ARTICLE)}}),
    );
    assert!(!symbols.as_array().unwrap().is_empty());
    s.shutdown();
}

#[test]
fn any_request_on_any_text_gets_an_answer() {
    let dir = seed();
    let mut s = Session::start(dir.path());
    s.open(ENTRY);
    let texts = [
        "",
        "---\n",
        "---\nerrors: [\"",
        "# x\n- **",
        "```python run after=",
        "\u{1F600}@/#",
    ];
    for (v, t) in texts.iter().enumerate() {
        s.change(ENTRY, v as i32 + 2, t);
        for m in [
            "textDocument/completion",
            "textDocument/hover",
            "textDocument/definition",
        ] {
            s.request(m, s.at(ENTRY, t, t.len()));
        }
    }
    s.shutdown();
}

const DATALOADER: &str =
    "content/articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-.md";

/// Line `n` (0-based) of the DataLoader article after `errbook claims --write` in `copy`.
fn line_by_claims_write(copy: tempfile::TempDir, n: usize) -> String {
    let o = errbook()
        .arg("--root")
        .arg(copy.path())
        .args(["claims", "--write", DATALOADER])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(copy.path().join(DATALOADER)).unwrap();
    text.lines().nth(n).unwrap().to_string()
}

/// A copy of the seed catalog as written (the articles declare nothing).
fn seed_as_written() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["content", "verify", "themes"] {
        copy_tree(&repo().join(part), &dir.path().join(part));
    }
    std::fs::copy(repo().join("book.toml"), dir.path().join("book.toml")).unwrap();
    dir
}

/// `errbook claims --format json` on the page `rel` of `root`: its blocks.
fn claims_of(root: &Path, rel: &str) -> Vec<Value> {
    let o = errbook()
        .arg("--root")
        .arg(root)
        .args(["claims", "--format", "json", rel])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["blocks"].as_array().unwrap().clone()
}

impl Session {
    /// The code actions that write a reading, asked with the cursor on `line` (0-based) of
    /// `rel`; `until` says when the answer is the one awaited (the analysis may still run).
    fn reading_actions(
        &mut self,
        rel: &str,
        line: usize,
        until: fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let pos = json!({"line": line, "character": 3});
        let params = json!({
            "textDocument": {"uri": self.uri(rel)},
            "range": {"start": pos, "end": pos},
            "context": {"diagnostics": []},
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let all = self.request("textDocument/codeAction", params.clone());
            let found: Vec<Value> = (all.as_array().unwrap().iter())
                .filter(|a| (a["title"].as_str().unwrap()).starts_with("Write errbook's reading"))
                .cloned()
                .collect();
            if until(&found) || Instant::now() > deadline {
                return found;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// `text` with `edit` (an LSP TextEdit on ASCII lines) applied.
fn apply(text: &str, edit: &Value) -> String {
    let at = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().unwrap() as usize
    };
    let (s, e) = (at(&edit["range"]["start"]), at(&edit["range"]["end"]));
    format!(
        "{}{}{}",
        &text[..s],
        edit["newText"].as_str().unwrap(),
        &text[e..]
    )
}

#[test]
fn a_blocks_reading_is_written_as_attributes_by_its_action_as_claims_write_writes_it() {
    // The article names its entry (`errors:`): Example 1, read as failing with no error named,
    // is written with the entry's error, as `claims --write` writes it.
    let dir = seed_declaring_errors();
    let before = claims_of(dir.path(), DATALOADER);
    let example1 = (before.iter()).find(|b| b["block"] == 1).unwrap().clone();
    assert_eq!(example1["source"], "inferred", "{example1}");
    let fence = example1["line"].as_u64().unwrap() as usize - 1;

    // What `errbook claims --write` writes on the fence, in another copy.
    let by_write = line_by_claims_write(seed_declaring_errors(), fence);

    let mut s = Session::start(dir.path());
    let text = s.open(DATALOADER);
    // Inside the block's code, as on its fence line.
    let found = s.reading_actions(DATALOADER, fence + 3, |a| !a.is_empty());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        s.reading_actions(DATALOADER, fence, |a| !a.is_empty()),
        found
    );
    let action = &found[0];
    assert_eq!(action["kind"], "refactor.rewrite");
    let attrs = by_write.strip_prefix("```python ").unwrap();
    assert_eq!(
        action["title"],
        format!("Write errbook's reading as attributes: {attrs}")
    );
    let changes = action["edit"]["changes"].as_object().unwrap();
    assert_eq!(changes.len(), 1);
    let edits = changes[&s.uri(DATALOADER)].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    let edit = &edits[0];
    let written = text.lines().nth(fence).unwrap();
    assert_eq!(
        edit["range"],
        json!({"start": {"line": fence, "character": 0},
               "end": {"line": fence, "character": written.len()}})
    );
    assert_eq!(edit["newText"], by_write);
    assert!(
        by_write.contains("run expect=RuntimeError match="),
        "{by_write}"
    );

    // Applied (the server wrote nothing itself), the block is declared with the same claim.
    assert_eq!(
        std::fs::read_to_string(dir.path().join(DATALOADER)).unwrap(),
        text
    );
    let applied = apply(&text, edit);
    std::fs::write(dir.path().join(DATALOADER), &applied).unwrap();
    let after = claims_of(dir.path(), DATALOADER);
    let now = after.iter().find(|b| b["block"] == 1).unwrap();
    assert_eq!(now["source"], "declared", "{now}");
    for key in ["claim", "error", "gpus", "continues", "line"] {
        assert_eq!(now[key], example1[key], "{key}");
    }

    // Declared, the block has no such action; nor has a block an entry declares.
    s.change(DATALOADER, 2, &applied);
    let left = s.reading_actions(DATALOADER, fence + 3, |a| a.is_empty());
    assert!(left.is_empty(), "{left:?}");
    let entry = s.open(ENTRY);
    let declared = entry
        .lines()
        .position(|l| l.contains("expect=RuntimeError"))
        .unwrap();
    s.diagnostics(ENTRY, |_| true);
    assert!(s.reading_actions(ENTRY, declared, |_| true).is_empty());
    s.shutdown();
}

/// In the catalog as written the article's entry is only inferred, and the language server's
/// check infers no links: Example 1, which expects that entry's error, gets no action (it would
/// write less than `claims --write`); Example 2, read as working, gets the same line.
#[test]
fn a_block_expecting_an_inferred_entrys_error_gets_no_action_in_the_editor() {
    let dir = seed_as_written();
    let blocks = claims_of(dir.path(), DATALOADER);
    let fence_of = |n: u64| {
        let b = blocks.iter().find(|b| b["block"] == n).unwrap();
        b["line"].as_u64().unwrap() as usize - 1
    };
    let (first, second) = (fence_of(1), fence_of(2));
    let by_write = line_by_claims_write(seed_as_written(), second);

    let mut s = Session::start(dir.path());
    s.open(DATALOADER);
    let found = s.reading_actions(DATALOADER, second, |a| !a.is_empty());
    assert_eq!(found.len(), 1, "{found:?}");
    let edits = found[0]["edit"]["changes"][&s.uri(DATALOADER)]
        .as_array()
        .unwrap();
    assert_eq!(edits[0]["newText"], by_write);
    assert!(s.reading_actions(DATALOADER, first, |_| true).is_empty());
    s.shutdown();
}
