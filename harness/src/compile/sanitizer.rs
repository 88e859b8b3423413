//! Sanitized builds (`--sanitize`): C and C++ rebuilt with AddressSanitizer and
//! UndefinedBehaviorSanitizer, Rust with debug assertions and overflow checks; the options
//! their runtimes run with; and the one line a sanitizer's report becomes as a case's reason
//! (`heap-buffer-overflow at a.cpp:17 (WRITE of size 4)`). Everything here is pure: the
//! compile command is rewritten, the report is read from the end of stderr.
//!
//! The choices, and why:
//! - `-O1`, never the language's `-O2`/`-O3`: AddressSanitizer's own advice for usable speed,
//!   while higher levels fold away accesses and inline frames, so the line a report names may
//!   not be the line that is wrong. `-g` for lines, `-fno-omit-frame-pointer` for whole stacks.
//! - `-fno-sanitize-recover=all`: the first report stops the program, so it is the case's
//!   reason (an RE) rather than a line lost in stderr of a run that goes on to print AC.
//! - `-fno-sanitize=object-size`: AddressSanitizer sees every out-of-bounds access, and says
//!   which (`heap-buffer-overflow`, `stack-buffer-overflow`); the object-size check finds a
//!   subset of them first and only says "insufficient space".
//! - C++ gets `-D_GLIBCXX_ASSERTIONS`: `v[i]` past `v.size()` but within the capacity is no
//!   overflow to AddressSanitizer, but the library's own check stops it.
//! - `detect_leaks=0`: a leak is no error in a contest program, and LeakSanitizer stops the
//!   program's threads with `ptrace`, which the sandbox's system-call filter refuses.
//! - `handle_abort=1`: an `assert` that fails shows the stack, so it has a line too.
//! - `quarantine_size_mb=64` (256 by default): freed memory is held back to catch a use after
//!   free; 64 MiB still catches the usual ones, and keeps the loosened memory limit small.
//! - No address-space cap: the shadow memory is a reservation of terabytes, never touched, that
//!   `RLIMIT_AS` refuses. The memory limit becomes `2 × limit + 256 MiB` (redzones around
//!   every allocation, the shadow, the quarantine), the time limit `2 × limit` (ASan's usual
//!   slowdown): the point of the run is the report, not the limits.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::compile::Language;

/// Extra memory a sanitized C or C++ program is allowed, over twice the limit.
const EXTRA_MEMORY: u64 = 256 << 20;
/// Its time limit is multiplied by this.
const TIME_FACTOR: f64 = 2.0;

/// The flags a C or C++ compile gets.
const NATIVE_FLAGS: [&str; 6] = [
    "-O1",
    "-g",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-sanitize=object-size",
];
/// And C++ too.
const CXX_FLAGS: [&str; 1] = ["-D_GLIBCXX_ASSERTIONS"];
/// The flags a Rust compile gets: the checks of a debug build, at the language's own
/// optimization.
const RUST_FLAGS: [&str; 4] = ["-C", "debug-assertions=on", "-C", "overflow-checks=on"];

const ASAN_OPTIONS: &str = "detect_leaks=0:halt_on_error=1:abort_on_error=0:handle_abort=1:\
                            print_legend=0:quarantine_size_mb=64:allocator_may_return_null=0";
const UBSAN_OPTIONS: &str =
    "halt_on_error=1:abort_on_error=0:print_stacktrace=1:report_error_type=1";

/// What a sanitized build of a language uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toolchain {
    /// gcc or clang: AddressSanitizer and UndefinedBehaviorSanitizer.
    Native {
        /// The C++ driver (`g++`, `clang++`), or a C one.
        cxx: bool,
    },
    /// rustc: debug assertions and overflow checks.
    Rust,
}

impl Toolchain {
    /// The toolchain a language compiles with, when `--sanitize` knows it: by the compiler's
    /// name (`g++`, `g++-12`, `x86_64-linux-gnu-gcc`, `clang++`, `cc`, `rustc`).
    pub fn of(language: &Language) -> Option<Toolchain> {
        let program = language.compile.as_ref()?.first()?;
        let name = Path::new(program).file_name()?.to_str()?;
        // A target prefix (`x86_64-linux-gnu-`) and a version suffix (`-12`) are dropped.
        let name = name.rsplit_once('-').map_or(name, |(base, version)| {
            if version.chars().all(|c| c.is_ascii_digit() || c == '.') {
                base
            } else {
                name
            }
        });
        let name = name.rsplit('-').next().unwrap_or(name);
        match name {
            "gcc" | "cc" | "clang" => Some(Toolchain::Native { cxx: false }),
            "g++" | "c++" | "clang++" => Some(Toolchain::Native { cxx: true }),
            "rustc" => Some(Toolchain::Rust),
            _ => None,
        }
    }

