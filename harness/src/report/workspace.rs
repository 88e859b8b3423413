//! What the commands that add problems print: `harness new`'s lines, and `harness listen`'s
//! line per problem as it arrives, table per whole contest and line per refused request.

use std::io::{self, Write};
use std::path::Path;

use super::style::{BAD, BOLD, GOOD, WARN};
use crate::author::new_problem::LaidOut;
use crate::config::edit::{duration_value, size_value, Added};
use crate::receive::batch::{natural_key, Completed, Progress};
use crate::receive::server;
use crate::receive::{Received, SolutionFile};
use crate::text::plural;

/// `harness new`: what changed in judge.toml, and where the cases go. Paths as shown to the
/// user.
pub fn write_new_problem(
    out: &mut dyn Write,
    id: &str,
    added: Added,
    config: &str,
    cases: &str,
    made_cases: bool,
) -> io::Result<()> {
    match (added.created_file, added.replaced) {
        (true, _) => writeln!(out, "created `{config}` with problem `{id}`")?,
        (false, true) => writeln!(out, "replaced problem `{id}` in `{config}`")?,
        (false, false) => writeln!(out, "added problem `{id}` to `{config}`")?,
    }
    if made_cases {
        writeln!(
            out,
            "made `{cases}/`: put its cases there as NAME.in + NAME.ans"
        )?;
    } else {
        writeln!(out, "its cases: `{cases}/` (already there)")?;
    }
    writeln!(out, "judge a submission: harness judge {id} FILE")
}

/// `harness new`'s layout: what changed in judge.toml, each file written or kept (shown by
/// `show`), and what to run next.
pub fn write_laid_out(
    out: &mut dyn Write,
    id: &str,
    laid: &LaidOut,
    config: &str,
    show: impl Fn(&std::path::Path) -> String,
) -> io::Result<()> {
    match (laid.added.created_file, laid.added.replaced) {
        (true, _) => writeln!(out, "created `{config}` with problem `{id}`")?,
        (false, true) => writeln!(out, "replaced problem `{id}` in `{config}`")?,
        (false, false) => writeln!(out, "added problem `{id}` to `{config}`")?,
    }
    for (path, role, written) in &laid.files {
        let shown = show(path);
        if *written {
            writeln!(out, "  wrote `{shown}`: {role}")?;
        } else {
            writeln!(out, "  kept `{shown}`: it was there")?;
        }
    }
    writeln!(
        out,
        "the stubs are a sum of two numbers: replace them with the problem; meanwhile each works:"
    )?;
    writeln!(
        out,
        "  harness gen {id}; harness validate {id}; harness verify {id}; harness judge {id} FILE"
    )
}

/// `harness listen`'s first lines, once the port is bound.
pub fn write_listening(out: &mut dyn Write, port: u16, config: &str) -> io::Result<()> {
    writeln!(
        out,
        "listening on http://127.0.0.1:{port} for Competitive Companion; problems go to `{config}`"
    )?;
    if server::tool_of(port).is_none() {
        writeln!(
            out,
            "  {port} is not one of the extension's own ports: add it in the extension's options, under \"Custom ports\""
        )?;
    }
    writeln!(
        out,
        "  click the green plus on a problem or contest page; Ctrl-C stops"
    )
}

/// After the last problem: how to judge what came (the first in contest order).
pub fn write_listen_end(out: &mut dyn Write, received: &[String]) -> io::Result<()> {
    let first = received.iter().min_by_key(|id| natural_key(id));
    match (first, received.len()) {
        (None, _) => Ok(()),
        (Some(only), 1) => writeln!(out, "judge it: harness judge {only} FILE"),
        (Some(first), _) => writeln!(out, "judge one: harness judge {first} FILE"),
    }
}

/// After Ctrl-C.
pub fn write_listen_stopped(out: &mut dyn Write, received: usize) -> io::Result<()> {
    writeln!(out, "stopped: {} received", plural(received, "problem"))
}

/// One problem stored; `root` is judge.toml's folder, which paths are shown from.
pub fn write_received(
    out: &mut dyn Write,
    problem: &Received,
    progress: &Progress,
    root: &Path,
) -> io::Result<()> {
    let count = match progress {
        Progress::Single => String::new(),
        Progress::Waiting { received, expected } => format!(" [{received}/{expected}]"),
        Progress::Complete(batch) => format!(" [{0}/{0}]", batch.expected),
    };
    let cases = problem.cases.strip_prefix(root).unwrap_or(&problem.cases);
    writeln!(
        out,
        "{GOOD}received{GOOD:#} `{BOLD}{}{BOLD:#}` {}: {}, {}, {} in `{}/`{count}",
        problem.id(),
        problem.title(),
        plural(problem.samples, "sample"),
        time(problem),
        memory(problem),
        cases.display(),
    )?;
    let mut notes = Vec::new();
    if problem.updated {
        notes.push(
            "sent again: its samples replaced; judge.toml and your files as they were".to_string(),
        );
    }
    if let Some(taken) = &problem.taken_id {
        notes.push(format!(
            "`{taken}` is taken, so this one is `{}`",
            problem.id()
        ));
    }
    if problem.table.interactive {
        notes.push("interactive: add its `interactor` to judge it".to_string());
    }
    if problem.table.input_file.is_some() || problem.table.output_file.is_some() {
        notes.push(format!(
            "file I/O: reads {}, writes {}",
            problem.table.input_file.as_deref().unwrap_or("stdin"),
            problem.table.output_file.as_deref().unwrap_or("stdout")
        ));
    }
    if let Some(checker) = problem.checker {
        notes.push(format!("checker `{}`: {}", checker.name(), checker.why()));
    }
    if problem.table.multi_test {
        notes.push("each input holds several test cases".to_string());
    }
    if problem.samples == 0 {
        notes.push(
            "the page had no samples: add cases with `harness add` or as NAME.in + NAME.ans"
                .to_string(),
        );
    }
    if let Some(file @ (SolutionFile::Created(path) | SolutionFile::Kept(path))) =
        &problem.solution_file
    {
        let path = path.strip_prefix(root).unwrap_or(path).display();
        notes.push(match file {
            SolutionFile::Created(_) => format!("solution `{path}` made from the template"),
            SolutionFile::Kept(_) => {
                format!("`{path}` is there already: kept as it is, not replaced by the template")
            }
        });
    }
    notes.extend(problem.notes.iter().cloned());
    for note in notes {
        writeln!(out, "  {note}")?;
    }
    Ok(())
}

