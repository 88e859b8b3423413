//! `harness stress`: judge a submission on random inputs until one fails, shrink it, and
//! show the small failing input with the expected and received outputs.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anstyle::{AnsiColor, Style};
use anyhow::{anyhow, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use harness::author::add::{self, Added, NewCase};
use harness::author::stress::{
    self, Failing, ShrinkStatus, StressEvent, StressOptions, StressReport,
};
use harness::compile::submit::{self, Compiled};
use harness::config::units::{self, format_duration};
use harness::exit;
use harness::report::json;
use harness::verdict::Verdict;

use super::{build_first, load_config, shown_path, Format, GlobalArgs};

/// Inputs tried when neither --iterations nor --time says otherwise.
const DEFAULT_ITERATIONS: u64 = 1000;
/// Lines of an input or output shown; the rest is counted.
const SHOWN_LINES: usize = 20;
/// Characters of one shown line.
const SHOWN_CHARS: usize = 100;

#[derive(Args, Debug, Clone)]
pub struct StressArgs {
    /// The problem whose stress generator makes the inputs.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The submission: a source file in any language of judge.toml.
    #[arg(value_name = "SUBMISSION")]
    pub submission: PathBuf,
    /// The language, when the file's extension does not tell.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// The first seed (then seed + 1, …); default: a random one, printed.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Inputs to try (default: 1000, or no limit with --time).
    #[arg(short = 'n', long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop looking after this long (`30s`, `2m`).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time: Option<Duration>,
    /// Report the failing input as found, without shrinking it.
    #[arg(long)]
    pub no_shrink: bool,
    /// Store the minimal failing input (answered by the reference) as a new case NAME
    /// (default: the first free `added-N`); never overwrites.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    pub save: Option<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Skip judge.toml's build command (generator, reference and shrinker are built).
    #[arg(long)]
    pub no_build: bool,
}

const BAD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
    .bold();
const GOOD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)))
    .bold();
const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

pub fn stress(global: &GlobalArgs, args: &StressArgs) -> Result<i32> {
    let config = load_config(global)?;
    let problem = config.require_problem(&args.problem)?;
    let language = submit::detect_language(&config, &args.submission, args.lang.as_deref())?;
    build_first(&config, args.no_build)?;
    let prepared = match submit::compile(language, &args.submission)? {
        Compiled::Ready(prepared) => prepared,
        Compiled::CompileError { language, message } => {
            return compile_error(args, &language.name, &message);
        }
    };
    let first_seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        // Said at once, so that even an interrupted run can be repeated.
        eprintln!("stress: first seed {seed} (pass --seed {seed} to repeat this run)");
        seed
    });
    let options = StressOptions {
        first_seed,
        iterations: match (args.iterations, args.time) {
            (None, None) => Some(DEFAULT_ITERATIONS),
            (iterations, _) => iterations,
        },
        time: args.time,
        shrink: !args.no_shrink,
    };

    let bar = match options.iterations {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::no_length(),
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix} {bar:30} {pos} inputs, {msg}")
            .expect("a valid progress template"),
    );
    bar.set_prefix(format!("stress {}", problem.name));
    let mut on_event = |event: StressEvent<'_>| match event {
        StressEvent::Judged { iteration, seed } => {
            bar.set_position(iteration);
            bar.set_message(format!("seed {seed}"));
        }
        StressEvent::Failed { seed, verdict } => {
            bar.set_message(format!("{verdict} on seed {seed}, shrinking"));
        }
        StressEvent::ShrinkStep { step, failing } => bar.set_message(format!(
            "shrinking: step {step}, {} {}",
            one_line(&failing.input),
            failing.outcome.verdict
        )),
    };
    let report = stress::stress(
        &config,
        problem,
        &prepared.program,
        prepared.time_multiplier,
        &options,
        &mut on_event,
    );
    bar.finish_and_clear();
    let report = report?;

    let saved = match (&report.found, &args.save) {
        (Some(found), Some(name)) => Some(add::add(
            &config,
            problem,
            &NewCase {
                name: Some(name.as_str()).filter(|n| !n.is_empty()),
                input: &found.minimal.input,
                ..NewCase::default()
            },
        )),
        _ => None,
    };
    let saved_case = saved.as_ref().and_then(|s| s.as_ref().ok());

    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        let document = StressJson::new(args, &language.name, &report, saved_case);
        json::write(&mut stdout, &document)?;
    } else {
        write_human(&mut stdout, args, &language.name, &report, saved_case)?;
    }
    stdout.flush()?;
    if let Some(Err(error)) = saved {
        return Err(anyhow!(error).context("the failing input was not saved"));
    }
    Ok(exit::for_verdicts(
        report
            .found
            .iter()
            .map(|found| found.minimal.outcome.verdict),
    ))
}

