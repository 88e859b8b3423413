//! The server's state, shared by every connection: the one numbered stream of events (kept
//! for `events {since}`), the connected clients, the running tasks; and the methods, each a
//! request turned into a call of the session, as a command line is.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use serde_json::{json, Map, Value};

use super::notify::{Notifier, TaskEvents};
use super::params::{invalid, Params};
use super::rpc::{self, Error, Line, EVENT_KINDS, METHODS, PROTOCOL, PROTOCOL_VERSION};
use crate::report::live;
use crate::sandbox::interrupt::{self, Task};
use crate::session::{Format, JudgeRequest, LimitOverrides, Output, Session, Sink, StressRequest};

/// Events kept for `events {since}`: a client that was away longer has lost the oldest
/// (the answer says so).
const KEPT_EVENTS: usize = 65_536;
/// Lines waiting for one client: one that reads slower than this misses notifications
/// (`events` has them), and its answers wait for it.
const CLIENT_QUEUE: usize = 4096;

/// Frames waiting for one reader of the live page's stream: one that reads slower than this
/// is let go, and its browser reconnects and catches up from the last event it has.
const WATCHER_QUEUE: usize = 1024;

/// One client's queue of lines to write.
pub type Outbox = Receiver<Arc<[u8]>>;

/// The numbered events.
struct Log {
    next: u64,
    events: VecDeque<Value>,
}

/// A task that runs.
struct Running {
    owner: u64,
    /// It goes on when its client goes (`keep: true`).
    keep: bool,
    cancel: Arc<Task>,
    thread: Option<JoinHandle<()>>,
}

pub struct Server {
    log: Mutex<Log>,
    clients: Mutex<BTreeMap<u64, SyncSender<Arc<[u8]>>>>,
    /// Readers of the live page's event stream (`--http`), each sent server-sent-event frames.
    watchers: Mutex<BTreeMap<u64, SyncSender<Arc<[u8]>>>>,
    next_watcher: AtomicU64,
    /// What `initialize` tells of the server's other doors.
    doors: Mutex<Doors>,
    tasks: Mutex<BTreeMap<u64, Running>>,
    next_task: AtomicU64,
    next_client: AtomicU64,
    stopping: AtomicBool,
    /// `--config`: the judge.toml of every request that names none.
    config: Option<PathBuf>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Server {
    pub fn new(config: Option<PathBuf>) -> Arc<Server> {
        Arc::new(Server {
            log: Mutex::new(Log {
                next: 1,
                events: VecDeque::new(),
            }),
            clients: Mutex::new(BTreeMap::new()),
            watchers: Mutex::new(BTreeMap::new()),
            next_watcher: AtomicU64::new(1),
            doors: Mutex::new(Doors::default()),
            tasks: Mutex::new(BTreeMap::new()),
            next_task: AtomicU64::new(1),
            next_client: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
            config,
        })
    }

    /// A new client: its number, and the lines to write to it.
    pub fn connect(&self) -> (u64, Outbox) {
        let id = self.next_client.fetch_add(1, Ordering::SeqCst);
        let (sender, receiver) = mpsc::sync_channel(CLIENT_QUEUE);
        lock(&self.clients).insert(id, sender);
        (id, receiver)
    }

    /// The client is gone: its tasks are cancelled (those it asked to keep go on).
    pub fn disconnect(&self, client: u64) {
        lock(&self.clients).remove(&client);
        for running in lock(&self.tasks).values() {
            if running.owner == client && !running.keep {
                running.cancel.cancel();
            }
        }
    }

    /// `shutdown` was asked (or a signal came): the transports stop.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst) || interrupt::is_interrupted()
    }

    /// Cancels every task and waits for their threads.
    pub fn stop_tasks(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let threads: Vec<JoinHandle<()>> = {
            let mut tasks = lock(&self.tasks);
            tasks
                .values_mut()
                .filter_map(|running| {
                    running.cancel.cancel();
                    running.thread.take()
                })
                .collect()
        };
        for thread in threads {
            let _ = thread.join();
        }
    }

