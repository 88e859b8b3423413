//! The book's command reference (docs/src/reference/cli/), rendered from the same clap
//! definitions as `harness help CMD`, so that the book's option tables cannot drift from the
//! command line (as `just` generates its book's). `harness/tests/book.rs` compares these pages
//! with the files on disk and says how to regenerate them; nothing rewrites them in CI.

use clap::{Arg, ArgAction, Command, CommandFactory};

use super::Cli;

/// Where the pages live, relative to the repository's root.
pub const PAGES_DIR: &str = "docs/src/reference/cli";

/// How to regenerate the pages, printed by the test that finds them stale.
pub const REGENERATE: &str = "UPDATE_BOOK=1 cargo test -p harness --test book";

/// The command reference: one `(file name, Markdown)` page for `harness` itself and one per
/// command, in the order of `harness help`.
pub fn reference_pages() -> Vec<(String, String)> {
    let mut root = Cli::command();
    // Lays the global options (`--config`, `--color`) into every command, as `--help` shows.
    root.build();
    let commands: Vec<&Command> = root
        .get_subcommands()
        .filter(|cmd| !cmd.is_hide_set() && cmd.get_name() != "help")
        .collect();
    let mut pages = vec![("harness.md".to_owned(), root_page(&root, &commands))];
    for cmd in &commands {
        pages.push((format!("{}.md", cmd.get_name()), command_page(cmd)));
    }
    pages
}

fn header(title: &str) -> String {
    format!(
        "<!-- generated from the clap definitions (harness/src/cli/book.rs); do not edit: `{REGENERATE}` rewrites it -->\n# {title}\n\n"
    )
}

fn root_page(root: &Command, commands: &[&Command]) -> String {
    let mut page = header("`harness`");
    page.push_str(&paragraphs(&about(root)));
    page.push_str(&usage(&mut root.clone()));
    page.push_str("## Commands\n\n| command | what it does |\n| --- | --- |\n");
    for cmd in commands {
        let name = cmd.get_name();
        let text = cmd.get_about().map(ToString::to_string).unwrap_or_default();
        page.push_str(&format!("| [`{name}`]({name}.md) | {} |\n", cell(&text)));
    }
    page.push('\n');
    page.push_str(&arguments(root));
    page
}

fn command_page(cmd: &Command) -> String {
    let mut page = header(&format!("`harness {}`", cmd.get_name()));
    page.push_str(&paragraphs(&about(cmd)));
    page.push_str(&usage(&mut cmd.clone()));
    page.push_str(&arguments(cmd));
    page
}

/// The long description when there is one, else the one-line one.
fn about(cmd: &Command) -> String {
    cmd.get_long_about()
        .or(cmd.get_about())
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn paragraphs(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        String::new()
    } else {
        format!("{}\n\n", escape_html(text))
    }
}

fn usage(cmd: &mut Command) -> String {
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim().strip_prefix("Usage: ").unwrap_or(usage.trim());
    // Continuation lines are indented under "Usage: "; drop that indent.
    let lines: Vec<&str> = usage.lines().map(str::trim).collect();
    format!("```text\n{}\n```\n\n", lines.join("\n"))
}

fn arguments(cmd: &Command) -> String {
    let shown = |arg: &&Arg| {
        !arg.is_hide_set() && !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version)
    };
    let positionals: Vec<&Arg> = cmd.get_positionals().filter(shown).collect();
    let options: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|arg| !arg.is_positional())
        .filter(shown)
        .collect();
    let mut out = String::new();
    let sections = [
        (
            "Arguments",
            "argument",
            positionals,
            positional_name as fn(&Arg) -> String,
        ),
        ("Options", "option", options, option_name),
    ];
    for (title, column, args, name) in sections {
        if args.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "## {title}\n\n| {column} | meaning |\n| --- | --- |\n"
        ));
        for arg in args {
            out.push_str(&format!(
                "| `{}` | {} |\n",
                code_cell(&name(arg)),
                meaning(arg)
            ));
        }
        out.push('\n');
    }
    out
}

