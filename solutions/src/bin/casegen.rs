//! casegen: prints one input of a problem, determined by (family, seed), or writes smaller
//! candidates of a failing input for shrinking.
//!
//! Usage:
//!   casegen <problem> <family> <seed>                 one input on stdout
//!   casegen <problem> shrink <input-file> <out-dir>   candidates as <out-dir>/000.in, …
//!
//! Shrink candidates come smallest first and are strictly smaller than the input by
//! `Instance::measure`; an already minimal input gets none.

use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use solutions::{exit, find_queens, gen, shrink, Instance, Problem};

const USAGE: &str = "usage: casegen <problem> <family> <seed>\n       casegen <problem> shrink <input-file> <out-dir>";

fn run(args: &[String]) -> Result<(), String> {
    let [problem, family, rest @ ..] = args else {
        return Err("expected a problem and a family".to_string());
    };
    if problem == find_queens::ID {
        return hidden_placement(family, rest);
    }
    let problem = Problem::from_id(problem).ok_or_else(|| {
        format!(
            "unknown problem `{problem}` (hint: problems are {})",
            known_ids()
        )
    })?;
    if family == "shrink" {
        let [input, out_dir] = rest else {
            return Err("`shrink` takes an input file and an output directory".to_string());
        };
        return write_candidates(problem, Path::new(input), Path::new(out_dir));
    }
    let [seed] = rest else {
        return Err(format!(
            "`{family}` takes exactly one seed, found {} arguments",
            rest.len()
        ));
    };
    let seed: u64 = seed
        .parse()
        .map_err(|_| format!("seed `{seed}` is not an unsigned 64-bit integer"))?;
    let instance = gen::generate(problem, family, seed).map_err(|e| e.to_string())?;
    std::io::stdout()
        .write_all(instance.render().as_bytes())
        .map_err(|e| format!("cannot write stdout: {e}"))
}

/// The problem ids, the interactive one included.
fn known_ids() -> String {
    format!("{}, `{}`", Problem::known_ids(), find_queens::ID)
}

/// `casegen find-the-queens <family> <seed>`: the interactor's input, a hidden placement.
/// There is no shrink: a failing dialogue is shown by its transcript.
fn hidden_placement(family: &str, rest: &[String]) -> Result<(), String> {
    let [seed] = rest else {
        return Err(format!(
            "`{} {family}` takes exactly one seed, found {} arguments",
            find_queens::ID,
            rest.len()
        ));
    };
    let seed: u64 = seed
        .parse()
        .map_err(|_| format!("seed `{seed}` is not an unsigned 64-bit integer"))?;
    let placement = find_queens::generate(family, seed)?;
    std::io::stdout()
        .write_all(placement.render().as_bytes())
        .map_err(|e| format!("cannot write stdout: {e}"))
}

fn write_candidates(problem: Problem, input: &Path, out_dir: &Path) -> Result<(), String> {
    let text = fs::read(input).map_err(|e| format!("cannot read `{}`: {e}", input.display()))?;
    let instance = Instance::parse(problem, &text)
        .map_err(|e| format!("`{}` is not a `{problem}` input: {e}", input.display()))?;
    fs::create_dir_all(out_dir)
        .map_err(|e| format!("cannot create `{}`: {e}", out_dir.display()))?;
    remove_old_candidates(out_dir)?;
    for (i, candidate) in shrink::candidates(problem, &instance).iter().enumerate() {
        let path = out_dir.join(format!("{i:03}.in"));
        fs::write(&path, candidate.render())
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    Ok(())
}

/// A driver that reuses its folder must not mistake the previous round's leftovers (say
/// `087.in` when this round writes only up to `012.in`) for candidates of this one. Only
/// names of the `NNN.in` form are removed; anything else in the folder is left alone.
fn remove_old_candidates(out_dir: &Path) -> Result<(), String> {
    let entries =
        fs::read_dir(out_dir).map_err(|e| format!("cannot list `{}`: {e}", out_dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let is_candidate = name.to_str().is_some_and(|n| {
            n.strip_suffix(".in")
                .is_some_and(|stem| stem.len() == 3 && stem.bytes().all(|b| b.is_ascii_digit()))
        });
        if is_candidate {
            fs::remove_file(entry.path())
                .map_err(|e| format!("cannot remove `{}`: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("casegen: {message}\n{USAGE}");
            ExitCode::from(exit::USAGE as u8)
        }
    }
}