    /// One event of `task`, numbered, kept, and sent to every client.
    pub fn emit(&self, task: u64, kind: &str, fields: Map<String, Value>) {
        if kind == "task.finished" && fields.get("done") == Some(&Value::Bool(true)) {
            // Listed by `tasks` until its end is told, not a moment after.
            lock(&self.tasks).remove(&task);
        }
        self.emit_event(Some(task), kind, fields);
    }

    /// One event, of a task or (`problem.received`) of none.
    pub fn emit_event(&self, task: Option<u64>, kind: &str, fields: Map<String, Value>) {
        debug_assert!(EVENT_KINDS.contains(&kind), "{kind} is not in EVENT_KINDS");
        let mut log = lock(&self.log);
        let seq = log.next;
        log.next += 1;
        let mut event = Map::new();
        event.insert("seq".into(), seq.into());
        event.insert("task".into(), task.map_or(Value::Null, Value::from));
        event.insert("kind".into(), kind.into());
        event.extend(fields);
        let event = Value::Object(event);
        let line: Arc<[u8]> = rpc::notification("event", &event).into();
        if log.events.len() == KEPT_EVENTS {
            log.events.pop_front();
        }
        log.events.push_back(event);
        // Sent while the log is held, so that every client gets them in `seq` order.
        for sender in lock(&self.clients).values() {
            // A client that reads too slowly misses it (`events` has it); one that is gone
            // is let go by its own connection.
            let _ = sender.try_send(line.clone());
        }
        let mut watchers = lock(&self.watchers);
        if let (false, Some(event)) = (watchers.is_empty(), log.events.back()) {
            let frame = sse_frame(event);
            // A reader that cannot keep up is let go rather than waited for: its browser
            // reconnects with the last `seq` it has.
            watchers.retain(|_, sender| sender.try_send(frame.clone()).is_ok());
        }
    }

    /// A new reader of the live page's stream: its number, the frames of the events after
    /// `since` (kept ones), and the queue of those to come. Taken under the log's lock, so
    /// that no event is missed or told twice between the two.
    pub fn watch(&self, since: u64) -> (u64, Vec<Arc<[u8]>>, Outbox) {
        let log = lock(&self.log);
        let past = log
            .events
            .iter()
            .filter(|e| e["seq"].as_u64().is_some_and(|seq| seq > since))
            .map(sse_frame)
            .collect();
        let (sender, receiver) = mpsc::sync_channel(WATCHER_QUEUE);
        let id = self.next_watcher.fetch_add(1, Ordering::SeqCst);
        lock(&self.watchers).insert(id, sender);
        drop(log);
        (id, past, receiver)
    }

    /// The reader is gone.
    pub fn unwatch(&self, watcher: u64) {
        lock(&self.watchers).remove(&watcher);
    }

    /// Says what `initialize` tells of the live page and the receiver.
    pub fn open_doors(&self, doors: Doors) {
        *lock(&self.doors) = doors;
    }

    /// Writes `line` to `client`, waiting for room.
    fn send(&self, client: u64, line: Vec<u8>) {
        let sender = lock(&self.clients).get(&client).cloned();
        if let Some(sender) = sender {
            let _ = sender.send(line.into());
        }
    }

