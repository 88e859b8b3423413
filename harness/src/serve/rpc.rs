//! JSON-RPC 2.0 as `harness serve` speaks it: one JSON object a line, each line read with a
//! bound (a line over it is refused without being held whole), requests told apart from
//! notifications, and the error codes of the specification plus the server's own.

use std::io::{self, BufRead};

use serde_json::{json, Map, Value};

/// The most one line may hold: far more than any request needs (a case's input given
/// inline is the largest), little enough that a client cannot make the server hold much.
pub const MAX_LINE: usize = 1 << 20;

/// What `initialize` calls the protocol.
pub const PROTOCOL: &str = "harness-serve";
/// Its version: raised when a method, a parameter or a field changes meaning.
pub const PROTOCOL_VERSION: u64 = 1;

/// Every method served, as `initialize` lists them.
pub const METHODS: &[&str] = &[
    "initialize",
    "judge",
    "stress",
    "cancel",
    "events",
    "tasks",
    "problems",
    "cases.add",
    "page",
    "shutdown",
];

/// Every kind of `event` notification.
pub const EVENT_KINDS: &[&str] = &[
    "task.started",
    "compile.finished",
    "case.finished",
    "stress.progress",
    "stress.shrunk",
    "task.finished",
    "problem.received",
];

/// The line is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON, but not a request: no `method`, a batch, a line over [`MAX_LINE`].
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
/// A parameter missing, of the wrong type or unknown; the error's `data.field` names it.
pub const INVALID_PARAMS: i64 = -32602;
/// A bug of the server (it goes on serving).
pub const INTERNAL_ERROR: i64 = -32603;
/// `cancel` of a task the server does not know.
pub const UNKNOWN_TASK: i64 = -32001;
/// The request was right but could not be done (a file that cannot be written, a problem
/// that does not load).
pub const FAILED: i64 = -32002;
/// A request after `shutdown`.
pub const SHUTTING_DOWN: i64 = -32003;

/// Every error code the server answers with, with what it means: the book's table is
/// checked against this.
pub const ERROR_CODES: &[(i64, &str)] = &[
    (PARSE_ERROR, "parse error"),
    (INVALID_REQUEST, "invalid request"),
    (METHOD_NOT_FOUND, "method not found"),
    (INVALID_PARAMS, "invalid params"),
    (INTERNAL_ERROR, "internal error"),
    (UNKNOWN_TASK, "unknown task"),
    (FAILED, "failed"),
    (SHUTTING_DOWN, "shutting down"),
];

/// One line read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// Its bytes, without the newline (nor a CR before it).
    Text(Vec<u8>),
    /// It was longer than the bound: that many bytes were skipped, none kept.
    TooLong(usize),
    /// The other side closed.
    End,
}

/// Reads one line of at most `max` bytes; a longer one is read through to its newline and
/// dropped as it is read.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut skipped: Option<usize> = None;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(match skipped {
                Some(bytes) => Line::TooLong(bytes),
                None if line.is_empty() => Line::End,
                None => Line::Text(line),
            });
        }
        let (piece, ends) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], Some(at + 1)),
            None => (buffer, None),
        };
        match &mut skipped {
            Some(bytes) => *bytes += piece.len(),
            None if line.len() + piece.len() > max => {
                skipped = Some(line.len() + piece.len());
                line = Vec::new();
            }
            None => line.extend_from_slice(piece),
        }
        let used = ends.unwrap_or(buffer.len());
        reader.consume(used);
        if ends.is_some() {
            return Ok(match skipped {
                Some(bytes) => Line::TooLong(bytes),
                None => {
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    Line::Text(line)
                }
            });
        }
    }
}

/// A request (with an id: it is answered) or a notification (without: it is not).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: Option<Value>,
    pub method: String,
    pub params: Value,
}

