//! The server's loop: the LSP handshake, then each message from the editor, the worker's
//! checks as they end, and a check started at a change when none runs (`SETTLE`). Each request is
//! answered from the last analysis and the open documents' texts; a panic in a handler (a bug)
//! answers that request with an error and the server goes on.

use super::state::State;
use super::worker::{self, Done, Job};
use super::{actions, complete, diagnose, docs, hover, navigate, symbols};
use crossbeam_channel::{select, Receiver, Sender};
use errbook_core::error::{Error, Result};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the editor must be quiet before the whole catalog is checked again: not at all. A
/// change starts a check at once when none runs; the changes made while one runs are sent
/// together when it ends, so fast typing costs one check at a time, not one per key.
const SETTLE: Duration = Duration::from_millis(0);

/// Speak LSP on stdin and stdout for the catalog at `root` until the editor says exit.
pub fn run_stdio(root: &Path) -> Result<()> {
    let (conn, io) = Connection::stdio();
    run(conn, root)?;
    // Once the editor said exit, its reading thread may still try to hand on the last message
    // (or stdin may close under it): nothing is lost then.
    if let Err(e) = io.join() {
        tracing::debug!("the editor's connection after exit: {e}");
    }
    Ok(())
}

/// Speak LSP on `conn` for the catalog at `root` (or the workspace folder the editor names,
/// where it holds a book.toml).
pub fn run(conn: Connection, root: &Path) -> Result<()> {
    let caps = serde_json::to_value(capabilities()).unwrap_or_default();
    let init = conn
        .initialize(caps)
        .map_err(|e| Error::system("the LSP handshake", e))?;
    let root = root_of(init, root);
    let (jobs, done) = worker::start(&root);
    let mut server = Server {
        state: State::new(root),
        conn,
        jobs,
        due: None,
        running: false,
        pending: Job::default(),
    };
    server.check_now();
    server.serve(&done)
}

/// What the server offers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(["/", "#", "=", " ", "*"].map(String::from).to_vec()),
            ..Default::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    }
}

/// The root: the editor's workspace folder when it holds a book.toml, else `given`.
fn root_of(init: serde_json::Value, given: &Path) -> PathBuf {
    let given = std::path::absolute(given).unwrap_or_else(|_| given.to_path_buf());
    let params: Option<InitializeParams> = serde_json::from_value(init).ok();
    let folders = params.and_then(|p| p.workspace_folders).unwrap_or_default();
    (folders.iter())
        .filter_map(|f| super::convert::path_of(&f.uri))
        .find(|p| p.join("book.toml").is_file())
        .unwrap_or(given)
}

struct Server {
    state: State,
    conn: Connection,
    jobs: Sender<Job>,
    /// When to start the next check (the editor paused).
    due: Option<Instant>,
    /// A check is running on the worker.
    running: bool,
    /// What changed since the last job was sent.
    pending: Job,
}

impl Server {
    fn serve(&mut self, done: &Receiver<Done>) -> Result<()> {
        loop {
            let wait = match (self.due, self.running) {
                (Some(d), false) => d.saturating_duration_since(Instant::now()),
                _ => Duration::from_secs(3600),
            };
            select! {
                recv(self.conn.receiver) -> msg => match msg {
                    Ok(Message::Request(r)) => {
                        if self.conn.handle_shutdown(&r).unwrap_or(true) {
                            return Ok(());
                        }
                        self.request(r);
                    }
                    Ok(Message::Notification(n)) => self.notification(n),
                    Ok(Message::Response(_)) => {}
                    Err(_) => return Ok(()),
                },
                recv(done) -> d => match d {
                    Ok(d) => self.checked(d),
                    Err(_) => return Err(Error::Bug("the checking thread stopped".into())),
                },
                default(wait) => self.check_now(),
            }
        }
    }

    /// Send what changed to the worker, now.
    fn check_now(&mut self) {
        self.due = None;
        let mut job = std::mem::take(&mut self.pending);
        job.links_of = self.state.docs.paths();
        self.running = self.jobs.send(job).is_ok();
    }