/// Short enough to read back and type: seeds are printed for reproducing a run.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}

fn compile_error(args: &StressArgs, language: &str, message: &str) -> Result<i32> {
    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        let document = serde_json::json!({
            "problem": args.problem,
            "submission": args.submission.display().to_string(),
            "language": language,
            "found": false,
            "iterations": 0,
            "verdict": Verdict::CompileError.as_str(),
            "compile_error": message,
        });
        json::write(&mut stdout, &document)?;
    } else {
        writeln!(
            stdout,
            "{BAD}CE{BAD:#}: `{}` does not compile as {language}:",
            args.submission.display()
        )?;
        for line in message.lines() {
            writeln!(stdout, "  {line}")?;
        }
    }
    stdout.flush()?;
    Ok(exit::FAILED)
}

fn write_human(
    out: &mut dyn Write,
    args: &StressArgs,
    language: &str,
    report: &StressReport,
    saved: Option<&Added>,
) -> std::io::Result<()> {
    let elapsed = format_duration(report.elapsed);
    let Some(found) = &report.found else {
        let last = report.first_seed + report.iterations.saturating_sub(1);
        return writeln!(
            out,
            "{GOOD}no failure{GOOD:#} in {} inputs (seeds {}..={last}) of `{}` ({language}), in {elapsed}",
            report.iterations,
            report.first_seed,
            args.submission.display()
        );
    };
    let original = &found.original;
    writeln!(
        out,
        "{BAD}{}{BAD:#} on input {} (seed {}) of `{}` ({language}), after {elapsed}",
        original.outcome.verdict,
        found.iteration,
        found.seed,
        args.submission.display()
    )?;
    match found.shrink {
        ShrinkStatus::Shrunk | ShrinkStatus::GaveUp => {
            let gave_up = if found.shrink == ShrinkStatus::GaveUp {
                ", then gave up"
            } else {
                ""
            };
            writeln!(
                out,
                "shrunk in {} {} ({} candidates tried{gave_up}):",
                found.steps.len(),
                if found.steps.len() == 1 {
                    "step"
                } else {
                    "steps"
                },
                found.tried
            )?;
            for failing in std::iter::once(original).chain(&found.steps) {
                writeln!(
                    out,
                    "  {:<3}  {}",
                    failing.outcome.verdict,
                    one_line(&failing.input)
                )?;
            }
        }
        ShrinkStatus::NoShrinkCommand => writeln!(
            out,
            "{DIM}not shrunk: problem `{}` has no shrink command{DIM:#}",
            report.problem
        )?,
        ShrinkStatus::Disabled => writeln!(out, "{DIM}not shrunk (--no-shrink){DIM:#}")?,
        ShrinkStatus::JudgeError => writeln!(
            out,
            "{DIM}not shrunk: the checker failed (a judge error){DIM:#}"
        )?,
    }
    let minimal = &found.minimal;
    let title = if found.steps.is_empty() {
        "failing input"
    } else {
        "minimal failing input"
    };
    writeln!(out, "{BOLD}{title}:{BOLD:#}")?;
    write_excerpt(out, &minimal.input)?;
    writeln!(out, "{BOLD}expected (reference):{BOLD:#}")?;
    write_excerpt(out, &minimal.expected)?;
    match minimal.output() {
        Some(output) => {
            writeln!(out, "{BOLD}received:{BOLD:#}")?;
            write_excerpt(out, output)?;
        }
        None if !minimal.outcome.stderr_tail.trim().is_empty() => {
            writeln!(out, "{BOLD}stderr (end):{BOLD:#}")?;
            write_excerpt(out, last_lines(&minimal.outcome.stderr_tail, 5).as_bytes())?;
        }
        None => {}
    }
    writeln!(
        out,
        "{BOLD}verdict:{BOLD:#} {BAD}{}{BAD:#}  {}",
        minimal.outcome.verdict, minimal.outcome.reason
    )?;
    if let Some(added) = saved {
        writeln!(
            out,
            "saved as case `{}`: {} + .ans",
            added.name,
            shown_path(&added.input)
        )?;
    }
    writeln!(
        out,
        "reproduce: harness stress {} {} --seed {} -n 1",
        report.problem,
        args.submission.display(),
        found.seed
    )
}

