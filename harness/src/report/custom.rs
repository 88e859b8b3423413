//! The report of one run on a custom input (`harness judge … --input FILE`): the output, time
//! and memory, and with a reference its answer and the checker's verdict.

use std::io::{self, Write};

use super::excerpt::write_excerpt;
use super::style::{verdict_style, BOLD, UNCHECKED};
use crate::judge::custom::CustomRun;
use crate::results::case::RAN;
use crate::text::{cut, tail_lines};
use crate::units::{format_bytes, format_duration};

/// Lines of an output shown; the rest is counted.
const SHOWN_LINES: usize = 50;
/// Characters of one shown line.
const SHOWN_CHARS: usize = 200;

/// An input or output, indented, cut to [`SHOWN_LINES`] lines of [`SHOWN_CHARS`] characters.
fn excerpt(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    write_excerpt(out, bytes, SHOWN_LINES, SHOWN_CHARS)
}

pub fn write_custom(out: &mut dyn Write, run: &CustomRun) -> io::Result<()> {
    writeln!(out, "{BOLD}output:{BOLD:#}")?;
    excerpt(out, &run.output)?;
    if let Some(expected) = &run.expected {
        match &run.answer_file {
            Some(path) => writeln!(out, "{BOLD}expected ({}):{BOLD:#}", super::shown_path(path))?,
            None => writeln!(out, "{BOLD}expected (reference):{BOLD:#}")?,
        }
        excerpt(out, expected)?;
    }
    if !run.stderr_tail.trim().is_empty() {
        writeln!(out, "{BOLD}stderr (end):{BOLD:#}")?;
        for line in tail_lines(&run.stderr_tail, 10) {
            writeln!(out, "  {}", cut(line, SHOWN_CHARS))?;
        }
    }
    let (style, code) = if run.checked() || !run.verdict.is_accepted() {
        (verdict_style(run.verdict), run.verdict.as_str())
    } else {
        (UNCHECKED, RAN)
    };
    writeln!(
        out,
        "{style}{code}{style:#}  {}, {}  {}",
        format_duration(run.cpu_time),
        format_bytes(run.peak_memory_bytes),
        run.reason
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::verdict::Verdict;

    /// `run` as `write_custom` shows it, without colours.
    fn shown(run: &CustomRun) -> String {
        let mut out = Vec::new();
        write_custom(&mut out, run).unwrap();
        anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string()
    }

    /// A run of 3 ms and 3 MiB that wrote `output`, with nothing on stderr.
    fn run(verdict: Verdict, reason: &str, output: &[u8], expected: Option<&[u8]>) -> CustomRun {
        CustomRun {
            verdict,
            reason: reason.to_string(),
            output: output.to_vec(),
            stderr_tail: String::new(),
            cpu_time: Duration::from_millis(3),
            peak_memory_bytes: 3 << 20,
            expected: expected.map(<[u8]>::to_vec),
            answer_file: None,
        }
    }

    #[test]
    fn output_answer_and_verdict() {
        let run = run(
            Verdict::WrongAnswer,
            "line 1, token 1: expected YES, found yes",
            b"yes\n",
            Some(b"YES\n"),
        );
        assert_eq!(
            shown(&run),
            "output:\n  yes\nexpected (reference):\n  YES\nWA  3 ms, 3.0 MiB  line 1, token 1: expected YES, found yes\n"
        );
        let beside = CustomRun {
            answer_file: Some("test/random-1.out".into()),
            ..run
        };
        let text = shown(&beside);
        assert!(
            text.contains("expected (test/random-1.out):\n  YES\n"),
            "{text}"
        );
    }

    #[test]
    fn a_run_with_nothing_to_compare_with_ran_and_is_not_ac() {
        let run = run(
            Verdict::Accepted,
            "not checked: no answer beside the input",
            b"7\n",
            None,
        );
        assert_eq!(
            shown(&run),
            "output:\n  7\nran  3 ms, 3.0 MiB  not checked: no answer beside the input\n"
        );
        // A run that failed its limits is that failure, answer or not.
        let crashed = CustomRun {
            verdict: Verdict::RuntimeError,
            reason: "exit 1".to_string(),
            ..run
        };
        assert!(shown(&crashed).ends_with("RE  3 ms, 3.0 MiB  exit 1\n"));
    }
}