/// The table of a whole contest, in contest order.
pub fn write_batch(out: &mut dyn Write, batch: &Completed) -> io::Result<()> {
    let group = batch
        .problems
        .first()
        .map(|p| p.group.as_str())
        .filter(|g| !g.is_empty())
        .unwrap_or("contest");
    let missing = batch.missing();
    write!(
        out,
        "\n{BOLD}{group}{BOLD:#}: {} of {} problems",
        batch.problems.len(),
        batch.expected
    )?;
    if missing > 0 {
        write!(
            out,
            " {WARN}({missing} did not arrive: send them again from their pages){WARN:#}"
        )?;
    }
    writeln!(out)?;
    let header = ["id", "title", "time", "memory", "samples", "interactive"];
    let rows: Vec<[String; 6]> = batch
        .problems
        .iter()
        .map(|p| {
            [
                p.id().to_string(),
                p.title().to_string(),
                time(p),
                memory(p),
                p.samples.to_string(),
                if p.table.interactive { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    let width = |column: usize| {
        rows.iter()
            .map(|row| row[column].chars().count())
            .chain([header[column].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |out: &mut dyn Write, cells: &[&str]| -> io::Result<()> {
        let mut text = String::from(" ");
        for (cell, width) in cells.iter().zip(&widths) {
            text.push(' ');
            text.push_str(cell);
            text.push_str(&" ".repeat(width - cell.chars().count()));
            text.push(' ');
        }
        writeln!(out, "{}", text.trim_end())
    };
    line(out, &header)?;
    for row in &rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        line(out, &cells)?;
    }
    Ok(())
}

pub fn write_refused(out: &mut dyn Write, status: u16, reason: &str) -> io::Result<()> {
    writeln!(out, "{BAD}refused{BAD:#} ({status}): {reason}")
}

fn time(problem: &Received) -> String {
    problem
        .table
        .time_limit
        .map_or_else(|| "-".to_string(), duration_value)
}

fn memory(problem: &Received) -> String {
    problem
        .table
        .memory_limit
        .map_or_else(|| "-".to_string(), size_value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn problem(id: &str, title: &str, samples: usize, interactive: bool) -> Received {
        Received {
            table: crate::config::edit::NewProblem {
                id: id.to_string(),
                title: Some(title.to_string()),
                time_limit: Some(Duration::from_millis(1500)),
                memory_limit: Some(256 << 20),
                interactive,
                ..Default::default()
            },
            group: "Codeforces - Round 911".to_string(),
            samples,
            cases: Path::new("/w/cases").join(id),
            ..Received::default()
        }
    }

    fn text(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> String {
        let mut buffer = Vec::new();
        write(&mut buffer).unwrap();
        anstream::adapter::strip_str(&String::from_utf8(buffer).unwrap()).to_string()
    }

    #[test]
    fn a_batch_table() {
        let batch = Completed {
            id: "b".to_string(),
            problems: vec![
                problem("cf1900a", "A. Cover in Water", 3, false),
                problem("cf1900b", "B. Laura and Operations", 1, true),
            ],
            expected: 3,
        };
        let shown = text(|out| write_batch(out, &batch));
        insta::assert_snapshot!(shown, @r"

        Codeforces - Round 911: 2 of 3 problems (1 did not arrive: send them again from their pages)
          id       title                    time  memory  samples  interactive
          cf1900a  A. Cover in Water        1.5s  256MiB  3        no
          cf1900b  B. Laura and Operations  1.5s  256MiB  1        yes
        ");
    }

    #[test]
    fn a_problem_line_with_its_notes() {
        let mut received = problem("cf1a-2", "A. Theatre Square", 0, false);
        received.taken_id = Some("cf1a".to_string());
        received.table.input_file = Some("input.txt".to_string());
        let shown = text(|out| write_received(out, &received, &Progress::Single, Path::new("/w")));
        insta::assert_snapshot!(shown, @r"
        received `cf1a-2` A. Theatre Square: 0 samples, 1.5s, 256MiB in `cases/cf1a-2/`
          `cf1a` is taken, so this one is `cf1a-2`
          file I/O: reads input.txt, writes stdout
          the page had no samples: add cases with `harness add` or as NAME.in + NAME.ans
        ");
    }
}
