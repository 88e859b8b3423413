//! The statement in a form DOMjudge shows: it takes only `problem.{pdf,html,txt}`, at the
//! package's root or in `problem_statement/` (ImportProblemService.php, 8.3.2 lines 307-322,
//! the same in 9.0.0), not the format's Markdown. HTML when pandoc is installed, else the
//! Markdown itself as plain text.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::sandbox::run::{self, Limits, Output, RunRequest, Scope, Stdin, Termination};

/// A shown statement: its file extension (`html` or `txt`) and bytes, and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub extension: &'static str,
    pub bytes: Vec<u8>,
    /// `None` when pandoc made it, else why the text went as it is.
    pub fallback: Option<String>,
}

/// The Markdown `markdown`, with `title`, as DOMjudge can show it.
pub fn shown(markdown: &[u8], title: &str) -> Shown {
    match pandoc(markdown, title) {
        Ok(html) => Shown {
            extension: "html",
            bytes: html,
            fallback: None,
        },
        Err(why) => Shown {
            extension: "txt",
            bytes: markdown.to_vec(),
            fallback: Some(why),
        },
    }
}

/// The statement as the legacy format keeps it, `problem_statement/problem.en.tex` (the only
/// kind legacy problemtools reads, and where it takes the name in each language from):
/// pandoc's LaTeX of the Markdown, or the Markdown verbatim without pandoc.
pub fn latex(markdown: &[u8], title: &str) -> Vec<u8> {
    let escaped: String = title
        .chars()
        .map(|c| match c {
            '\\' => "\\textbackslash{}".to_string(),
            '{' | '}' | '#' | '$' | '%' | '&' | '_' => format!("\\{c}"),
            '^' => "\\^{}".to_string(),
            '~' => "\\~{}".to_string(),
            c => c.to_string(),
        })
        .collect();
    let body = run_pandoc(markdown, &["--from=markdown", "--to=latex"]).unwrap_or_else(|_| {
        let text = String::from_utf8_lossy(markdown).replace("\\end{verbatim}", "\\end {verbatim}");
        format!("\\begin{{verbatim}}\n{text}\n\\end{{verbatim}}\n").into_bytes()
    });
    let mut tex = format!("\\problemname{{{escaped}}}\n\n").into_bytes();
    tex.extend_from_slice(&body);
    tex
}

/// pandoc's standalone HTML of the Markdown, with TeX math as MathML (no script to fetch).
fn pandoc(markdown: &[u8], title: &str) -> Result<Vec<u8>, String> {
    let title = format!("pagetitle={title}");
    run_pandoc(
        markdown,
        &[
            "--from=markdown",
            "--to=html5",
            "--standalone",
            "--mathml",
            "--metadata",
            &title,
        ],
    )
}

/// pandoc with `args` on the Markdown: what it writes, or why it did not.
fn run_pandoc(markdown: &[u8], args: &[&str]) -> Result<Vec<u8>, String> {
    let program = run::find_program(Path::new("pandoc"))
        .map_err(|_| "pandoc is not installed (hint: apt install pandoc)".to_string())?;
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    let limits = Limits {
        cpu_time: Duration::from_secs(20),
        wall_time: Duration::from_secs(40),
        memory_bytes: 1 << 30,
        output_bytes: 16 << 20,
    };
    let request = RunRequest::new(&program, limits)
        .args(&args)
        .stdin(Stdin::Bytes(markdown))
        .stdout(Output::Capture)
        .stderr(Output::Capture)
        .scope(Scope::Group);
    let result = run::run(&request).map_err(|e| format!("pandoc did not run: {e}"))?;
    if result.succeeded() && !result.stdout_truncated {
        return Ok(result.stdout);
    }
    let said = String::from_utf8_lossy(&result.stderr_tail);
    let why = match result.termination {
        Termination::Exited(code) if result.limit_hit.is_none() => format!("exit {code}"),
        other => other.describe(),
    };
    Err(format!(
        "pandoc failed ({why}): {}",
        said.trim().lines().last().unwrap_or("no message")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_when_pandoc_is_here_else_the_text() {
        let markdown = b"# Sum\n\nPrint $a + b$.\n";
        let shown = shown(markdown, "Sum");
        match &shown.fallback {
            None => {
                assert_eq!(shown.extension, "html");
                let html = String::from_utf8_lossy(&shown.bytes);
                assert!(html.contains("<title>Sum</title>"), "{html}");
                assert!(html.contains("<math"), "{html}");
            }
            Some(why) => {
                eprintln!("skipped: the HTML half: {why}");
                assert_eq!(shown.extension, "txt");
                assert_eq!(shown.bytes, markdown);
            }
        }
        let tex = String::from_utf8(latex(markdown, "Sum & 50% of_it")).unwrap();
        assert!(
            tex.starts_with("\\problemname{Sum \\& 50\\% of\\_it}\n\n"),
            "{tex}"
        );
        assert!(tex.contains("Sum"), "{tex}");
    }
}