    /// Serves one line from `client`: the answer is queued for it before anything the
    /// request starts can send an event.
    pub fn serve_line(self: &Arc<Self>, client: u64, line: Line) {
        let request = match line {
            Line::End => return,
            Line::TooLong(bytes) => {
                let error = Error::new(
                    rpc::INVALID_REQUEST,
                    format!(
                        "a line of {bytes} bytes is refused: at most {} bytes a line",
                        rpc::MAX_LINE
                    ),
                );
                return self.send(client, rpc::error_response(&Value::Null, &error));
            }
            Line::Text(text) if text.iter().all(u8::is_ascii_whitespace) => return,
            Line::Text(text) => match rpc::parse(&text) {
                Ok(request) => request,
                Err((id, error)) => return self.send(client, rpc::error_response(&id, &error)),
            },
        };
        // A bug in one request is an error for it, not the server's end.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.call(client, &request.method, request.params)
        }))
        .unwrap_or_else(|_| {
            Err(Error::new(
                rpc::INTERNAL_ERROR,
                "internal error: the server hit a bug (its stderr says where; please report it)",
            ))
        });
        let (answer, then) = match outcome {
            Ok((result, then)) => (result, then),
            Err(error) => {
                if let Some(id) = &request.id {
                    self.send(client, rpc::error_response(id, &error));
                }
                return;
            }
        };
        if let Some(id) = &request.id {
            self.send(client, rpc::response(id, &answer));
        }
        if let Some(then) = then {
            then();
        }
    }

    /// A method: its result, and what to do once it is answered.
    fn call(self: &Arc<Self>, client: u64, method: &str, params: Value) -> Result<Called, Error> {
        let mut params = Params::new(params);
        if self.stopping.load(Ordering::SeqCst) && method != "shutdown" {
            return Err(Error::new(
                rpc::SHUTTING_DOWN,
                "the server is shutting down",
            ));
        }
        match method {
            "initialize" => {
                // What the client says of itself is for its own logs.
                let _ = params.opt_string("client");
                params.finish()?;
                Ok((self.capabilities(), None))
            }
            "judge" => self.judge(client, params),
            "stress" => self.stress(client, params),
            "cancel" => {
                let task = params
                    .opt_u64("task")?
                    .ok_or_else(|| invalid("task", "missing (a task's number)"))?;
                params.finish()?;
                Ok((self.cancel(task)?, None))
            }
            "events" => {
                let since = params.opt_u64("since")?.unwrap_or(0);
                let task = params.opt_u64("task")?;
                params.finish()?;
                Ok((self.events_since(since, task), None))
            }
            "tasks" => {
                params.finish()?;
                Ok((self.tasks(client), None))
            }
            "problems" => {
                let folder = params.opt_path("folder")?;
                let config = params.opt_path("config")?;
                params.finish()?;
                Ok((
                    super::problems::list(self.config_for(config, folder.as_deref()))?,
                    None,
                ))
            }
            "cases.add" => {
                let added = super::problems::add_case(params, self.config.clone())?;
                Ok((added, None))
            }
            "page" => {
                let nonce = params.opt_string("nonce")?;
                params.finish()?;
                if let Some(nonce) = nonce.as_deref().filter(|n| !live::is_nonce(n)) {
                    return Err(invalid(
                        "nonce",
                        format!(
                            "`{}` is not a nonce: 16 to 256 of base64's letters (A-Z a-z 0-9 + / = _ -)",
                            nonce.chars().take(40).collect::<String>()
                        ),
                    ));
                }
                Ok((json!({"html": live::hosted_page(nonce.as_deref())}), None))
            }
            "shutdown" => {
                params.finish()?;
                self.stopping.store(true, Ordering::SeqCst);
                Ok((json!({}), None))
            }
            _ => Err(Error::new(
                rpc::METHOD_NOT_FOUND,
                format!(
                    "no method `{method}` (hint: the methods are {})",
                    METHODS.join(", ")
                ),
            )),
        }
    }

    fn capabilities(&self) -> Value {
        let doors = *lock(&self.doors);
        json!({
            "protocol": PROTOCOL,
            "version": PROTOCOL_VERSION,
            "harness": env!("CARGO_PKG_VERSION"),
            "capabilities": {
                "methods": METHODS,
                "events": EVENT_KINDS,
                "max_line": rpc::MAX_LINE,
                "errors": rpc::ERROR_CODES
                    .iter()
                    .map(|(code, name)| json!({"code": code, "name": name}))
                    .collect::<Vec<_>>(),
                "watch": true,
                "problem_received": doors.receive.is_some(),
                "receive_port": doors.receive,
                "live_page": doors.http.map(|port| format!("http://127.0.0.1:{port}/")),
            },
        })
    }

    /// The judge.toml a request uses: the one it names, `--config`, else the one found
    /// walking up from `near` (the source's folder), as the command line finds it from where
    /// it runs; else none found here (the session looks from the server's folder).
    fn config_for(&self, named: Option<PathBuf>, near: Option<&Path>) -> Option<PathBuf> {
        named
            .or_else(|| self.config.clone())
            .or_else(|| near.and_then(|folder| crate::config::find(folder).ok()))
    }

    fn judge(self: &Arc<Self>, client: u64, mut params: Params) -> Result<Called, Error> {
        let source = params.path("source")?;
        let problem = params.opt_string("problem")?;
        let mut request = JudgeRequest {
            cases: params.opt_path("cases")?,
            limits: limits(&mut params)?,
            sanitize: params.flag("sanitize")?,
            watch: params.flag("watch")?,
            lang: params.opt_string("lang")?,
            case: params.opt_string("case")?,
            ..JudgeRequest::default()
        };
        let all = params.flag("all")?;
        let jobs = params.opt_u64("jobs")?.unwrap_or(1).max(1);
        request.jobs = usize::try_from(jobs).unwrap_or(usize::MAX);
        let config = params.opt_path("config")?;
        let keep = params.flag("keep")?;
        params.finish()?;
        (request.problem, request.source) = match problem {
            Some(problem) => (Some(package_or_id(problem)), Some(source.clone())),
            // A source alone is judged on a folder of cases, with no judge.toml.
            None => (Some(source.display().to_string()), None),
        };
        let session = Session::new(self.config_for(config, source.parent()));
        let detail = if all {
            crate::report::human::Detail::Verbose
        } else {
            crate::report::human::Detail::Normal
        };
        Ok(self.start(client, keep, request.watch, move |output| {
            let output = Output { detail, ..output };
            session.judge(&request, &output)
        }))
    }

    fn stress(self: &Arc<Self>, client: u64, mut params: Params) -> Result<Called, Error> {
        let source = params.path("source")?;
        let problem = params.opt_string("problem")?;
        let mut request = StressRequest {
            gen: params.opt_string("generator")?,
            brute: params.opt_string("reference")?,
            validator: params.opt_string("validator")?,
            limits: limits(&mut params)?,
            seed: params.opt_u64("seed")?,
            iterations: params.opt_u64("iterations")?,
            time: params.opt_duration("time")?,
            jobs: (params.opt_u64("jobs")?)
                .map(|j| usize::try_from(j.max(1)).unwrap_or(usize::MAX)),
            no_shrink: !params.opt_bool("shrink")?.unwrap_or(true),
            save: params.opt_string("save")?,
            sanitize: params.flag("sanitize")?,
            lang: params.opt_string("lang")?,
            ..StressRequest::default()
        };
        let config = params.opt_path("config")?;
        let keep = params.flag("keep")?;
        params.finish()?;
        if problem.is_none() && request.gen.is_none() {
            return Err(invalid(
                "generator",
                "a stress run without a problem needs a generator (and a reference)",
            ));
        }
        (request.problem, request.submission) = match problem {
            Some(problem) => (problem, Some(source.clone())),
            None => (source.display().to_string(), None),
        };
        let session = Session::new(self.config_for(config, source.parent()));
        Ok(self.start(client, keep, false, move |output| {
            session.stress(&request, &output)
        }))
    }

    /// A task: its number now, its work on a thread of its own once the answer is sent.
    fn start(
        self: &Arc<Self>,
        client: u64,
        keep: bool,
        watch: bool,
        work: impl FnOnce(Output) -> anyhow::Result<i32> + Send + 'static,
    ) -> Called {
        let task = self.next_task.fetch_add(1, Ordering::SeqCst);
        let cancel = Task::new();
        lock(&self.tasks).insert(
            task,
            Running {
                owner: client,
                keep,
                cancel: cancel.clone(),
                thread: None,
            },
        );
        let emitting = self.clone();
        let events = Arc::new(TaskEvents {
            emit: Box::new(move |kind, fields| emitting.emit(task, kind, fields)),
            cancel: cancel.clone(),
            watch,
            runs: AtomicU64::new(0),
            done: AtomicBool::new(false),
        });
        let server = self.clone();
        let then = move || {
            let sink_events = events.clone();
            let output = Output {
                sink: Some(Sink::new(move || {
                    Box::new(Notifier::new(sink_events.clone()))
                })),
                ..Output::format(Format::Json)
            };
            let (thread_events, thread_server) = (events.clone(), server.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("task {task}"))
                .spawn(move || {
                    interrupt::in_task(Some(cancel.clone()), || {
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                            || work(output),
                        ));
                        let error = match result {
                            Ok(Ok(_)) => None,
                            Ok(Err(error)) => Some(crate::report::notice::error_chain(&error)),
                            Err(_) => Some(
                                "internal error: the harness hit a bug (its stderr says where; please report it)"
                                    .to_string(),
                            ),
                        };
                        thread_events.finish(error.filter(|_| !cancel.is_cancelled()));
                    });
                    // Its handle goes with it: nothing waits for a task that ended.
                    lock(&thread_server.tasks).remove(&task);
                });
            match spawned {
                Ok(handle) => {
                    if let Some(running) = lock(&server.tasks).get_mut(&task) {
                        running.thread = Some(handle);
                    }
                }
                Err(error) => {
                    events.finish(Some(format!("cannot start the task's thread: {error}")));
                    lock(&server.tasks).remove(&task);
                }
            }
        };
        (json!({ "task": task }), Some(Box::new(then)))
    }

    fn cancel(&self, task: u64) -> Result<Value, Error> {
        match lock(&self.tasks).get(&task) {
            Some(running) => {
                running.cancel.cancel();
                Ok(json!({ "cancelled": true }))
            }
            None if task < self.next_task.load(Ordering::SeqCst) => {
                Ok(json!({ "cancelled": false }))
            }
            None => {
                let mut error = Error::new(
                    rpc::UNKNOWN_TASK,
                    format!("no task {task} was started here"),
                );
                error.data = Some(json!({ "task": task }));
                Err(error)
            }
        }
    }

    fn events_since(&self, since: u64, task: Option<u64>) -> Value {
        let log = lock(&self.log);
        let oldest = log
            .events
            .front()
            .and_then(|e| e["seq"].as_u64())
            .unwrap_or(log.next);
        let events: Vec<&Value> = log
            .events
            .iter()
            .filter(|e| e["seq"].as_u64().is_some_and(|seq| seq > since))
            .filter(|e| task.is_none_or(|task| e["task"].as_u64() == Some(task)))
            .collect();
        json!({
            "events": events,
            "next": log.next,
            // Events after `since` that are no longer kept.
            "complete": since + 1 >= oldest,
        })
    }

    fn tasks(&self, client: u64) -> Value {
        let tasks: Vec<Value> = lock(&self.tasks)
            .iter()
            .map(|(task, running)| {
                json!({"task": task, "yours": running.owner == client, "keep": running.keep})
            })
            .collect();
        json!({ "tasks": tasks })
    }
}