    /// What the runtime is called in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Toolchain::Native { .. } => "AddressSanitizer and UndefinedBehaviorSanitizer",
            Toolchain::Rust => "debug assertions and overflow checks",
        }
    }

    /// The memory limit of a sanitized run of a program limited to `limit`.
    pub fn memory_limit(self, limit: u64) -> u64 {
        match self {
            Toolchain::Native { .. } => limit.saturating_mul(2).saturating_add(EXTRA_MEMORY),
            Toolchain::Rust => limit,
        }
    }

    /// The runtime's options, as environment variables.
    pub fn env(self) -> Vec<(OsString, OsString)> {
        match self {
            Toolchain::Native { .. } => vec![
                ("ASAN_OPTIONS".into(), ASAN_OPTIONS.into()),
                ("UBSAN_OPTIONS".into(), UBSAN_OPTIONS.into()),
            ],
            Toolchain::Rust => Vec::new(),
        }
    }

    /// Whether the run keeps its address-space cap.
    pub fn address_space_cap(self) -> bool {
        matches!(self, Toolchain::Rust)
    }

    /// What the header says of a sanitized run whose memory limit was `limit`: how it is
    /// built, and which limits are loosened.
    pub fn note(self, limit: u64) -> String {
        use crate::units::format_size_limit;
        match self {
            Toolchain::Native { .. } => format!(
                "sanitized: built -O1 -g with {}; memory limit {} (2 × {} + {} for the shadow memory and redzones), no address-space cap, time limit × {TIME_FACTOR}",
                self.describe(),
                format_size_limit(self.memory_limit(limit)),
                format_size_limit(limit),
                format_size_limit(EXTRA_MEMORY),
            ),
            Toolchain::Rust => format!("sanitized: built with {}", self.describe()),
        }
    }
}

/// Why a submission cannot be judged sanitized.
#[derive(Debug, thiserror::Error)]
pub enum SanitizeError {
    #[error("--sanitize builds C and C++ with gcc or clang, and Rust with rustc; {language} {how} (hint: judge it without --sanitize, or name a gcc, clang or rustc in its `compile` in [languages.{id}])")]
    Unsupported {
        language: String,
        id: String,
        /// `is not compiled`, `compiles with \`sh\``.
        how: String,
    },
    #[error("`{compiler}` cannot build with {what} on this machine: {message} (hint: {hint})")]
    Missing {
        compiler: String,
        what: &'static str,
        message: String,
        hint: &'static str,
    },
}

/// `language` built for `--sanitize`: its compile command with the optimization and
/// stripping flags replaced by the sanitizers' (see the module's notes), its name saying so,
/// its time multiplier doubled for C and C++.
pub fn language(language: &Language) -> Result<(Language, Toolchain), SanitizeError> {
    let Some(toolchain) = Toolchain::of(language) else {
        let how = match language.compile.as_ref().and_then(|c| c.first()) {
            Some(program) => format!("compiles with `{program}`"),
            None => "is not compiled".to_string(),
        };
        return Err(SanitizeError::Unsupported {
            language: language.name.clone(),
            id: language.id.clone(),
            how,
        });
    };
    let command = language
        .compile
        .as_ref()
        .expect("a toolchain has a compile command");
    let (program, rest) = command
        .split_first()
        .expect("a compile command has a program");
    let mut compile = vec![program.clone()];
    match toolchain {
        Toolchain::Native { cxx } => {
            compile.extend(NATIVE_FLAGS.iter().map(|f| (*f).to_string()));
            if cxx {
                compile.extend(CXX_FLAGS.iter().map(|f| (*f).to_string()));
            }
            compile.extend(rest.iter().filter(|a| !undoes_native(a)).cloned());
        }
        Toolchain::Rust => {
            compile.extend(rest.iter().cloned());
            compile.extend(RUST_FLAGS.iter().map(|f| (*f).to_string()));
        }
    }
    let mut sanitized = language.clone();
    sanitized.compile = Some(compile);
    sanitized.name = format!("{}, sanitized", language.name);
    if matches!(toolchain, Toolchain::Native { .. }) {
        sanitized.time_multiplier *= TIME_FACTOR;
    }
    Ok((sanitized, toolchain))
}

/// A flag of a C or C++ command that a sanitized build leaves out: another optimization level,
/// stripping (no lines then), static linking (the sanitizers' runtimes are shared libraries),
/// link-time optimization.
fn undoes_native(flag: &str) -> bool {
    let optimization = flag.strip_prefix("-O").is_some_and(|level| {
        level.is_empty() || matches!(level, "0" | "1" | "2" | "3" | "s" | "z" | "g" | "fast")
    });
    optimization
        || matches!(flag, "-s" | "-static" | "-fomit-frame-pointer")
        || flag.starts_with("-flto")
}

