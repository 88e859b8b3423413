//! A problem as Competitive Companion sends it (its README, "The format"): one JSON object per
//! `POST /`. Fields the extension may add later are ignored; missing optional ones take the
//! extension's own defaults.

use std::time::Duration;

use serde::Deserialize;

/// Samples one problem may have: a problem page shows a handful (fewer than 50 on every judge
/// Competitive Companion knows). A request with more is no problem page's, and writing each
/// sample as two files would hold the server for as long as it took.
pub const MAX_SAMPLES: usize = 1000;

/// What one problem's samples may hold, inputs and answers together: a page's are kilobytes.
pub const MAX_SAMPLE_BYTES: u64 = 4 << 20;

/// The extension's defaults when a page states no limit.
const DEFAULT_TIME_LIMIT_MS: f64 = 1000.0;
const DEFAULT_MEMORY_LIMIT_MB: f64 = 1024.0;

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    pub name: String,
    /// `"<judge> - <contest or category>"`, such as `"Codeforces - Educational Round 160"`.
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub interactive: bool,
    /// In megabytes.
    #[serde(default = "default_memory_limit")]
    pub memory_limit: f64,
    /// In milliseconds.
    #[serde(default = "default_time_limit")]
    pub time_limit: f64,
    #[serde(default)]
    pub tests: Vec<Test>,
    #[serde(default)]
    pub test_type: TestType,
    #[serde(default)]
    pub input: Input,
    #[serde(default)]
    pub output: Output,
    /// Present when the problem is one of a whole contest sent at once.
    pub batch: Option<Batch>,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Test {
    pub input: String,
    pub output: String,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum TestType {
    #[default]
    Single,
    /// The input starts with the number of test cases.
    MultiNumber,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    #[serde(rename = "type", default)]
    pub kind: InputKind,
    pub file_name: Option<String>,
    /// For `regex`: the input file is whichever file matches (old Code Jam style).
    pub pattern: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum InputKind {
    #[default]
    Stdin,
    File,
    Regex,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Output {
    #[serde(rename = "type", default)]
    pub kind: OutputKind,
    pub file_name: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum OutputKind {
    #[default]
    Stdout,
    File,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Batch {
    /// The same for every problem of one contest sent at once.
    pub id: String,
    /// How many problems that contest has.
    pub size: usize,
}

fn default_time_limit() -> f64 {
    DEFAULT_TIME_LIMIT_MS
}

fn default_memory_limit() -> f64 {
    DEFAULT_MEMORY_LIMIT_MB
}

/// Why a body is not a problem: what the server answers with 400 and prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("empty body (expected a problem as JSON, as Competitive Companion sends it)")]
    Empty,
    #[error("not a Competitive Companion problem: {message} at line {line}, column {column}")]
    Json {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("not a Competitive Companion problem: {0}")]
    Invalid(String),
    #[error("{problem} has {count} samples, more than the {MAX_SAMPLES} a problem may have: not a problem page's")]
    TooManySamples { problem: String, count: usize },
    #[error("{problem} has {:.1} MiB of samples, more than the {} MiB a problem's may hold: not a problem page's", *bytes as f64 / (1u64 << 20) as f64, MAX_SAMPLE_BYTES >> 20)]
    SamplesTooLarge { problem: String, bytes: u64 },
}

impl PayloadError {
    /// The HTTP status a request refused for this is answered with.
    pub fn status(&self) -> u16 {
        match self {
            PayloadError::TooManySamples { .. } | PayloadError::SamplesTooLarge { .. } => 413,
            PayloadError::Empty | PayloadError::Json { .. } | PayloadError::Invalid(_) => 400,
        }
    }
}

impl Payload {
    pub fn parse(body: &[u8]) -> Result<Payload, PayloadError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(PayloadError::Empty);
        }
        let payload: Payload =
            serde_json::from_slice(body).map_err(|error| PayloadError::Json {
                // serde_json's message ends with its own "at line L column C".
                message: error
                    .to_string()
                    .split(" at line ")
                    .next()
                    .unwrap_or_default()
                    .to_string(),
                line: error.line(),
                column: error.column(),
            })?;
        if payload.name.trim().is_empty() {
            return Err(PayloadError::Invalid("`name` is empty".to_string()));
        }
        if payload.batch.as_ref().is_some_and(|b| b.size == 0) {
            return Err(PayloadError::Invalid("`batch.size` is 0".to_string()));
        }
        if payload.tests.len() > MAX_SAMPLES {
            return Err(PayloadError::TooManySamples {
                problem: payload.described(),
                count: payload.tests.len(),
            });
        }
        let bytes = payload.sample_bytes();
        if bytes > MAX_SAMPLE_BYTES {
            return Err(PayloadError::SamplesTooLarge {
                problem: payload.described(),
                bytes,
            });
        }
        Ok(payload)
    }

    /// The problem as a refusal names it: `` problem `A. Cover in Water` (https://…) ``.
    pub fn described(&self) -> String {
        let name = crate::text::one_line(self.name.trim(), 80);
        match self.url.trim() {
            "" => format!("problem `{name}`"),
            url => format!("problem `{name}` ({})", crate::text::one_line(url, 120)),
        }
    }

    /// What its samples hold, inputs and answers together: about what storing it writes.
    pub fn sample_bytes(&self) -> u64 {
        self.tests
            .iter()
            .map(|test| (test.input.len() + test.output.len()) as u64)
            .sum()
    }

    /// The time limit, when the page gave a usable one.
    pub fn time_limit(&self) -> Option<Duration> {
        (self.time_limit.is_finite() && self.time_limit >= 1.0)
            .then(|| Duration::from_millis(self.time_limit.round() as u64))
    }

    /// The memory limit in bytes (the judges' "MB" are mebibytes).
    pub fn memory_limit(&self) -> Option<u64> {
        (self.memory_limit.is_finite() && self.memory_limit > 0.0)
            .then(|| (self.memory_limit * (1 << 20) as f64).round() as u64)
    }

    /// The input file name for file-I/O problems.
    pub fn input_file(&self) -> Option<&str> {
        match self.input.kind {
            InputKind::File => self.input.file_name.as_deref().filter(|f| !f.is_empty()),
            InputKind::Stdin | InputKind::Regex => None,
        }
    }

    pub fn output_file(&self) -> Option<&str> {
        match self.output.kind {
            OutputKind::File => self.output.file_name.as_deref().filter(|f| !f.is_empty()),
            OutputKind::Stdout => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_problem_and_a_minimal_one() {
        let full = br#"{"name":"A. Cover in Water","group":"Codeforces - Round 911","url":"https://codeforces.com/contest/1900/problem/A","interactive":false,"memoryLimit":256,"timeLimit":1000,"tests":[{"input":"3\n","output":"2\n"}],"testType":"multiNumber","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"ACoverInWater"}},"batch":{"id":"5a3f","size":6},"srcPath":"ignored"}"#;
        let payload = Payload::parse(full).unwrap();
        assert_eq!(payload.test_type, TestType::MultiNumber);
        assert_eq!(payload.batch.as_ref().unwrap().size, 6);
        assert_eq!(payload.time_limit(), Some(Duration::from_secs(1)));
        assert_eq!(payload.memory_limit(), Some(256 << 20));
        let minimal = Payload::parse(br#"{"name":"x"}"#).unwrap();
        assert_eq!(minimal.memory_limit(), Some(1024 << 20));
        assert!(minimal.tests.is_empty());
        assert_eq!(minimal.input_file(), None);
    }

    #[test]
    fn file_io() {
        let usaco = br#"{"name":"Paint","input":{"type":"file","fileName":"paint.in"},"output":{"type":"file","fileName":"paint.out"}}"#;
        let payload = Payload::parse(usaco).unwrap();
        assert_eq!(payload.input_file(), Some("paint.in"));
        assert_eq!(payload.output_file(), Some("paint.out"));
        let regex = br#"{"name":"A","input":{"type":"regex","pattern":"A-(small|large).*[.]in"}}"#;
        assert_eq!(Payload::parse(regex).unwrap().input_file(), None);
    }

    #[test]
    fn samples_are_bounded_in_number_and_bytes_and_the_refusal_names_the_problem() {
        let body = |count: usize, text: &str| {
            let test = serde_json::json!({"input": text, "output": "1\n"});
            serde_json::json!({
                "name": "A. Flood",
                "url": "https://codeforces.com/contest/1/problem/A",
                "tests": vec![test; count],
            })
            .to_string()
        };
        assert!(Payload::parse(body(MAX_SAMPLES, "1\n").as_bytes()).is_ok());
        let error = Payload::parse(body(200_000, "1\n").as_bytes()).unwrap_err();
        assert_eq!(error.status(), 413);
        assert_eq!(
            error.to_string(),
            "problem `A. Flood` (https://codeforces.com/contest/1/problem/A) has 200000 samples, more than the 1000 a problem may have: not a problem page's"
        );
        let big = "9".repeat(5 << 20);
        let error = Payload::parse(body(1, &big).as_bytes()).unwrap_err();
        assert_eq!(error.status(), 413);
        assert!(
            error
                .to_string()
                .contains("has 5.0 MiB of samples, more than the 4 MiB"),
            "{error}"
        );
        assert_eq!(Payload::parse(b"").unwrap_err().status(), 400);
    }

    #[test]
    fn bad_bodies_say_why() {
        let rows: [(&[u8], &str); 6] = [
            (b"", "empty body"),
            (b"  \r\n", "empty body"),
            (b"{\"name\": \"x\",", "line 1, column 13"),
            (b"[1, 2]", "invalid type"),
            (b"{\"tests\": []}", "missing field `name`"),
            (
                b"{\"name\": \"x\", \"batch\": {\"id\": \"b\", \"size\": 0}}",
                "`batch.size` is 0",
            ),
        ];
        for (body, expected) in rows {
            let error = Payload::parse(body).unwrap_err().to_string();
            assert!(error.contains(expected), "{body:?}: {error}");
        }
    }
}