/// An input or output, indented, cut to [`SHOWN_LINES`] lines of [`SHOWN_CHARS`] characters.
fn write_excerpt(out: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
    let text = String::from_utf8_lossy(bytes);
    if text.is_empty() {
        return writeln!(out, "  {DIM}(empty){DIM:#}");
    }
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(SHOWN_LINES) {
        writeln!(out, "  {}", cut(line, SHOWN_CHARS))?;
    }
    if lines.len() > SHOWN_LINES {
        writeln!(
            out,
            "  {DIM}… {} more lines{DIM:#}",
            lines.len() - SHOWN_LINES
        )?;
    }
    Ok(())
}

/// An input on one line: `4 1 1`, or `3 … (+5 lines)`.
fn one_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    let first = cut(lines.next().unwrap_or(""), 40);
    let more = lines.count();
    if more == 0 {
        first
    } else {
        format!("{first} (+{more} lines)")
    }
}

fn cut(line: &str, chars: usize) -> String {
    if line.chars().count() <= chars {
        return line.to_string();
    }
    let kept: String = line.chars().take(chars).collect();
    format!("{kept}…")
}

fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// `--format json`: one document, field names stable for scripts.
#[derive(Debug, Serialize)]
struct StressJson {
    problem: String,
    submission: String,
    language: String,
    found: bool,
    iterations: u64,
    first_seed: u64,
    /// The failing input's seed, or the first seed when nothing failed.
    seed: u64,
    verdict: Option<&'static str>,
    reason: Option<String>,
    input: Option<String>,
    expected: Option<String>,
    /// What the submission printed (kept for wrong answers only).
    output: Option<String>,
    stderr: Option<String>,
    original_input: Option<String>,
    original_verdict: Option<&'static str>,
    shrink: Option<&'static str>,
    shrink_steps: Vec<StepJson>,
    candidates_tried: usize,
    elapsed_ms: u64,
    saved: Option<String>,
}

#[derive(Debug, Serialize)]
struct StepJson {
    input: String,
    verdict: &'static str,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl StressJson {
    fn new(
        args: &StressArgs,
        language: &str,
        report: &StressReport,
        saved: Option<&Added>,
    ) -> Self {
        let found = report.found.as_ref();
        let minimal: Option<&Failing> = found.map(|f| &f.minimal);
        StressJson {
            problem: report.problem.clone(),
            submission: args.submission.display().to_string(),
            language: language.to_string(),
            found: found.is_some(),
            iterations: report.iterations,
            first_seed: report.first_seed,
            seed: found.map_or(report.first_seed, |f| f.seed),
            verdict: minimal.map(|m| m.outcome.verdict.as_str()),
            reason: minimal.map(|m| m.outcome.reason.clone()),
            input: minimal.map(|m| text(&m.input)),
            expected: minimal.map(|m| text(&m.expected)),
            output: minimal.and_then(|m| m.output().map(text)),
            stderr: minimal.map(|m| m.outcome.stderr_tail.clone()),
            original_input: found.map(|f| text(&f.original.input)),
            original_verdict: found.map(|f| f.original.outcome.verdict.as_str()),
            shrink: found.map(|f| match f.shrink {
                ShrinkStatus::Shrunk => "shrunk",
                ShrinkStatus::GaveUp => "gave-up",
                ShrinkStatus::NoShrinkCommand => "no-shrink-command",
                ShrinkStatus::Disabled => "disabled",
                ShrinkStatus::JudgeError => "judge-error",
            }),
            shrink_steps: found
                .map(|f| {
                    f.steps
                        .iter()
                        .map(|s| StepJson {
                            input: text(&s.input),
                            verdict: s.outcome.verdict.as_str(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            candidates_tried: found.map_or(0, |f| f.tried),
            elapsed_ms: report.elapsed.as_millis() as u64,
            saved: saved.map(|a| a.name.clone()),
        }
    }
}