/// What a sanitizer's hint says to install when the compiler cannot build with it.
pub fn install_hint(toolchain: Toolchain, compiler: &str) -> &'static str {
    match toolchain {
        Toolchain::Rust => "install rustc from https://rustup.rs",
        Toolchain::Native { .. } if compiler.contains("clang") => {
            "install the sanitizers' runtimes, `apt install libclang-rt-dev` (or the compiler-rt package of your clang)"
        }
        Toolchain::Native { .. } => {
            "install the sanitizers' runtimes, `apt install libasan8 libubsan1` (or gcc's own package, which brings them)"
        }
    }
}

/// A sanitized program: how to read its reports.
#[derive(Debug, Clone)]
pub struct Sanitized {
    pub toolchain: Toolchain,
    /// The source as the user named it, shown in reasons.
    pub shown: PathBuf,
    /// The private copy the compiler saw: frames in it are the user's lines.
    pub copy: PathBuf,
}

impl Sanitized {
    /// The case's reason from the end of its stderr, when a sanitizer (or a Rust panic)
    /// stopped it: `heap-buffer-overflow at a.cpp:17 (WRITE of size 4)`.
    pub fn reason(&self, stderr: &str) -> Option<String> {
        let ours = |file: &str| self.is_ours(file);
        let report = match self.toolchain {
            Toolchain::Native { .. } => read_native(stderr, &ours),
            Toolchain::Rust => read_panic(stderr, &ours),
        }?;
        Some(report.render(&self.shown))
    }

    /// `stderr` with a sanitizer's report cut to what says where it went wrong, so that the
    /// few lines of stderr's end a report shows are those: the program's own lines (an
    /// `assert`'s message among them), the report's first line and its details, and of each
    /// stack only the first frame in the user's source (else its first frame). Left out: the
    /// other frames (the runtime's, the C library's, `_start`), the dump of shadow bytes (a
    /// screen of hex), and lines that repeat the first (`SUMMARY:`) or say nothing
    /// (`==2==ABORTING`, rules, blank lines).
    pub fn tidy(&self, stderr: &str) -> String {
        let lines: Vec<&str> = stderr.split_inclusive('\n').collect();
        let Some(start) = lines.iter().position(|line| starts_report(line)) else {
            return stderr.to_string();
        };
        let mut kept: String = lines[..start].concat();
        let mut index = start;
        let mut in_dump = false;
        while index < lines.len() {
            let line = lines[index];
            if line.starts_with("Shadow bytes around the buggy address:") {
                in_dump = true;
            } else if in_dump && line.starts_with("==") {
                in_dump = false;
            }
            if in_dump || says_nothing(line) {
                index += 1;
                continue;
            }
            if !is_frame(line) {
                kept.push_str(line);
                index += 1;
                continue;
            }
            let stack = lines[index..].iter().take_while(|l| is_frame(l)).count();
            let frames = &lines[index..index + stack];
            let shown = frames
                .iter()
                .find(|l| frame(l.trim_end()).is_some_and(|(file, _)| self.is_ours(file)))
                .unwrap_or(&frames[0]);
            kept.push_str(shown);
            if !shown.ends_with('\n') {
                kept.push('\n');
            }
            index += stack;
        }
        kept
    }

    /// Whether a frame's file is the user's source: the private copy, by its path (or by its
    /// folder's name and its own, should the path have been spelt otherwise).
    fn is_ours(&self, file: &str) -> bool {
        let file = Path::new(file);
        // The run's stderr names the user's file by the time it is read (`ShownNames`).
        if file == self.copy || file == self.shown {
            return true;
        }
        let tail = |path: &Path| -> Option<(OsString, OsString)> {
            Some((
                path.parent()?.file_name()?.to_os_string(),
                path.file_name()?.to_os_string(),
            ))
        };
        tail(file).is_some_and(|t| Some(t) == tail(&self.copy))
    }
}

/// What a report says.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Report {
    /// `heap-buffer-overflow`, `signed-integer-overflow`, `panic`.
    kind: String,
    /// The first line of the user's source in its stack, if one is.
    line: Option<u32>,
    /// What more it says, short: `WRITE of size 4`, the runtime error's own words.
    detail: Option<String>,
    /// Where it happened when no frame is the user's: `in std::vector<…>::operator[]`.
    elsewhere: Option<String>,
}

impl Report {
    fn render(&self, shown: &Path) -> String {
        let mut text = self.kind.clone();
        match (self.line, &self.elsewhere) {
            (Some(line), _) => text.push_str(&format!(" at {}:{line}", shown.display())),
            (None, Some(place)) => text.push_str(&format!(" {place}")),
            (None, None) => {}
        }
        if let Some(detail) = &self.detail {
            text.push_str(&format!(" ({detail})"));
        }
        crate::text::one_line(&text, 240)
    }
}