fn value_names(arg: &Arg) -> String {
    match arg.get_value_names() {
        Some(names) => names
            .iter()
            .map(|name| format!("<{name}>"))
            .collect::<Vec<_>>()
            .join(" "),
        None => format!("<{}>", arg.get_id().as_str().to_uppercase()),
    }
}

fn positional_name(arg: &Arg) -> String {
    let names = value_names(arg);
    let many = matches!(arg.get_action(), ArgAction::Append)
        || arg.get_num_args().is_some_and(|n| n.max_values() > 1);
    let names = if many { format!("{names}…") } else { names };
    if arg.is_required_set() {
        names
    } else {
        format!("[{names}]")
    }
}

fn option_name(arg: &Arg) -> String {
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("--{long}"));
    }
    for short in arg.get_visible_short_aliases().unwrap_or_default() {
        names.push(format!("-{short}"));
    }
    for long in arg.get_visible_aliases().unwrap_or_default() {
        names.push(format!("--{long}"));
    }
    let mut name = names.join(", ");
    if arg.get_action().takes_values() {
        name.push(' ');
        name.push_str(&value_names(arg));
    }
    name
}

/// The option's help as `--help` prints it (the long form), with its default and values.
fn meaning(arg: &Arg) -> String {
    let mut text = arg
        .get_long_help()
        .or(arg.get_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| match value.get_help() {
            Some(help) => format!("`{}` ({help})", value.get_name()),
            None => format!("`{}`", value.get_name()),
        })
        .collect();
    if !values.is_empty() && arg.get_action().takes_values() {
        text.push_str(&format!("\n\nValues: {}.", values.join(", ")));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|value| format!("`{}`", value.to_string_lossy()))
        .collect();
    if !defaults.is_empty() && arg.get_action().takes_values() {
        text.push_str(&format!("\n\nDefault: {}.", defaults.join(" ")));
    }
    if arg.is_required_set() && !arg.is_positional() {
        text.push_str("\n\nRequired.");
    }
    cell(&text)
}

/// Text for one table cell: paragraphs joined by `<br>`, lines by spaces, `|` escaped.
fn cell(text: &str) -> String {
    let paragraphs: Vec<String> = text
        .trim()
        .split("\n\n")
        .map(|paragraph| {
            paragraph
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    escape_html(&paragraphs.join("<br>")).replace('|', "\\|")
}

/// A code span in a table cell: only `|` needs escaping there.
fn code_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// Escapes `<` and `>` outside code spans, so that `<id>` is text and not an HTML tag; the
/// `<br>` that `cell` puts between paragraphs stays a tag.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
        } else {
            let escaped = part.replace('<', "&lt;").replace('>', "&gt;");
            out.push_str(&escaped.replace("&lt;br&gt;", "<br>"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_per_command_and_one_for_harness() {
        let pages = reference_pages();
        let names: Vec<&str> = pages.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names[0], "harness.md");
        for command in ["run", "judge", "stress", "verify", "doctor", "export"] {
            assert!(
                names.contains(&format!("{command}.md").as_str()),
                "{names:?}"
            );
        }
        assert!(!names.contains(&"help.md"), "{names:?}");
    }

    #[test]
    fn an_option_row_has_its_names_values_help_and_default() {
        let pages = reference_pages();
        let run = &pages.iter().find(|(name, _)| name == "run.md").unwrap().1;
        assert!(
            run.contains("| `-j, --jobs <N>` | Cases to run at once"),
            "{run}"
        );
        assert!(run.contains("Default: `1`."), "{run}");
        assert!(run.contains("| `-v, --verbose, -a, --all` |"), "{run}");
        assert!(
            run.contains("| `--color <COLOR>` |"),
            "global options are on every page"
        );
        assert!(run.contains("Values: `auto`, `always`, `never`."), "{run}");
        assert!(!run.contains("--help"), "{run}");
    }

    #[test]
    fn cells_escape_pipes_and_tags_outside_code() {
        assert_eq!(cell("a\nb\n\nc | d"), "a b<br>c \\| d");
        assert_eq!(cell("`<id>` or <id>"), "`<id>` or &lt;id&gt;");
    }
}