/// An error to answer with.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl Error {
    pub fn new(code: i64, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// Reads a line as a request; the error comes with the request's id when it had one.
pub fn parse(line: &[u8]) -> Result<Request, (Value, Error)> {
    let value: Value = serde_json::from_slice(line).map_err(|error| {
        (
            Value::Null,
            Error::new(PARSE_ERROR, format!("the line is not JSON: {error}")),
        )
    })?;
    let Value::Object(mut object) = value else {
        let why = if value.is_array() {
            "batches are not served: send one request a line"
        } else {
            "a request is a JSON object"
        };
        return Err((Value::Null, Error::new(INVALID_REQUEST, why)));
    };
    let id = object.remove("id");
    let answer_to = id.clone().unwrap_or(Value::Null);
    let invalid = |message: &str| (answer_to.clone(), Error::new(INVALID_REQUEST, message));
    if !matches!(
        &id,
        None | Some(Value::Null | Value::Number(_) | Value::String(_))
    ) {
        return Err((
            Value::Null,
            Error::new(INVALID_REQUEST, "`id` is a number or a string"),
        ));
    }
    if object.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(invalid("`jsonrpc` must be \"2.0\""));
    }
    let method = match object.remove("method") {
        Some(Value::String(method)) => method,
        Some(_) => return Err(invalid("`method` is a string")),
        None => return Err(invalid("no `method`")),
    };
    let params = object.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Null | Value::Object(_)) {
        return Err((
            answer_to,
            Error::new(INVALID_PARAMS, "`params` is an object of named parameters"),
        ));
    }
    Ok(Request { id, method, params })
}

/// The line answering `id` with `result`.
pub fn response(id: &Value, result: &Value) -> Vec<u8> {
    line(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// The line answering `id` with `error`.
pub fn error_response(id: &Value, error: &Error) -> Vec<u8> {
    let mut body = Map::new();
    body.insert("code".into(), error.code.into());
    body.insert("message".into(), error.message.clone().into());
    if let Some(data) = &error.data {
        body.insert("data".into(), data.clone());
    }
    line(&json!({"jsonrpc": "2.0", "id": id, "error": body}))
}

/// The line of a notification.
pub fn notification(method: &str, params: &Value) -> Vec<u8> {
    line(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
}

fn line(value: &Value) -> Vec<u8> {
    // A Value always serializes.
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        // A tiny buffer, so that lines cross its refills.
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut lines = Vec::new();
        loop {
            let line = read_line(&mut reader, max).unwrap();
            if line == Line::End {
                return lines;
            }
            lines.push(line);
        }
    }

    #[test]
    fn lines_are_read_within_the_bound_and_a_longer_one_is_skipped() {
        let text = |s: &str| Line::Text(s.as_bytes().to_vec());
        assert_eq!(lines(b"ab\ncd\n", 8), [text("ab"), text("cd")]);
        assert_eq!(lines(b"ab\r\n\ncd", 8), [text("ab"), text(""), text("cd")]);
        assert_eq!(
            lines(b"0123456789\nok\n", 8),
            [Line::TooLong(10), text("ok")]
        );
        assert_eq!(lines(b"12345678\n", 8), [text("12345678")]);
        assert_eq!(lines(b"123456789", 8), [Line::TooLong(9)]);
        assert_eq!(lines(b"", 8), []);
    }

    #[test]
    fn requests_and_what_is_wrong_with_the_others() {
        let request =
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"events","params":{"since":3}}"#).unwrap();
        assert_eq!(request.id, Some(json!(7)));
        assert_eq!(request.method, "events");
        assert_eq!(request.params, json!({"since": 3}));
        let note = parse(br#"{"jsonrpc":"2.0","method":"x"}"#).unwrap();
        assert_eq!(note.id, None);
        assert_eq!(note.params, Value::Null);
        for (line, id, code) in [
            (&b"{"[..], Value::Null, PARSE_ERROR),
            (b"not json", Value::Null, PARSE_ERROR),
            (b"[]", Value::Null, INVALID_REQUEST),
            (b"3", Value::Null, INVALID_REQUEST),
            (
                br#"{"jsonrpc":"2.0","id":"a"}"#,
                json!("a"),
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
                json!(1),
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":5}"#,
                json!(1),
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
                Value::Null,
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}"#,
                json!(2),
                INVALID_PARAMS,
            ),
        ] {
            let (got_id, error) = parse(line).unwrap_err();
            assert_eq!(
                (got_id, error.code),
                (id, code),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn answers_are_one_line_each() {
        let ok = response(&json!(1), &json!({"task": 4}));
        assert_eq!(
            ok,
            b"{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"task\":4}}\n"
        );
        let mut error = Error::new(INVALID_PARAMS, "no `source`");
        error.data = Some(json!({"field": "source"}));
        let text = String::from_utf8(error_response(&Value::Null, &error)).unwrap();
        assert_eq!(text.matches('\n').count(), 1);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["error"]["code"], INVALID_PARAMS);
        assert_eq!(value["error"]["data"]["field"], "source");
    }
}