/// Where a sanitizer's report starts: its rule, its first line.
fn starts_report(line: &str) -> bool {
    line.starts_with("AddressSanitizer:DEADLYSIGNAL")
        || is_rule(line)
        || line.contains("ERROR: AddressSanitizer: ")
        || line.contains(": runtime error: ")
}

/// `=================================================================`.
fn is_rule(line: &str) -> bool {
    let line = line.trim_end();
    line.len() > 10 && line.bytes().all(|b| b == b'=')
}

/// A line of a report that says nothing another line it keeps does not.
fn says_nothing(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty()
        || is_rule(line)
        || trimmed == "AddressSanitizer:DEADLYSIGNAL"
        || trimmed == "AddressSanitizer can not provide additional info."
        || trimmed.starts_with("SUMMARY: ")
        || (trimmed.starts_with("==") && trimmed.ends_with("==ABORTING"))
}

/// `    #3 0x55 in main a.cpp:6`, with a file or not.
fn is_frame(line: &str) -> bool {
    line.trim_start()
        .strip_prefix('#')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// A stack frame's file and line: `#0 0x55c2 in main /tmp/x/a.cpp:17` or `…/a.cpp:17:5`.
fn frame(line: &str) -> Option<(&str, u32)> {
    let line = line.trim_start();
    if !line.starts_with('#') {
        return None;
    }
    let location = line.rsplit(' ').next()?;
    let mut parts = location.rsplitn(3, ':');
    let last = parts.next()?;
    let middle = parts.next()?;
    match parts.next() {
        // file:line:column
        Some(file) if last.parse::<u32>().is_ok() && middle.parse::<u32>().is_ok() => {
            Some((file, middle.parse().ok()?))
        }
        // file:line (a file name with a colon is put back together)
        Some(file_start) => Some((
            &location[..file_start.len() + 1 + middle.len()],
            last.parse().ok()?,
        )),
        None => Some((middle, last.parse().ok()?)),
    }
}

/// The first frame in the user's source among `lines`.
fn first_own_line<'a>(
    lines: impl Iterator<Item = &'a str>,
    ours: &dyn Fn(&str) -> bool,
) -> Option<u32> {
    lines
        .filter_map(frame)
        .find(|(file, _)| ours(file))
        .map(|(_, line)| line)
}

/// An AddressSanitizer or UndefinedBehaviorSanitizer report, the last one in `stderr`.
fn read_native(stderr: &str, ours: &dyn Fn(&str) -> bool) -> Option<Report> {
    let lines: Vec<&str> = stderr.lines().collect();
    let asan = lines
        .iter()
        .rposition(|l| l.contains("ERROR: AddressSanitizer: "));
    let ubsan = lines.iter().rposition(|l| l.contains(": runtime error: "));
    match (asan, ubsan) {
        (Some(a), Some(u)) if u > a => read_ubsan(&lines[u..], ours),
        (Some(a), _) => read_asan(&lines[a..], &lines[..a], ours),
        (None, Some(u)) => read_ubsan(&lines[u..], ours),
        (None, None) => None,
    }
}

fn read_asan(report: &[&str], before: &[&str], ours: &dyn Fn(&str) -> bool) -> Option<Report> {
    let header = report[0];
    let after = &header[header.find("AddressSanitizer: ")? + "AddressSanitizer: ".len()..];
    let mut kind = after
        .split(" on ")
        .next()
        .unwrap_or(after)
        .split_whitespace()
        .next()?
        .to_string();
    // The stack of the access ends at the first line after its frames (then come where the
    // memory was allocated or freed, which are not where it went wrong).
    let mut stack_end = report.len();
    let mut in_stack = false;
    for (index, line) in report.iter().enumerate().skip(1) {
        if line.trim_start().starts_with('#') {
            in_stack = true;
        } else if in_stack {
            stack_end = index;
            break;
        }
    }
    let stack = &report[..stack_end];
    let mut detail = report
        .iter()
        .find(|l| {
            let t = l.trim_start();
            (t.starts_with("READ of size") || t.starts_with("WRITE of size")) && t.contains(" at ")
        })
        .map(|l| l.trim().split(" at ").next().unwrap_or("").to_string());
    if kind == "SEGV" {
        let access = report
            .iter()
            .find_map(|l| l.split("The signal is caused by a ").nth(1))
            .map(|rest| rest.trim_end_matches('.').to_string());
        let null = report
            .iter()
            .any(|l| l.contains("address points to the zero page"));
        detail = match (access, null) {
            (Some(access), true) => Some(format!("{access} through a null pointer")),
            (Some(access), false) => Some(access),
            (None, true) => Some("a null pointer".to_string()),
            (None, false) => None,
        };
    }
    if kind == "ABRT" {
        // An `assert` (or the C++ library's own check) said why just before.
        if let Some(assertion) = before.iter().rev().find_map(|l| assertion(l)) {
            kind = format!("assertion `{assertion}` failed");
        } else {
            kind = "abort".to_string();
        }
    }
    let line = first_own_line(stack.iter().copied(), ours);
    let elsewhere = line.is_none().then(|| summary_place(report)).flatten();
    Some(Report {
        kind,
        line,
        detail,
        elsewhere,
    })
}