    fn checked(&mut self, done: Done) {
        self.running = false;
        match done {
            Ok((analysis, records)) => {
                let _t = tracing::info_span!("publish").entered();
                let list = diagnose::full(&mut self.state, &analysis);
                let old = std::mem::replace(&mut self.state.analysis, Arc::new(analysis));
                // Freeing a large catalog's analysis takes tens of milliseconds: not here.
                std::thread::spawn(move || drop(old));
                self.state.records = records;
                for p in list {
                    self.notify::<note::PublishDiagnostics>(p);
                }
            }
            Err(e) => self.notify::<note::ShowMessage>(ShowMessageParams {
                typ: MessageType::ERROR,
                message: format!("errbook: {e}"),
            }),
        }
    }

    /// Note that `rel` changed (its text, when the editor holds it) and check again soon.
    fn changed(&mut self, rel: PathBuf, text: Option<Option<Arc<str>>>) {
        if let Some(t) = text {
            self.pending.texts.push((rel.clone(), t));
        }
        if let Some(c) = &mut self.pending.changed {
            c.push(rel);
        }
        self.due = Some(Instant::now() + SETTLE);
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let d = p.text_document;
                self.take(d.uri, d.version, &d.text);
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(last) = p.content_changes.into_iter().next_back() else {
                    return;
                };
                let d = p.text_document;
                self.take(d.uri, d.version, &last.text);
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                if let Some(rel) = self.state.rel(&p.text_document.uri) {
                    if self.state.docs.remove(&rel).is_some() {
                        self.changed(rel, Some(None));
                    }
                }
            }
            note::DidChangeWatchedFiles::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) else {
                    return;
                };
                for c in p.changes {
                    if let Some(rel) = self.state.rel(&c.uri) {
                        if !rel.starts_with("content") {
                            self.pending.changed = None;
                        }
                        self.changed(rel, None);
                    }
                }
            }
            _ => {}
        }
    }

    /// The editor's text of `uri`: held, parsed at once for its own diagnostics, and checked
    /// with the catalog soon.
    fn take(&mut self, uri: Uri, version: i32, text: &str) {
        let Some(rel) = self.state.rel(&uri) else {
            return;
        };
        if !rel.starts_with("content") || rel.extension().is_none_or(|e| e != "md") {
            return;
        }
        if text.len() > docs::MAX_BYTES {
            self.notify::<note::ShowMessage>(ShowMessageParams {
                typ: MessageType::WARNING,
                message: format!(
                    "errbook: {} is over {} MiB; the editor's text of it is not read",
                    rel.display(),
                    docs::MAX_BYTES >> 20
                ),
            });
            return;
        }
        let doc = docs::Doc::new(uri, version, text);
        let shared = doc.text.clone();
        self.state.docs.insert(rel.clone(), doc);
        if let Some(p) = diagnose::quick(&mut self.state, &rel) {
            self.notify::<note::PublishDiagnostics>(p);
        }
        self.changed(rel, Some(Some(shared)));
    }

    fn request(&mut self, r: Request) {
        let id = r.id.clone();
        let state = &self.state;
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(state, r)));
        let resp = match answered {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(why)) => Response::new_err(id, ErrorCode::InvalidParams as i32, why),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "errbook hit a bug answering this request".into(),
            ),
        };
        let _ = self.conn.sender.send(Message::Response(resp));
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let n = Notification::new(N::METHOD.to_string(), params);
        let _ = self.conn.sender.send(Message::Notification(n));
    }
}

/// The answer to one request, as JSON (`null` where there is none).
fn answer(state: &State, r: Request) -> std::result::Result<serde_json::Value, String> {
    fn params<P: serde::de::DeserializeOwned>(r: Request) -> std::result::Result<P, String> {
        serde_json::from_value(r.params).map_err(|e| format!("bad parameters: {e}"))
    }
    let value = match r.method.as_str() {
        req::Completion::METHOD => to(complete::complete(state, params(r)?)),
        req::HoverRequest::METHOD => to(hover::hover(state, params(r)?)),
        req::GotoDefinition::METHOD => to(navigate::definition(state, params(r)?)),
        req::References::METHOD => to(navigate::references(state, params(r)?)),
        req::Rename::METHOD => to(navigate::rename(state, params(r)?)?),
        req::DocumentSymbolRequest::METHOD => to(symbols::symbols(state, params(r)?)),
        req::CodeActionRequest::METHOD => to(actions::actions(state, params(r)?)),
        _ => return Err(format!("errbook lsp does not answer {}", r.method)),
    };
    Ok(value)
}

fn to<T: serde::Serialize>(v: T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}