/// The server's doors besides its protocol: the live page's port and the receiver's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Doors {
    pub http: Option<u16>,
    pub receive: Option<u16>,
}

/// One event as a server-sent event: its `seq` as the id, for `Last-Event-ID`.
fn sse_frame(event: &Value) -> Arc<[u8]> {
    let seq = event["seq"].as_u64().unwrap_or(0);
    // serde_json writes no newline inside a value: the event is one `data:` line.
    format!("id: {seq}\ndata: {event}\n\n").into_bytes().into()
}

/// A result and what to do once it is answered.
type Called = (Value, Option<Box<dyn FnOnce() + Send>>);

/// A problem given as an existing package folder is that folder, absolute; else an id.
fn package_or_id(problem: String) -> String {
    let path = Path::new(&problem);
    if path.is_dir() && crate::package::detect(path).is_some() {
        return std::path::absolute(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string();
    }
    problem
}

/// `time_limit`, `memory_limit` and `checker`, as the command line's options read them.
fn limits(params: &mut Params) -> Result<LimitOverrides, Error> {
    Ok(LimitOverrides {
        time_limit: params.opt_duration("time_limit")?,
        memory_limit: params.opt_size("memory_limit")?,
        checker: params.opt_parsed("checker", crate::config::parse_checker)?,
    })
}

#[cfg(test)]
impl Server {
    /// `method` called with a parameter no method takes: the error's code (none when it
    /// was served anyway).
    pub fn call_for_test(self: &Arc<Self>, client: u64, method: &str) -> Option<i64> {
        self.call(client, method, json!({"not a parameter": true}))
            .err()
            .map(|error| error.code)
    }
}