/// `Assertion `x > 0' failed.` (glibc) or `Assertion '__n < this->size()' failed.` (the C++
/// library): the condition.
fn assertion(line: &str) -> Option<String> {
    let start = line.find("Assertion ")? + "Assertion ".len();
    let rest = &line[start..];
    let end = rest.rfind(" failed")?;
    let quoted = &rest[..end];
    let inner = quoted
        .strip_prefix(['`', '\''])
        .and_then(|q| q.strip_suffix('\''))
        .unwrap_or(quoted);
    Some(inner.to_string())
}

/// `in main` from `SUMMARY: AddressSanitizer: heap-buffer-overflow /x/a.cpp:2 in main`.
fn summary_place(report: &[&str]) -> Option<String> {
    let summary = report.iter().find(|l| l.starts_with("SUMMARY: "))?;
    let (_, function) = summary.rsplit_once(" in ")?;
    Some(format!("in {}", crate::text::cut(function.trim(), 80)))
}

fn read_ubsan(report: &[&str], ours: &dyn Fn(&str) -> bool) -> Option<Report> {
    let (location, message) = report[0].split_once(": runtime error: ")?;
    let kind = report
        .iter()
        .find_map(|l| l.strip_prefix("SUMMARY: UndefinedBehaviorSanitizer: "))
        .and_then(|rest| rest.split_whitespace().next())
        .map_or_else(|| ubsan_kind(message), str::to_string);
    // The runtime error's own place when it is in the user's file, else the first frame that
    // is (a check inside a header).
    let own_place = {
        let mut parts = location.rsplitn(3, ':');
        let (_column, line, file) = (parts.next(), parts.next(), parts.next());
        match (file, line.and_then(|l| l.parse::<u32>().ok())) {
            (Some(file), Some(line)) if ours(file.trim()) => Some(line),
            _ => None,
        }
    };
    let line = own_place.or_else(|| first_own_line(report.iter().copied(), ours));
    Some(Report {
        kind,
        line,
        detail: Some(crate::text::cut(message.trim(), 160)),
        elsewhere: None,
    })
}

/// The check's name, from its words, when the report has no summary (gcc's runtime prints
/// none when it stops at the first error): as `-fsanitize=` names the checks.
fn ubsan_kind(message: &str) -> String {
    let message = message.trim();
    let kinds = [
        ("signed integer overflow", "signed-integer-overflow"),
        ("negation of", "signed-integer-overflow"),
        ("shift exponent", "shift-exponent"),
        ("left shift of", "shift-base"),
        ("division by zero", "integer-divide-by-zero"),
        ("index ", "array-bounds"),
        ("load of null pointer", "null-pointer-use"),
        ("store to null pointer", "null-pointer-use"),
        ("member access within null pointer", "null-pointer-use"),
        ("reference binding to null pointer", "null-pointer-use"),
        ("load of misaligned", "misaligned-pointer-use"),
        ("store to misaligned", "misaligned-pointer-use"),
        (
            "execution reached the end of a value-returning function",
            "missing-return",
        ),
        (
            "execution reached an unreachable program point",
            "unreachable",
        ),
        ("pointer index expression", "pointer-overflow"),
        ("addition of unsigned offset", "pointer-overflow"),
        ("subtraction of unsigned offset", "pointer-overflow"),
        ("applying ", "pointer-overflow"),
        ("variable length array bound", "vla-bound"),
        (
            "is outside the range of representable values",
            "float-cast-overflow",
        ),
        ("is not a valid value for type", "invalid-bool-load"),
    ];
    kinds
        .iter()
        .find(|(words, _)| message.starts_with(words) || message.contains(words))
        .map_or("undefined-behavior", |(_, kind)| kind)
        .to_string()
}

/// A Rust panic: `thread 'main' panicked at /x/a.rs:5:13:` then its message (Rust 1.73 and
/// later), or `panicked at 'message', /x/a.rs:5:13` (before).
fn read_panic(stderr: &str, ours: &dyn Fn(&str) -> bool) -> Option<Report> {
    let lines: Vec<&str> = stderr.lines().collect();
    // `thread 'main' (2) panicked at` since Rust 1.89, which names the thread's id too.
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("thread '") && l.contains(" panicked at "))?;
    let rest = lines[at].split(" panicked at ").nth(1)?;
    let (place, message) = if let Some(old) = rest.strip_prefix('\'') {
        let (message, place) = old.rsplit_once("', ")?;
        (place.to_string(), message.to_string())
    } else {
        let place = rest.trim_end_matches(':').to_string();
        (place, lines.get(at + 1).copied().unwrap_or("").to_string())
    };
    let mut parts = place.rsplitn(3, ':');
    let (_column, line, file) = (parts.next(), parts.next(), parts.next());
    let line = match (file, line.and_then(|l| l.parse::<u32>().ok())) {
        (Some(file), Some(line)) if ours(file) => Some(line),
        _ => None,
    };
    let elsewhere = line.is_none().then(|| format!("at {place}"));
    Some(Report {
        kind: "panic".to_string(),
        line,
        detail: Some(crate::text::cut(message.trim(), 160)).filter(|m| !m.is_empty()),
        elsewhere,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sanitized(toolchain: Toolchain) -> Sanitized {
        Sanitized {
            toolchain,
            shown: PathBuf::from("a.cpp"),
            copy: PathBuf::from("/tmp/harness-build-x1/a.cpp"),
        }
    }

    fn cpp(compile: &[&str]) -> Language {
        Language {
            id: "cpp".into(),
            name: "C++17".into(),
            extensions: vec!["cpp".into()],
            compile: Some(compile.iter().map(|s| (*s).to_string()).collect()),
            run: vec!["{exe}".into()],
            time_multiplier: 1.0,
            compile_limits: crate::compile::CompileLimits::default(),
            sandbox: Default::default(),
            tools: Vec::new(),
        }
    }

    #[test]
    fn toolchains_are_known_by_the_compilers_name() {
        let rows = [
            ("g++", Some(Toolchain::Native { cxx: true })),
            ("/usr/bin/g++-12", Some(Toolchain::Native { cxx: true })),
            (
                "x86_64-linux-gnu-gcc-12",
                Some(Toolchain::Native { cxx: false }),
            ),
            ("clang++-14", Some(Toolchain::Native { cxx: true })),
            ("cc", Some(Toolchain::Native { cxx: false })),
            ("rustc", Some(Toolchain::Rust)),
            ("sh", None),
            ("python3", None),
            ("javac", None),
        ];
        for (program, expected) in rows {
            assert_eq!(Toolchain::of(&cpp(&[program])), expected, "{program}");
        }
    }

    #[test]
    fn a_sanitized_compile_replaces_optimization_and_stripping() {
        let (language, toolchain) = language(&cpp(&[
            "g++",
            "-O2",
            "-std=c++17",
            "-s",
            "-static",
            "-flto",
            "-o",
            "{exe}",
            "{source}",
        ]))
        .unwrap();
        assert_eq!(toolchain, Toolchain::Native { cxx: true });
        assert_eq!(
            language.compile.unwrap(),
            [
                &["g++"][..],
                &NATIVE_FLAGS,
                &CXX_FLAGS,
                &["-std=c++17", "-o", "{exe}", "{source}"]
            ]
            .concat()
        );
        assert_eq!(language.name, "C++17, sanitized");
        assert_eq!(language.time_multiplier, 2.0);

        let rust = Language {
            name: "Rust 2021".into(),
            ..cpp(&["rustc", "-O", "-o", "{exe}", "{source}"])
        };
        let (language, toolchain) = super::language(&rust).unwrap();
        assert_eq!(toolchain, Toolchain::Rust);
        let compile = language.compile.unwrap();
        assert_eq!(&compile[..2], ["rustc", "-O"]);
        assert!(compile.ends_with(&RUST_FLAGS.map(String::from)));
        assert_eq!(language.time_multiplier, 1.0);

        let python = Language {
            name: "Python 3".into(),
            id: "python".into(),
            compile: None,
            ..cpp(&[])
        };
        let error = super::language(&python).unwrap_err().to_string();
        assert!(
            error.starts_with("--sanitize builds C and C++ with gcc or clang, and Rust with rustc; Python 3 is not compiled"),
            "{error}"
        );
    }

    #[test]
    fn the_memory_limit_makes_room_for_the_shadow_and_the_quarantine() {
        let native = Toolchain::Native { cxx: true };
        assert_eq!(native.memory_limit(256 << 20), 768 << 20);
        assert_eq!(Toolchain::Rust.memory_limit(256 << 20), 256 << 20);
        assert!(!native.address_space_cap());
    }

    const HEAP_OVERFLOW: &str = "\
=================================================================
==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60200000002c at pc 0x55c255ac3422 bp 0x7ffd4f152eb0 sp 0x7ffd4f152ea8
WRITE of size 4 at 0x60200000002c thread T0
    #0 0x55c255ac3421 in main /tmp/harness-build-x1/a.cpp:17
    #1 0x7f3276245249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58
    #2 0x55c255ac3130 in _start (/tmp/harness-build-x1/main.bin+0x1130)

0x60200000002c is located 12 bytes to the right of 16-byte region [0x602000000010,0x602000000020)
allocated by thread T0 here:
    #0 0x7f32764b9628 in operator new[](unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:98
    #1 0x55c255ac3282 in main /tmp/harness-build-x1/a.cpp:16

SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/harness-build-x1/a.cpp:17 in main
Shadow bytes around the buggy address:
  0x0c047fff8000: fa fa 00 00 fa fa 00 fa fa fa fa fa fa fa fa fa
=>0x0c047fff8010: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
==2==ABORTING
";

    #[test]
    fn an_address_sanitizer_report_names_its_kind_and_the_users_line() {
        let native = sanitized(Toolchain::Native { cxx: true });
        assert_eq!(
            native.reason(HEAP_OVERFLOW).as_deref(),
            Some("heap-buffer-overflow at a.cpp:17 (WRITE of size 4)")
        );
        // Frames without a line of the user's (a library's own) say where instead.
        let elsewhere = HEAP_OVERFLOW.replace("/tmp/harness-build-x1/a.cpp:17", "/usr/x.h:3");
        assert_eq!(
            native.reason(&elsewhere).as_deref(),
            Some("heap-buffer-overflow in main (WRITE of size 4)")
        );
        let segv = "\
==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x5581 bp 0x7ff sp 0x7ff T0)
==1==The signal is caused by a WRITE memory access.
==1==Hint: address points to the zero page.
    #0 0x5581 in solve(int) /tmp/harness-build-x1/a.cpp:9:12
    #1 0x5582 in main /tmp/harness-build-x1/a.cpp:20:5
SUMMARY: AddressSanitizer: SEGV /tmp/harness-build-x1/a.cpp:9:12 in solve(int)
";
        assert_eq!(
            native.reason(segv).as_deref(),
            Some("SEGV at a.cpp:9 (WRITE memory access through a null pointer)")
        );
        let assertion = "\
/usr/include/c++/12/bits/stl_vector.h:1123: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, _Alloc>::operator[](size_type) [with _Tp = int]: Assertion '__n < this->size()' failed.
==3==ERROR: AddressSanitizer: ABRT on unknown address 0x000000000003 (pc 0x7f bp 0x7f sp 0x7f T0)
    #0 0x7f in __pthread_kill_implementation nptl/pthread_kill.c:44
    #1 0x7f in abort stdlib/abort.c:79
    #2 0x55 in std::vector<int>::operator[](unsigned long) /usr/include/c++/12/bits/stl_vector.h:1123
    #3 0x55 in main /tmp/harness-build-x1/a.cpp:6
SUMMARY: AddressSanitizer: ABRT nptl/pthread_kill.c:44 in __pthread_kill_implementation
";
        assert_eq!(
            native.reason(assertion).as_deref(),
            Some("assertion `__n < this->size()` failed at a.cpp:6")
        );
        assert_eq!(native.reason("Segmentation fault\n"), None);
    }

    #[test]
    fn a_report_keeps_its_first_line_and_the_users_frames() {
        let native = sanitized(Toolchain::Native { cxx: true });
        let said = format!("reading 5 numbers\n{HEAP_OVERFLOW}");
        assert_eq!(
            native.tidy(&said),
            "\
reading 5 numbers
==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60200000002c at pc 0x55c255ac3422 bp 0x7ffd4f152eb0 sp 0x7ffd4f152ea8
WRITE of size 4 at 0x60200000002c thread T0
    #0 0x55c255ac3421 in main /tmp/harness-build-x1/a.cpp:17
0x60200000002c is located 12 bytes to the right of 16-byte region [0x602000000010,0x602000000020)
allocated by thread T0 here:
    #1 0x55c255ac3282 in main /tmp/harness-build-x1/a.cpp:16
"
        );
        // Named as the user names the file, as the run's stderr is by then.
        let shown = said.replace("/tmp/harness-build-x1/a.cpp", "a.cpp");
        assert!(native
            .tidy(&shown)
            .contains("    #1 0x55c255ac3282 in main a.cpp:16\n"));
        assert_eq!(native.tidy("plain\nlines\n"), "plain\nlines\n");
        assert_eq!(native.tidy(""), "");
    }

    #[test]
    fn a_failed_assert_keeps_its_words_and_the_users_frame() {
        let native = sanitized(Toolchain::Native { cxx: true });
        let said = "\
main.bin: a.cpp:6: int main(): Assertion `x > 0' failed.
AddressSanitizer:DEADLYSIGNAL
=================================================================
==2==ERROR: AddressSanitizer: ABRT on unknown address 0x000000000002 (pc 0x7f bp 0x7f sp 0x7f T0)
    #0 0x7f in __pthread_kill_implementation nptl/pthread_kill.c:44
    #1 0x7f in __GI_raise ../sysdeps/posix/raise.c:26
    #2 0x7f in __GI_abort stdlib/abort.c:79
    #3 0x7f in __assert_fail_base assert/assert.c:94
    #4 0x7f in __GI___assert_fail assert/assert.c:103
    #5 0x55 in main a.cpp:6
    #6 0x7f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58
    #7 0x55 in _start (/c/build/main.bin+0x1100)

AddressSanitizer can not provide additional info.
SUMMARY: AddressSanitizer: ABRT nptl/pthread_kill.c:44 in __pthread_kill_implementation
==2==ABORTING
";
        assert_eq!(
            native.tidy(said),
            "\
main.bin: a.cpp:6: int main(): Assertion `x > 0' failed.
==2==ERROR: AddressSanitizer: ABRT on unknown address 0x000000000002 (pc 0x7f bp 0x7f sp 0x7f T0)
    #5 0x55 in main a.cpp:6
"
        );
        assert_eq!(
            native.reason(said).as_deref(),
            Some("assertion `x > 0` failed at a.cpp:6")
        );
        // No frame of the user's: the first frame says where.
        let elsewhere = said.replace("main a.cpp:6", "main b.cpp:6");
        assert!(native
            .tidy(&elsewhere)
            .ends_with("(pc 0x7f bp 0x7f sp 0x7f T0)\n    #0 0x7f in __pthread_kill_implementation nptl/pthread_kill.c:44\n"));
    }

    #[test]
    fn an_undefined_behavior_report_names_its_kind_line_and_words() {
        let native = sanitized(Toolchain::Native { cxx: false });
        let overflow = "\
/tmp/harness-build-x1/a.cpp:5:7: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
    #0 0x55 in main /tmp/harness-build-x1/a.cpp:5
SUMMARY: UndefinedBehaviorSanitizer: signed-integer-overflow /tmp/harness-build-x1/a.cpp:5:7 in
";
        assert_eq!(
            native.reason(overflow).as_deref(),
            Some("signed-integer-overflow at a.cpp:5 (signed integer overflow: 2147483647 + 1 cannot be represented in type 'int')")
        );
        let in_header = "\
/usr/include/c++/12/bits/stl_algobase.h:9:3: runtime error: shift exponent 40 is too large for 32-bit type 'int'
    #0 0x55 in f /usr/include/c++/12/bits/stl_algobase.h:9
    #1 0x55 in main /tmp/harness-build-x1/a.cpp:12
SUMMARY: UndefinedBehaviorSanitizer: shift-exponent /usr/include/c++/12/bits/stl_algobase.h:9:3 in
";
        let no_summary = overflow.lines().take(2).collect::<Vec<_>>().join("\n");
        assert_eq!(
            native.reason(&no_summary).as_deref(),
            native.reason(overflow).as_deref(),
            "gcc prints no summary: the kind comes from the words"
        );
        assert_eq!(
            native.reason(in_header).as_deref(),
            Some(
                "shift-exponent at a.cpp:12 (shift exponent 40 is too large for 32-bit type 'int')"
            )
        );
    }

    #[test]
    fn a_rust_panic_names_the_line_and_the_check() {
        let rust = Sanitized {
            shown: PathBuf::from("a.rs"),
            copy: PathBuf::from("/tmp/harness-build-x1/a.rs"),
            toolchain: Toolchain::Rust,
        };
        let now = "thread 'main' panicked at /tmp/harness-build-x1/a.rs:5:13:\nattempt to add with overflow\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            rust.reason(now).as_deref(),
            Some("panic at a.rs:5 (attempt to add with overflow)")
        );
        let with_id = "\nthread 'main' (2) panicked at /tmp/harness-build-x1/a.rs:7:13:\nattempt to add with overflow\nstack backtrace:\n";
        assert_eq!(
            rust.reason(with_id).as_deref(),
            Some("panic at a.rs:7 (attempt to add with overflow)")
        );
        let before = "thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 7', /tmp/harness-build-x1/a.rs:9:5\n";
        assert_eq!(
            rust.reason(before).as_deref(),
            Some("panic at a.rs:9 (index out of bounds: the len is 3 but the index is 7)")
        );
    }

    #[test]
    fn frames_are_read_with_or_without_a_column() {
        assert_eq!(
            frame("    #0 0x1 in main /x/a.cpp:17"),
            Some(("/x/a.cpp", 17))
        );
        assert_eq!(
            frame("    #3 0x1 in f(int) /x/a.cpp:9:12"),
            Some(("/x/a.cpp", 9))
        );
        assert_eq!(frame("    #2 0x1 in _start (/x/main.bin+0x1130)"), None);
        assert_eq!(frame("SUMMARY: x"), None);
    }
}
